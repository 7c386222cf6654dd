"""A body nested deeper than limits.json_depth is refused naming the limit, never a 500."""

from __future__ import annotations

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from tests.api.conftest import Tokens, bearer


def _settle_body(levels: int) -> str:
    """Two agents agreeing on an output that nests ``levels`` arrays below the body's
    object, its positions array, a position and the output mapping."""
    output = '{"v": ' + "[" * levels + "1" + "]" * levels + "}"
    return (
        f'{{"subject": "x", "positions": [{{"agent": "a:1", "output": {output}}}, '
        f'{{"agent": "a:2", "output": {output}}}]}}'
    )


@pytest.mark.parametrize("levels", [77, 5_000, 15_000])
def test_a_body_nested_past_the_limit_is_refused_naming_it(
    client: TestClient[Litestar], tokens: Tokens, levels: int
) -> None:
    answer = client.post(
        "/api/v1/settle",
        content=_settle_body(levels),
        headers={**bearer(tokens.admin), "Content-Type": "application/json"},
    )
    assert answer.status_code == 422
    body = answer.json()
    assert body["code"] == "limits.exceeded"
    assert body["field"] == "body"
    assert body["rule"] == "at most 80 levels of nesting (limits.json_depth)"


def test_a_body_within_the_limit_reaches_the_library(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    headers = {**bearer(tokens.admin), "Content-Type": "application/json"}
    settled = client.post("/api/v1/settle", content=_settle_body(40), headers=headers)
    assert settled.status_code == 200, settled.text
    assert settled.json()["status"] == "no_conflict"
    assert settled.json()["confidence"] is None  # an agreement: nobody decided anything
    # 80 levels in all: past the check, then refused by the library's own output rule
    deep = client.post("/api/v1/settle", content=_settle_body(76), headers=headers)
    assert deep.status_code == 422
    assert deep.json()["code"] == "conflicts.too_deep"


def test_a_wide_shallow_body_with_more_brackets_than_the_limit_reaches_the_library(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    # 100 sibling arrays and 100 brackets inside a string: far more "[" than the 80 levels
    # the limit allows, but nested only a few deep, so it must not be refused for depth
    wide = "[" + ", ".join(["[1]"] * 100) + "]"
    output = f'{{"v": {wide}, "note": "{"[" * 100}"}}'
    body = (
        f'{{"subject": "x", "positions": [{{"agent": "a:1", "output": {output}}}, '
        f'{{"agent": "a:2", "output": {output}}}]}}'
    )
    headers = {**bearer(tokens.admin), "Content-Type": "application/json"}
    settled = client.post("/api/v1/settle", content=body, headers=headers)
    assert settled.status_code == 200, settled.text
    assert settled.json()["status"] == "no_conflict"


@pytest.mark.parametrize(("levels", "refused"), [(80, False), (81, True)])
def test_a_body_of_only_nested_brackets_is_refused_exactly_past_the_limit(
    client: TestClient[Litestar], tokens: Tokens, levels: int, refused: bool
) -> None:
    # as many brackets as levels: at 80 the depth scan is skipped, at 81 it runs and refuses
    body = "[" * levels + "]" * levels
    answer = client.post(
        "/api/v1/settle",
        content=body,
        headers={**bearer(tokens.admin), "Content-Type": "application/json"},
    )
    assert answer.status_code in (400, 422)
    assert (answer.json()["code"] == "limits.exceeded") is refused
