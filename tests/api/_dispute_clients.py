"""The ``accord`` and ``keys`` fixtures of the dispute route tests, made to each file's measure:
an ``Accord`` on the test database (SQLite and PostgreSQL) with the file's config and signing
keys, and the API keys its tests act with. The app and the test client around that ``accord``
are ``conftest``'s ``app`` and ``client``.

A file assigns what these return to the fixture's name::

    accord = accord_fixture(_config, agents=(BILLING, AUDIT))
    keys = keys_fixture((BILLING, AUDIT))
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path

import pytest

from accord.api import ApiKeyStore
from accord.app import Accord
from accord.cli.key_commands import register_new_key
from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.ledger import KeyRole

from ._reviewers import register_reviewers, reviewer_config


def accord_fixture(
    config: Callable[[Path], Path] = reviewer_config,
    *,
    demo_reviewers: bool = False,
    agents: Sequence[str] = (),
    arbitrators: Sequence[str] = (),
    reviewers: Sequence[str] = (),
    own_key: Callable[[str], Ed25519Signer] | None = None,
) -> object:
    """An ``accord`` fixture: the ``Accord`` that ``config(directory)`` writes the config of,
    with the demo's two reviewers' keys if ``demo_reviewers``, then a signing key for each of
    ``agents``, ``arbitrators`` and ``reviewers`` (in that order) in that role. The server holds
    those keys, unless ``own_key`` gives each principal its own: then only the public halves
    reach the server."""

    def register(opened: Accord, role: KeyRole, principal: str) -> None:
        if own_key is None:
            register_new_key(opened, None, role, principal, None)
        else:
            opened.ledger.register_key(own_key(principal).public_key, role, principal)

    @pytest.fixture(name="accord")
    def fixture(database_url: str, tmp_path: Path, frozen_clock: FrozenClock) -> Iterator[Accord]:
        """This file's ``Accord`` (made by ``accord_fixture``)."""
        config_dir = tmp_path / "config"
        config_dir.mkdir()
        opened = Accord.open(
            config(config_dir), db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock
        )
        if demo_reviewers:
            register_reviewers(opened)
        signers: tuple[tuple[KeyRole, Sequence[str]], ...] = (
            ("agent", agents),
            ("arbitrator", arbitrators),
            ("reviewer", reviewers),
        )
        for role, principals in signers:
            for principal in principals:
                register(opened, role, principal)
        yield opened
        opened.close()

    return fixture


def keys_fixture(
    agents: Sequence[str] = (),
    *,
    strangers: Mapping[str, str] | None = None,
    reviewers: Mapping[str, str] | None = None,
    roles: Sequence[str] = ("admin", "auditor"),
) -> object:
    """A ``keys`` fixture: a name to API token map with an agent key for each of ``agents``
    (named by its agent id); for each ``strangers`` name, an agent key for its agent, which is
    given a signing key the server holds first (so only a rule refuses it); for each
    ``reviewers`` name, a reviewer key for its principal; and a key for each of ``roles``
    (named by the role)."""

    @pytest.fixture(name="keys")
    def fixture(accord: Accord) -> dict[str, str]:
        """This file's API tokens by name (made by ``keys_fixture``)."""
        store = ApiKeyStore(accord.db, accord.clock)
        made = {a: store.create("agent", agent_id=a)[1] for a in agents}
        for name, agent in (strangers or {}).items():
            register_new_key(accord, None, "agent", agent, None)
            made[name] = store.create("agent", agent_id=agent)[1]
        for name, principal in (reviewers or {}).items():
            made[name] = store.create("reviewer", principal_id=principal)[1]
        for role in roles:
            made[role] = store.create(role)[1]
        return made

    return fixture
