"""Executable tie-breakers: probes the application registers, run once with a timeout.

A probe checks ground truth (a database lookup, an HTTP check, a file read) and answers a
:class:`ProbeResult` whose ``value`` decides the boundary through its tie-breaker's
``winner_by_result``. Probes are synchronous; each run happens in a daemon worker thread so a
hung probe can neither block the caller past its timeout nor keep the process alive.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Iterator, Mapping
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, JsonValue

from accord.boundary._json import encode
from accord.boundary.model import ProbeResultRecord, TieBreaker, check_probe_name
from accord.errors import AccordError, ValidationError


class ProbeResult(BaseModel):
    """What a probe observed: the deciding ``value``, a short ``detail``, and its evidence."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    value: str
    detail: str = ""
    evidence: JsonValue = None

    def record(self) -> ProbeResultRecord:
        """The result as receipts carry it (floats in the evidence kept as ``$decimal``)."""
        return ProbeResultRecord(
            value=self.value, detail=self.detail, evidence=encode(self.evidence, "evidence")
        )


@runtime_checkable
class Probe(Protocol):
    """A ground-truth check a single successor can run with no model and no person."""

    name: str
    description: str

    def run(self, arguments: Mapping[str, Any]) -> ProbeResult:
        """Check the world and say what is true; raise on failure."""
        ...


class ProbeFailed(AccordError):
    """A probe raised, answered malformed, or ran out of time (``boundary.probe_timeout``)."""

    code = "boundary.probe_failed"


class ProbeRegistry:
    """The probes an application offers, by name."""

    def __init__(self, probes: Mapping[str, Probe] | None = None) -> None:
        self._probes: dict[str, Probe] = {}
        for probe in (probes or {}).values():
            self.register(probe)

    def register(self, probe: Probe) -> None:
        """Add ``probe``; its name must be valid and not taken."""
        name = check_probe_name(getattr(probe, "name", None))
        if not callable(getattr(probe, "run", None)):
            raise ValidationError(
                f"probe {name!r} has no run(arguments) method",
                code="boundary.invalid_probe",
                field="probe",
                rule="a probe has name, description and run(arguments) -> ProbeResult",
            )
        if name in self._probes:
            raise ValidationError(
                f"a probe named {name!r} is already registered",
                code="boundary.duplicate_probe",
                field="probe",
                rule="probe names are unique",
                probe=name,
            )
        self._probes[name] = probe

    def get(self, name: str) -> Probe:
        """The probe called ``name``; ``boundary.unknown_probe`` lists the registered ones."""
        probe = self._probes.get(name)
        if probe is None:
            raise ValidationError(
                f"no probe named {name!r} is registered (registered: "
                f"{', '.join(self.names()) or 'none'})",
                code="boundary.unknown_probe",
                field="probe",
                rule="a tie-breaker names a registered probe",
                probe=name,
                registered=list(self.names()),
            )
        return probe

    def names(self) -> tuple[str, ...]:
        return tuple(sorted(self._probes))

    def __contains__(self, name: object) -> bool:
        return name in self._probes

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self._probes)


def run_probe(registry: ProbeRegistry, tie_breaker: TieBreaker, timeout_s: float) -> ProbeResult:
    """Run ``tie_breaker``'s probe once with its arguments, within ``timeout_s`` seconds.

    Raises ``ValidationError`` (``boundary.unknown_probe``) before running anything, and
    :class:`ProbeFailed` with code ``boundary.probe_timeout`` when the probe does not answer
    in time (its thread is abandoned, not killed) or ``boundary.probe_failed`` when it raises
    or answers something other than a :class:`ProbeResult`.
    """
    if not timeout_s > 0:
        raise ValidationError(
            "timeout_s must be positive",
            code="boundary.invalid_timeout",
            field="timeout_s",
            rule="a probe timeout is a positive number of seconds",
        )
    probe = registry.get(tie_breaker.probe)
    future: Future[object] = Future()
    arguments = copy.deepcopy(tie_breaker.arguments)  # the probe cannot mutate the record

    def work() -> None:
        if not future.set_running_or_notify_cancel():  # pragma: no cover  (never cancelled)
            return
        try:
            future.set_result(probe.run(arguments))
        except BaseException as exc:  # the probe is foreign code: map everything it raises
            future.set_exception(exc)

    worker = threading.Thread(target=work, name=f"accord-probe-{probe.name}", daemon=True)
    worker.start()
    try:
        answer = future.result(timeout=timeout_s)
    except FutureTimeout:
        raise ProbeFailed(
            f"probe {probe.name!r} did not answer within {timeout_s} s",
            code="boundary.probe_timeout",
            probe=probe.name,
            timeout_s=timeout_s,
        ) from None
    except Exception as exc:
        raise ProbeFailed(
            f"probe {probe.name!r} failed: {type(exc).__name__}: {exc}",
            code="boundary.probe_failed",
            probe=probe.name,
            error_type=type(exc).__name__,
        ) from exc
    if not isinstance(answer, ProbeResult):
        raise ProbeFailed(
            f"probe {probe.name!r} answered {type(answer).__name__}, not a ProbeResult",
            code="boundary.probe_failed",
            probe=probe.name,
            error_type="bad_result",
        )
    try:
        answer.record()
    except ValidationError as exc:
        raise ProbeFailed(
            f"probe {probe.name!r} answered unrecordable evidence: {exc.message}",
            code="boundary.probe_failed",
            probe=probe.name,
            error_type="bad_evidence",
        ) from exc
    return answer
