"""Reading drafts from a file: bounded, and every refusal names the file, field and rule."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from accord.errors import ValidationError
from accord.limits import Limits
from accord.precedents import read_draft_file
from tests.precedents.conftest import draft_data


def _write(tmp_path: Path, content: str | bytes) -> Path:
    path = tmp_path / "drafts.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def test_r23_one_object_or_an_array_of_drafts_is_read(tmp_path: Path) -> None:
    one = _write(tmp_path, json.dumps(draft_data()))
    assert len(read_draft_file(one, Limits())) == 1
    many = _write(tmp_path, json.dumps([draft_data(), draft_data()]))
    assert len(read_draft_file(many, Limits())) == 2


@pytest.mark.parametrize(
    ("content", "code", "says"),
    [
        ("[]", "precedents.invalid", "an array of 1 to"),
        ("[1]", "precedents.invalid", "[0]: a draft is a JSON object"),
        ("{", "json.syntax", "not valid JSON"),
        (b'{"dispute_id": "\xff"}', "precedents.encoding", "not UTF-8"),
        (json.dumps({**draft_data(), "verdict": "x"}), "precedents.invalid", "verdict"),
        ('{"n": ' + "9" * 100 + "}", "limits.exceeded", "json_integer_digits"),
    ],
)
def test_a_bad_drafts_file_is_refused_naming_the_file_and_the_rule(
    tmp_path: Path, content: str | bytes, code: str, says: str
) -> None:
    path = _write(tmp_path, content)
    with pytest.raises(ValidationError) as caught:
        read_draft_file(path, Limits())
    assert caught.value.code == code
    assert str(path) in caught.value.message
    assert says in caught.value.message


def test_a_file_above_the_size_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = _write(tmp_path, json.dumps(draft_data()))
    with pytest.raises(ValidationError) as caught:
        read_draft_file(path, Limits(), max_bytes=100)
    assert caught.value.code == "limits.exceeded"
    assert caught.value.context["limit"] == "limits.precedent_file_bytes"


def test_a_missing_file_is_refused_naming_it(tmp_path: Path) -> None:
    with pytest.raises(ValidationError) as caught:
        read_draft_file(tmp_path / "nope.json", Limits())
    assert caught.value.code == "precedents.unreadable"
