"""The ``disputes:`` section of ``accord.yaml``: how much an agent may file (R34) and after how
many compliance failures it is flagged (R22).

```yaml
disputes:
  filing:
    max_filings: 10          # per agent per window (R34)
    window_hours: 24
    evidence_per_point: 1    # evidence items a filer needs per dispute resolved against it
    max_evidence_bar: 5      # the most that bar asks
    critical_min_evidence: 1 # a critical dispute needs evidence at filing
  flag_after: 2              # failed compliance checks before an agent is flagged (R22)
  prepared_step_seconds: 300 # how long a prepared tier step waits for its agent's signatures
```
"""

from __future__ import annotations

from datetime import timedelta

from pydantic import Field

from accord.dcp07.filing_rules import (
    DEFAULT_MAX_FILINGS,
    DEFAULT_WINDOW,
    FilingPolicy,
)
from accord.disputes.compliance.flags import DEFAULT_FLAG_AFTER
from accord.settings_model import StrictSettings


class FilingSettings(StrictSettings):
    """R34's figures as configured; :meth:`policy` is what filing checks against."""

    max_filings: int = Field(default=DEFAULT_MAX_FILINGS, ge=1, le=1_000_000)
    window_hours: int = Field(default=int(DEFAULT_WINDOW / timedelta(hours=1)), ge=1, le=8_784)
    evidence_per_point: int = Field(default=1, ge=0, le=100)
    max_evidence_bar: int = Field(default=5, ge=0, le=100)
    critical_min_evidence: int = Field(default=1, ge=1, le=100)

    def policy(self) -> FilingPolicy:
        return FilingPolicy(
            max_filings=self.max_filings,
            window=timedelta(hours=self.window_hours),
            evidence_per_point=self.evidence_per_point,
            max_evidence_bar=self.max_evidence_bar,
            critical_min_evidence=self.critical_min_evidence,
        )


class DisputeSettings(StrictSettings):
    """The ``disputes:`` section."""

    filing: FilingSettings = FilingSettings()
    flag_after: int = Field(default=DEFAULT_FLAG_AFTER, ge=1, le=1_000)
    prepared_step_seconds: int = Field(default=300, ge=10, le=3_600)
