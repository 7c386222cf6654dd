"""Who acts in a tier, from the key that signs the step (never from input).

A party signs its negotiation steps, nominations and coin-flip commits with an **agent key**
(``accord keys new --role agent --principal <agent-id>``); a panel member signs its vote with
an **arbitrator key** (``--role arbitrator --principal <agent-id>``). The ledger's key registry
says whose key it is; a key that is not registered for that role, or revoked, acts for nobody.
"""

from __future__ import annotations

from accord.crypto import Ed25519Signer
from accord.errors import AccordError
from accord.ledger import KeyRegistry, KeyRole
from accord.ledger.trust import NO_END


class UnknownActor(AccordError):
    """The signing key is not a registered, unrevoked key of the role the step needs."""

    code = "disputes.unknown_actor"


def acting_agent(registry: KeyRegistry, signer: Ed25519Signer, role: KeyRole) -> str:
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
