"""The jurisprudence bundle (DCP-07 §7, R23, R41): a resolved dispute as a signed precedent.

A caller describes the precedent in a :class:`BundleDraft`; :func:`build_bundle` (the one
builder) adds the id, the times, the registry chain link and the panel lead's signature
(``DCP-DISPUTE-SIG-v2`` over the canonical bundle without its signature). Bundles built now
carry §7's ``record_type`` and ``dcp_version``; a bundle signed before they existed carries
neither and still verifies (an absent field is left out of the signed bytes, never added as
``null``). A signed bundle is never changed: supersession (R26) is a newer bundle listing
``supersedes``; ``superseded_by`` is derived when reading and is not a field of the record.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from accord.clock import isoformat
from accord.conflicts.dispute_type import DisputeType, Tier
from accord.crypto import canonical_bytes, dual_hash
from accord.crypto.domain import DISPUTE_SIG_TAG
from accord.crypto.ed25519 import Ed25519Signer
from accord.crypto.hashing import GENESIS
from accord.crypto.record_signature import RecordSignature, sign_record, verify_record
from accord.ids import new_id
from accord.printable import PrintableId, prose_problem

_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
JURISPRUDENCE_ID_PATTERN = rf"^jur:{_UUID}$"
MAX_PROSE_CHARS = 20_000
"""Longest facts, holding, rationale or dissent text."""
MAX_LABEL_CHARS = 256
"""Longest condition, tag, category or pattern name."""
MAX_CONDITIONS = 64
"""Most applicable (and, separately, inapplicable) conditions one bundle lists."""
MAX_TAGS = 32
MAX_SUPERSEDES = 16
MAX_OBJECTIONS = 64

JurisprudenceId = Annotated[str, Field(pattern=JURISPRUDENCE_ID_PATTERN)]
DisputeId = Annotated[str, Field(pattern=rf"^disp:{_UUID}$")]
ResolutionId = Annotated[str, Field(pattern=rf"^res:{_UUID}$")]
ObjectionId = Annotated[str, Field(pattern=rf"^obj:{_UUID}$")]
Sha256 = Annotated[str, Field(pattern=r"^sha256:[0-9a-f]{64}$")]
PrevHash = Annotated[str, Field(pattern=rf"^(sha256:[0-9a-f]{{64}}|{GENESIS})$")]
PrevHashSecondary = Annotated[str, Field(pattern=rf"^(sha3-256:[0-9a-f]{{64}}|{GENESIS})$")]
Timestamp = Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$")]
"""A UTC instant as signed records carry it (``clock.isoformat``); sorts like time."""
Label = Annotated[PrintableId, Field(max_length=MAX_LABEL_CHARS)]
"""A tag, category or pattern: 1–256 printable characters."""


def condition_key(text: str) -> str:
    """How conditions are compared (R24): case folded, runs of whitespace one space, no
    leading or trailing space. ``"Exclusive  access"`` matches ``"exclusive access"``."""
    return " ".join(text.split()).casefold()


def _check_condition(text: str) -> str:
    key = condition_key(text)
    if not key:
        raise ValueError("a condition says something: not only whitespace")
    if len(key) > MAX_LABEL_CHARS:
        raise ValueError(f"a condition is at most {MAX_LABEL_CHARS} characters once normalised")
    return text


Condition = Annotated[Label, AfterValidator(_check_condition)]
"""A condition as a sentence: 1–256 printable characters (spaces allowed, no newline), not
only whitespace; compared by :func:`condition_key`."""


def _check_prose(value: str) -> str:
    problem = prose_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return value


Prose = Annotated[
    str, Field(min_length=1, max_length=MAX_PROSE_CHARS), AfterValidator(_check_prose)
]
"""Free text (facts, holding...): 1–20,000 characters, printable apart from newlines and tabs."""


def _unique(values: tuple[str, ...]) -> tuple[str, ...]:
    if len(set(values)) == len(values):  # the common case, at C speed
        return values
    seen: set[str] = set()
    for value in values:
        if value in seen:
            raise ValueError(f"{value!r} is listed twice: each entry at most once")
        seen.add(value)
    raise AssertionError("unreachable: a repeated value was found above")  # pragma: no cover


def _unique_conditions(values: tuple[str, ...]) -> tuple[str, ...]:
    _unique(tuple(condition_key(value) for value in values))
    return values


Conditions = Annotated[
    tuple[Condition, ...], Field(max_length=MAX_CONDITIONS), AfterValidator(_unique_conditions)
]
Tags = Annotated[tuple[Label, ...], Field(max_length=MAX_TAGS), AfterValidator(_unique)]
DisputeTypes = Annotated[
    tuple[DisputeType, ...], Field(min_length=1, max_length=4), AfterValidator(_unique)
]


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Classification(_Record):
    """What kind of dispute the precedent decided."""

    dispute_type: DisputeType
    resource_category: Label
    resolution_pattern: Label
    tags: Tags = ()


class Summary(_Record):
    """The decision in words; ``dissent`` is kept permanently (R35), ``None`` when unanimous."""

    facts: Prose
    holding: Prose
    rationale: Prose
    dissent: Prose | None = None


class Applicability(_Record):
    """Where the precedent applies: to which dispute types, when, and when not."""

    applicable_dispute_types: DisputeTypes
    applicable_conditions: Conditions = ()
    inapplicable_conditions: Conditions = ()

    @model_validator(mode="after")
    def _disjoint(self) -> Applicability:
        keys = {condition_key(c) for c in self.applicable_conditions}
        both = sorted(c for c in self.inapplicable_conditions if condition_key(c) in keys)
        if both:
            raise ValueError(
                f"condition {both[0]!r} is both applicable and inapplicable: a condition is "
                "one or the other"
            )
        return self


ObjectionType = Literal["substantive", "procedural", "precedent", "rights"]


class ObjectionReference(_Record):
    """An objection to the resolution, included in the bundle (R28) by id and record hash."""

    objection_id: ObjectionId
    objection_type: ObjectionType
    status: Label
    record_hash: Sha256


class BundleDraft(_Record):
    """What a caller says about a precedent; :func:`build_bundle` turns it into the record."""

    dispute_id: DisputeId
    resolution_id: ResolutionId
    classification: Classification
    summary: Summary
    applicability: Applicability
    supersedes: Annotated[
        tuple[JurisprudenceId, ...], Field(max_length=MAX_SUPERSEDES), AfterValidator(_unique)
    ] = ()
    authority_level: Tier
    """The tier that decided: human_appeal outranks contextual_arbitration, which outranks
    direct_negotiation (R24)."""
    dispute_record_hash: Sha256
    resolution_record_hash: Sha256
    objections: Annotated[tuple[ObjectionReference, ...], Field(max_length=MAX_OBJECTIONS)] = ()

    @model_validator(mode="before")
    @classmethod
    def _no_superseded_by(cls, data: Any) -> Any:
        if isinstance(data, dict) and "superseded_by" in data:
            raise ValueError(
                "superseded_by is derived when reading (R26): a signed bundle never carries "
                "it; a newer bundle lists the old one in supersedes instead"
            )
        return data


class ChainLink(_Record):
    """The hashes of the registry's previous bundle (``GENESIS`` for the first)."""

    prev_hash: PrevHash
    prev_hash_secondary: PrevHashSecondary


GENESIS_LINK = ChainLink(prev_hash=GENESIS, prev_hash_secondary=GENESIS)

RECORD_TYPE = "jurisprudence_bundle"
DCP_VERSION = "2.0"
_LATER_FIELDS = ("record_type", "dcp_version")
"""Fields added after the first bundles were signed: left out of a bundle's bytes when absent."""


class JurisprudenceBundle(BundleDraft):
    """A signed jurisprudence bundle in the DCP-07 §7 shape (R23)."""

    record_type: Literal["jurisprudence_bundle"] | None = None
    """``jurisprudence_bundle`` on every bundle built now; absent on bundles signed before."""
    dcp_version: Literal["2.0"] | None = None
    """``2.0`` on every bundle built now; absent on bundles signed before."""
    jurisprudence_id: JurisprudenceId
    created_at: Timestamp
    timestamp: Timestamp
    prev_hash: PrevHash
    prev_hash_secondary: PrevHashSecondary
    signature: RecordSignature
    """The panel lead's signature over the bundle without this field."""

    @model_validator(mode="after")
    def _consistent(self) -> JurisprudenceBundle:
        if self.jurisprudence_id in self.supersedes:
            raise ValueError("a bundle cannot supersede itself (supersedes lists its own id)")
        if (self.prev_hash == GENESIS) != (self.prev_hash_secondary == GENESIS):
            raise ValueError("prev_hash and prev_hash_secondary are both GENESIS or neither")
        if self.signature.domain_sep != DISPUTE_SIG_TAG:
            raise ValueError(f"signature.domain_sep must be {DISPUTE_SIG_TAG!r} (R36)")
        return self

    def _absent(self) -> set[str]:
        return {name for name in _LATER_FIELDS if getattr(self, name) is None}

    def signed_body(self) -> dict[str, Any]:
        """The record without its signature: what the signature covers."""
        return self.model_dump(mode="json", exclude={"signature", *self._absent()})

    def document(self) -> dict[str, Any]:
        """The whole signed record as plain JSON (a field it was signed without left out)."""
        return self.model_dump(mode="json", exclude=self._absent())

    def canonical(self) -> bytes:
        """dcp-jcs-v1 bytes of the whole signed record (what the registry stores and chains)."""
        return canonical_bytes(self.document())

    def next_link(self) -> ChainLink:
        """The chain link of the bundle registered after this one."""
        primary, secondary = dual_hash(self.canonical())
        return ChainLink(prev_hash=primary, prev_hash_secondary=secondary)


def build_bundle(
    draft: BundleDraft, *, signer: Ed25519Signer, at: datetime, link: ChainLink
) -> JurisprudenceBundle:
    """The one builder: ``draft`` signed by ``signer`` (the panel lead) at instant ``at``,
    chained after the registry bundle ``link`` names."""
    moment = isoformat(at)
    body: dict[str, Any] = {
        "dcp_version": DCP_VERSION,
        "record_type": RECORD_TYPE,
        "jurisprudence_id": new_id("jur", at),
        **draft.model_dump(mode="json"),
        "created_at": moment,
        "timestamp": moment,
        "prev_hash": link.prev_hash,
        "prev_hash_secondary": link.prev_hash_secondary,
    }
    signature = sign_record(body, signer)
    return JurisprudenceBundle.model_validate({**body, "signature": signature.model_dump()})


def verify_bundle(bundle: JurisprudenceBundle, public_key: bytes) -> None:
    """Return when ``public_key`` signed ``bundle`` as it is; else ``SignatureInvalid``."""
    verify_record(bundle.signed_body(), bundle.signature, public_key)
