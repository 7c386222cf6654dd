"""The audit is derived from one description per table, and the descriptions are complete:
every column of ``store/tables.py`` and every field of the stored documents is either
compared with a signed record or declared unsigned with a reason. A new column or field
fails these tests until it is described."""

from __future__ import annotations

import types
import typing
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from pydantic import BaseModel

from accord.approvals.item import ApprovalItem
from accord.audit.approvals import APPROVAL_DOCUMENT
from accord.audit.case_description import (
    CASE_DOCUMENT,
    DISSENT_DOCUMENT,
    DOCUMENT,
    SIGNED_PATHS,
)
from accord.audit.paths import Unsigned
from accord.audit.tables import AUDITED_COLUMNS, NOT_AUDITED_TABLES
from accord.cases import Case, DissentRecord
from accord.store.tables import metadata

#: Paths the case view computes that are not fields of the document.
DERIVED_PATHS = {"escalated", "log.agents"}
DOCUMENTS: dict[str, tuple[type[BaseModel], Mapping[str, Any]]] = {
    "cases": (Case, CASE_DOCUMENT),
    "dissents": (DissentRecord, DISSENT_DOCUMENT),
    "approval_items": (ApprovalItem, APPROVAL_DOCUMENT),
}


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The one record type a field holds (directly, optionally, or as a tuple of them)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if typing.get_origin(annotation) in (tuple, typing.Union, types.UnionType):
        found = {m for a in typing.get_args(annotation) if (m := _model_in(a)) is not None}
        return found.pop() if len(found) == 1 else None
    return None


def leaf_paths(model: type[BaseModel], prefix: str = "") -> Iterator[str]:
    """Every field of ``model``, dotted through the records it nests."""
    for name, field in model.model_fields.items():
        inner = _model_in(field.annotation)
        if inner is not None:
            yield from leaf_paths(inner, f"{prefix}{name}.")
        else:
            yield f"{prefix}{name}"


def _covered(path: str, described: Mapping[str, Any]) -> bool:
    parts = path.split(".")
    return any(".".join(parts[:n]) in described for n in range(1, len(parts) + 1))


def test_every_table_is_audited_or_declared_not_audited_with_a_reason() -> None:
    tables = set(metadata.tables)
    assert tables == set(AUDITED_COLUMNS) | set(NOT_AUDITED_TABLES)
    assert not set(AUDITED_COLUMNS) & set(NOT_AUDITED_TABLES)
    assert all(reason.strip() for reason in NOT_AUDITED_TABLES.values())


@pytest.mark.parametrize("table", sorted(AUDITED_COLUMNS))
def test_every_column_of_an_audited_table_is_described(table: str) -> None:
    columns = set(metadata.tables[table].columns.keys())
    described = AUDITED_COLUMNS[table]
    assert columns - set(described) == set(), "describe the new column (or declare it Unsigned)"
    assert set(described) - columns == set(), "the description names a column that is gone"
    for column, how in described.items():
        if isinstance(how, Unsigned):
            assert how.reason.strip(), f"{table}.{column} is unsigned without a reason"


@pytest.mark.parametrize("table", sorted(DOCUMENTS))
def test_each_column_names_a_described_field_of_its_document(table: str) -> None:
    _, document = DOCUMENTS[table]
    for column, path in AUDITED_COLUMNS[table].items():
        assert isinstance(path, str)
        assert path == DOCUMENT or path in document, f"{table}.{column} → {path}"


def test_each_party_column_names_a_described_field_of_its_case() -> None:
    for column, path in AUDITED_COLUMNS["case_parties"].items():
        assert path in CASE_DOCUMENT, f"case_parties.{column} → {path}"


@pytest.mark.parametrize("table", sorted(DOCUMENTS))
def test_every_field_of_a_stored_document_is_compared_or_declared_unsigned(table: str) -> None:
    model, described = DOCUMENTS[table]
    missing = [p for p in leaf_paths(model) if not _covered(p, described)]
    assert missing == [], "describe these fields (a reader, or Unsigned with the reason)"
    for path, how in described.items():
        if isinstance(how, Unsigned):
            assert how.reason.strip(), f"{path} is unsigned without a reason"


@pytest.mark.parametrize("table", sorted(DOCUMENTS))
def test_the_descriptions_name_no_field_that_does_not_exist(table: str) -> None:
    model, described = DOCUMENTS[table]
    leaves = list(leaf_paths(model))

    def exists(path: str) -> bool:
        return any(leaf == path or leaf.startswith(path + ".") for leaf in leaves)

    assert [p for p in described if p not in DERIVED_PATHS and not exists(p)] == []


def test_a_field_added_to_a_document_would_be_reported_as_undescribed() -> None:
    class Grown(Case):
        reviewer_note: str = ""

    missing = [p for p in leaf_paths(Grown) if not _covered(p, CASE_DOCUMENT)]
    assert missing == ["reviewer_note"]


def test_every_path_a_signed_record_states_is_read_from_the_stored_case() -> None:
    signed = {path for paths in SIGNED_PATHS.values() for path in paths}
    readable = {p for p, how in CASE_DOCUMENT.items() if not isinstance(how, Unsigned)}
    assert signed - readable - {"ledger_seqs"} == set()
    assert readable - signed - {"ledger_seqs"} == set(), "read, but no record states it"


def test_every_dispute_table_check_says_where_its_value_is_signed() -> None:
    from accord.audit.disputes import DISPUTE_TABLES
    from accord.audit.disputes.checks import Signed

    for name, audited in DISPUTE_TABLES.items():
        assert set(audited.columns) == set(metadata.tables[name].columns.keys()), name
        for column, how in audited.columns.items():
            assert isinstance(how, Signed | Unsigned), f"{name}.{column}"
            text = how.says if isinstance(how, Signed) else how.reason
            assert text.strip(), f"{name}.{column} does not say where it is signed"
