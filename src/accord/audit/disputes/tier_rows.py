"""Tier 2 and 3 as the signed events state them: the seated panel
(``arbitration_panel_formed``), each member's vote (``arbitration_vote_cast``) and the
responsible principals' decision (the ``dispute_resolved`` §6 record they signed)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Final

from accord.audit.disputes.checks import Description, Key, Signed, same_json
from accord.audit.disputes.signed import SignedDispute, SignedLedger, SignedStep
from accord.audit.paths import Unsigned
from accord.dcp07.panels import reasoning_hash

HUMAN_APPEAL: Final = "human_appeal"
SPLIT: Final = "split_decision"
_NOT_YET: Any = object()
"""A value no signed record states yet (a panel decided but its record not yet resolved)."""


def _instant(stored: Any, expected: Any) -> bool:
    """The same instant (the row and the record may render it differently)."""
    try:
        return bool(
            datetime.fromisoformat(str(stored).replace("Z", "+00:00"))
            == datetime.fromisoformat(str(expected).replace("Z", "+00:00"))
        )
    except ValueError:
        return False


def _or_not_yet(stored: Any, expected: Any) -> bool:
    return expected is _NOT_YET or stored == expected


def _formation(name: str) -> Any:
    def read(about: tuple[SignedDispute, SignedStep], _row: Mapping[str, Any]) -> Any:
        formation = about[1].details.get("formation")
        return formation.get(name) if isinstance(formation, dict) else None

    return read


def _decision(about: tuple[SignedDispute, SignedStep], _row: Mapping[str, Any]) -> Any:
    """The panel's decision once signed: a split's escalation tally, or the type of the
    resolution its members signed."""
    decided = _decided(about)
    return decided[0] if decided is not None else _NOT_YET


def _tallied_at(about: tuple[SignedDispute, SignedStep], _row: Mapping[str, Any]) -> Any:
    decided = _decided(about)
    return decided[1] if decided is not None else _NOT_YET


def _decided(about: tuple[SignedDispute, SignedStep]) -> tuple[Any, Any] | None:
    dispute, formed = about
    if dispute.split is not None and dispute.split.seq > formed.seq:
        return SPLIT, dispute.split.at
    resolution = dispute.resolution
    if resolution is not None and isinstance(resolution.get("panel"), dict):
        return resolution.get("resolution_type"), resolution.get("timestamp")
    recommended = dispute.recommended.details.get("resolution") if dispute.recommended else None
    if isinstance(recommended, dict):  # signed by its members, awaiting the parties (R15)
        return recommended.get("resolution_type"), recommended.get("timestamp")
    return None


PANEL_COLUMNS: Description = {
    "panel_id": Signed("the signed formation record's panel_id", _formation("panel_id")),
    "dispute_id": Signed("the signed formation record's dispute_id", _formation("dispute_id")),
    "formation": Signed(
        "the formation record arbitration_panel_formed carries (parsed JSON, equal)",
        lambda a, _r: a[1].details.get("formation"),
        same_json,
    ),
    "question": Signed(
        "the question of the last member-signed panel_proposal step, else the one "
        "arbitration_panel_formed carries (parsed JSON, equal)",
        lambda a, _r: _in_force(a).get("question"),
        same_json,
    ),
    "resolution_hash": Signed(
        "the resolution_hash of that same signed step",
        lambda a, _r: _in_force(a).get("resolution_hash"),
    ),
    "formed_at": Signed("the formation record's formed_at", _formation("formed_at"), _instant),
    "vote_deadline": Signed(
        "the formation record's vote_deadline", _formation("vote_deadline"), _instant
    ),
    "decision": Signed(
        "once signed: split_decision from the split's dispute_escalated tally, else the type "
        "of the §6 record dispute_resolved (or arbitration_resolution_recommended) carries; a "
        "decided record still awaiting members' "
        "signatures is signed by nothing yet and not compared",
        _decision,
        _or_not_yet,
    ),
    "tallied_at": Signed(
        "once signed: the split escalation's at, or the resolution's timestamp (not compared "
        "while the decided record awaits signatures)",
        _tallied_at,
        lambda stored, expected: expected is _NOT_YET or _instant(stored, expected),
    ),
    "recommendation": Signed(
        "the signed recommended_resolution arbitration_resolution_recommended carries while "
        "it awaits the parties; null before, and once the dispute resolved by it (parsed "
        "JSON, equal)",
        lambda a, _r: _recommendation(a[0]),
        same_json,
    ),
    "accepted_by": Signed(
        "the parties whose signed recommendation_acceptance steps followed that event, in "
        "order; null with no recommendation awaiting (parsed JSON, equal)",
        lambda a, _r: _accepted_by(a[0]),
        same_json,
    ),
    "pending_resolution": Unsigned(
        "a decided panel's §6 record still short of M members' signatures: no ledger entry "
        "carries it until dispute_resolved does (then the row is cleared and the resolution is "
        "compared on dcp_disputes)"
    ),
}


def _in_force(about: tuple[SignedDispute, SignedStep]) -> Mapping[str, Any]:
    step = about[0].question_in_force()
    return step.details if step is not None else about[1].details


def _recommendation(dispute: SignedDispute) -> Any:
    made, resolved = dispute.recommended, dispute.resolved
    if made is None or (resolved is not None and resolved.seq > made.seq):
        return None
    return made.details.get("resolution")


def _accepted_by(dispute: SignedDispute) -> Any:
    made = dispute.recommended
    if _recommendation(dispute) is None or made is None:
        return None
    return [s.details.get("agent_id") for s in dispute.acceptances if s.seq > made.seq]


def _vote(name: str) -> Signed:
    return Signed(
        f"the {name} of the member-signed vote arbitration_vote_cast carries",
        lambda a, _r: a.details.get("vote", {}).get(name),
    )


def _reasoning_matches(stored: Any, expected: Any) -> bool:
    return isinstance(stored, str) and reasoning_hash(stored) == expected


VOTE_COLUMNS: Description = {
    "panel_id": _vote("panel_id"),
    "agent_id": _vote("agent_id"),
    "dispute_id": _vote("dispute_id"),
    "vote": Signed(
        "the member-signed vote arbitration_vote_cast carries (parsed JSON, equal)",
        lambda a, _r: a.details.get("vote"),
        same_json,
    ),
    "reasoning": Signed(
        "rehashed: sha256 of the text must equal the signed vote's reasoning_hash",
        lambda a, _r: a.details.get("vote", {}).get("reasoning_hash"),
        _reasoning_matches,
    ),
    "cast_at": Signed(
        "the signed vote's cast_at",
        lambda a, _r: a.details.get("vote", {}).get("cast_at"),
    ),
}


def _resolution(name: str) -> Any:
    def read(dispute: SignedDispute, _row: Mapping[str, Any]) -> Any:
        return (dispute.resolution or {}).get(name)

    return read


def _principals(dispute: SignedDispute, _row: Mapping[str, Any]) -> list[Any]:
    signatures = (dispute.resolution or {}).get("signatures") or []
    return sorted(s.get("agent_id") for s in signatures if isinstance(s, dict))


APPEAL_COLUMNS: Description = {
    "dispute_id": Signed("the human_appeal §6 record's dispute_id", _resolution("dispute_id")),
    "resolution_id": Signed(
        "the resolution_id of the human_appeal §6 record dispute_resolved carries",
        _resolution("resolution_id"),
    ),
    "principals": Signed(
        "the principals who signed that §6 record (its signatures' agent_id, sorted; parsed "
        "JSON, equal)",
        _principals,
        same_json,
    ),
    "decided_at": Signed("that §6 record's timestamp", _resolution("timestamp")),
}


def _principals_decided(dispute: SignedDispute) -> bool:
    """The principals' joint decision (``tiers/appeal``): a human_appeal resolution the
    resolving event names all its signers as actor."""
    resolution, resolved = dispute.resolution, dispute.resolved
    if resolution is None or resolved is None or dispute.resolved_by is None:
        return False
    if resolution.get("resolution_level") != HUMAN_APPEAL:
        return False
    return bool(dispute.resolved_by == "+".join(_principals(dispute, {})))


def signed_tier_rows(ledger: SignedLedger) -> dict[str, dict[Key, Any]]:
    """What the signed records say each panel, vote and appeal-decision row holds."""
    panels: dict[Key, Any] = {}
    votes: dict[Key, Any] = {}
    appeals: dict[Key, Any] = {}
    for dispute_id, dispute in ledger.disputes.items():
        if dispute.panel is not None:
            formation = dispute.panel.details.get("formation")
            if isinstance(formation, dict):
                panels[(formation.get("panel_id"),)] = (dispute, dispute.panel)
        votes.update(dispute.votes)
        if _principals_decided(dispute):
            appeals[(dispute_id,)] = dispute
    return {
        "dispute_panels": panels,
        "dispute_panel_votes": votes,
        "dispute_appeal_decisions": appeals,
    }
