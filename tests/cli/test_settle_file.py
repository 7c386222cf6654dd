"""`accord settle` reads one case, an array or JSON Lines within the limits, checks every case
against the settle file schema before writing anything, and `accord schema settle` prints it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from accord.cases.settle_format import SettleCase, settle_file_schema

from .conftest import Run

DB = "sqlite:///settle.db"


def case(i: int, **extra: object) -> dict[str, object]:
    return {
        "subject": f"Total of invoice {i}",
        "positions": [
            {"agent": "agent:billing", "output": 1200 + i, "confidence": 0.9},
            {"agent": "agent:audit", "output": 1450 + i, "confidence": 0.6},
        ],
        **extra,
    }


def settle(run: Run, text: str, *options: str, name: str = "cases.jsonl"):  # type: ignore[no-untyped-def]
    Path(name).write_text(text, encoding="utf-8")
    return run("settle", name, "--db", DB, "--keys", "keys", *options)


def recorded(run: Run) -> int:
    if not Path("settle.db").exists():
        return 0
    return len(json.loads(run("cases", "--db", DB, "--keys", "keys", "--json").stdout))


def limits_config(**limits: int) -> str:
    lines = "".join(f"  {key}: {value}\n" for key, value in limits.items())
    Path("accord.yaml").write_text(f"limits:\n{lines}", encoding="utf-8")
    return "accord.yaml"


def test_json_lines_are_settled_in_batches_and_printed_one_decision_per_line(run: Run) -> None:
    config = limits_config(cases_per_batch=2)
    text = "".join(json.dumps(case(i)) + "\n" for i in range(5)) + "\n"
    result = settle(run, text, "--config", config)

    assert result.exit_code == 0, result.output
    decisions = [json.loads(line) for line in result.stdout.splitlines()]
    assert [d["winner"] for d in decisions] == ["agent:billing"] * 5
    assert recorded(run) == 5


def test_an_array_is_printed_as_the_same_json_array_as_before(run: Run) -> None:
    result = settle(run, json.dumps([case(1), case(2)]), name="cases.json")

    decisions = json.loads(result.stdout)
    assert [d["answer"] for d in decisions] == [1201, 1202]
    assert result.stdout.startswith("[\n  {\n")


def test_a_pretty_printed_single_case_is_one_object(run: Run) -> None:
    result = settle(run, json.dumps(case(1), indent=2), name="case.json")

    assert json.loads(result.stdout)["status"] == "settled"


def test_a_bad_case_on_line_3_is_named_by_line_and_field_and_nothing_is_written(
    run: Run,
) -> None:
    bad = case(3)
    bad["positions"][1]["agent"] = "agent:\u202eaudit"  # type: ignore[index]
    lines = [json.dumps(case(1)), json.dumps(case(2)), json.dumps(bad), json.dumps(case(4))]
    result = settle(run, "\n".join(lines) + "\n", "--config", limits_config(cases_per_batch=1))

    assert result.exit_code == 2
    assert "cases.jsonl: line 3: positions.1.agent: printable text only" in result.output
    assert recorded(run) == 0


def test_a_case_breaking_a_settle_rule_is_found_before_any_batch_is_written(run: Run) -> None:
    bad = case(3)
    bad["positions"][1]["output"] = "1450"  # type: ignore[index]
    lines = [json.dumps(case(1)), json.dumps(case(2)), json.dumps(bad)]
    result = settle(run, "\n".join(lines), "--config", limits_config(cases_per_batch=1))

    assert result.exit_code == 2
    assert "line 3: " in result.output
    assert recorded(run) == 0


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('{"subject": "s", "positions": ' + "[" * 1000 + "]" * 1000 + "}", "limits.json_depth"),
        ('{"subject": "s", "positions": [{"agent": "a", "output": ' + "7" * 4301 + "}]}",
         "limits.json_integer_digits"),
        ('{"subject": "s", "positions": [{"agent": "a", "output": NaN}]}', "not a JSON number"),
        ('{"subject": "s\\u0000", "positions": [{"agent": "a", "output": 1}, '
         '{"agent": "b", "output": 2}]}', "U+0000"),
    ],
    ids=["nested_1000_deep", "integer_of_4301_digits", "nan", "nul_in_subject"],
)
def test_hostile_json_exits_2_with_an_error_instead_of_a_traceback(
    run: Run, text: str, needle: str
) -> None:
    result = settle(run, text, name="case.json")

    assert result.exit_code == 2
    assert needle in result.output
    assert "Traceback" not in result.output


def test_a_file_larger_than_the_limit_is_refused_before_it_is_read(run: Run) -> None:
    result = settle(run, json.dumps([case(i) for i in range(20)]), "--config",
                    limits_config(settle_file_bytes=1000), name="big.json")

    assert result.exit_code == 2
    assert "limits.settle_file_bytes = 1,000" in result.output


def test_a_line_longer_than_the_case_limit_is_refused_naming_the_line(run: Run) -> None:
    long_case = case(2, task_type="t" * 100)
    text = json.dumps(case(1)) + "\n" + json.dumps(long_case) + "\n"
    result = settle(run, text, "--config", limits_config(case_bytes=len(json.dumps(case(1))) + 5))

    assert result.exit_code == 2
    assert "line 2" in result.output
    assert "limits.case_bytes" in result.output


def test_more_positions_than_the_limit_exit_2_naming_the_limit(run: Run) -> None:
    many = {"subject": "s", "positions": [{"agent": f"a{i}", "output": i} for i in range(3)]}
    result = settle(run, json.dumps(many), "--config", limits_config(positions_per_case=2))

    assert result.exit_code == 2
    assert "limits.positions_per_case = 2" in result.output


def test_an_unknown_limit_in_accord_yaml_is_a_config_error(run: Run) -> None:
    result = settle(run, json.dumps(case(1)), "--config", limits_config(bogus=1))

    assert result.exit_code == 2
    assert "limits.bogus" in result.output


def test_stdin_is_read_once_and_settled(run: Run, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from accord.cli.main import app

    text = "".join(json.dumps(case(i)) + "\n" for i in range(3))
    result = CliRunner().invoke(app, ["settle", "-", "--db", DB, "--keys", "keys"], input=text)

    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) == 3


def test_schema_settle_prints_the_json_schema_generated_from_the_case_model(run: Run) -> None:
    result = run("schema", "settle")

    schema = json.loads(result.stdout)
    assert schema == settle_file_schema()
    case_schema = schema["$defs"]["SettleCase"]
    assert case_schema["required"] == ["subject", "positions"]
    assert case_schema["additionalProperties"] is False
    assert schema["$defs"]["Position"]["properties"]["agent"]["maxLength"] == 256
    assert set(case_schema["properties"]) == set(SettleCase.model_fields)


def test_every_case_the_schema_calls_valid_here_settles(run: Run) -> None:
    import jsonschema  # installed with the dcp-ai test dependency
    schema = settle_file_schema()
    jsonschema.validate([case(1), case(2)], schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"subject": "s", "positions": [], "extra": 1}, schema)


def test_a_line_that_is_not_utf8_is_named(run: Run) -> None:
    Path("cases.jsonl").write_bytes(
        json.dumps(case(1)).encode() + b"\n" + b'{"subject": "\xff"}\n'
    )
    result = run("settle", "cases.jsonl", "--db", DB, "--keys", "keys")

    assert result.exit_code == 2
    assert "cases.jsonl: line 2: not UTF-8 text" in result.output


def test_a_file_without_cases_exits_2(run: Run) -> None:
    result = settle(run, "\n\n", name="empty.jsonl")

    assert result.exit_code == 2
    assert recorded(run) == 0
