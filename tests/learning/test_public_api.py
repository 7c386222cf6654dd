from __future__ import annotations

import accord.learning


def test_the_learning_room_exports_its_public_names_in_sorted_order() -> None:
    names = accord.learning.__all__
    assert names == sorted(names, key=lambda n: (not n[0].isupper(), n))
    for required in (
        "LabelMatrix",
        "fit_dawid_skene",
        "majority_vote",
        "weighted_vote",
        "reliability_weights",
        "fit_numeric_reliability",
        "load_crowd_dataset",
        "evaluate_crowd",
        "WinRateTracker",
        "CaseOutcome",
        "estimate_reliability",
        "root_cause_report",
        "render_report",
    ):
        assert required in names


def test_every_exported_name_exists_and_has_a_docstring() -> None:
    for name in accord.learning.__all__:
        value = getattr(accord.learning, name)
        assert value.__doc__, name


def test_importing_the_room_does_not_load_pyplot() -> None:
    import subprocess
    import sys

    code = "import sys, accord.learning; print('matplotlib.pyplot' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"
