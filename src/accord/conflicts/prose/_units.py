"""Units of measure through pint: a word → its factor to base units and its dimension.

The registry is built once, on first use (about 0.2 s), and each unit word is looked up once
(pint's own parse costs ~0.1 ms): later answers pay a dictionary lookup. English words that
pint also knows as units (``in`` = inch, ``at`` = technical atmosphere, ``a`` = year) and
symbols that mean something else in business prose (``k``, ``M``, ``b``) are never units.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

_NEVER = frozenset(
    {
        "in", "at", "a", "an", "as", "are", "C", "b", "M", "k", "pt", "point",
        "points", "ha", "rps", "t", "d", "x", "count", "counts", "percent", "dozen", "gross",
        "pi", "e", "E", "ppm", "bar", "bars", "line", "lines", "hand", "hands", "foot", "mil",
        "cc", "P", "g0", "G", "u", "U", "R", "F", "H", "S", "T", "V", "W", "Gy", "Bq", "Sv",
        "degree", "degrees", "turn", "turns", "cycle", "cycles", "stone", "grain", "grains",
        "knot", "knots", "tex", "lux",
    }
)
_ALIASES = {
    "kb": "kB", "KB": "kB", "Kb": "kbit", "gb": "GB", "tb": "TB", "pb": "PB", "Mb": "Mbit",
    "Gb": "Gbit", "mb": "MB", "mins": "minute", "min": "minute", "hrs": "hour", "hr": "hour",
    "secs": "second", "sec": "second", "msec": "millisecond", "°C": "degC", "°F": "degF",
}
_DIMENSIONS = frozenset(
    {
        "[length]", "[mass]", "[time]", "[temperature]", "[length]**2", "[length]**3",
        "[length]/[time]", "[length]**2*[mass]/[time]**2", "[length]**2*[mass]/[time]**3",
        "information", "information/[time]", "1/[time]",
    }
)


@dataclass(frozen=True)
class Unit:
    """A unit word read by pint: its factor to base units (None: an offset unit such as °C),
    the dimension it measures and the unit's name."""

    factor: float | None
    dimension: str
    name: str


class Units:
    """Unit lookups with a cache; one instance serves every reader (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._registry: Any = None
        self._known: dict[str, Unit | None] = {}

    def _pint(self) -> Any:
        with self._lock:
            if self._registry is None:
                import pint

                self._registry = pint.UnitRegistry(cache_folder=None)
            return self._registry

    def lookup(self, word: str) -> Unit | None:
        """The unit ``word`` names, or None (unknown, or a word that is never a unit here)."""
        if word in self._known:
            return self._known[word]
        found = None if word in _NEVER or (not word[:1].isalpha() and word[:1] != "°") else (
            self._read(_ALIASES.get(word, word))
        )
        self._known[word] = found
        return found

    def to_base(self, value: float, unit: Unit) -> float:
        """``value`` of ``unit`` in base units (offset units such as °C go through pint)."""
        if unit.factor is not None:
            return value * unit.factor
        registry = self._pint()
        return float(registry.Quantity(value, unit.name).to_base_units().magnitude)

    def _read(self, word: str) -> Unit | None:
        registry = self._pint()
        try:
            quantity = registry.Quantity(1, word)
            base = quantity.to_base_units()
        except Exception:
            return None
        dimension = _dimension(base)
        if dimension not in _DIMENSIONS:
            return None
        offset = not quantity._ok_for_muldiv()
        return Unit(None if offset else float(base.magnitude), dimension, str(quantity.units))


def _dimension(base: Any) -> str:
    units = {str(name): power for name, power in base.units._units.items()}
    if "bit" in units:
        rest = {k: v for k, v in units.items() if k != "bit"}
        if not rest:
            return "information"
        if rest == {"second": -1}:
            return "information/[time]"
        return "?"
    dims = dict(base.dimensionality)
    if not dims:
        return "?"
    top = "*".join(_power(d, p) for d, p in sorted(dims.items()) if p > 0)
    bottom = "*".join(_power(d, -p) for d, p in sorted(dims.items()) if p < 0)
    if not top:
        return f"1/{bottom}"
    return f"{top}/{bottom}" if bottom else top


def _power(name: str, power: float) -> str:
    return name if power == 1 else f"{name}**{int(power) if power == int(power) else power}"
