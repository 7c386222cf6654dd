"""The house plan is true: the room table in docs/architecture.md is what the code imports.

Each row of the table names a room (a folder ``x/`` or a top-level module ``x.py``) and the
rooms it may import; the ground floor (the top-level helper modules) may be imported by all.
These tests read the imports of every module under ``src/accord`` as text (``ast``) and hold
them against the table, so neither the code nor the page can drift alone.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from tests.conftest import REPO_ROOT

SRC = REPO_ROOT / "src" / "accord"
ARCHITECTURE = REPO_ROOT / "docs" / "architecture.md"
GROUND = "ground floor"
EVERYTHING = "everything"
FRONT_ENDS = ("api", "cli", "integrations")
DEEP_IMPORTS_ALLOWED = 10
"""Issue 27: the front ends import at most this many modules below a room's face."""


def _room_of(path: Path) -> str:
    parts = path.relative_to(SRC).parts
    return parts[0] if len(parts) > 1 else Path(parts[0]).stem


@cache
def _table() -> dict[str, set[str]]:
    """Room → the rooms its row says it may import ({"everything"} for the top floors)."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("## Rooms", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, set[str]] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        named = re.findall(r"`([^`]+)`", cells[0])
        names = [n.removesuffix("/").removesuffix(".py") for n in named]
        allowed = set(re.findall(r"`([^`/]+)/?`", cells[2]))
        allowed = {a.removesuffix(".py") for a in allowed}
        if EVERYTHING in cells[2]:
            allowed.add(EVERYTHING)
        for name in names:
            assert name not in rows, f"{name} has two rows in the room table"
            rows[name] = allowed
    return rows


def _ground_floor() -> set[str]:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith(f"| {GROUND}"))
    return {n.removesuffix(".py") for n in re.findall(r"`(\w+\.py)`", row.split("|")[2])}


def _modules() -> Iterator[Path]:
    yield from sorted(p for p in SRC.rglob("*.py") if "__pycache__" not in p.parts)


def _imports(path: Path) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.startswith("accord."):
                yield node.module
        elif isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name.startswith("accord."))


def _rooms() -> set[str]:
    return {_room_of(p) for p in _modules()} - {"__init__"}


def test_every_room_of_the_library_has_one_row_in_the_room_table() -> None:
    described = set(_table()) | _ground_floor()
    assert sorted(_rooms() - described) == [], "rooms missing from docs/architecture.md"
    assert sorted(described - _rooms()) == [], "rows naming rooms that do not exist"


def test_each_room_imports_only_what_its_row_allows() -> None:
    table, ground = _table(), _ground_floor()
    wrong: list[str] = []
    for path in _modules():
        room = _room_of(path)
        allowed = table.get(room, ground) | ground | {room}
        if room == "__init__" or EVERYTHING in allowed:
            continue
        for module in _imports(path):
            target = module.split(".")[1]
            if target not in allowed:
                wrong.append(f"{path.relative_to(SRC)} imports {module}")
    assert wrong == []


def test_the_room_table_points_down_only() -> None:
    table = _table()
    seen: set[str] = set()

    def visit(room: str, path: tuple[str, ...]) -> None:
        assert room not in path, f"the room table has a circle: {' -> '.join((*path, room))}"
        if room in seen:
            return
        for target in table.get(room, set()) - {EVERYTHING, room}:
            visit(target, (*path, room))
        seen.add(room)

    for room in table:
        visit(room, ())


def test_no_room_holds_more_than_a_fifth_of_the_library() -> None:
    lines = Counter[str]()
    for path in _modules():
        lines[_room_of(path)] += len(path.read_text(encoding="utf-8").splitlines())
    total = sum(lines.values())
    assert {room: n for room, n in lines.items() if n > total / 5} == {}


def test_the_front_ends_import_the_rooms_through_their_faces() -> None:
    packages = {p.parent.name for p in SRC.glob("*/__init__.py")}
    below_a_face: set[str] = set()
    for path in _modules():
        if _room_of(path) not in FRONT_ENDS:
            continue
        for module in _imports(path):
            parts = module.split(".")
            if parts[1] in packages and parts[1] not in FRONT_ENDS and len(parts) > 2:
                below_a_face.add(module)
    assert len(below_a_face) <= DEEP_IMPORTS_ALLOWED, sorted(below_a_face)
    assert below_a_face <= {"accord.store.tables", "accord.store.driver_query"}, (
        "a front end reaches below a face: export the name from the room's __init__.py"
    )


def test_every_room_has_a_face_whose_names_all_exist() -> None:
    for face in sorted(SRC.glob("*/__init__.py")):
        module = importlib.import_module(f"accord.{face.parent.name}")
        names = getattr(module, "__all__", None)
        assert names is not None, f"accord.{face.parent.name} has no __all__"
        assert [n for n in names if not hasattr(module, n)] == [], face
