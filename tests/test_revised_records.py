"""Records change through their validating constructors (``accord.values.revised``), never
through ``model_copy(update=...)``, which skips the validators."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "accord"
# Swaps outputs for storage markers; the case is validated again when it is read back.
ALLOWED = {"cases/shared_outputs.py"}


def _copies_with_update(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "model_copy"
        and any(k.arg == "update" for k in node.keywords)
    ]


def test_no_record_is_copied_past_its_validators() -> None:
    found = {
        f"{path.relative_to(SRC)}:{line}"
        for path in SRC.rglob("*.py")
        if str(path.relative_to(SRC)) not in ALLOWED
        for line in _copies_with_update(path)
    }
    assert found == set()


def test_the_scan_sees_a_copy_with_update(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("case = case.model_copy(update={'winner': 'agent:a'})\n")
    assert _copies_with_update(sample) == [1]
