"""Who acts in a tier, from the key that signs the step (never from input).

A party signs its negotiation steps, nominations and coin-flip commits with an **agent key**
(``accord keys new --role agent --principal <agent-id>``); a panel member signs its vote with
an **arbitrator key** (``--role arbitrator --principal <agent-id>``) — a human member with its
principal's reviewer key. The ledger's key registry says whose key it is; a key that is not
registered for that role, or revoked, acts for nobody.
"""

from __future__ import annotations

from accord.approvals import Principal
from accord.crypto import Ed25519Signer, Signer
from accord.dcp07.panels import ArbitratorKind, PanelFormation
from accord.dcp07.refusal import refused
from accord.disputes.reviewers import reviewer_for
from accord.errors import AccordError
from accord.ledger import KeyRegistry, KeyRole
from accord.ledger.trust import NO_END


class UnknownActor(AccordError):
    """The signing key is not a registered, unrevoked key of the role the step needs."""

    code = "disputes.unknown_actor"


def acting_agent(registry: KeyRegistry, signer: Signer, role: KeyRole) -> str:
    """The agent id ``signer``'s registered ``role`` key belongs to; ``UnknownActor`` else."""
    key = registry.key(signer.kid)
    if (
        key is None
        or key.role != role
        or not key.valid_at(NO_END)
        or key.public_key != signer.public_key
        or key.principal is None
    ):
        raise UnknownActor(
            f"key {signer.kid} is not a registered, unrevoked {role} key (create one with "
            f"`accord keys new --role {role} --principal <agent-id>`)",
            kid=signer.kid,
            field="key",
            rule=f"a tier step is signed by the acting agent's registered {role} key",
        )
    return key.principal


def acting_member(registry: KeyRegistry, signer: Signer, formation: PanelFormation) -> str:
    """The panel member ``signer`` acts for: an agent member by its arbitrator key, a human
    member by its principal's reviewer key; ``UnknownActor`` for any other key,
    ``panels.not_a_member`` (R14) for a reviewer who sits on no seat of this panel."""
    try:
        return acting_agent(registry, signer, "arbitrator")
    except UnknownActor:
        if not isinstance(signer, Ed25519Signer):
            raise  # a human member signs with its reviewer key held by the service
        try:
            reviewer = reviewer_for(registry, signer, lambda p: Principal(principal_id=p))
        except AccordError:
            raise UnknownActor(
                f"key {signer.kid} is neither a registered arbitrator key nor a panel "
                "member's reviewer key",
                kid=signer.kid,
                field="key",
                requirement="R14",
                rule="a member acts with its arbitrator key (agents) or reviewer key (people)",
            ) from None
    for member in formation.members:
        if member.kind is ArbitratorKind.HUMAN and member.principal_id == reviewer.principal_id:
            return member.agent_id
    raise refused(
        "R14",
        "key",
        f"{reviewer.principal_id} is no human member of this panel",
        code="panels.not_a_member",
    )
