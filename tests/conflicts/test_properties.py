"""Properties of detection and merging over generated positions."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from accord.conflicts import Detection, Position, detect, merge_complementary

from ._builders import membership

numbers = st.one_of(
    st.integers(min_value=-(10**6), max_value=10**6),
    st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False),
)
labels = st.sampled_from(
    ["accept", "reject", "Approve.", "approve", "deny", "yes", "NO", "invoice", "receipt", "memo"]
)
leaf_values = st.one_of(
    st.booleans(), numbers, labels, st.lists(st.integers(0, 3), max_size=3), st.none()
)
structured = st.dictionaries(
    st.sampled_from(["total", "label", "ok", "tags"]),
    st.one_of(leaf_values, st.dictionaries(st.sampled_from(["x", "y"]), leaf_values, max_size=2)),
    max_size=4,
)
outputs_of_one_kind = st.one_of(
    st.lists(st.booleans(), min_size=1, max_size=7),
    st.lists(numbers, min_size=1, max_size=7),
    st.lists(labels, min_size=1, max_size=7),
    st.lists(structured, min_size=1, max_size=6),
)


def as_positions(outputs: list[Any]) -> list[Position]:
    return [Position(agent=f"agent:{index}", output=output) for index, output in enumerate(outputs)]


def summary(detection: Detection) -> tuple[Any, ...]:
    fields = {
        (field.path, field.kind, field.severity, frozenset(membership(field.groups)))
        for field in detection.field_conflicts
    }
    majority = None if detection.majority is None else frozenset(detection.majority.agents)
    return (
        detection.has_conflict,
        detection.complementary,
        detection.output_kind,
        detection.kind,
        detection.severity,
        frozenset(membership(detection.groups)),
        majority,
        frozenset(fields),
    )


@settings(max_examples=300, deadline=None)
@given(outputs=outputs_of_one_kind, data=st.data())
def test_detection_does_not_depend_on_the_order_of_positions(
    outputs: list[Any], data: st.DataObject
) -> None:
    given_positions = as_positions(outputs)
    shuffled = data.draw(st.permutations(given_positions))
    assert summary(detect(shuffled)) == summary(detect(given_positions))


@settings(max_examples=300, deadline=None)
@given(outputs=outputs_of_one_kind)
def test_every_agent_sits_in_exactly_one_group(outputs: list[Any]) -> None:
    detection = detect(as_positions(outputs))
    agents = [agent for group in detection.groups for agent in group.agents]
    assert sorted(agents) == sorted(f"agent:{index}" for index in range(len(outputs)))
    sizes = [len(group.agents) for group in detection.groups]
    assert sizes == sorted(sizes, reverse=True)


@settings(max_examples=300, deadline=None)
@given(outputs=outputs_of_one_kind)
def test_an_agent_joining_the_majority_never_removes_it(outputs: list[Any]) -> None:
    given_positions = as_positions(outputs)
    before = detect(given_positions)
    if not before.has_conflict or before.majority is None:
        return
    joiner = Position(agent="agent:joiner", output=before.majority.answer)
    after = detect([*given_positions, joiner])
    assert after.has_conflict
    assert after.majority is not None
    assert set(after.majority.agents) == {*before.majority.agents, "agent:joiner"}


PATHS = ["a.x", "a.y", "a.z.q", "b", "c.d", "e", "f.g.h", "f.i"]


@st.composite
def disjoint_positions(draw: st.DrawFn) -> tuple[list[Position], dict[str, Any], dict[str, str]]:
    chosen = draw(st.lists(st.sampled_from(PATHS), min_size=1, unique=True))
    agents = draw(st.integers(min_value=1, max_value=len(chosen)))
    owners = {path: f"agent:{index % agents}" for index, path in enumerate(chosen)}
    values = {path: draw(leaf_values) for path in chosen}
    outputs: dict[str, dict[str, Any]] = {f"agent:{index}": {} for index in range(agents)}
    for path in chosen:
        node = outputs[owners[path]]
        *parents, last = path.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = values[path]
    confidences = draw(st.lists(st.floats(0, 1), min_size=agents, max_size=agents))
    result = [
        Position(agent=agent, output=output, confidence=confidence)
        for (agent, output), confidence in zip(outputs.items(), confidences, strict=True)
    ]
    return result, values, owners


def leaf_items(tree: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    for key, value in tree.items():
        path = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict) and value:
            found.extend(leaf_items(value, path))
        else:
            found.append((path, value))
    return found


@settings(max_examples=300, deadline=None)
@given(case=disjoint_positions())
def test_merging_disjoint_outputs_keeps_every_field_exactly_once(
    case: tuple[list[Position], dict[str, Any], dict[str, str]],
) -> None:
    given_positions, values, owners = case
    result = merge_complementary(given_positions)
    items = leaf_items(result.output)
    assert sorted(path for path, _ in items) == sorted(values)
    assert dict(items) == values
    assert result.provenance == {path: owners[path] for path in result.provenance}
    assert set(result.provenance) == set(values)
    assert result.conflicts_resolved == ()
    if len(given_positions) > 1:
        detection = detect(given_positions)
        assert detection.complementary
        assert not detection.has_conflict
