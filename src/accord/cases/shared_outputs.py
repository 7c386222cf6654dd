"""A stored case document names each agent's output once.

A case carries the same output in several places: the positions, the detection's answer
groups (whole outputs, and per disputed field the value at that field), the decision, the
escalation payload and each dissent's winning answer. Stored as written, a large output would
be serialized once per place (4-5 times). :func:`shared_outputs` replaces every such repeat —
the very same object as a position's output, or as the value at the disputed field inside
it, and the dissent records' copies of the positions — by ``{"$.output": index}`` (plus
``"$.path"`` for a field); :func:`restore_outputs` puts
the values back when the document is read. No output can contain such a marker: output keys
may not contain ``"."``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, Protocol, Self, TypeVar

from accord.conflicts import Detection, Position
from accord.values import MISSING, value_at

_INDEX, _PATH = "$.output", "$.path"


class _Copyable(Protocol):
    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy with ``update`` applied (pydantic's ``BaseModel.model_copy``)."""
        ...


class _SharedDissent(_Copyable, Protocol):
    """What this module reads of a dissent record (``accord.cases.case.DissentRecord``)."""

    @property
    def position(self) -> Position: ...
    @property
    def positions(self) -> tuple[Position, ...]: ...
    @property
    def winning_answer(self) -> Any: ...


class _SharedCase(_Copyable, Protocol):
    """What this module reads of a case (``accord.cases.case.Case``), so that the case
    model can import this module without this module importing it back."""

    @property
    def positions(self) -> tuple[Position, ...]: ...
    @property
    def detection(self) -> Detection: ...
    @property
    def decision(self) -> Any: ...
    @property
    def escalation(self) -> Any: ...
    @property
    def dissent(self) -> tuple[_SharedDissent, ...]: ...


_CaseT = TypeVar("_CaseT", bound=_SharedCase)
_DissentT = TypeVar("_DissentT", bound=_SharedDissent)


def shared_outputs(case: _CaseT) -> _CaseT:
    """``case`` with repeated outputs replaced by markers (only for :meth:`Case.model_dump`)."""
    outputs = [p.output for p in case.positions]
    by_id = {id(o): i for i, o in enumerate(outputs) if isinstance(o, Mapping | list)}
    if not by_id:
        return case

    def ref(value: Any) -> Any:
        index = by_id.get(id(value)) if isinstance(value, Mapping | list) else None
        return value if index is None else {_INDEX: index}

    def field_ref(path: str, value: Any) -> Any:
        if not isinstance(value, Mapping | list):
            return value
        for index, output in enumerate(outputs):
            if isinstance(output, Mapping) and value_at(output, path) is value:
                return {_INDEX: index, _PATH: path}
        return value

    detection = case.detection
    detection = detection.model_copy(
        update={
            "groups": tuple(_with(g, "answer", ref) for g in detection.groups),
            "field_conflicts": tuple(
                fc.model_copy(
                    update={
                        "groups": tuple(
                            _with(g, "answer", partial(field_ref, fc.path))
                            for g in fc.groups
                        )
                    }
                )
                for fc in detection.field_conflicts
            ),
        }
    )
    update: dict[str, Any] = {"detection": detection}
    if case.decision is not None:
        update["decision"] = _with(case.decision, "answer", ref)
    if case.escalation is not None:
        outputs_by_agent = {a: ref(v) for a, v in case.escalation.outputs.items()}
        update["escalation"] = case.escalation.model_copy(update={"outputs": outputs_by_agent})
    update["dissent"] = tuple(_shared_dissent(d, ref) for d in case.dissent)
    return case.model_copy(update=update)


def _shared_dissent(record: Any, ref: Callable[[Any], Any]) -> Any:
    """A dissent record's answers and its copies of the positions, as markers."""
    record = _with(record, "winning_answer", ref)
    position = _with(record.position, "output", ref)
    positions = tuple(_with(p, "output", ref) for p in record.positions)
    return record.model_copy(update={"position": position, "positions": positions})


def shared_dissent_outputs(record: _DissentT) -> _DissentT:
    """A dissent record stored on its own: its position's output and the winning answer as
    markers into its own ``positions``."""
    outputs = [p.output for p in record.positions]
    by_id = {id(o): i for i, o in enumerate(outputs) if isinstance(o, Mapping | list)}

    def ref(value: Any) -> Any:
        index = by_id.get(id(value)) if isinstance(value, Mapping | list) else None
        return value if index is None else {_INDEX: index}

    if not by_id:
        return record
    record = _with(record, "winning_answer", ref)
    return record.model_copy(update={"position": _with(record.position, "output", ref)})


def _with(model: Any, field: str, change: Callable[[Any], Any]) -> Any:
    value = getattr(model, field)
    changed = change(value)
    return model if changed is value else model.model_copy(update={field: changed})


def restore_outputs(data: Any) -> Any:
    """A parsed case document with the markers of :func:`shared_outputs` resolved."""
    if not isinstance(data, dict) or not isinstance(data.get("positions"), list):
        return data
    resolve = _resolver(data["positions"])

    detection = data.get("detection")
    if isinstance(detection, dict):
        for group in _dicts(detection.get("groups")):
            if "answer" in group:
                group["answer"] = resolve(group["answer"])
        for conflict in _dicts(detection.get("field_conflicts")):
            for group in _dicts(conflict.get("groups")):
                if "answer" in group:
                    group["answer"] = resolve(group["answer"])
    decision = data.get("decision")
    if isinstance(decision, dict) and "answer" in decision:
        decision["answer"] = resolve(decision["answer"])
    escalation = data.get("escalation")
    if isinstance(escalation, dict) and isinstance(escalation.get("outputs"), dict):
        escalation["outputs"] = {a: resolve(v) for a, v in escalation["outputs"].items()}
    for record in _dicts(data.get("dissent")):
        if "winning_answer" in record:
            record["winning_answer"] = resolve(record["winning_answer"])
        for position in [*_dicts([record.get("position")]), *_dicts(record.get("positions"))]:
            if "output" in position:
                position["output"] = resolve(position["output"])
    return data


def restore_dissent_outputs(data: Any) -> Any:
    """A parsed dissent document with the markers of :func:`shared_dissent_outputs` resolved."""
    if not isinstance(data, dict) or not isinstance(data.get("positions"), list):
        return data
    resolve = _resolver(data["positions"])
    if "winning_answer" in data:
        data["winning_answer"] = resolve(data["winning_answer"])
    for position in _dicts([data.get("position")]):
        if "output" in position:
            position["output"] = resolve(position["output"])
    return data


def _resolver(positions: list[Any]) -> Callable[[Any], Any]:
    """Resolves a marker against ``positions`` (parsed); any other value is kept as it is."""
    outputs = [p.get("output") if isinstance(p, dict) else None for p in positions]

    def resolve(value: Any) -> Any:
        if not isinstance(value, dict) or _INDEX not in value or len(value) > 2:
            return value
        index = value[_INDEX]
        if not isinstance(index, int) or not 0 <= index < len(outputs):
            return value
        output = outputs[index]
        if _PATH not in value:
            return output
        found = value_at(output, value[_PATH]) if isinstance(output, Mapping) else MISSING
        return value if found is MISSING else found

    return resolve


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []
