"""Deprecated: the strategies' room is :mod:`accord.ladder` (``resolution`` names the DCP-07 §6
record only). ``from accord.resolution import X`` keeps working for one release, with a
``DeprecationWarning``, for every name :mod:`accord.ladder` exports (``Dispute`` is
:class:`accord.ladder.Conflict`)."""

from __future__ import annotations

import importlib
import warnings
from typing import Any

_RENAMED = {"Dispute": "Conflict"}


def __getattr__(name: str) -> Any:
    ladder = importlib.import_module("accord.ladder")
    new = _RENAMED.get(name, name)
    if new not in ladder.__all__:
        raise AttributeError(f"module 'accord.resolution' has no attribute {name!r}")
    warnings.warn(
        f"accord.resolution is deprecated: import {new} from accord.ladder (or accord)",
        DeprecationWarning,
        stacklevel=2,
    )
    return getattr(ladder, new)
