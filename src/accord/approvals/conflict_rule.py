"""The one conflict rule for every act on a case (decide, stay, panel ballot, open, park).

A principal who is a party, or owns a party agent, never acts on that party's case; an agent
acting with its own credential acts only in a case it is party to (an orchestrator acts with
an admin credential, or as the library's caller). Approval decisions (a human panel member's
ballot paper is one), stays on objections, collecting cases and parked tasks all call these
two functions, so the rule has one owner. A dispute's human
appeal (R16) is the exception the protocol makes: its deciders *are* the parties'
responsible principals, all of them together.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from accord.approvals.refusals import ConflictedDecider, NotAParty

CONFLICT_RULE: Final = "the actor is neither a party nor the owner of a party agent"
PARTY_RULE: Final = "an agent acts only in a case it is party to"


def refuse_party_acting(
    principal_id: str,
    parties: Iterable[str],
    owners: Mapping[str, str],
    *,
    act: str,
    case_id: str,
    requirement: str | None = None,
    **context: str,
) -> None:
    """Refuse ``principal_id`` doing ``act`` on ``case_id`` if it is one of ``parties`` or
    owns one (``owners``: agent id → its principal, from the org chart or the dispute)."""
    for party in parties:
        if party == principal_id or owners.get(party) == principal_id:
            how = "is" if party == principal_id else "owns"
            raise ConflictedDecider(
                f"{principal_id} {how} party {party} of {case_id}; a party may not {act} "
                "its own case",
                principal_id=principal_id,
                party=party,
                act=act,
                case_id=case_id,
                rule=CONFLICT_RULE,
                **({"requirement": requirement} if requirement else {}),
                **context,
            )


def refuse_non_party(
    agent_id: str, parties: Iterable[str], *, act: str, case_id: str, field: str
) -> None:
    """Refuse agent ``agent_id`` doing ``act`` on ``case_id`` unless it is one of ``parties``."""
    named = list(parties)
    if agent_id not in named:
        raise NotAParty(
            f"{agent_id} is not a party of {case_id} ({', '.join(named)}); an agent may not "
            f"{act} a case it is not party to",
            agent_id=agent_id,
            act=act,
            case_id=case_id,
            field=field,
            rule=PARTY_RULE,
        )
