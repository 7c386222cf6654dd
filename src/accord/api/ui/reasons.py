"""Preset reasons a reviewer can pick, how a pick joins the written reasoning, and a
textarea's line breaks as the signed record keeps them."""

from __future__ import annotations

PRESET_REASONS = (
    "The evidence supports this position",
    "Within policy limits",
    "Outside policy limits",
    "Risk too high for the amount",
    "Not enough evidence either way",
)
"""Reasons a reviewer can pick instead of, or before, writing one."""


def joined_reasoning(preset: str, written: str) -> str:
    """``preset: written`` (either alone when the other is empty); a preset that is not one of
    ``PRESET_REASONS`` is ignored, so the ledger only ever carries the page's presets or what
    the reviewer wrote."""
    chosen = preset if preset in PRESET_REASONS else ""
    written = lf_line_breaks(written).strip()
    if chosen and written:
        return f"{chosen}: {written}"
    return chosen or written


def lf_line_breaks(text: str) -> str:
    """A browser posts a textarea's line breaks as CRLF; the signed record keeps LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")
