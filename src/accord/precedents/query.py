"""A precedent search (R24): which dispute type, which conditions hold, how many results."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from accord.conflicts.dispute_type import DisputeType
from accord.precedents.bundle import MAX_CONDITIONS, Condition, condition_key

DEFAULT_LIMIT = 10
MAX_LIMIT = 100


def _distinct(values: tuple[str, ...]) -> tuple[str, ...]:
    """The conditions' keys (:func:`condition_key`), each once."""
    return tuple(dict.fromkeys(condition_key(value) for value in values))


class PrecedentQuery(BaseModel):
    """Bundles that apply to ``dispute_type`` under ``conditions``.

    A bundle matches when it applies to the dispute type (its classification's type or one of
    its ``applicable_dispute_types``), **any** given condition is among its
    ``applicable_conditions``, and **none** of them is among its ``inapplicable_conditions``.
    Conditions are sentences compared by :func:`~accord.precedents.bundle.condition_key` (case
    and whitespace do not matter). With no conditions every bundle of the type matches. Results
    rank by authority (human_appeal first), then recency; superseded bundles come after every
    bundle still in force.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    dispute_type: DisputeType
    conditions: Annotated[
        tuple[Condition, ...], Field(max_length=MAX_CONDITIONS), AfterValidator(_distinct)
    ] = ()
    limit: Annotated[int, Field(ge=1, le=MAX_LIMIT, strict=True)] = DEFAULT_LIMIT
