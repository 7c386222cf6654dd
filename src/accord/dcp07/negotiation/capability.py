"""R8 capability: the party with the most relevant capability goes first.

``required`` lists the capabilities the contested task needs, most relevant first. A party's
relevance is the set of positions in ``required`` it holds, compared most relevant first: the
party holding ``required[0]`` beats every party that does not; among those that tie on it,
``required[1]`` decides; and so on (weights ``2**(len(required) - i)``, summed). Parties
holding nothing relevant come last. Equal relevance at the top is a tie (``decided=False``);
ties are listed by agent id.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from accord.dcp07.negotiation.order import NegotiatedOrder
from accord.dcp07.negotiation.refusals import NegotiationRefused

STRATEGY = "capability"


def relevance(capabilities: Sequence[str], required: Sequence[str]) -> int:
    """The party's relevance score for ``required`` (higher is more relevant)."""
    held = set(capabilities)
    return sum(1 << (len(required) - i) for i, name in enumerate(required) if name in held)


def by_capability(
    parties: Mapping[str, Sequence[str]], *, required: Sequence[str]
) -> NegotiatedOrder:
    """Order the parties (agent id → its capabilities) by relevance to ``required``."""
    if len(parties) < 2:
        raise NegotiationRefused(
            "capability ordering needs at least two parties",
            code="negotiation.bad_parties",
            requirement="R8",
            field="parties",
            rule="two or more parties",
        )
    if not required or len(set(required)) != len(required):
        raise NegotiationRefused(
            "name the required capabilities, each once, most relevant first",
            code="negotiation.bad_required_capabilities",
            requirement="R8",
            field="required",
            rule="a non-empty list of distinct capabilities",
        )
    scores = {agent_id: relevance(caps, required) for agent_id, caps in parties.items()}
    ordered = sorted(scores, key=lambda a: (-scores[a], a))
    top, runner_up = scores[ordered[0]], scores[ordered[1]]
    decided = top > runner_up
    best = next((name for name in required if name in set(parties[ordered[0]])), None)
    return NegotiatedOrder(
        strategy=STRATEGY,
        order=tuple(ordered),
        decided=decided,
        rationale=(
            f"{ordered[0]} holds the most relevant capability ({best})"
            if decided
            else "the first two parties are equally relevant"
        ),
    )
