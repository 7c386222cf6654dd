"""What an agent reports to show it complied (R20): the ledger entries that prove it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Final

from pydantic import BaseModel, ConfigDict, Field, StrictInt
from pydantic import ValidationError as PydanticValidationError

from accord.disputes.compliance.refusals import refused

MAX_REPORTED_ENTRIES: Final = 64
"""Most ledger entries one report may name."""
MAX_NOTE_CHARS: Final = 4096

LedgerSeq = Annotated[StrictInt, Field(ge=1, le=2**63 - 1)]


class ComplianceReport(BaseModel):
    """The ledger entries (by seq) an agent says show it did what the resolution required,
    and a short note. Under ``audit_chain_review`` every entry must exist, be signed by a
    service key of this ledger, name the agent, and come after the resolution."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    entries: Annotated[tuple[LedgerSeq, ...], Field(min_length=1, max_length=MAX_REPORTED_ENTRIES)]
    note: Annotated[str, Field(max_length=MAX_NOTE_CHARS)] = ""

    @classmethod
    def read(cls, data: ComplianceReport | Mapping[str, Any]) -> ComplianceReport:
        """``data`` as a report; refused naming the first bad field (R20)."""
        if isinstance(data, ComplianceReport):
            return data
        try:
            report = cls.model_validate(data)
        except PydanticValidationError as exc:
            first = exc.errors(include_url=False)[0]
            field = "report." + ".".join(str(p) for p in first["loc"])
            raise refused(
                "R20", field, str(first["msg"]), code="compliance.report_invalid"
            ) from None
        if len(set(report.entries)) != len(report.entries):
            raise refused(
                "R20", "report.entries", "each entry at most once", code="compliance.report_invalid"
            )
        return report
