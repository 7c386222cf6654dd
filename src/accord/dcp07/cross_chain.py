"""Cross-chain consistency of one dispute across the parties' ledgers (R31).

Each party exports its chain as ``accord ledger tail --json`` prints it: a JSON array of
ledger entries (``seq``, ``event_type``, ``timestamp``, ``record``, hashes, ``signature``).
:func:`cross_check` then proves, numbered as DCP-07 §9 states the audit:

1. every chain links: each entry's ``prev_hash`` / ``prev_hash_secondary`` are the hashes of
   the canonical bytes of the entry before it in the export (consecutive seqs);
2. every chain references the same ``dispute_id``;
3. every piece of evidence two chains both record has the same ``submitted_at`` and
   ``content_hash``;
4. the resolution is present in every chain, the same record (equal canonical hashes).

It returns a :class:`CrossChainReport`, or raises one :class:`CrossChainMismatch` naming the
check, the party and the field that failed — never a bool. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import pairwise
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field
from pydantic import ValidationError as PydanticValidationError

from accord.crypto import canonical_bytes, dual_hash, sha256_prefixed
from accord.errors import ValidationError
from accord.ledger.entry import entry_bytes
from accord.limits import Limits
from accord.strict_json import parse_json

MAX_PARTIES: Final = 32
"""Most chains one check compares."""
MAX_ENTRIES: Final = 200_000
"""Most entries one exported chain may hold."""
MAX_WALK_DEPTH: Final = 8
"""How deep inside an entry's record the check looks for evidence and resolutions."""
REQUIREMENT: Final = "R31"

_RESOLUTION_TYPE = "arbitration_resolution"


class CrossChainMismatch(ValidationError):
    """The parties' chains disagree about the dispute (R31); ``context`` names the check,
    the party, the field and what each side holds."""

    code = "dcp.cross_chain_mismatch"


class ExportedEntry(BaseModel):
    """One ledger entry as a party exported it (the fields the check reads, and all others
    kept for the link check)."""

    model_config = ConfigDict(frozen=True, extra="allow")

    seq: int = Field(ge=1)
    event_type: str = Field(min_length=1, max_length=64)
    timestamp: str = Field(min_length=1, max_length=40)
    prev_hash: str = Field(min_length=1, max_length=80)
    prev_hash_secondary: str = Field(min_length=1, max_length=90)
    record: dict[str, Any]
    signature: dict[str, str]


class EvidenceSeen(BaseModel):
    """One piece of evidence as a chain recorded it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    evidence_id: str
    submitted_at: str | None
    content_hash: str | None


class CrossChainReport(BaseModel):
    """What agreed: the dispute, each party's entries about it, the evidence compared in more
    than one chain, and the resolution every chain holds."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    dispute_id: str
    parties: tuple[str, ...]
    entries: dict[str, int]
    """Party → how many of its entries are about the dispute."""
    evidence_compared: tuple[str, ...]
    """Evidence ids at least two chains record (their timestamps and hashes agree)."""
    evidence_in_one_chain: tuple[str, ...]
    """Evidence ids only one chain records (nothing to compare them with)."""
    resolution_id: str
    resolution_hash: str


def parse_exported_chain(text: str, limits: Limits, *, where: str) -> list[ExportedEntry]:
    """An exported chain (a JSON array of entries) from ``text``; refused naming ``where``,
    the entry index and the field."""
    value = parse_json(text, limits, where=where)
    if not isinstance(value, list):
        raise ValidationError(
            f"{where}: an exported chain is a JSON array of ledger entries "
            "(as `accord ledger tail --json` prints)",
            code="dcp.chain_export_invalid",
            field=where,
            rule="a JSON array of ledger entries",
            requirement=REQUIREMENT,
        )
    return entries_of(value, where=where)


def entries_of(values: Sequence[object], *, where: str) -> list[ExportedEntry]:
    """``values`` as exported entries, each checked (at most :data:`MAX_ENTRIES`)."""
    if len(values) > MAX_ENTRIES:
        raise ValidationError(
            f"{where}: {len(values):,} entries, above {MAX_ENTRIES:,}",
            code="dcp.chain_export_invalid",
            field=where,
            rule=f"at most {MAX_ENTRIES:,} entries per chain",
            requirement=REQUIREMENT,
        )
    entries = []
    for index, value in enumerate(values):
        try:
            entries.append(ExportedEntry.model_validate(value))
        except PydanticValidationError as exc:
            first = exc.errors(include_url=False)[0]
            path = ".".join(str(p) for p in first["loc"])
            field = f"{where}[{index}]" + (f".{path}" if path else "")
            raise ValidationError(
                f"{field}: {first['msg']}",
                code="dcp.chain_export_invalid",
                field=field,
                rule=str(first["msg"]),
                requirement=REQUIREMENT,
            ) from None
    return entries


def cross_check(
    chains: Mapping[str, Sequence[ExportedEntry]], dispute_id: str | None = None
) -> CrossChainReport:
    """The report when every party's chain agrees about ``dispute_id`` (or the one dispute
    all chains reference, when not given); else :class:`CrossChainMismatch`."""
    parties = tuple(chains)
    if not 2 <= len(parties) <= MAX_PARTIES:
        raise ValidationError(
            f"cross-chain consistency compares 2 to {MAX_PARTIES} chains, not {len(parties)}",
            code="dcp.cross_chain_parties",
            field="chains",
            rule=f"2 to {MAX_PARTIES} chains",
            requirement=REQUIREMENT,
        )
    for party in parties:  # check 1
        _check_links(party, chains[party])
    dispute = _common_dispute(chains) if dispute_id is None else dispute_id
    about = {party: _about(chains[party], dispute) for party in parties}
    for party in parties:  # check 2
        if not about[party]:
            raise _mismatch(
                "dispute_id",
                party,
                "dispute_id",
                f"{party}'s chain does not reference {dispute}",
                dispute_id=dispute,
            )
    compared, alone = _check_evidence(about)  # check 3
    resolution_id, resolution_hash = _check_resolution(about, dispute)  # check 4
    return CrossChainReport(
        dispute_id=dispute,
        parties=parties,
        entries={party: len(about[party]) for party in parties},
        evidence_compared=compared,
        evidence_in_one_chain=alone,
        resolution_id=resolution_id,
        resolution_hash=resolution_hash,
    )


def _check_links(party: str, entries: Sequence[ExportedEntry]) -> None:
    for before, after in pairwise(entries):
        if after.seq != before.seq + 1:
            raise _mismatch(
                "chain_link",
                party,
                f"seq {after.seq}",
                f"{party}'s export skips from seq {before.seq} to {after.seq}: export a "
                "contiguous range",
            )
        primary, secondary = dual_hash(_canonical_entry(before))
        if (after.prev_hash, after.prev_hash_secondary) != (primary, secondary):
            raise _mismatch(
                "chain_link",
                party,
                f"seq {after.seq}.prev_hash",
                f"{party}'s entry {after.seq} does not link to entry {before.seq}",
                expected=primary,
                found=after.prev_hash,
            )


def _canonical_entry(entry: ExportedEntry) -> bytes:
    body = entry.model_dump(mode="json", exclude={"signature", "entry_hash"})
    return entry_bytes(body, entry.signature)


def _dispute_ids(entries: Sequence[ExportedEntry]) -> set[str]:
    found = set()
    for entry in entries:
        value = entry.record.get("dispute_id")
        if isinstance(value, str):
            found.add(value)
    return found


def _common_dispute(chains: Mapping[str, Sequence[ExportedEntry]]) -> str:
    per_party = {party: _dispute_ids(entries) for party, entries in chains.items()}
    common = set.intersection(*per_party.values())
    if len(common) == 1:
        return next(iter(common))
    if not common:
        raise _mismatch(
            "dispute_id",
            ",".join(chains),
            "dispute_id",
            "the chains reference no dispute in common",
            referenced={party: sorted(ids)[:20] for party, ids in per_party.items()},
        )
    raise ValidationError(
        f"the chains share {len(common)} disputes: name the one to check",
        code="dcp.cross_chain_ambiguous",
        field="dispute_id",
        rule="one dispute per check",
        requirement=REQUIREMENT,
        disputes=sorted(common)[:20],
    )


def _about(entries: Sequence[ExportedEntry], dispute_id: str) -> list[ExportedEntry]:
    return [e for e in entries if e.record.get("dispute_id") == dispute_id]


def _objects(value: object, depth: int = 0) -> Iterator[Mapping[str, Any]]:
    """Every JSON object in ``value`` down to :data:`MAX_WALK_DEPTH` levels: a record may
    carry the dispute record, its evidence or the resolution nested in it (``details``)."""
    if depth > MAX_WALK_DEPTH:
        return
    if isinstance(value, Mapping):
        yield value
        children: Iterable[object] = value.values()
    elif isinstance(value, list):
        children = value
    else:
        return
    for child in children:
        yield from _objects(child, depth + 1)


def _evidence_of(entries: Sequence[ExportedEntry]) -> dict[str, EvidenceSeen]:
    """Every evidence item a chain's entries about the dispute carry, wherever nested."""
    seen: dict[str, EvidenceSeen] = {}
    for entry in entries:
        for item in _objects(entry.record):
            if not isinstance(item.get("evidence_id"), str):
                continue
            evidence = EvidenceSeen(
                evidence_id=item["evidence_id"],
                submitted_at=_text(item.get("submitted_at")),
                content_hash=_text(item.get("content_hash")),
            )
            seen.setdefault(evidence.evidence_id, evidence)
    return seen


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _check_evidence(
    about: Mapping[str, Sequence[ExportedEntry]],
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    by_party = {party: _evidence_of(entries) for party, entries in about.items()}
    holders: dict[str, list[str]] = {}
    for party, evidence in by_party.items():
        for evidence_id in evidence:
            holders.setdefault(evidence_id, []).append(party)
    for evidence_id, parties in sorted(holders.items()):
        first = by_party[parties[0]][evidence_id]
        for party in parties[1:]:
            other = by_party[party][evidence_id]
            for field in ("submitted_at", "content_hash"):
                if getattr(first, field) != getattr(other, field):
                    raise _mismatch(
                        "evidence",
                        party,
                        f"evidence[{evidence_id}].{field}",
                        f"{parties[0]} and {party} record evidence {evidence_id} with "
                        f"different {field}",
                        evidence_id=evidence_id,
                        expected=getattr(first, field),
                        found=getattr(other, field),
                        against=parties[0],
                    )
    compared = tuple(sorted(e for e, parties in holders.items() if len(parties) > 1))
    alone = tuple(sorted(e for e, parties in holders.items() if len(parties) == 1))
    return compared, alone


def _resolutions(entries: Sequence[ExportedEntry], dispute_id: str) -> dict[str, str]:
    """Resolution id → the hash of its canonical record, for every resolution record."""
    found: dict[str, str] = {}
    for entry in entries:
        for record in _objects(entry.record):
            if (
                record.get("record_type") == _RESOLUTION_TYPE
                and record.get("dispute_id") == dispute_id
                and isinstance(record.get("resolution_id"), str)
            ):
                digest = sha256_prefixed(canonical_bytes(dict(record)))
                found[record["resolution_id"]] = digest
    return found


def _check_resolution(
    about: Mapping[str, Sequence[ExportedEntry]], dispute_id: str
) -> tuple[str, str]:
    by_party = {party: _resolutions(entries, dispute_id) for party, entries in about.items()}
    parties = list(by_party)
    for party in parties:
        if not by_party[party]:
            raise _mismatch(
                "resolution",
                party,
                "resolution_id",
                f"{party}'s chain holds no resolution of {dispute_id}",
                dispute_id=dispute_id,
            )
    first_party = parties[0]
    reference = by_party[first_party]
    for party in parties[1:]:
        held = by_party[party]
        if set(held) != set(reference):
            raise _mismatch(
                "resolution",
                party,
                "resolution_id",
                f"{first_party} and {party} hold different resolutions of {dispute_id}",
                expected=sorted(reference),
                found=sorted(held),
                against=first_party,
            )
        for resolution_id, digest in reference.items():
            if held[resolution_id] != digest:
                raise _mismatch(
                    "resolution",
                    party,
                    f"resolution[{resolution_id}]",
                    f"{party}'s copy of {resolution_id} differs from {first_party}'s",
                    expected=digest,
                    found=held[resolution_id],
                    against=first_party,
                )
    latest = sorted(reference)[-1]  # resolution ids are time-ordered (UUIDv7)
    return latest, reference[latest]


def _mismatch(
    check: str, party: str, field: str, message: str, **context: Any
) -> CrossChainMismatch:
    return CrossChainMismatch(
        f"{message} ({REQUIREMENT})",
        check=check,
        party=party,
        field=field,
        rule="every party's chain references the same dispute, evidence timestamps agree "
        "and the resolution is present in every chain",
        requirement=REQUIREMENT,
        **context,
    )
