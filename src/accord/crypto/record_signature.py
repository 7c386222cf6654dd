"""Signatures on Accord's own records: Ed25519 over the tagged canonical record sans signatures."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pydantic import BaseModel, ConfigDict

from accord.crypto.canonical import canonical_bytes
from accord.crypto.domain import DISPUTE_SIG_TAG, domain_separated_message
from accord.crypto.ed25519 import verify_ed25519
from accord.crypto.encoding import b64decode, b64encode
from accord.crypto.kid import ED25519, derive_kid
from accord.crypto.signer import Signer
from accord.errors import SignatureInvalid

SIGNATURE_FIELDS: tuple[str, ...] = ("signature", "signatures")
"""Top-level fields left out of the signed bytes, so signatures can sit inside the record."""


class RecordSignature(BaseModel):
    """One party's signature on a record: who (kid), how (alg, domain_sep) and the bytes."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    alg: str
    kid: str
    sig_b64: str
    domain_sep: str


def signing_payload(
    record: Mapping[str, object],
    *,
    tag: str = DISPUTE_SIG_TAG,
    exclude: Iterable[str] = SIGNATURE_FIELDS,
) -> bytes:
    """The signed bytes: ``UTF8(tag) || 0x00 || canonical(record without the excluded keys)``."""
    excluded = exclude if isinstance(exclude, tuple | frozenset | set) else tuple(exclude)
    unsigned = {key: value for key, value in record.items() if key not in excluded}
    return domain_separated_message(tag, canonical_bytes(unsigned))


def sign_record(
    record: Mapping[str, object],
    signer: Signer,
    *,
    tag: str = DISPUTE_SIG_TAG,
    exclude: Iterable[str] = SIGNATURE_FIELDS,
) -> RecordSignature:
    """Sign ``record`` (its signature fields excluded) under domain ``tag``."""
    signature = signer.sign(signing_payload(record, tag=tag, exclude=exclude))
    return RecordSignature(
        alg=signer.alg, kid=signer.kid, sig_b64=b64encode(signature), domain_sep=tag
    )


def verify_record(
    record: Mapping[str, object],
    signature: RecordSignature,
    public_key: bytes,
    *,
    tag: str = DISPUTE_SIG_TAG,
    exclude: Iterable[str] = SIGNATURE_FIELDS,
) -> None:
    """Return if ``signature`` is ``public_key``'s signature of ``record``; else raise.

    Checks, in order: the algorithm, the domain tag, the kid against the key, then the bytes.
    """
    if signature.alg != ED25519:
        raise _invalid(signature, "alg", f"record signatures use {ED25519}")
    if signature.domain_sep != tag:
        raise _invalid(signature, "domain_sep", f"record signatures here are made under {tag!r}")
    if signature.kid != derive_kid(ED25519, public_key):
        raise _invalid(signature, "kid", "the kid must be derived from the verifying public key")
    try:
        raw = b64decode(signature.sig_b64)
    except ValueError:
        raise _invalid(signature, "sig_b64", "the signature is standard padded base64") from None
    verify_ed25519(public_key, signing_payload(record, tag=tag, exclude=exclude), raw)


def _invalid(signature: RecordSignature, field: str, rule: str) -> SignatureInvalid:
    return SignatureInvalid(
        f"record signature rejected: {rule}", field=field, rule=rule, kid=signature.kid
    )
