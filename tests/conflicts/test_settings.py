from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError as PydanticValidationError

from accord.conflicts import DEFAULT_INCOMPATIBLE_SETS, DetectionSettings, NumericThresholds
from accord.errors import ConfigError


def test_default_thresholds_are_ten_and_thirty_percent() -> None:
    thresholds = NumericThresholds()
    assert (thresholds.conflict_gap, thresholds.major_gap) == (0.10, 0.30)
    assert thresholds.absolute_tolerance == 1e-9


def test_conflict_gap_may_not_exceed_major_gap() -> None:
    with pytest.raises(PydanticValidationError, match="must not exceed"):
        NumericThresholds(conflict_gap=0.5, major_gap=0.3)


def test_equal_gaps_are_allowed() -> None:
    assert NumericThresholds(conflict_gap=0.2, major_gap=0.2).major_gap == 0.2


@pytest.mark.parametrize("gap", [-0.1, float("nan"), float("inf")])
def test_gaps_are_finite_and_not_negative(gap: float) -> None:
    with pytest.raises(PydanticValidationError):
        NumericThresholds(conflict_gap=gap)


def test_default_incompatible_sets_are_the_playbooks_pairs() -> None:
    assert DetectionSettings().incompatible_sets == DEFAULT_INCOMPATIBLE_SETS
    assert frozenset({"accept", "reject"}) in DEFAULT_INCOMPATIBLE_SETS


def test_incompatible_sets_and_label_values_are_stored_normalized() -> None:
    settings = DetectionSettings(
        incompatible_sets=(frozenset({"Go!", "NO GO"}),), label_values=frozenset({"Needs Review."})
    )
    assert settings.incompatible_sets == (frozenset({"go", "no go"}),)
    assert settings.label_values == frozenset({"needs review"})
    assert settings.incompatible(["go", "no go"])
    assert not settings.incompatible(["go", "go"])
    assert not settings.incompatible(["go", "maybe"])


def test_per_field_thresholds_apply_to_the_field_and_everything_beneath_it() -> None:
    tight = NumericThresholds(conflict_gap=0.01, major_gap=0.05)
    tighter = NumericThresholds(conflict_gap=0.0, major_gap=0.01)
    settings = DetectionSettings(per_field={"invoice": tight, "invoice.tax": tighter})
    assert settings.thresholds_for("invoice.total") == tight
    assert settings.thresholds_for("invoice.tax.rate") == tighter
    assert settings.thresholds_for("shipping") == settings.numeric
    assert DetectionSettings().thresholds_for("a.b") == NumericThresholds()


def test_settings_are_read_from_a_yaml_section() -> None:
    data = {
        "numeric": {"conflict_gap": 0.05, "major_gap": 0.2, "absolute_tolerance": 0},
        "per_field": {"invoice.total": {"conflict_gap": 0.01, "major_gap": 0.02}},
        "incompatible_sets": [["go", "no go"], ["merge", "block"]],
        "label_values": ["Needs Review"],
        "text_mode": "exact",
    }
    settings = DetectionSettings.from_mapping(data, source="accord.yaml", key_prefix="detection")
    assert settings.numeric == NumericThresholds(
        conflict_gap=0.05, major_gap=0.2, absolute_tolerance=0
    )
    assert settings.thresholds_for("invoice.total").major_gap == 0.02
    assert settings.incompatible_sets[0] == frozenset({"go", "no go"})
    assert settings.label_values == frozenset({"needs review"})
    assert settings.text_mode == "exact"


def test_an_empty_section_gives_the_defaults() -> None:
    assert DetectionSettings.from_mapping({}, source="a.yaml") == DetectionSettings()


@pytest.mark.parametrize(
    ("data", "code", "key_path"),
    [
        ("fast", "config.wrong_type", "detection"),
        ({"numerc": {}}, "config.unknown_key", "detection.numerc"),
        ({"numeric": {"gap": 0.1}}, "config.unknown_key", "detection.numeric.gap"),
        (
            {"per_field": {"invoice.total": {"gap": 0.1}}},
            "config.unknown_key",
            'detection.per_field["invoice.total"].gap',
        ),
        (
            {"numeric": {"conflict_gap": "10%"}},
            "config.wrong_type",
            "detection.numeric.conflict_gap",
        ),
        ({"numeric": {"major_gap": True}}, "config.wrong_type", "detection.numeric.major_gap"),
        ({"numeric": {"conflict_gap": 0.5}}, "config.invalid", "detection.numeric"),
        (
            {"numeric": {"conflict_gap": -1}},
            "config.invalid",
            "detection.numeric.conflict_gap",
        ),
        (
            {"numeric": {"major_gap": float("inf")}},
            "config.wrong_type",
            "detection.numeric.major_gap",
        ),
        ({"numeric": []}, "config.wrong_type", "detection.numeric"),
        ({"per_field": {"a..b": {}}}, "config.invalid", "detection.per_field"),
        ({"per_field": []}, "config.wrong_type", "detection.per_field"),
        (
            {"incompatible_sets": "accept,reject"},
            "config.wrong_type",
            "detection.incompatible_sets",
        ),
        (
            {"incompatible_sets": [["yes", "Yes."]]},
            "config.invalid",
            "detection.incompatible_sets[0]",
        ),
        ({"label_values": [3]}, "config.wrong_type", "detection.label_values[0]"),
        ({"text_mode": "fuzzy"}, "config.invalid", "detection.text_mode"),
    ],
)
def test_every_config_problem_names_the_file_and_key_path(
    data: Any, code: str, key_path: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        DetectionSettings.from_mapping(data, source="accord.yaml", key_prefix="detection")
    error = caught.value
    assert error.code == code
    assert error.context["file"] == "accord.yaml"
    assert error.context["key_path"] == key_path
    assert error.context["rule"]
    assert str(error).startswith(f"[{code}] accord.yaml: {key_path}: ")


def test_an_unknown_key_error_lists_the_allowed_keys() -> None:
    with pytest.raises(ConfigError) as caught:
        DetectionSettings.from_mapping({"numeric": {"gap": 1}}, source="a.yaml")
    assert "absolute_tolerance, conflict_gap, major_gap" in caught.value.context["rule"]
    assert caught.value.context["key_path"] == "numeric.gap"


def test_a_problem_with_the_whole_section_and_no_prefix_names_only_the_file() -> None:
    with pytest.raises(ConfigError) as caught:
        DetectionSettings.from_mapping(None, source="a.yaml")
    assert str(caught.value) == "[config.wrong_type] a.yaml: expected a mapping, got null"


def test_the_prose_section_is_read_strictly_and_names_its_keys() -> None:
    settings = DetectionSettings.from_mapping(
        {"prose": {"locale": "de_DE", "vocabularies": {"route": {"Expedite": ["Rush"]}}}},
        source="accord.yaml",
        key_prefix="settle.detection",
    )
    assert settings.prose.locale == "de_DE"
    assert settings.prose.vocabularies == {"route": {"expedite": ("rush",)}}
    with pytest.raises(ConfigError) as info:
        DetectionSettings.from_mapping(
            {"prose": {"max_char": 10}}, source="accord.yaml", key_prefix="settle.detection"
        )
    assert "settle.detection.prose.max_char" in str(info.value)
    assert "max_chars" in str(info.value)
    with pytest.raises(ConfigError, match="locale"):
        DetectionSettings.from_mapping(
            {"prose": {"locale": "xx_NOPE"}}, source="accord.yaml", key_prefix="settle.detection"
        )
