"""How a verify failure is worded: always the entry, checkpoint or case, and the check."""

from __future__ import annotations

from pathlib import Path

import pytest

from accord.cli.not_verified import describe_failure
from accord.errors import ValidationError, VerificationFailed
from accord.safe_files import write_text_file


@pytest.mark.parametrize(
    ("error", "line"),
    [
        (
            VerificationFailed("entry 5: bad", seq=5, field="signature"),
            "first bad entry: 5 (signature): entry 5: bad",
        ),
        (
            VerificationFailed("x", code="ledger.bad_signature", tree_size=8, field="signature"),
            "checkpoint at size 8 (signature): x",
        ),
        (
            VerificationFailed("gone", code="ledger.truncated", tree_size=9, seq=4, field="seq"),
            "first bad entry: 4 (seq): gone",
        ),
        (
            VerificationFailed("y", tree_size=3, field="root_hash", check="trusted_checkpoint"),
            "trusted checkpoint at size 3 (root_hash): y",
        ),
        (VerificationFailed("case disp:1: winner", case_id="disp:1"), "case disp:1: winner"),
        (VerificationFailed("odd"), "[ledger.verification_failed] odd"),
    ],
)
def test_every_failure_names_what_failed_and_never_none(
    error: VerificationFailed, line: str
) -> None:
    assert describe_failure(error) == line
    assert "None" not in describe_failure(error)


def test_a_file_in_a_missing_folder_is_an_unwritable_path_not_a_traceback(tmp_path: Path) -> None:
    with pytest.raises(ValidationError) as err:
        write_text_file(tmp_path / "absent" / "x.json", "{}")
    assert err.value.code == "files.unwritable"
    assert not (tmp_path / "absent").exists()
