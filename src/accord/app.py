"""``Accord``: the composition root that wires configuration, storage, keys and the ledger."""

from __future__ import annotations

import os
from pathlib import Path

from accord.clock import Clock, SystemClock
from accord.config import LoadedConfig, load_config
from accord.crypto import Keyring
from accord.ledger import Ledger, VerificationReport
from accord.org import OrgChart
from accord.store import Database, open_database, resolve_database_url

PASSPHRASE_ENV = "ACCORD_KEY_PASSPHRASE"


class Accord:
    """One configured Accord instance: database, keyring, service signer and ledger."""

    def __init__(
        self,
        *,
        db: Database,
        keyring: Keyring,
        ledger: Ledger,
        config: LoadedConfig,
        clock: Clock,
    ) -> None:
        self.db = db
        self.keyring = keyring
        self.ledger = ledger
        self.config = config
        self.clock = clock

    @property
    def org(self) -> OrgChart | None:
        return self.config.org

    @classmethod
    def open(
        cls,
        config_path: str | Path | None = None,
        *,
        db_url: str | None = None,
        keys_dir: str | Path | None = None,
        clock: Clock | None = None,
        create_service_key: bool = True,
    ) -> Accord:
        """Open (and migrate) the database, load keys and the ledger.

        Precedence for the database URL: ``db_url`` > ``ACCORD_DB`` > the config file >
        ``sqlite:///accord.db``; for the key directory: ``keys_dir`` > ``ACCORD_KEYS`` >
        the config file.
        """
        config = load_config(Path(config_path) if config_path is not None else None)
        clock = clock or SystemClock()
        settings = config.settings
        url = db_url or os.environ.get("ACCORD_DB") or settings.database.url
        db = open_database(
            resolve_database_url(url),
            sqlite_synchronous=settings.database.sqlite_synchronous,
        )
        directory = Path(keys_dir or os.environ.get("ACCORD_KEYS") or config.keys_directory())
        keyring = Keyring(directory, clock)
        passphrase = os.environ.get(PASSPHRASE_ENV)
        name = settings.keys.service_key
        if create_service_key:
            keyring.get_or_create(name, passphrase=passphrase)
        signer = keyring.signer(name, passphrase=passphrase)
        ledger = Ledger(db, signer, clock, checkpoint_every=settings.ledger.checkpoint_every)
        return cls(db=db, keyring=keyring, ledger=ledger, config=config, clock=clock)

    def verify(self, *, workers: int | None = None) -> VerificationReport:
        """Verify the whole ledger against the public keys in the key directory."""
        return self.ledger.verify(self.keyring.trusted_public_keys(), workers=workers)

    def close(self) -> None:
        self.db.dispose()
