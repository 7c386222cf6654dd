"""The ``accord`` and ``keys`` fixtures of the dispute route tests, made to each file's measure:
an ``Accord`` on the test database (SQLite and PostgreSQL) with the file's config and signing
keys, and the API keys its tests act with. The app and the test client around that ``accord``
are ``conftest``'s ``app`` and ``client``.

A file assigns what these return to the fixture's name::

    accord = accord_fixture(_config, agents=(BILLING, AUDIT))
    keys = keys_fixture((BILLING, AUDIT))

A test that needs an ``Accord`` of its own (another model, say) calls ``open_accord`` and
``make_keys``, which the fixtures are made of.
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
from accord.llm import LanguageModel

from ._reviewers import register_reviewers, reviewer_config


def open_accord(
    config: Callable[[Path], Path],
    database_url: str,
    tmp_path: Path,
    clock: FrozenClock,
    *,
    model: LanguageModel | None = None,
    demo_reviewers: bool = False,
    agents: Sequence[str] = (),
    arbitrators: Sequence[str] = (),
    reviewers: Sequence[str] = (),
    own_key: Callable[[str], Ed25519Signer] | None = None,
) -> Accord:
    """The ``Accord`` that ``config(directory)`` writes the config of (with ``model``, when
    given, as its model), with the demo's two reviewers' keys if ``demo_reviewers``, then a
    signing key for each of ``agents``, ``arbitrators`` and ``reviewers`` (in that order) in
    that role. The server holds those keys, unless ``own_key`` gives each principal its own:
    then only the public halves reach the server. The caller closes it."""
    config_dir = tmp_path / "config"
    config_dir.mkdir()
    opened = Accord.open(
        config(config_dir),
        db_url=database_url,
        keys_dir=tmp_path / "keys",
        clock=clock,
        model=model,
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
            if own_key is None:
                register_new_key(opened, None, role, principal, None)
            else:
                opened.ledger.register_key(own_key(principal).public_key, role, principal)
    return opened


def make_keys(
    accord: Accord,
    agents: Sequence[str] = (),
    *,
    strangers: Mapping[str, str] | None = None,
    reviewers: Mapping[str, str] | None = None,
    roles: Sequence[str] = ("admin", "auditor"),
) -> dict[str, str]:
    """A name to API token map with an agent key for each of ``agents`` (named by its agent
    id); for each ``strangers`` name, an agent key for its agent, which is given a signing key
    the server holds first (so only a rule refuses it); for each ``reviewers`` name, a
    reviewer key for its principal; and a key for each of ``roles`` (named by the role)."""
    store = ApiKeyStore(accord.ledger, accord.clock)
    made = {a: store.create("agent", agent_id=a)[1] for a in agents}
    for name, agent in (strangers or {}).items():
        register_new_key(accord, None, "agent", agent, None)
        made[name] = store.create("agent", agent_id=agent)[1]
    for name, principal in (reviewers or {}).items():
        made[name] = store.create("reviewer", principal_id=principal)[1]
    for role in roles:
        made[role] = store.create(role)[1]
    return made


def accord_fixture(
    config: Callable[[Path], Path] = reviewer_config,
    *,
    demo_reviewers: bool = False,
    agents: Sequence[str] = (),
    arbitrators: Sequence[str] = (),
    reviewers: Sequence[str] = (),
    own_key: Callable[[str], Ed25519Signer] | None = None,
) -> object:
    """An ``accord`` fixture: ``open_accord``'s ``Accord`` with these settings and no model
    but the config's, closed after the test."""

    @pytest.fixture(name="accord")
    def fixture(database_url: str, tmp_path: Path, frozen_clock: FrozenClock) -> Iterator[Accord]:
        """This file's ``Accord`` (made by ``accord_fixture``)."""
        opened = open_accord(
            config,
            database_url,
            tmp_path,
            frozen_clock,
            demo_reviewers=demo_reviewers,
            agents=agents,
            arbitrators=arbitrators,
            reviewers=reviewers,
            own_key=own_key,
        )
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
    """A ``keys`` fixture: ``make_keys``' tokens for these names."""

    @pytest.fixture(name="keys")
    def fixture(accord: Accord) -> dict[str, str]:
        """This file's API tokens by name (made by ``keys_fixture``)."""
        return make_keys(accord, agents, strangers=strangers, reviewers=reviewers, roles=roles)

    return fixture
