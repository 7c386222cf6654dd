"""The one adapter between the service and the library's human decision.

Every decision the HTTP API or the reviewer page takes goes through ``decide_as_reviewer``:
the principal comes from the reviewer's API key, never from the request. Today it calls
``Accord.decide`` with the principal as configured (roles from ``approvals.principals``);
when reviewer credentials land (a reviewer's Ed25519 key registered in the ledger) this
function alone switches to the credential-based call.
"""

from __future__ import annotations

from accord.app import Accord
from accord.approvals import ApprovalItem


def decide_as_reviewer(
    accord: Accord,
    item_id: str,
    principal_id: str,
    *,
    choice: str | None,
    deny: bool,
    reasoning: str,
) -> ApprovalItem:
    """Decide ``item_id`` as ``principal_id``; compare-and-set (a second decision raises
    ``approvals.already_decided`` naming the first)."""
    return accord.decide(
        item_id,
        accord.principal(principal_id),
        choice=None if deny else choice,
        deny=deny,
        reason=reasoning,
    )
