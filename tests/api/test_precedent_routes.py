"""Precedents through the facade (``accord.precedents``) and over HTTP."""

from __future__ import annotations

from pathlib import Path

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from accord.app import Accord
from accord.errors import AccordError
from accord.precedents import BundleDraft
from tests.api.conftest import Tokens, bearer
from tests.precedents.conftest import draft_data


def _add(accord: Accord, **changes: object) -> str:
    bundle = accord.precedents.add(BundleDraft.model_validate(draft_data(**changes)))
    return bundle.jurisprudence_id


def test_r24_the_facade_adds_signed_bundles_and_searches_them_ranked_by_authority(
    accord: Accord,
) -> None:
    low = _add(accord)
    high = _add(accord, authority_level="human_appeal")
    found = accord.precedents.search("resource_conflict", ["shared_gpu"])
    assert [p.jurisprudence_id for p in found] == [high, low]
    assert accord.precedents.get(low).bundle.signature.kid == accord.ledger.signer.kid
    assert accord.precedents.count() == 2


def test_r24_precedents_are_searched_over_http_by_type_and_condition(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    gpu = _add(accord)
    _add(accord, conditions=["shared_disk"])
    answer = client.get(
        "/api/v1/precedents",
        params={"dispute_type": "resource_conflict", "condition": ["shared_gpu"]},
        headers=bearer(tokens.agent),
    )
    assert answer.status_code == 200, answer.text
    assert [p["jurisprudence_id"] for p in answer.json()["items"]] == [gpu]
    shown = client.get(f"/api/v1/precedents/{gpu}", headers=bearer(tokens.auditor)).json()
    assert (shown["jurisprudence_id"], shown["superseded_by"]) == (gpu, [])


def test_r23_a_precedent_is_exported_in_the_sdk_format_over_http(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    gpu = _add(accord)
    nonce = "cd" * 32
    answer = client.get(
        f"/api/v1/precedents/{gpu}/export",
        params={"session_nonce": nonce},
        headers=bearer(tokens.auditor),
    )
    assert answer.status_code == 200, answer.text
    sdk = answer.json()
    assert (sdk["jurisprudence_id"], sdk["session_nonce"]) == (gpu, nonce)
    assert sdk["composite_sig"]["classical"]["kid"] == accord.ledger.signer.kid
    missing = "jur:00000000-0000-7000-8000-000000000000"
    gone = client.get(f"/api/v1/precedents/{missing}/export", headers=bearer(tokens.auditor))
    assert gone.status_code == 404, gone.text


def test_r26_a_superseded_bundle_shows_what_superseded_it(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    old = _add(accord)
    new = _add(accord, supersedes=[old])
    shown = client.get(f"/api/v1/precedents/{old}", headers=bearer(tokens.agent)).json()
    assert shown["superseded_by"] == [new]


def test_a_precedent_search_with_an_unknown_type_or_a_missing_bundle_is_refused(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    bad = client.get(
        "/api/v1/precedents", params={"dispute_type": "food_fight"}, headers=bearer(tokens.agent)
    )
    assert (bad.status_code, bad.json()["field"]) == (400, "dispute_type")
    malformed = client.get("/api/v1/precedents/jur:nope", headers=bearer(tokens.agent))
    assert (malformed.status_code, malformed.json()["code"]) == (422, "precedents.invalid")
    unknown = "jur:019ad0f4-9999-7000-8000-000000000009"
    missing = client.get(f"/api/v1/precedents/{unknown}", headers=bearer(tokens.agent))
    assert (missing.status_code, missing.json()["code"]) == (404, "precedents.not_found")


def test_a_read_only_accord_cannot_add_precedents(
    accord: Accord, database_url: str, tmp_path: Path
) -> None:
    reader = Accord.open(None, db_url=database_url, keys_dir=tmp_path / "keys", read_only=True)
    try:
        with pytest.raises(AccordError) as refused:
            reader.precedents.add(BundleDraft.model_validate(draft_data()))
        assert refused.value.code == "accord.read_only"
    finally:
        reader.close()
