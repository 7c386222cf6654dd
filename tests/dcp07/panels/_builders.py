"""Builders for the panel tests: a pool across two organisations, parties, fakes of the ports."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta

import pytest

from accord.crypto import Ed25519Signer
from accord.dcp07.negotiation import RevealedNonce
from accord.dcp07.panels import (
    ArbitratorPool,
    Nomination,
    PanelFormation,
    PanelRefused,
    Party,
    PoolMember,
    form_panel,
)
from accord.org import LifecycleState

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
DEADLINE = NOW + timedelta(hours=1)
DISPUTE = "disp:0197aaaa-0000-7000-8000-000000000001"
COMPLAINANT = Party(agent_id="agent:billing", principal_id="user:ana", organization_id="acme")
RESPONDENT = Party(agent_id="agent:audit", principal_id="user:bo", organization_id="globex")
PARTIES = (COMPLAINANT, RESPONDENT)
NONCES = (
    RevealedNonce(agent_id="agent:billing", nonce_hex=bytes(range(32)).hex()),
    RevealedNonce(agent_id="agent:audit", nonce_hex=bytes(range(32, 64)).hex()),
)


def member(
    agent_id: str,
    *,
    organization_id: str = "acme",
    principal_id: str | None = None,
    vitality: int = 900,
    state: LifecycleState = LifecycleState.ACTIVE,
) -> PoolMember:
    return PoolMember(
        agent_id=agent_id,
        principal_id=principal_id or f"user:{agent_id.split(':')[-1]}",
        organization_id=organization_id,
        vitality=vitality,
        lifecycle_state=state,
    )


def pool(*extra: PoolMember, size: int = 6) -> ArbitratorPool:
    """``size`` eligible arbitrators alternating between acme and initech, plus ``extra``."""
    members = [
        member(f"arb:{i:02d}", organization_id=("acme", "initech")[i % 2]) for i in range(size)
    ]
    return ArbitratorPool.of([*members, *extra])


def nominate(*agent_ids: str, by: str = "agent:billing") -> tuple[Nomination, ...]:
    return tuple(Nomination(nominated_by=by, agent_id=a, nominated_at=NOW) for a in agent_ids)


class Disputes:
    """``ActiveDisputes`` over a fixed map of agent pairs to dispute ids."""

    def __init__(self, active: Mapping[frozenset[str], Sequence[str]] | None = None) -> None:
        self.active = dict(active or {})

    def active_between(self, a: str, b: str) -> Sequence[str]:
        return self.active.get(frozenset((a, b)), ())


class Interactions:
    """``InteractionHistory`` over a fixed map of agent pairs to their last interaction."""

    def __init__(self, last: Mapping[frozenset[str], datetime] | None = None) -> None:
        self.last = dict(last or {})

    def last_interaction(self, a: str, b: str) -> datetime | None:
        return self.last.get(frozenset((a, b)))


def formed(
    arbitrators: ArbitratorPool | None = None,
    nominees: Sequence[str] | None = None,
    **fields: object,
) -> PanelFormation:
    arbitrators = arbitrators or pool()
    chosen = nominees if nominees is not None else [m.agent_id for m in arbitrators.members]
    arguments: dict[str, object] = {
        "dispute_id": DISPUTE,
        "parties": PARTIES,
        "pool": arbitrators,
        "nominations": nominate(*chosen),
        "nonces": NONCES,
        "disputes": Disputes(),
        "interactions": Interactions(),
        "now": NOW,
        "vote_deadline": DEADLINE,
    }
    arguments.update(fields)
    return form_panel(**arguments)  # type: ignore[arg-type]


def key_of(agent_id: str) -> Ed25519Signer:
    """The member's (test) signing key."""
    return Ed25519Signer.from_seed(hashlib.sha256(agent_id.encode()).digest())


def keys(formation: PanelFormation) -> dict[str, bytes]:
    return {a: key_of(a).public_key for a in formation.member_ids}


def refused(excinfo: pytest.ExceptionInfo[PanelRefused], code: str, requirement: str) -> None:
    assert excinfo.value.code == code, excinfo.value
    assert excinfo.value.context["requirement"] == requirement
