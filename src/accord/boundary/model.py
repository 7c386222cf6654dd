"""The disagreement boundary: what a successor session needs to settle a case, and no more.

A boundary isolates the fork in the logic (the :class:`Crux`), each agent's conclusion with a
receipt over its evidence (:class:`PositionEntry`), the executable probe that settles the fork
(:class:`TieBreaker`) and the sub-conclusions the agents agreed on (``consensus``). Its
``digest`` binds those four parts exactly as :func:`digest_of` computes it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, field_validator, model_validator

from accord.boundary._json import encode
from accord.clock import isoformat
from accord.conflicts import Position
from accord.crypto import canonical_bytes, content_hash, sha256_hex
from accord.errors import CanonicalizationError, ValidationError
from accord.values import from_signable, revised

AMBIGUITY_UNRESOLVED: Literal["AMBIGUITY_UNRESOLVED"] = "AMBIGUITY_UNRESOLVED"

CruxKind = Literal["field", "assumption", "data_point", "text"]
BoundaryStatus = Literal["pending", "resolved", "human", "ambiguous", "consensus", "disjoint"]
"""``pending``: a successor can settle it with one probe. ``resolved``: the probe settled it.
``human``: no probe a single successor can run (goes to the approval queue). ``ambiguous``:
no identifiable crux (``AMBIGUITY_UNRESOLVED``). ``consensus`` / ``disjoint``: no
disagreement after all (the agreed answer, or disjoint results recorded side by side)."""

OPEN_STATUSES: tuple[BoundaryStatus, ...] = ("pending", "human", "ambiguous")
_PROBE_NAME = re.compile(r"^[a-z][a-z0-9_.\-]{0,63}\Z")


def _error(message: str, code: str, field: str, rule: str, **context: Any) -> ValidationError:
    return ValidationError(message, code=code, field=field, rule=rule, **context)


def check_probe_name(name: object) -> str:
    """``name`` when it is a valid probe name (``db.lookup``, ``http_check``), else an error."""
    if not isinstance(name, str) or not _PROBE_NAME.match(name):
        raise _error(
            f"invalid probe name {name!r}",
            "boundary.invalid_probe_name",
            "probe",
            "probe names are 1-64 chars of a-z, 0-9, '_', '.', '-', starting with a letter",
        )
    return name


class Crux(BaseModel):
    """The variable, assumption or data point the agents split on."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: CruxKind
    path: str | None = None
    statement: str

    @field_validator("statement")
    @classmethod
    def _non_empty(cls, statement: str) -> str:
        if not statement.strip():
            raise _error(
                "the divergence crux must be stated",
                "boundary.empty_crux",
                "crux.statement",
                "a crux has a non-empty statement",
            )
        return statement

    def record(self) -> dict[str, JsonValue]:
        return {"kind": self.kind, "path": self.path, "statement": self.statement}


class PositionEntry(BaseModel):
    """One agent's conclusion (floats as ``{"$decimal": repr}``) and its evidence receipt."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent_id: str
    conclusion: JsonValue
    evidence_receipt: str

    @classmethod
    def of(cls, position: Position) -> PositionEntry:
        """The entry for ``position``; see :func:`evidence_receipt`."""
        conclusion = encode(position.output, "output")
        return cls(
            agent_id=position.agent,
            conclusion=conclusion,
            evidence_receipt=evidence_receipt(position),
        )

    @property
    def answer(self) -> JsonValue:
        """The conclusion as the agent gave it (floats restored)."""
        return from_signable(self.conclusion)

    def record(self) -> dict[str, JsonValue]:
        return {
            "agent_id": self.agent_id,
            "conclusion": self.conclusion,
            "evidence_receipt": self.evidence_receipt,
        }


def evidence_receipt(position: Position) -> str:
    """``sha256:<hex>`` over canonical ``{"conclusion": …, "evidence": [content hashes]}``.

    The evidence hashes keep the agent's order; the conclusion is encoded as in
    :class:`PositionEntry`. Changing either the answer or any piece of evidence changes it.
    """
    return content_hash(
        {
            "conclusion": encode(position.output, "output"),
            "evidence": [item.content_hash for item in position.evidence],
        }
    )


def _canonical_arguments(value: object) -> dict[str, JsonValue]:
    if not isinstance(value, Mapping):
        raise _error(
            "tie-breaker arguments are a mapping",
            "boundary.invalid_arguments",
            "arguments",
            "arguments are a JSON object",
        )
    try:
        canonical_bytes(value)
    except CanonicalizationError as exc:
        raise _error(
            f"tie-breaker arguments are not canonical JSON: {exc.message}",
            "boundary.invalid_arguments",
            "arguments",
            "arguments are canonical JSON: integers only (no floats), string keys",
            path=exc.context.get("path"),
        ) from None
    return {str(key): item for key, item in value.items()}


class TieBreaker(BaseModel):
    """A registered probe, its JSON arguments, what it checks, and how its result decides.

    Selection rule: the probe returns a :class:`~accord.boundary.probes.ProbeResult` whose
    ``value`` is looked up in ``winner_by_result``; the agents listed there win. A value not
    in the mapping is inconclusive (the boundary stays pending). When a hint leaves
    ``winner_by_result`` empty, :func:`~accord.boundary.tiebreak.propose_tie_breaker` fills it
    from the sides at the crux: each side's answer, written as
    :func:`~accord.boundary._json.result_key` writes it (``"EUR"``, ``"1450"``, ``"true"``),
    maps to that side's agents.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    probe: str
    arguments: dict[str, JsonValue]
    description: str
    winner_by_result: dict[str, tuple[str, ...]] = Field(default_factory=dict)

    @field_validator("probe", mode="before")
    @classmethod
    def _probe(cls, value: object) -> str:
        return check_probe_name(value)

    @field_validator("arguments", mode="before")
    @classmethod
    def _arguments(cls, value: object) -> dict[str, JsonValue]:
        return _canonical_arguments(value)

    @field_validator("description")
    @classmethod
    def _description(cls, value: str) -> str:
        if not value.strip():
            raise _error(
                "a tie-breaker needs a human-readable description",
                "boundary.empty_description",
                "description",
                "description is a non-empty string",
            )
        return value

    @field_validator("winner_by_result")
    @classmethod
    def _mapping(cls, value: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
        for result, agents in value.items():
            if not agents or len(set(agents)) != len(agents):
                raise _error(
                    f"result {result!r} must name one or more distinct agents",
                    "boundary.invalid_result_mapping",
                    "winner_by_result",
                    "each result value maps to a non-empty list of distinct agent ids",
                    result=result,
                )
        return value

    def record(self) -> dict[str, JsonValue]:
        return {
            "probe": self.probe,
            "arguments": self.arguments,
            "description": self.description,
            "winner_by_result": {k: list(v) for k, v in sorted(self.winner_by_result.items())},
        }


def digest_of(
    crux: Crux | None,
    agent_ids: Iterable[str],
    tie_breaker: TieBreaker | None,
    consensus: Iterable[str],
) -> str:
    """SHA-256 hex over canonical ``{"crux", "agents" (sorted), "tie_breaker", "consensus"
    (sorted)}``; an absent crux or tie-breaker is ``null``."""
    payload = {
        "crux": None if crux is None else crux.record(),
        "agents": sorted(agent_ids),
        "tie_breaker": None if tie_breaker is None else tie_breaker.record(),
        "consensus": sorted(consensus),
    }
    return sha256_hex(canonical_bytes(payload))


class BoundaryDraft(BaseModel):
    """What the decision procedure decided for one case, before it gets an id and a time."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    case_id: str
    subject: str
    task_type: str
    status: BoundaryStatus
    crux: Crux | None = None
    marker: Literal["AMBIGUITY_UNRESOLVED"] | None = None
    positions: tuple[PositionEntry, ...]
    tie_breaker: TieBreaker | None = None
    consensus: tuple[str, ...] = ()
    reason: str = ""

    @model_validator(mode="after")
    def _consistent(self) -> BoundaryDraft:
        if self.status == "ambiguous" and (self.marker is None or self.crux is not None):
            raise ValueError("an ambiguous boundary carries the marker and no crux")
        if self.status == "pending" and (self.crux is None or self.tie_breaker is None):
            raise ValueError("a pending boundary has a crux and a tie-breaker")
        if self.status != "ambiguous" and self.marker is not None:
            raise ValueError("only an ambiguous boundary carries the marker")
        return self

    @property
    def agent_ids(self) -> tuple[str, ...]:
        return tuple(entry.agent_id for entry in self.positions)

    @property
    def digest(self) -> str:
        return digest_of(self.crux, self.agent_ids, self.tie_breaker, self.consensus)


class Boundary(BaseModel):
    """A recorded boundary; ``record()`` is what the ledger signs and a successor reads."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    boundary_id: Annotated[str, Field(pattern=r"^bnd:[0-9a-f]{32}$")]
    session_id: str
    case_id: str
    subject: str
    task_type: str
    status: BoundaryStatus
    crux: Crux | None
    marker: Literal["AMBIGUITY_UNRESOLVED"] | None
    positions: tuple[PositionEntry, ...]
    tie_breaker: TieBreaker | None
    consensus: tuple[str, ...]
    reason: str
    digest: str
    size_bytes: int
    transcript_bytes: int
    created_at: datetime
    resolution: dict[str, JsonValue] | None = None

    @classmethod
    def build(
        cls,
        draft: BoundaryDraft,
        *,
        boundary_id: str,
        session_id: str,
        created_at: datetime,
        transcript_bytes: int,
    ) -> Boundary:
        """The boundary of ``draft``, with its digest and its size measured."""
        if transcript_bytes < 1:
            raise _error(
                "transcript_bytes must be a positive size",
                "boundary.invalid_transcript_size",
                "transcript_bytes",
                "the size of the transcript a boundary replaces is at least 1 byte",
                case_id=draft.case_id,
            )
        fields = {
            **draft.model_dump(),
            "boundary_id": boundary_id,
            "session_id": session_id,
            "created_at": created_at,
            "transcript_bytes": transcript_bytes,
            "digest": draft.digest,
            "size_bytes": 0,
        }
        unsized = cls.model_validate(fields)
        return revised(unsized, size_bytes=len(canonical_bytes(unsized.record())))

    @property
    def agent_ids(self) -> tuple[str, ...]:
        return tuple(entry.agent_id for entry in self.positions)

    @property
    def budget_ratio(self) -> float:
        """``size_bytes / transcript_bytes``: the share of the transcript the boundary costs."""
        return self.size_bytes / self.transcript_bytes

    def record(self) -> dict[str, JsonValue]:
        """The signed record: every field but ``size_bytes`` (its own length) and
        ``resolution`` (added later by its own signed event)."""
        return {
            "boundary_id": self.boundary_id,
            "session_id": self.session_id,
            "case_id": self.case_id,
            "subject": self.subject,
            "task_type": self.task_type,
            "status": self.status,
            "crux": None if self.crux is None else self.crux.record(),
            "marker": self.marker,
            "positions": [entry.record() for entry in self.positions],
            "tie_breaker": None if self.tie_breaker is None else self.tie_breaker.record(),
            "consensus": list(self.consensus),
            "reason": self.reason,
            "digest": self.digest,
            "transcript_bytes": self.transcript_bytes,
            "created_at": isoformat(self.created_at),
        }

    def verify_digest(self) -> None:
        """Raise ``boundary.digest_mismatch`` when the digest does not bind the record."""
        expected = digest_of(self.crux, self.agent_ids, self.tie_breaker, self.consensus)
        if expected != self.digest:
            raise _error(
                "the boundary digest does not match its crux, agents, tie-breaker and consensus",
                "boundary.digest_mismatch",
                "digest",
                "digest = sha256(canonical {crux, agents, tie_breaker, consensus})",
                boundary_id=self.boundary_id,
            )


class ProbeResultRecord(BaseModel):
    """A probe's answer as recorded in receipts (evidence encoded as canonical JSON)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    value: str
    detail: str
    evidence: JsonValue


class ResolutionReceipt(BaseModel):
    """What ``resolve`` did: the probe it ran once, what it said, and who won.

    ``winning_answer`` is the winning conclusion as the agents gave it (floats restored);
    ``winning_conclusion`` the same in record form. ``verified_consensus`` is the boundary's
    consensus plus the crux settled by the probe. ``receipt_hash`` is ``sha256:`` over the
    canonical receipt without itself.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    boundary_id: str
    case_id: str
    session_id: str
    probe: str
    arguments: dict[str, JsonValue]
    result: ProbeResultRecord
    winner_agents: tuple[str, ...]
    loser_agents: tuple[str, ...]
    winning_conclusion: JsonValue
    verified_consensus: tuple[str, ...]
    attempt_id: str
    resolved_at: datetime
    receipt_hash: str = ""

    @property
    def winning_answer(self) -> JsonValue:
        return from_signable(self.winning_conclusion)

    def record(self) -> dict[str, JsonValue]:
        body: dict[str, JsonValue] = {
            "boundary_id": self.boundary_id,
            "case_id": self.case_id,
            "session_id": self.session_id,
            "probe": self.probe,
            "arguments": self.arguments,
            "result": self.result.model_dump(),
            "winner_agents": list(self.winner_agents),
            "loser_agents": list(self.loser_agents),
            "winning_conclusion": self.winning_conclusion,
            "verified_consensus": list(self.verified_consensus),
            "attempt_id": self.attempt_id,
            "resolved_at": isoformat(self.resolved_at),
        }
        return body

    def sealed(self) -> ResolutionReceipt:
        """This receipt with its ``receipt_hash`` computed."""
        return revised(self, receipt_hash=content_hash(self.record()))


AttemptOutcome = Literal["resolved", "failed", "timeout", "inconclusive", "refused"]


class ProbeAttempt(BaseModel):
    """The receipt of one probe run on a boundary, whatever came of it.

    ``outcome``: ``resolved`` (the result picked a winner), ``failed`` (the probe raised or
    answered malformed), ``timeout``, ``inconclusive`` (a result no side is mapped to) or
    ``refused`` (the result named agents who were not parties). Only ``resolved`` settles the
    boundary; every other outcome leaves it pending. ``receipt_hash`` is ``sha256:`` over the
    canonical attempt record without itself.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    attempt_id: str
    boundary_id: str
    case_id: str
    probe: str
    arguments: dict[str, JsonValue]
    outcome: AttemptOutcome
    error_code: str | None = None
    detail: str = ""
    result: ProbeResultRecord | None = None
    attempted_at: datetime
    receipt_hash: str = ""

    def record(self) -> dict[str, JsonValue]:
        return {
            "attempt_id": self.attempt_id,
            "boundary_id": self.boundary_id,
            "case_id": self.case_id,
            "probe": self.probe,
            "arguments": self.arguments,
            "outcome": self.outcome,
            "error_code": self.error_code,
            "detail": self.detail,
            "result": None if self.result is None else self.result.model_dump(),
            "attempted_at": isoformat(self.attempted_at),
        }

    def sealed(self) -> ProbeAttempt:
        """This attempt with its ``receipt_hash`` computed."""
        return revised(self, receipt_hash=content_hash(self.record()))
