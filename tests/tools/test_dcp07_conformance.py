"""The DCP-07 conformance table (docs/dcp07-conformance.md) is generated, complete and honest.

Every requirement R1–R44 has a test named after it (``test_rNN_…``) or is listed in PENDING;
PENDING only shrinks: a pending requirement that gains a test fails here until it is removed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tools.dcp07_conformance import (
    CONFORMANCE_DOC,
    REQUIREMENTS_DOC,
    conformance_table,
    main,
    read_requirements,
    requirement_tests,
)

from accord.errors import ValidationError
from tests.conftest import REPO_ROOT

PENDING: frozenset[int] = frozenset()
"""Requirements with no test yet: none. A requirement that loses its last test fails here
until it is listed again (with the reason) or tested."""


def test_the_conformance_doc_equals_what_the_generator_writes() -> None:
    assert (REPO_ROOT / CONFORMANCE_DOC).read_text(encoding="utf-8") == conformance_table(
        REPO_ROOT
    ), "docs/dcp07-conformance.md is stale: run `make conformance`"


def test_every_requirement_has_a_test_or_is_pending_and_pending_only_shrinks() -> None:
    requirements = read_requirements((REPO_ROOT / REQUIREMENTS_DOC).read_text(encoding="utf-8"))
    tested = requirement_tests(REPO_ROOT / "tests", REPO_ROOT)
    untested = {r.number for r in requirements if not tested.get(r.number)}
    missing, gained = sorted(untested - PENDING), sorted(PENDING - untested)
    assert missing == [], f"requirements without a test (add one, named test_rNN_…): {missing}"
    assert gained == [], f"requirements now tested: remove them from PENDING: {gained}"


def test_the_requirement_list_names_r1_to_r44_once_each() -> None:
    requirements = read_requirements((REPO_ROOT / REQUIREMENTS_DOC).read_text(encoding="utf-8"))
    assert [r.label for r in requirements] == [f"R{n}" for n in range(1, 45)]
    assert requirements[43].text == "`DCP-DISPUTE-SIG-v2` on every signature."
    with pytest.raises(ValidationError) as caught:
        read_requirements("- R1 rule: one\n- R3 rule: three\n")
    assert caught.value.code == "dcp.requirements_malformed"


def test_test_names_with_several_requirement_tokens_count_for_each(tmp_path: Path) -> None:
    tests = tmp_path / "tests" / "room"
    tests.mkdir(parents=True)
    (tests / "test_sample.py").write_text(
        "def test_r05_r40_both():\n    pass\n\n"
        "class TestGroup:\n    def test_r07_in_a_class(self):\n        pass\n\n"
        "def test_r5_is_not_a_requirement_token():\n    pass\n"
        "def helper_r06_is_not_a_test():\n    pass\n",
        encoding="utf-8",
    )
    found = requirement_tests(tmp_path / "tests", tmp_path)
    assert found == {
        5: ["tests/room/test_sample.py::test_r05_r40_both"],
        40: ["tests/room/test_sample.py::test_r05_r40_both"],
        7: ["tests/room/test_sample.py::TestGroup::test_r07_in_a_class"],
    }


def test_the_tool_writes_the_table_and_check_reports_staleness(
    tmp_path: Path,
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / REQUIREMENTS_DOC).write_text(
        (REPO_ROOT / REQUIREMENTS_DOC).read_text(encoding="utf-8"), encoding="utf-8"
    )
    (tmp_path / "tests" / "test_x.py").write_text("def test_r01_x():\n    pass\n", "utf-8")
    assert main(["--root", str(tmp_path), "--check"]) == 1
    assert main(["--root", str(tmp_path)]) == 0
    table = (tmp_path / CONFORMANCE_DOC).read_text(encoding="utf-8")
    assert "| R1 | " in table
    assert "`tests/test_x.py::test_r01_x`" in table
    assert "1 of 44 requirements" in table
    assert main(["--root", str(tmp_path), "--check"]) == 0


def test_the_tool_without_a_requirement_list_is_a_usage_error(tmp_path: Path) -> None:
    assert main(["--root", str(tmp_path)]) == 2
