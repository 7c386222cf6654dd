from __future__ import annotations

from pathlib import Path

import pytest

from accord.errors import ValidationError
from accord.learning import evaluate_crowd, load_crowd_dataset


def _write(directory: Path, answers: str, truth: str = "question,truth\n") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "answers.csv").write_text(answers, encoding="utf-8")
    (directory / "truth.csv").write_text(truth, encoding="utf-8")
    return directory


def test_it_loads_answers_and_truth_with_columns_in_any_order(tmp_path: Path) -> None:
    directory = _write(
        tmp_path / "toy",
        "answer,worker,question,extra\nyes,amy,q1,x\nno,bob,q1,\n\nyes,amy,q2,y\n",
        "truth,question\nyes,q1\nno,q2\n",
    )
    dataset = load_crowd_dataset(directory)
    assert dataset.name == "toy"
    assert dataset.answers == (("q1", "amy", "yes"), ("q1", "bob", "no"), ("q2", "amy", "yes"))
    assert dict(dataset.truth) == {"q1": "yes", "q2": "no"}
    assert not dataset.numeric


def test_a_missing_header_column_names_the_file_line_and_column(tmp_path: Path) -> None:
    directory = _write(tmp_path, "question,answer\nq1,yes\n")
    with pytest.raises(ValidationError) as caught:
        load_crowd_dataset(directory)
    error = caught.value
    assert error.context == {"file": str(directory / "answers.csv"), "line": 1, "column": "worker"}
    assert "answers.csv, line 1, column 'worker'" in str(error)


def test_an_empty_field_names_the_file_line_and_column(tmp_path: Path) -> None:
    directory = _write(tmp_path, "question,worker,answer\nq1,amy,yes\nq2, ,no\n")
    with pytest.raises(ValidationError, match="line 3, column 'worker': empty field") as caught:
        load_crowd_dataset(directory)
    assert caught.value.context["line"] == 3


def test_a_row_with_the_wrong_number_of_fields_names_its_line(tmp_path: Path) -> None:
    directory = _write(tmp_path, "question,worker,answer\nq1,amy,yes,oops\n")
    with pytest.raises(ValidationError, match="line 2: expected 3 fields, found 4"):
        load_crowd_dataset(directory)


def test_an_empty_truth_field_names_the_truth_file(tmp_path: Path) -> None:
    directory = _write(tmp_path, "question,worker,answer\nq1,amy,yes\n", "question,truth\nq1,\n")
    with pytest.raises(ValidationError) as caught:
        load_crowd_dataset(directory)
    assert caught.value.context == {
        "file": str(directory / "truth.csv"),
        "line": 2,
        "column": "truth",
    }


def test_an_empty_file_lacks_every_header_column(tmp_path: Path) -> None:
    directory = _write(tmp_path, "")
    with pytest.raises(ValidationError, match="line 1, column 'question'"):
        load_crowd_dataset(directory)


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    (tmp_path / "answers.csv").write_text("question,worker,answer\n", encoding="utf-8")
    with pytest.raises(ValidationError, match=r"truth\.csv: file not found"):
        load_crowd_dataset(tmp_path)


def test_a_question_with_two_truths_is_rejected(tmp_path: Path) -> None:
    directory = _write(
        tmp_path, "question,worker,answer\nq1,amy,yes\n", "question,truth\nq1,yes\nq1,no\n"
    )
    with pytest.raises(ValidationError, match=r"line 3, column 'question'.*appears twice"):
        load_crowd_dataset(directory)


def test_fractional_answers_are_numeric(tmp_path: Path) -> None:
    directory = _write(tmp_path, "question,worker,answer\nq1,amy,1.5\nq1,bob,2\n")
    assert load_crowd_dataset(directory).numeric


def test_few_integer_answers_are_categorical_and_many_are_numeric(tmp_path: Path) -> None:
    few = _write(tmp_path / "few", "question,worker,answer\nq1,amy,0\nq1,bob,1\n")
    assert not load_crowd_dataset(few).numeric
    rows = "".join(f"q{i},amy,{i}\n" for i in range(21))
    many = _write(tmp_path / "many", "question,worker,answer\n" + rows)
    assert load_crowd_dataset(many).numeric


def test_the_caller_may_force_numeric_and_then_every_answer_must_be_a_number(
    tmp_path: Path,
) -> None:
    directory = _write(tmp_path, "question,worker,answer\nq1,amy,1\nq1,bob,many\n")
    assert not load_crowd_dataset(directory).numeric
    with pytest.raises(ValidationError, match="line 3, column 'answer': not a finite number"):
        load_crowd_dataset(directory, numeric=True)


def test_numeric_truth_must_be_a_number(tmp_path: Path) -> None:
    directory = _write(tmp_path, "question,worker,answer\nq1,amy,1.5\n", "question,truth\nq1,inf\n")
    with pytest.raises(ValidationError, match="column 'truth': not a finite number"):
        load_crowd_dataset(directory)


def test_categorical_evaluation_scores_only_answered_items_with_truth(tmp_path: Path) -> None:
    answers = (
        "question,worker,answer\n"
        "q1,a,yes\nq1,b,yes\nq1,c,no\n"
        "q2,a,no\nq2,b,no\nq2,c,no\n"
        "q3,a,yes\nq3,b,no\nq3,c,no\n"
    )
    truth = "question,truth\nq1,yes\nq2,yes\nq9,no\n"
    evaluation = evaluate_crowd(_write(tmp_path / "tiny", answers, truth))
    assert evaluation.dataset == "tiny"
    assert (evaluation.items, evaluation.workers, evaluation.answers) == (3, 3, 9)
    assert evaluation.truth_items == 2
    assert evaluation.majority_accuracy == 0.5
    assert evaluation.weighted_accuracy is not None
    assert evaluation.iterations >= 1
    assert evaluation.mae_mean is None
    assert evaluation.rmse_weighted is None


def test_without_any_truth_the_accuracies_are_absent(tmp_path: Path) -> None:
    evaluation = evaluate_crowd(_write(tmp_path, "question,worker,answer\nq1,a,yes\n"))
    assert evaluation.truth_items == 0
    assert evaluation.majority_accuracy is None
    assert evaluation.weighted_accuracy is None


def test_numeric_evaluation_reports_errors_of_the_mean_and_of_accord(tmp_path: Path) -> None:
    rows = []
    truth_rows = []
    for i in range(40):
        value = 10.0 * i
        truth_rows.append(f"q{i},{value}")
        rows += [f"q{i},good-1,{value + 0.1}", f"q{i},good-2,{value - 0.1}"]
        rows.append(f"q{i},wild,{value + (50.5 if i % 2 else -50.5)}")
    directory = _write(
        tmp_path,
        "question,worker,answer\n" + "\n".join(rows) + "\n",
        "question,truth\n" + "\n".join(truth_rows) + "\n",
    )
    evaluation = evaluate_crowd(directory)
    assert evaluation.numeric
    assert (evaluation.items, evaluation.workers, evaluation.answers) == (40, 3, 120)
    assert evaluation.truth_items == 40
    assert evaluation.majority_accuracy is None
    assert evaluation.mae_mean == pytest.approx(50.5 / 3)
    assert evaluation.mae_weighted is not None
    assert evaluation.mae_weighted < 0.5
    assert evaluation.rmse_weighted is not None
    assert evaluation.rmse_mean is not None
    assert evaluation.rmse_weighted < evaluation.rmse_mean


def test_numeric_evaluation_without_truth_reports_no_errors(tmp_path: Path) -> None:
    evaluation = evaluate_crowd(_write(tmp_path, "question,worker,answer\nq1,a,1.5\n"))
    assert evaluation.truth_items == 0
    assert evaluation.mae_mean is None
    assert evaluation.mae_weighted is None
