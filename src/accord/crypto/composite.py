"""Composite (hybrid) signatures as the DCP v2 SDKs make them: Ed25519 plus ML-DSA-65 bound to it.

The post-quantum signature covers ``DSM || classical_signature`` (binding ``pq_over_classical``),
so stripping it, or swapping the classical half, is detected. The models dump to the SDK's
JSON shape exactly.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from accord.crypto.domain import domain_separated_message
from accord.crypto.ed25519 import Ed25519Signer, verify_ed25519
from accord.crypto.encoding import b64decode, b64encode
from accord.crypto.kid import ED25519, ML_DSA_65, derive_kid
from accord.crypto.ml_dsa import MlDsa65Signer, verify_ml_dsa_65
from accord.errors import SignatureInvalid

Binding = Literal["pq_over_classical", "classical_only"]


class SignatureEntry(BaseModel):
    """One algorithm's part of a composite signature."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    alg: str
    kid: str
    sig_b64: str


class CompositeSignature(BaseModel):
    """A classical signature and, unless ``classical_only``, a PQ signature bound over it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    classical: SignatureEntry
    pq: SignatureEntry | None
    binding: Binding


def composite_sign(
    context: str,
    canonical: bytes,
    classical: Ed25519Signer,
    pq: MlDsa65Signer | None,
) -> CompositeSignature:
    """Sign ``canonical`` under ``context``; with ``pq`` the result is ``pq_over_classical``."""
    dsm = domain_separated_message(context, canonical)
    classical_sig = classical.sign(dsm)
    classical_entry = SignatureEntry(
        alg=classical.alg, kid=classical.kid, sig_b64=b64encode(classical_sig)
    )
    if pq is None:
        return CompositeSignature(classical=classical_entry, pq=None, binding="classical_only")
    pq_entry = SignatureEntry(
        alg=pq.alg, kid=pq.kid, sig_b64=b64encode(pq.sign(dsm + classical_sig))
    )
    return CompositeSignature(classical=classical_entry, pq=pq_entry, binding="pq_over_classical")


def composite_verify(
    context: str,
    canonical: bytes,
    sig: CompositeSignature,
    classical_public_key: bytes,
    pq_public_key: bytes | None,
    *,
    require_hybrid: bool = True,
) -> None:
    """Return if ``sig`` validly signs ``canonical`` under ``context``; else raise.

    With ``require_hybrid`` (the default) a ``classical_only`` signature is refused as a
    downgrade. A ``pq_over_classical`` signature needs both halves and both public keys.
    """
    dsm = domain_separated_message(context, canonical)
    if sig.binding == "classical_only":
        if require_hybrid:
            raise _rejected(
                "binding", "hybrid signatures are required; classical_only is a downgrade"
            )
        if sig.pq is not None:
            raise _rejected("pq", "a classical_only signature carries no pq part")
    elif sig.pq is None:
        raise _rejected("pq", "pq_over_classical needs its pq signature (stripped?)")
    elif pq_public_key is None:
        raise _rejected("pq_public_key", "pq_over_classical needs the signer's ML-DSA-65 key")
    classical_sig = _entry_bytes(sig.classical, "classical", ED25519, classical_public_key)
    verify_ed25519(classical_public_key, dsm, classical_sig)
    if sig.pq is not None and pq_public_key is not None:
        pq_sig = _entry_bytes(sig.pq, "pq", ML_DSA_65, pq_public_key)
        verify_ml_dsa_65(pq_public_key, dsm + classical_sig, pq_sig)


def _entry_bytes(entry: SignatureEntry, field: str, alg: str, public_key: bytes) -> bytes:
    """The raw signature of ``entry`` once its alg and kid match the verifying key."""
    if entry.alg != alg:
        raise _rejected(f"{field}.alg", f"the {field} signature must be {alg}")
    if entry.kid != derive_kid(alg, public_key):
        raise _rejected(f"{field}.kid", "the kid must be derived from the verifying public key")
    try:
        return b64decode(entry.sig_b64)
    except ValueError:
        raise _rejected(f"{field}.sig_b64", "signatures are standard padded base64") from None


def _rejected(field: str, rule: str) -> SignatureInvalid:
    return SignatureInvalid(f"composite signature rejected: {rule}", field=field, rule=rule)
