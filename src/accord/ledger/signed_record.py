"""The base of every record the disputes room signs into the ledger."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict, SkipValidation

T = TypeVar("T")

Signable = Annotated[Any, SkipValidation]
"""An answer already made signable (``accord.cases.signable.signable``): put into the
record as it is, never copied (an output may be large)."""

BasisPoints = int
"""A fraction in basis points (0.8512 → 8512)."""


class SignedRecord(BaseModel):
    """A frozen, validated ledger record; :meth:`event` is what is appended (and signed).

    Fields hold JSON values only (parts are typed dicts, lists not tuples), so the record is
    exactly the model's fields: :meth:`record` equals ``model_dump(mode="json")`` and shares
    the answers instead of copying them."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    event_type: ClassVar[str]

    def record(self) -> dict[str, Any]:
        """The record as signed: the model's fields (a new dict; parts and answers shared)."""
        return self.__dict__.copy()

    def event(self) -> tuple[str, dict[str, Any]]:
        """``(event type, record)`` for ``Ledger.append_many`` / ``append_within``."""
        return self.event_type, self.record()

Built = Annotated[T, SkipValidation]
"""A part made by its one builder (``records/parts.py``, typed and checked by mypy): not
validated again field by field when the record is built; the record's invariant validators
still read it."""
