"""Checking a stored dispute's §6 resolution against the keys registered in the ledger (R19,
R36, R44): every signature verifies under the key its ``kid`` names, that key belongs to the
signer in the role the tier signs with, and everyone who must sign has:

* ``direct_negotiation``: every party, each with its agent key;
* ``contextual_arbitration``: at least M approving members (agent members with their
  arbitrator key, human members with their principal's reviewer key);
* ``human_appeal``: every party's principal, each with its reviewer key.

Without ``carried_at`` a key revoked after it signed still verifies what it signed then (the
live check). With it (``accord verify``), each signature is checked against the registry as
of the first ledger entry that carries it: its key registered before that entry and not
revoked at or before it (a signature first published after its key was revoked is not
trusted).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from accord.conflicts import Tier
from accord.dcp07.panels import ArbitratorKind, PanelFormation
from accord.dcp07.parties import Party
from accord.dcp07.resolution_record import ResolutionRecord
from accord.dcp07.signature_fields import SignerSignature
from accord.dcp07.signing import verify_resolution
from accord.errors import SignatureInvalid
from accord.ledger import KeyRegistry, KeyRole


class WithParties(Protocol):
    """A dispute as the check reads it (a ``TierDispute`` or a §4 ``DisputeRecord``)."""

    @property
    def parties(self) -> Sequence[Party]: ...


def check_resolution(
    resolution: ResolutionRecord,
    dispute: WithParties,
    registry: KeyRegistry,
    formation: PanelFormation | None = None,
    *,
    carried_at: Callable[[SignerSignature], int] | None = None,
) -> ResolutionRecord:
    """``resolution`` once every signature and every required signer checks out (see the
    module docstring); ``SignatureInvalid`` naming the signer otherwise. ``formation`` is the
    panel's, for a resolution decided at ``contextual_arbitration``; ``carried_at`` the seq of
    the first ledger entry carrying a signature (the registry is then read as of it)."""
    level = resolution.resolution_level
    if level is Tier.CONTEXTUAL_ARBITRATION and formation is None:
        raise SignatureInvalid(
            f"{resolution.resolution_id}: a panel's resolution is checked against its panel",
            record=resolution.resolution_id,
            field="panel",
            rule="the panel that decided is seated",
        )
    keys: dict[str, bytes] = {}
    for signature in resolution.signatures:
        role, principal = _expected(level, signature.agent_id, formation)
        key = registry.key(signature.kid)
        at = None if carried_at is None else carried_at(signature)
        if (
            key is None
            or key.role != role
            or key.principal != principal
            or (at is not None and not key.valid_at(at))
        ):
            when = "" if at is None else f" at entry {at}"
            raise SignatureInvalid(
                f"{resolution.resolution_id}: {signature.agent_id}'s signature is not made with "
                f"a registered {role} key of {principal}{when}",
                record=resolution.resolution_id,
                signer=signature.agent_id,
                kid=signature.kid,
                field="signatures.kid",
                rule=f"each signer signs with its own registered {role} key (R36)",
                requirement="R44",
            )
        keys[signature.agent_id] = key.public_key
    required: tuple[str, ...] = ()
    if level is Tier.DIRECT_NEGOTIATION:
        required = tuple(p.agent_id for p in dispute.parties)
    elif level is Tier.HUMAN_APPEAL:
        required = tuple(dict.fromkeys(p.principal_id for p in dispute.parties))
    return verify_resolution(resolution, keys, required_signers=required)


def _expected(level: Tier, signer: str, formation: PanelFormation | None) -> tuple[KeyRole, str]:
    """The role and principal of the key ``signer`` signs with at ``level``."""
    if level is Tier.DIRECT_NEGOTIATION:
        return "agent", signer
    if level is Tier.HUMAN_APPEAL:
        return "reviewer", signer
    assert formation is not None
    member = next((m for m in formation.members if m.agent_id == signer), None)
    if member is not None and member.kind is ArbitratorKind.HUMAN:
        return "reviewer", member.principal_id
    return "arbitrator", signer
