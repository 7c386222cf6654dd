"""accord.yaml: defaults, precedence, and errors that name the file, key path and rule."""

from __future__ import annotations

import logging
import warnings
from pathlib import Path

import pytest

from accord.config import Settings, load_config, settings_from_mapping
from accord.errors import ConfigError


def write(tmp_path: Path, text: str, name: str = "accord.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_no_file_means_defaults() -> None:
    loaded = load_config(None)
    assert loaded.settings == Settings()
    assert loaded.org is None


def test_a_full_file_loads_with_an_org_chart_by_reference(tmp_path: Path) -> None:
    from importlib.resources import files

    (tmp_path / "org.yaml").write_text(
        files("accord").joinpath("examples/org.yaml").read_text(encoding="utf-8")
    )
    path = write(
        tmp_path,
        "database: {url: 'sqlite:///x.db', sqlite_synchronous: NORMAL}\n"
        "keys: {directory: k, service_key: svc}\n"
        "ledger: {checkpoint_every: 10}\n"
        "org: org.yaml\n",
    )
    loaded = load_config(path)
    assert loaded.settings.ledger.checkpoint_every == 10
    assert loaded.keys_directory() == (tmp_path / "k").resolve()
    assert loaded.org is not None
    assert len(loaded.org) > 5


def test_an_inline_org_chart_reports_errors_under_the_org_key(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "org:\n  organization: acme\n  departments: [{name: eng}]\n"
        "  agents:\n    - {id: 'agent:a', principal: 'human:p', department: eng,"
        " seniority: senior, manager: 'agent:ghost'}\n",
    )
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert err.value.context["key_path"] == "org.agents[0].manager"


@pytest.mark.parametrize(
    ("text", "where", "rule"),
    [
        ("ledger: {checkpoint_evry: 3}\n", "ledger.checkpoint_evry", "unknown key"),
        ("ledger: {checkpoint_every: often}\n", "ledger.checkpoint_every", "integer"),
        ("ledger: {checkpoint_every: 0}\n", "ledger.checkpoint_every", "greater than"),
        ("database: {sqlite_synchronous: SOMETIMES}\n", "database.sqlite_synchronous", "must be"),
        ("bogus: 1\n", "bogus", "unknown key"),
        ("- just\n- a list\n", "(top level)", "mapping"),
    ],
)
def test_bad_settings_name_the_file_key_path_and_rule(
    tmp_path: Path, text: str, where: str, rule: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert err.value.context["file"] == str(path)
    assert err.value.context["key_path"] == where
    assert rule in err.value.context["rule"]
    assert str(path) in str(err.value)


def test_invalid_yaml_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, "ledger:\n  checkpoint_every: [1, 2\n")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert err.value.code == "config.yaml_syntax"
    assert err.value.context["line"] is not None


def test_an_unreadable_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as err:
        load_config(tmp_path / "missing.yaml")
    assert err.value.code == "config.unreadable"


def test_an_unknown_top_level_key_is_named_as_it_was_written() -> None:
    with pytest.raises(ConfigError) as err:
        settings_from_mapping({"databse": {}}, source="accord.yaml")
    assert err.value.context["key_path"] == "databse"
    assert err.value.context["rule"].startswith(
        "unknown key; allowed keys: approvals, arbitrators, boundary, classification"
    )


def test_a_key_that_takes_several_forms_says_which_and_hides_pydantic_s_branch_names() -> None:
    with pytest.raises(ConfigError) as err:
        settings_from_mapping({"org": 5}, source="accord.yaml")
    assert err.value.context["key_path"] == "org"
    assert "path to an org chart file" in err.value.context["rule"]
    with pytest.raises(ConfigError) as task:
        settings_from_mapping({"settle": {"task_types": {"invoicing": 5}}}, source="accord.yaml")
    assert task.value.context["key_path"] == "settle.task_types.invoicing"
    assert "TaskTypeConfig" not in task.value.context["rule"]


def test_a_key_written_twice_in_accord_yaml_is_refused_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "accord.yaml"
    path.write_text("learning:\n  refit_every: 10\n  refit_every: 20\n")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert err.value.code == "config.duplicate_key"
    assert err.value.context["line"] == 3


def test_a_config_file_that_is_not_utf8_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "accord.yaml"
    path.write_bytes(b"learning: {refit_every: 10}\n# caf\xe9\n")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert err.value.code == "config.unreadable"
    assert "UTF-8" in err.value.message


def test_a_task_type_overrides_only_the_detection_keys_it_names(tmp_path: Path) -> None:
    path = tmp_path / "accord.yaml"
    path.write_text(
        "settle:\n"
        "  detection: {numeric: {conflict_gap: 0.05, major_gap: 0.20}}\n"
        "  task_types:\n"
        "    invoicing: {detection: {numeric: {conflict_gap: 0.01}}}\n"
    )
    settings = load_config(path).decide
    invoicing = settings.detection_for("invoicing").numeric
    assert invoicing.conflict_gap == 0.01
    assert invoicing.major_gap == 0.20  # kept from the company-wide settings
    assert settings.detection_for("other").numeric.conflict_gap == 0.05


def test_a_yaml_merge_key_may_be_overridden_by_a_key_written_beside_it(tmp_path: Path) -> None:
    path = tmp_path / "accord.yaml"
    path.write_text(
        "x-numeric: &numeric {conflict_gap: 0.05, major_gap: 0.2}\n"
        "settle:\n  detection:\n    numeric: {<<: *numeric, conflict_gap: 0.02}\n"
    )
    with pytest.raises(ConfigError):  # x-numeric itself is not a setting: refused as unknown
        load_config(path)
    path.write_text(
        "settle:\n  detection:\n    numeric: &numeric {conflict_gap: 0.05, major_gap: 0.2}\n"
        "  task_types:\n    invoicing:\n      detection:\n"
        "        numeric: {<<: *numeric, conflict_gap: 0.02}\n"
    )
    invoicing = load_config(path).decide.detection_for("invoicing").numeric
    assert (invoicing.conflict_gap, invoicing.major_gap) == (0.02, 0.2)


# --- the strategy chains: conflict_resolution.chains (classification.chains is deprecated) ---

CHAIN = "[source_verification, confidence, vote, arbitration, human]"


def test_conflict_resolution_chains_set_the_decision_tables_chains(tmp_path: Path) -> None:
    from accord.conflicts import ConflictKind, Severity

    path = write(
        tmp_path,
        "classification: {critical_starts_at_human_appeal: true}\n"
        "conflict_resolution:\n"
        "  strategy: debate\n"
        f"  chains: {{default: [vote, human], numerical_inconsistency: {{high: {CHAIN}}}}}\n",
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the new key warns about nothing
        table = load_config(path).decide.table
    assert table.critical_starts_at_human_appeal is True
    assert table.default_chain == ("vote", "human")
    assert table.chain_for(ConflictKind.NUMERICAL_INCONSISTENCY, Severity.HIGH) == (
        "source_verification",
        "confidence",
        "vote",
        "arbitration",
        "human",
    )


def test_the_old_classification_chains_key_still_works_and_warns_naming_the_new_key(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    old = write(tmp_path, f"classification:\n  chains: {{default: {CHAIN}}}\n", "old.yaml")
    new = write(tmp_path, f"conflict_resolution:\n  chains: {{default: {CHAIN}}}\n", "new.yaml")
    with (
        caplog.at_level(logging.WARNING, logger="accord"),
        pytest.warns(DeprecationWarning, match="conflict_resolution.chains") as warned,
    ):
        from_old = load_config(old)
    assert len(warned) == 1
    assert "classification.chains is deprecated" in str(warned[0].message)
    assert str(old) in str(warned[0].message)
    logged = [r.getMessage() for r in caplog.records if "config.deprecated_key" in r.getMessage()]
    assert len(logged) == 1
    assert "replacement='conflict_resolution.chains'" in logged[0]
    assert "key='classification.chains'" in logged[0]
    assert from_old.decide.table == load_config(new).decide.table
    assert from_old.decide.table.default_chain[-1] == "human"
    assert from_old.policy.chains == load_config(new).policy.chains


def test_an_error_in_the_old_chains_key_names_the_old_key(tmp_path: Path) -> None:
    path = write(tmp_path, "classification:\n  chains: {default: [vote, coin_toss]}\n")
    with (
        pytest.warns(DeprecationWarning, match="classification.chains is deprecated"),
        pytest.raises(ConfigError) as err,
    ):
        load_config(path)
    assert err.value.context["key_path"] == "classification.chains.default[1]"
    assert "unknown step 'coin_toss'" in err.value.context["rule"]


def test_both_chains_keys_at_once_are_refused_naming_the_key_to_keep(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "classification:\n  chains: {default: [vote, human]}\n"
        "conflict_resolution:\n  chains: {default: [confidence, human]}\n",
    )
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert err.value.code == "config.duplicate_key"
    assert err.value.context["key_path"] == "classification.chains"
    assert "keep only conflict_resolution.chains" in err.value.context["rule"]


@pytest.mark.parametrize("level", ["departments: {finance", "conflict_types: {logical_conflict"])
def test_chains_are_refused_below_the_company_level_of_the_policy(
    tmp_path: Path, level: str
) -> None:
    path = write(
        tmp_path, f"conflict_resolution:\n  {level}: {{chains: {{default: [vote, human]}}}}}}\n"
    )
    with pytest.raises(ConfigError) as err:
        load_config(path)
    name = level.split("{")[1]
    section = level.split(":")[0]
    assert err.value.context["key_path"] == f"conflict_resolution.{section}.{name}.chains"
    assert "set once, for the company: conflict_resolution.chains" in err.value.context["rule"]


def test_the_docs_migration_example_loads_the_same_ladder_before_and_after(
    tmp_path: Path,
) -> None:
    from tests.conftest import REPO_ROOT

    readme = (REPO_ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    blocks = {
        body.split("\n", 1)[0]: body
        for body in (part.split("\n```", 1)[0] for part in readme.split("```yaml\n")[1:])
        if body.startswith(("# before", "# after"))
    }
    before = write(tmp_path, blocks["# before"], "before.yaml")
    after = write(tmp_path, blocks["# after"], "after.yaml")
    with pytest.warns(DeprecationWarning, match="move it to conflict_resolution.chains"):
        old = load_config(before)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        new = load_config(after)
    assert old.decide.table == new.decide.table
    assert old.policy == new.policy
    assert new.decide.table.default_chain == (
        "source_verification",
        "confidence",
        "vote",
        "arbitration",
        "human",
    )
