"""The base of every record the disputes room signs into the ledger."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, ConfigDict, SkipValidation

Signable = Annotated[Any, SkipValidation]
"""An answer already made signable (``accord.disputes.signable.signable``): put into the
record as it is, never copied (an output may be large)."""

BasisPoints = int
"""A fraction in basis points (0.8512 → 8512)."""


class SignedRecord(BaseModel):
    """A frozen, validated ledger record; :meth:`event` is what is appended (and signed).

    ``as_is`` names the fields (``Signable`` answers) put into the record unchanged;
    ``as_is_in`` names list fields whose items carry such a field (``positions`` → ``answer``).
    Everything else is ``model_dump(mode="json")``: the record is exactly the model's fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    event_type: ClassVar[str]
    as_is: ClassVar[tuple[str, ...]] = ()
    as_is_in: ClassVar[Mapping[str, str]] = {}

    def record(self) -> dict[str, Any]:
        """The record as signed (a fresh dict; answers shared, not copied)."""
        exclude: dict[str, Any] = dict.fromkeys(self.as_is, True)
        for name, key in self.as_is_in.items():
            exclude[name] = {"__all__": {key}}
        out = self.model_dump(mode="json", exclude=exclude or None)
        for name in self.as_is:
            out[name] = getattr(self, name)
        for name, key in self.as_is_in.items():
            for item, model in zip(out[name], getattr(self, name), strict=True):
                item[key] = getattr(model, key)
        return out

    def event(self) -> tuple[str, dict[str, Any]]:
        """``(event type, record)`` for ``Ledger.append_many`` / ``append_within``."""
        return self.event_type, self.record()
