"""The composition root as the app holds it."""

from __future__ import annotations

from typing import cast

from litestar.datastructures import State

from accord.app import Accord


def accord_of(state: State) -> Accord:
    return cast(Accord, state["accord"])
