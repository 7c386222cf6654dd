"""The strict YAML reader bounds aliases (count and expansion) and nesting depth."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from accord.config import load_config
from accord.errors import ConfigError
from accord.org import load_org_chart
from accord.strict_yaml import MAX_ALIASES, MAX_BYTES, MAX_DEPTH, parse_yaml


def billion_laughs(levels: int = 9) -> str:
    doc = 'a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n'
    previous = "a"
    for name in "bcdefghijk"[: levels - 1]:
        doc += f"{name}: &{name} [{', '.join([f'*{previous}'] * 9)}]\n"
        previous = name
    return doc


def refused(text: str) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        parse_yaml(text, source="accord.yaml")
    assert caught.value.code == "config.yaml_limit"
    return caught.value


def test_an_alias_bomb_is_refused_at_once_naming_the_expansion_limit() -> None:
    began = time.perf_counter()
    error = refused(billion_laughs())

    assert time.perf_counter() - began < 2.0
    assert "aliases expand to more than 250,000 nodes" in error.message


def test_an_alias_bomb_in_a_tie_breakers_arguments_fails_loading_accord_yaml(tmp_path) -> None:
    laughs = "".join("  " + line + "\n" for line in billion_laughs().splitlines())
    path = tmp_path / "accord.yaml"
    path.write_text(
        "x-anchors:\n" + laughs + "boundary:\n  tie_breakers:\n"
        "    '*':\n      probe: p\n      arguments: {many: *i}\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError) as caught:
        load_config(path)

    assert caught.value.code == "config.yaml_limit"
    assert caught.value.context["line"] is not None


def test_more_aliases_than_the_limit_are_refused() -> None:
    doc = "a: &a 1\nb: [" + ", ".join(["*a"] * (MAX_ALIASES + 1)) + "]\n"

    assert f"more than {MAX_ALIASES} aliases" in refused(doc).message


@pytest.mark.parametrize(
    "doc",
    [
        "x: " + "[" * 500 + "]" * 500,
        "x:\n" + "".join("  " * depth + "- \n" for depth in range(1, 500)),
        "x: " + "{a: " * 500 + "1" + "}" * 500,
    ],
)
def test_yaml_nested_500_deep_is_refused_with_the_line_instead_of_a_traceback(doc: str) -> None:
    error = refused(doc)

    assert f"nested more than {MAX_DEPTH} levels deep" in error.message
    assert error.context["line"] is not None


def test_aliases_that_nest_too_deep_once_expanded_are_refused() -> None:
    half = "[" * 40 + "1" + "]" * 40
    doc = f"a: &a {half}\nb: {'[' * 30}*a{']' * 30}\n"

    assert "once aliases are expanded" in refused(doc).message


def test_an_alias_inside_its_own_anchor_is_refused() -> None:
    assert "once aliases are expanded" in refused("a: &a [*a]\n").message


def test_ordinary_anchors_and_merge_keys_still_load() -> None:
    doc = "base: &base {k: 1, j: 2}\nuse: {<<: *base, k: 3}\nlist: [*base, *base]\n"

    assert parse_yaml(doc, source="t.yaml")["use"] == {"k": 3, "j": 2}


@pytest.mark.parametrize("load", [load_config, load_org_chart], ids=["config", "org chart"])
def test_a_yaml_file_larger_than_the_limit_is_refused_before_it_is_read(
    tmp_path: Path, load: Callable[[Path], object]
) -> None:
    path = tmp_path / "accord.yaml"
    with path.open("wb") as out:
        out.truncate(MAX_BYTES + 1)
    with pytest.raises(ConfigError) as caught:
        load(path)

    assert caught.value.code == "config.yaml_limit"
    assert f"{MAX_BYTES:,}" in caught.value.message


def test_an_integer_of_5000_digits_is_refused_naming_the_line_and_the_limit() -> None:
    error = refused("ledger:\n  checkpoint_every: " + "9" * 5000 + "\n")
    assert "line 2" in error.message
    assert "an integer of 5,000 characters: at most 64 digits" in error.message


def test_integers_within_the_limit_still_read_in_every_yaml_form() -> None:
    assert parse_yaml("a: 1_024\nb: 0x10\nc: -7\nd: " + "9" * 64, source="x") == {
        "a": 1024,
        "b": 16,
        "c": -7,
        "d": int("9" * 64),
    }
