"""A probe an application would register: the ERP's invoice total (a stand-in, counting calls)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from accord.boundary import ProbeResult

CALLS: list[dict[str, Any]] = []


class ErpInvoiceTotal:
    name = "erp_invoice_total"
    description = "Read the invoice total from the ERP"

    def run(self, arguments: Mapping[str, Any]) -> ProbeResult:
        CALLS.append(dict(arguments))
        return ProbeResult(value="1450", detail=f"ERP: invoice {arguments['invoice']} = 1450")
