"""API keys: hashed at rest, bound to a role, refused when wrong, expired or revoked."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from accord.api import ApiKeyStore, Role
from accord.api.api_keys import token_hash
from accord.api.auth_errors import Unauthenticated
from accord.app import Accord
from accord.clock import FrozenClock
from accord.errors import NotFound, ValidationError
from accord.store.tables import api_keys


def test_a_new_key_authenticates_and_only_its_hash_is_stored(
    accord: Accord, keys: ApiKeyStore
) -> None:
    key, token = keys.create("reviewer", principal_id="human:treasurer", label="Ada")
    assert keys.authenticate(token) == key
    assert key.principal_id == "human:treasurer"
    with accord.db.read() as conn:
        stored = conn.execute(select(api_keys.c.token_hash)).scalars().all()
    assert stored == [token_hash(token)]
    assert token not in stored
    assert len(token) >= 40


def test_two_keys_never_share_a_token(keys: ApiKeyStore) -> None:
    tokens = {keys.create("auditor")[1] for _ in range(5)}
    assert len(tokens) == 5


@pytest.mark.parametrize(
    ("role", "binding", "rule"),
    [
        ("agent", {}, "agent id"),
        ("reviewer", {}, "principal"),
        ("auditor", {"agent_id": "agent:x"}, "agent id"),
        ("admin", {"principal_id": "human:x"}, "principal"),
        ("reviewer", {"principal_id": "system:timeout"}, "reserved"),
    ],
)
def test_a_key_is_bound_exactly_as_its_role_needs(
    keys: ApiKeyStore, role: str, binding: dict[str, str], rule: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        keys.create(role, **binding)
    assert caught.value.code == "auth.bad_key_binding"
    assert rule in caught.value.message


def test_an_unknown_role_is_refused_naming_the_valid_ones(keys: ApiKeyStore) -> None:
    with pytest.raises(ValidationError) as caught:
        keys.create("root")
    assert caught.value.code == "auth.bad_role"
    assert "reviewer" in caught.value.context["rule"]


def test_a_revoked_key_is_refused_and_revoking_again_keeps_the_first_time(
    keys: ApiKeyStore, frozen_clock: FrozenClock
) -> None:
    key, token = keys.create("auditor")
    first = keys.revoke(key.key_id)
    frozen_clock.advance(timedelta(hours=1))
    again = keys.revoke(key.key_id)
    assert first.revoked_at == again.revoked_at
    with pytest.raises(Unauthenticated) as caught:
        keys.authenticate(token)
    assert caught.value.context["rule"] == "revoked"


def test_revoking_an_unknown_key_is_not_found(keys: ApiKeyStore) -> None:
    with pytest.raises(NotFound):
        keys.revoke("key:nope")


def test_an_expired_key_is_refused_from_its_expiry_on(
    keys: ApiKeyStore, frozen_clock: FrozenClock
) -> None:
    _, token = keys.create("auditor", expires_at=frozen_clock.now() + timedelta(days=1))
    keys.authenticate(token)
    frozen_clock.advance(timedelta(days=1))
    with pytest.raises(Unauthenticated) as caught:
        keys.authenticate(token)
    assert caught.value.context["rule"] == "expired"


def test_keys_are_listed_oldest_first_without_tokens(
    keys: ApiKeyStore, frozen_clock: FrozenClock
) -> None:
    first, _ = keys.create("admin")
    frozen_clock.advance(timedelta(seconds=1))
    second, _ = keys.create("agent", agent_id="agent:billing")
    listed = keys.list()
    assert [k.key_id for k in listed] == [first.key_id, second.key_id]
    assert listed[1].role is Role.AGENT


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(token=st.one_of(st.none(), st.text(max_size=200), st.just("acc_" + "A" * 43)))
def test_any_token_but_a_real_one_is_unauthenticated(keys: ApiKeyStore, token: str | None) -> None:
    with pytest.raises(Unauthenticated):
        keys.authenticate(token)


def test_a_key_seen_valid_is_refused_once_another_store_revokes_it(
    accord: Accord, keys: ApiKeyStore
) -> None:
    key, token = keys.create("auditor")
    assert keys.authenticate(token) == key  # now known to this store
    ApiKeyStore(accord.ledger, accord.clock).revoke(key.key_id)  # e.g. `accord keys api revoke`
    with pytest.raises(Unauthenticated) as caught:
        keys.authenticate(token)
    assert caught.value.context["rule"] == "revoked"


def test_a_key_seen_valid_is_refused_once_it_expires(
    keys: ApiKeyStore, frozen_clock: FrozenClock
) -> None:
    _, token = keys.create("auditor", expires_at=frozen_clock.now() + timedelta(minutes=5))
    keys.authenticate(token)
    frozen_clock.advance(timedelta(minutes=5))
    with pytest.raises(Unauthenticated) as caught:
        keys.authenticate(token)
    assert caught.value.context["rule"] == "expired"


def test_a_key_seen_valid_is_refused_once_its_row_is_gone(
    accord: Accord, keys: ApiKeyStore
) -> None:
    key, token = keys.create("auditor")
    keys.authenticate(token)
    with accord.db.write() as conn:
        conn.execute(api_keys.delete().where(api_keys.c.key_id == key.key_id))
    with pytest.raises(Unauthenticated) as caught:
        keys.authenticate(token)
    assert caught.value.context["rule"] == "wrong key"


def test_a_refused_key_is_refused_again_and_never_remembered_as_valid(
    keys: ApiKeyStore, frozen_clock: FrozenClock
) -> None:
    key, token = keys.create("auditor", expires_at=frozen_clock.now() + timedelta(minutes=5))
    keys.revoke(key.key_id)
    for _ in range(2):
        with pytest.raises(Unauthenticated) as caught:
            keys.authenticate(token)
        assert caught.value.context["rule"] == "revoked"
