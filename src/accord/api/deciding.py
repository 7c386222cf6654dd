"""The one adapter between the service and the library's human decision.

Every decision the HTTP API or the reviewer page takes goes through ``decide_as_reviewer``:
the principal comes from the reviewer's API key, never from the request, and the decision is
signed with that principal's reviewer key (``accord keys new --role reviewer --principal P``,
registered in the ledger), which the server holds in its key folder. The library then refuses
an unconfigured reviewer and a principal who is, or owns, a party of the case.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from accord.api.errors import status_for
from accord.api.signing_keys import server_signer, server_signer_async
from accord.app import Accord
from accord.approvals import ApprovalItem
from accord.crypto import Ed25519Signer
from accord.disputes import StoredStay
from accord.errors import AccordError

NO_REVIEWER_KEY = "approvals.no_reviewer_key"


def reviewer_signer(accord: Accord, principal_id: str) -> Ed25519Signer:
    """``principal_id``'s reviewer key from the server's key folder."""
    return server_signer(accord, "reviewer", principal_id, code=NO_REVIEWER_KEY)


async def reviewer_signer_async(accord: Accord, principal_id: str) -> Ed25519Signer:
    """As :func:`reviewer_signer`, from the event loop (a key not unlocked yet is read on a
    worker thread)."""
    return await server_signer_async(accord, "reviewer", principal_id, code=NO_REVIEWER_KEY)


def decide_as_reviewer(
    accord: Accord,
    item_id: str,
    principal_id: str,
    *,
    choice: str | None,
    deny: bool,
    reasoning: str,
    outcome: str | None = None,
) -> ApprovalItem:
    """Decide ``item_id`` as ``principal_id``, signed with their reviewer key; compare-and-set
    (a second decision raises ``approvals.already_decided`` naming the first). Exactly one of
    ``choice``, ``outcome`` (the reviewer's written outcome) or ``deny``."""
    return accord.decide(
        item_id,
        reviewer_signer(accord, principal_id),
        choice=choice,
        deny=deny,
        reason=reasoning,
        outcome=outcome,
    )


async def decide_as_reviewer_async(
    accord: Accord,
    item_id: str,
    principal_id: str,
    *,
    choice: str | None,
    deny: bool,
    reasoning: str,
    outcome: str | None = None,
) -> ApprovalItem:
    """As :func:`decide_as_reviewer`, from the event loop (``Accord.decide_async``: the
    decisions of one loop turn share one transaction)."""
    return await accord.decide_async(
        item_id,
        await reviewer_signer_async(accord, principal_id),
        choice=choice,
        deny=deny,
        reason=reasoning,
        outcome=outcome,
    )


@dataclass(frozen=True)
class Verdict:
    """One item's verdict in a batch: a choice, a written outcome, or ``deny``, with the
    reasoning."""

    item_id: str
    choice: str | None
    deny: bool
    reasoning: str
    outcome: str | None = None


def decide_each(
    accord: Accord, principal_id: str, verdicts: Iterable[Verdict]
) -> list[ApprovalItem | AccordError]:
    """Decide every verdict in turn as ``principal_id``, each its own compare-and-set decision
    and its own signed entry: a refused item (already decided, unknown, a party of the
    reviewer's) is returned in its place and does not stop the rest. A server failure (a 5xx
    kind of error) is not an item's refusal: it raises."""
    results: list[ApprovalItem | AccordError] = []
    for verdict in verdicts:
        try:
            item = decide_as_reviewer(
                accord,
                verdict.item_id,
                principal_id,
                choice=verdict.choice,
                deny=verdict.deny,
                reasoning=verdict.reasoning,
                outcome=verdict.outcome,
            )
        except AccordError as refused:
            if status_for(refused) >= 500:
                raise
            results.append(refused)
        else:
            results.append(item)
    return results


def stay_as_reviewer(
    accord: Accord, objection_id: str, principal_id: str, reason: str
) -> StoredStay:
    """Stay the resolution ``objection_id`` answers as ``principal_id`` (R28), signed with
    their reviewer key; a second stay raises ``objections.already_stayed``."""
    reviewer = accord.reviewer(reviewer_signer(accord, principal_id))
    return accord.disputes.order_stay(objection_id, reviewer, reason)
