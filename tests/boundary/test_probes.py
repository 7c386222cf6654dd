"""The probe registry and running a probe once, with a timeout, mapping every failure."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from accord.boundary import Probe, ProbeFailed, ProbeRegistry, ProbeResult, run_probe
from accord.errors import ValidationError

from ._builders import FailingProbe, FixedProbe, HangingProbe, WrongTypeProbe, erp_hint


@pytest.fixture
def hanging() -> Iterator[HangingProbe]:
    probe = HangingProbe()
    yield probe
    probe.release.set()


def test_register_get_and_list() -> None:
    probe = FixedProbe("erp.currency", "EUR")
    registry = ProbeRegistry({"x": probe})
    assert isinstance(probe, Probe)
    assert registry.get("erp.currency") is probe
    assert "erp.currency" in registry
    assert "nope" not in registry
    assert list(registry) == ["erp.currency"]
    assert len(registry) == 1
    with pytest.raises(ValidationError) as info:
        registry.register(FixedProbe("erp.currency", "USD"))
    assert info.value.code == "boundary.duplicate_probe"


@pytest.mark.parametrize("name", ["", "Has Space", "9lives", "x" * 65, None])
def test_probe_names_are_validated(name: Any) -> None:
    probe = FixedProbe("ok", "EUR")
    probe.name = name
    with pytest.raises(ValidationError) as info:
        ProbeRegistry().register(probe)
    assert info.value.code == "boundary.invalid_probe_name"


def test_a_probe_needs_a_run_method() -> None:
    class NoRun:
        name = "no.run"
        description = "x"

    with pytest.raises(ValidationError) as info:
        ProbeRegistry().register(NoRun())  # type: ignore[arg-type]
    assert info.value.code == "boundary.invalid_probe"


def test_unknown_probe_lists_the_registered_names() -> None:
    registry = ProbeRegistry()
    with pytest.raises(ValidationError, match="registered: none") as info:
        registry.get("erp.currency")
    assert info.value.code == "boundary.unknown_probe"
    registry.register(FixedProbe("b.probe", "1"))
    registry.register(FixedProbe("a.probe", "1"))
    with pytest.raises(ValidationError) as info:
        registry.get("erp.currency")
    assert info.value.context["registered"] == ["a.probe", "b.probe"]


def test_run_probe_passes_the_arguments_and_returns_the_result() -> None:
    probe = FixedProbe("erp.currency", "EUR", evidence={"rate": 1.25})
    result = run_probe(ProbeRegistry({"p": probe}), erp_hint(), timeout_s=5)
    assert result == ProbeResult(value="EUR", detail="looked it up", evidence={"rate": 1.25})
    assert probe.calls == [{"invoice": 4411, "field": "currency"}]
    assert result.record().evidence == {"rate": {"$decimal": "1.25"}}


def test_a_raising_probe_is_mapped_to_probe_failed() -> None:
    with pytest.raises(ProbeFailed) as info:
        run_probe(ProbeRegistry({"p": FailingProbe()}), erp_hint(), timeout_s=5)
    assert info.value.code == "boundary.probe_failed"
    assert info.value.context["error_type"] == "ConnectionError"
    assert "ERP unreachable" in info.value.message


def test_a_probe_answering_the_wrong_type_fails() -> None:
    with pytest.raises(ProbeFailed) as info:
        run_probe(ProbeRegistry({"p": WrongTypeProbe()}), erp_hint(), timeout_s=5)
    assert info.value.context["error_type"] == "bad_result"


def test_unrecordable_evidence_fails() -> None:
    probe = FixedProbe("erp.currency", "EUR", evidence={"x": float("inf")})
    with pytest.raises(ProbeFailed) as info:
        run_probe(ProbeRegistry({"p": probe}), erp_hint(), timeout_s=5)
    assert info.value.context["error_type"] == "bad_evidence"


def test_a_hanging_probe_times_out(hanging: HangingProbe) -> None:
    with pytest.raises(ProbeFailed) as info:
        run_probe(ProbeRegistry({"p": hanging}), erp_hint(), timeout_s=0.05)
    assert info.value.code == "boundary.probe_timeout"
    assert info.value.context["timeout_s"] == 0.05


def test_timeout_must_be_positive() -> None:
    with pytest.raises(ValidationError) as info:
        run_probe(ProbeRegistry({"p": FixedProbe("erp.currency", "EUR")}), erp_hint(), timeout_s=0)
    assert info.value.code == "boundary.invalid_timeout"


def test_unknown_probe_runs_nothing() -> None:
    with pytest.raises(ValidationError) as info:
        run_probe(ProbeRegistry(), erp_hint(), timeout_s=1)
    assert info.value.code == "boundary.unknown_probe"


class _Structural:
    """Any object with name, description and run satisfies the protocol."""

    name = "file.read"
    description = "reads a file"

    def run(self, arguments: Mapping[str, Any]) -> ProbeResult:
        return ProbeResult(value=str(arguments["path"]))


def test_structural_probes_work() -> None:
    registry = ProbeRegistry()
    registry.register(_Structural())
    hint = erp_hint(probe="file.read", arguments={"path": "/etc/x"})
    assert run_probe(registry, hint, timeout_s=5).value == "/etc/x"
