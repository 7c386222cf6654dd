"""The signatures inside signed dispute records, re-checked against the verified key registry.

The ledger's entries are the service's signatures; some dispute records also carry the
signature of whoever took the step, which the service cannot make for them:

1. a party-signed step (``dispute_negotiation_proposal``: proposals, acceptances,
   counter-evidence, coin commits and reveals with the agent's ``agent`` key; appeal
   proposals and signatures with the principal's ``reviewer`` key) — its ``party_signature``
   over the step record (everything else in ``details``);
2. a member's vote (``arbitration_vote_cast``): the vote's ``signature`` with the member's
   ``arbitrator`` key, or a human member's principal's ``reviewer`` key;
3. the §6 resolution ``dispute_resolved`` carries: each of its ``signatures`` and its
   required signers, as :func:`~accord.disputes.tiers.resolution_check.check_resolution`
   checks them (every party at tier 1, M approving members at tier 2, every party's principal
   at tier 3).

Each signature must verify under a key the ledger registered, before the first entry that
carries it and unrevoked there, in the role the step signs with, to the principal who signs
(the step's ``agent_id`` / ``principal_id``, the vote's member). Everything is read from the
records the dispute audit already folded and the registry replayed once: no query per row.
The first failure is a :class:`~accord.audit.paths.RowProblem` naming the entry
(``ledger_entries``, its seq), the field and the signer.

Not proved here: a ``resolution_signature`` on a tier-1 or appeal draft that never resolved
(the draft is not in the ledger; the step's own party signature covers its bytes).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from pydantic import ValidationError as PydanticValidationError

from accord.audit.disputes.proposals import proposal_problem
from accord.audit.disputes.signed import (
    PROPOSAL_STEP,
    SignedDispute,
    SignedLedger,
    SignedStep,
)
from accord.audit.paths import RowProblem
from accord.crypto import RecordSignature, verify_record
from accord.dcp07.panels import ArbitratorKind, PanelFormation
from accord.dcp07.parties import Party
from accord.dcp07.resolution_record import ResolutionRecord
from accord.dcp07.signature_fields import SignerSignature
from accord.disputes.tiers.resolution_check import check_resolution
from accord.errors import AccordError, SignatureInvalid
from accord.ledger import KeyRegistry, KeyRole

TABLE: Final = "ledger_entries"
PARTY_SIGNATURE: Final = "party_signature"
REVIEWER_STEPS: Final = frozenset(("appeal_proposal", "appeal_signature"))
"""Party-signed steps a principal takes with its reviewer key (human appeal)."""
ARBITRATOR_STEPS: Final = frozenset((PROPOSAL_STEP,))
"""Signed steps a panel member takes with its arbitrator key (a proposed resolution)."""


@dataclass(frozen=True, slots=True)
class _Parties:
    parties: tuple[Party, ...]


def party_signature_problem(ledger: SignedLedger, registry: KeyRegistry) -> RowProblem | None:
    """The first signature inside a dispute record that does not hold (see the module doc),
    disputes in id order and each dispute's records in ledger order; None when all hold."""
    for dispute_id in sorted(ledger.disputes):
        dispute = ledger.disputes[dispute_id]
        problem = (
            _steps_problem(dispute_id, dispute, registry)
            or _votes_problem(dispute_id, dispute, registry)
            or proposal_problem(dispute_id, dispute)
            or _resolution_problem(dispute_id, dispute, registry)
        )
        if problem is not None:
            return problem
    return None


def _steps_problem(
    dispute_id: str, dispute: SignedDispute, registry: KeyRegistry
) -> RowProblem | None:
    for step, _tier in dispute.party_steps:
        details = step.details
        kind = details.get("step")
        role: KeyRole = (
            "reviewer"
            if kind in REVIEWER_STEPS
            else "arbitrator"
            if kind in ARBITRATOR_STEPS
            else "agent"
        )
        signer = details.get("principal_id" if role == "reviewer" else "agent_id")
        signed = {k: v for k, v in details.items() if k != PARTY_SIGNATURE}
        problem = _signature_problem(
            step,
            f"details.{PARTY_SIGNATURE}",
            f"dispute {dispute_id}: the {kind} step",
            details.get(PARTY_SIGNATURE),
            signed,
            signer,
            role,
            registry,
        )
        if problem is not None:
            return problem
    return None


def _votes_problem(
    dispute_id: str, dispute: SignedDispute, registry: KeyRegistry
) -> RowProblem | None:
    if not dispute.vote_steps:
        return None
    members = _members(dispute)
    for step in dispute.vote_steps:
        vote = step.details.get("vote")
        vote = vote if isinstance(vote, Mapping) else {}
        member = vote.get("agent_id")
        role, principal = members.get(str(member), ("arbitrator", member))
        problem = _signature_problem(
            step,
            "details.vote.signature",
            f"dispute {dispute_id}: {member}'s vote",
            vote.get("signature"),
            vote,
            principal,
            role,
            registry,
        )
        if problem is not None:
            return problem
    return None


def _resolution_problem(
    dispute_id: str, dispute: SignedDispute, registry: KeyRegistry
) -> RowProblem | None:
    resolved, document = dispute.resolved, dispute.resolution
    if resolved is None or document is None:
        return None
    at_resolution: int = resolved.seq
    first_carried: dict[str, int] = {
        str(s.get("sig_b64")): step.seq
        for step, _tier in reversed(dispute.party_steps)
        if isinstance(s := step.details.get("resolution_signature"), Mapping)
    }

    def carried_at(signature: SignerSignature) -> int:
        return first_carried.get(signature.sig_b64, at_resolution)

    try:
        resolution = ResolutionRecord.model_validate(document)
        parties = _Parties(tuple(Party.model_validate(p) for p in _party_documents(dispute)))
        formation = _formation(dispute)
        check_resolution(resolution, parties, registry, formation, carried_at=carried_at)
    except SignatureInvalid as exc:
        field = str(exc.context.get("field", "signatures"))
        signer = exc.context.get("signer")
        who = f" ({signer})" if signer else ""
        return _problem(
            resolved,
            f"details.resolution.{field}",
            f"dispute {dispute_id}: resolution {document.get('resolution_id')}{who}: "
            f"{exc.context.get('rule', exc.message)}",
            "bad_resolution_signature",
        )
    except PydanticValidationError as exc:
        where = ".".join(str(p) for p in exc.errors()[0]["loc"])
        return _problem(
            resolved, f"details.resolution.{where}".rstrip("."), f"dispute {dispute_id}: the "
            "resolution is not a valid signed §6 record", "bad_resolution_signature",
        )  # fmt: skip
    except AccordError as exc:  # a record validator's refusal (e.g. one signature per signer)
        return _problem(
            resolved, f"details.resolution.{exc.context.get('field', 'signatures')}",
            f"dispute {dispute_id}: the resolution is not a valid signed §6 record: "
            f"{exc.message}", "bad_resolution_signature",
        )  # fmt: skip
    return None


def _signature_problem(
    step: SignedStep,
    field: str,
    what: str,
    raw: Any,
    signed: Mapping[str, Any],
    signer: Any,
    role: KeyRole,
    registry: KeyRegistry,
) -> RowProblem | None:
    """``raw`` checked as ``signer``'s ``role`` signature over ``signed`` at ``step``."""
    kind = "bad_vote_signature" if field.startswith("details.vote") else "bad_party_signature"
    try:
        signature = RecordSignature.model_validate(raw)
    except PydanticValidationError:
        return _problem(step, field, f"{what} carries no signature {{alg, kid, sig_b64, "
                        "domain_sep}", kind)  # fmt: skip
    key = registry.key(signature.kid)
    if key is None or key.role != role or key.principal != signer or not key.valid_at(step.seq):
        return _problem(
            step,
            f"{field}.kid",
            f"{what} is signed with {signature.kid}, not a {role} key of {signer} registered "
            "before this entry and unrevoked there",
            kind,
        )
    try:
        verify_record(signed, signature, key.public_key)
    except AccordError:
        return _problem(
            step, field, f"{what}: {signer}'s signature does not verify over the record", kind
        )
    return None


def _members(dispute: SignedDispute) -> dict[str, tuple[KeyRole, Any]]:
    """Each seated member → the role and principal its vote is signed with."""
    formation = dispute.panel.details.get("formation") if dispute.panel else None
    members = formation.get("members") if isinstance(formation, Mapping) else None
    found: dict[str, tuple[KeyRole, Any]] = {}
    for m in members if isinstance(members, list) else ():
        if isinstance(m, Mapping):
            human = m.get("kind") == ArbitratorKind.HUMAN.value
            agent = m.get("agent_id")
            found[str(agent)] = ("reviewer", m.get("principal_id")) if human else (
                "arbitrator", agent
            )  # fmt: skip
    return found


def _formation(dispute: SignedDispute) -> PanelFormation | None:
    formation = dispute.panel.details.get("formation") if dispute.panel else None
    return None if formation is None else PanelFormation.model_validate(formation)


def _party_documents(dispute: SignedDispute) -> list[Any]:
    record = dispute.record
    respondents = record.get("respondents")
    return [record.get("complainant"), *(respondents if isinstance(respondents, list) else ())]


def _problem(step: SignedStep, field: str, rule: str, kind: str) -> RowProblem:
    return RowProblem(
        code=f"{TABLE}.{kind}",
        table=TABLE,
        key=str(step.seq),
        column=f"record.{field}",
        rule=rule,
        seq=step.seq,
    )
