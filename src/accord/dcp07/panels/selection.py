"""Verifiable random panel selection (R35): anyone can recompute the panel from the record.

Algorithm ``dcp07-panel-selection-v1``:

1. ``seed = SHA-256(framed("DCP-07-PANEL-SEED-v1", UTF8(dispute_id), then UTF8(agent_id), nonce
   for each party's revealed commit–reveal nonce, in agent-id order))`` (``framed``: tag, 0x00,
   u32be-length-prefixed fields — :mod:`accord.dcp07.negotiation.framing`);
2. ``candidates`` = the eligible candidates' agent ids, sorted (code point order), each once;
3. ``selected = choose(seed, candidates, n)``: ``n`` steps of Fisher–Yates driven by SHA-256
   counter-mode draws with rejection sampling (:mod:`accord.dcp07.negotiation.random_draws`),
   in draw order; nobody is drawn twice and only candidates can be drawn.

The record (:class:`PanelSelection`) holds the dispute id, the nonces, the candidates, ``n``,
the seed and the result; :func:`verify_selection` recomputes 1–3 from it and refuses a
mismatch. At least one revealed nonce is needed (a seed from the dispute id alone would be
known to whoever made the id). The nonces come from a commit–reveal round
(:class:`accord.dcp07.negotiation.CoinFlip`: tier 1's coin flip, or one run when the panel
is formed), which checks each nonce against its commitment.

Known limit, kept visible in the record: the seed hashes the nonces of the parties that
revealed (``seed_nonces`` names them). The last party to reveal can compute the panel with and
without its own nonce and withhold it to get the other draw; the commit–reveal round makes a
withheld reveal a forfeit (R8), so the lifecycle should count it against the withholder. With a
single contributor the draw rests on that party's randomness alone.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from accord.dcp07.negotiation.coin_flip import RevealedNonce
from accord.dcp07.negotiation.framing import framed, utf8
from accord.dcp07.negotiation.random_draws import DRAW_ALGORITHM, choose
from accord.dcp07.panels.refusals import PanelRefused

SELECTION_ALGORITHM = "dcp07-panel-selection-v1"
SEED_TAG = "DCP-07-PANEL-SEED-v1"


class PanelSelection(BaseModel):
    """Everything needed to recompute a panel draw, and its result."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    algorithm: str = SELECTION_ALGORITHM
    draw_algorithm: str = DRAW_ALGORITHM
    dispute_id: str
    seed_nonces: tuple[RevealedNonce, ...] = Field(min_length=1)
    seed_hex: str
    candidates: tuple[str, ...]
    size: int
    selected: tuple[str, ...]


def panel_seed(dispute_id: str, nonces: Sequence[RevealedNonce]) -> bytes:
    """Step 1: the 32-byte seed of ``dispute_id``'s panel draw."""
    fields: list[bytes] = [utf8(dispute_id)]
    for nonce in sorted(nonces, key=lambda n: n.agent_id):
        fields += [utf8(nonce.agent_id), nonce.nonce]
    return hashlib.sha256(framed(SEED_TAG, *fields)).digest()


def select_panel(
    dispute_id: str,
    candidates: Sequence[str],
    nonces: Sequence[RevealedNonce],
    size: int,
) -> PanelSelection:
    """Draw ``size`` of ``candidates`` with the seed of ``nonces`` (steps 1–3)."""
    if not nonces:
        raise PanelRefused(
            "a verifiable panel draw needs at least one party's revealed nonce",
            code="panels.no_seed_nonce",
            requirement="R35",
            field="nonces",
            rule="seed = hash of the parties' revealed nonces and the dispute id",
        )
    contributors = [n.agent_id for n in nonces]
    if len(set(contributors)) != len(contributors):
        raise PanelRefused(
            "each party contributes one nonce to the panel seed",
            code="panels.duplicate_seed_nonce",
            requirement="R35",
            field="nonces",
            rule="one revealed nonce per party",
        )
    ordered = tuple(sorted(set(candidates)))
    if len(ordered) < size:
        raise PanelRefused(
            f"{len(ordered)} eligible candidate(s) cannot seat a panel of {size}",
            code="panels.too_few_eligible",
            requirement="R10",
            field="candidates",
            rule=f"at least {size} eligible candidates",
            eligible=list(ordered),
        )
    seed = panel_seed(dispute_id, nonces)
    return PanelSelection(
        dispute_id=dispute_id,
        seed_nonces=tuple(sorted(nonces, key=lambda n: n.agent_id)),
        seed_hex=seed.hex(),
        candidates=ordered,
        size=size,
        selected=choose(seed, ordered, size),
    )


def recompute_selection(selection: PanelSelection) -> tuple[str, ...]:
    """The panel steps 1–3 give for the record's inputs (ignoring its stated result)."""
    seed = panel_seed(selection.dispute_id, selection.seed_nonces)
    return choose(seed, sorted(set(selection.candidates)), selection.size)


def verify_selection(selection: PanelSelection) -> None:
    """Return if the record's seed and panel are what its inputs give; else refuse (R35)."""
    if selection.algorithm != SELECTION_ALGORITHM or selection.draw_algorithm != DRAW_ALGORITHM:
        raise _mismatch(selection, "algorithm", "a selection this code does not know")
    if panel_seed(selection.dispute_id, selection.seed_nonces).hex() != selection.seed_hex:
        raise _mismatch(selection, "seed_hex", "the seed is not the hash of the nonces")
    if recompute_selection(selection) != selection.selected:
        raise _mismatch(selection, "selected", "the panel is not the one the seed draws")


def _mismatch(selection: PanelSelection, field: str, detail: str) -> PanelRefused:
    return PanelRefused(
        f"the panel selection of {selection.dispute_id} does not verify: {detail}",
        code="panels.selection_mismatch",
        requirement="R35",
        field=field,
        rule="anyone recomputes the panel from the record alone",
    )
