"""Strategy chains: the order in which resolution strategies are tried for a conflict.

Deterministic steps come first (playbook rule 2: source > confidence > authority > vote),
then arbitration, then people. A chain used at ``critical`` severity may not contain the
tier-1 shortcuts ``confidence``, ``authority`` or ``vote``: a critical conflict settles at
tier 1 only by source verification (playbook step 7).
"""

from __future__ import annotations

from collections.abc import Sequence

CHAIN_STEPS: tuple[str, ...] = (
    "source_verification",
    "confidence",
    "authority",
    "vote",
    "arbitration",
    "debate",
    "hybrid",
    "human",
)
"""Every step name a chain may use."""

DEFAULT_CHAIN: tuple[str, ...] = (
    "source_verification",
    "confidence",
    "authority",
    "vote",
    "arbitration",
    "human",
)
"""The chain for every kind and severity unless configured otherwise."""

CRITICAL_CHAIN: tuple[str, ...] = ("source_verification", "arbitration", "human")
"""The chain for critical conflicts: no confidence, authority or vote shortcut."""

SHORTCUT_STEPS = frozenset({"confidence", "authority", "vote"})
"""Tier-1 steps that may not settle a critical conflict."""


def chain_problem(steps: Sequence[str], *, critical: bool) -> tuple[int | None, str] | None:
    """``(index, rule)`` for the first problem in ``steps`` (index None: the whole chain)."""
    if not steps:
        return None, "a chain needs at least one step"
    seen: set[str] = set()
    for index, step in enumerate(steps):
        if step not in CHAIN_STEPS:
            return index, f"unknown step {step!r}; valid steps: {', '.join(sorted(CHAIN_STEPS))}"
        if step in seen:
            return index, f"step {step!r} appears twice"
        seen.add(step)
        if step == "human" and index != len(steps) - 1:
            return index, "'human' must be the last step"
        if critical and step in SHORTCUT_STEPS:
            return index, (
                f"critical conflicts settle at tier 1 only by source verification; remove {step!r}"
            )
    return None
