"""R8 priority: who goes first is set by a principal's directive, else by policy.

* A **directive** (an ordered list of agent ids from a principal) wins: parties it names go
  first, in its order.
* The rest follow by **policy** rank (a mapping agent id → priority, higher first); parties
  without a rank come last.
* When the top two parties are neither separated by the directive nor by distinct ranks, the
  order is a tie (``decided=False``); ties are listed by agent id.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from accord.dcp07.negotiation.order import NegotiatedOrder
from accord.dcp07.negotiation.refusals import NegotiationRefused

STRATEGY = "priority"


def by_priority(
    parties: Sequence[str],
    *,
    policy: Mapping[str, int] | None = None,
    directive: Sequence[str] = (),
) -> NegotiatedOrder:
    """Order ``parties`` by ``directive``, then by ``policy`` rank (see the module docstring)."""
    if len(parties) < 2 or len(set(parties)) != len(parties):
        raise _refused("priority needs at least two distinct parties", "parties")
    outsiders = [a for a in directive if a not in parties]
    if outsiders or len(set(directive)) != len(directive):
        raise _refused(
            "a directive names each party at most once and no one else",
            "directive",
            outsiders=outsiders,
        )
    ranks = dict(policy or {})

    def key(agent_id: str) -> tuple[int, int, str]:
        """(group, place in the group, agent id): directive, then ranked, then unranked."""
        if agent_id in directive:
            return (0, directive.index(agent_id), agent_id)
        rank = ranks.get(agent_id)
        return (2, 0, agent_id) if rank is None else (1, -rank, agent_id)

    ordered = sorted(parties, key=key)
    first, second = key(ordered[0]), key(ordered[1])
    decided = first[0] != 2 and first[:2] != second[:2]
    source = "principal directive" if first[0] == 0 else "policy rank"
    return NegotiatedOrder(
        strategy=STRATEGY,
        order=tuple(ordered),
        decided=decided,
        rationale=(
            f"{ordered[0]} first by {source}"
            if decided
            else "no directive or policy rank separates the first two parties"
        ),
    )


def _refused(message: str, field: str, **context: object) -> NegotiationRefused:
    return NegotiationRefused(
        message,
        code="negotiation.bad_priority",
        requirement="R8",
        field=field,
        rule=message,
        **context,
    )
