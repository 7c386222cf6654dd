"""Who decides an approval item, and the credential that shows it.

A :class:`Reviewer` is a configured principal plus the reviewer key that signs each of their
decisions (``credential="reviewer_key"``). ``verify`` later checks that signature against a
reviewer key registered in the ledger for exactly that principal, so a decider written into
the database, or claimed without the key, fails verification. A deployment may opt in to
taking the decider from the OS login (``approvals.allow_os_login``); such decisions carry
``credential="os_login"``, no reviewer signature, and are counted apart by ``verify``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from accord.approvals.principal import Principal
from accord.crypto import Ed25519Signer, sign_record
from accord.errors import ValidationError

Credential = Literal["reviewer_key", "os_login"]


@dataclass(frozen=True, slots=True)
class Reviewer:
    """A principal able to decide, authenticated by a reviewer key (or, opted in, the OS)."""

    principal: Principal
    signer: Ed25519Signer | None

    def __post_init__(self) -> None:
        if not isinstance(self.principal, Principal):
            raise ValidationError(
                "a reviewer is a Principal with its reviewer key",
                code="approvals.invalid",
                field="principal",
                rule="a Principal",
            )

    @property
    def principal_id(self) -> str:
        return self.principal.principal_id

    @property
    def credential(self) -> Credential:
        return "os_login" if self.signer is None else "reviewer_key"

    def signed(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """``record`` with its ``credential`` and (with a key) the reviewer's ``signature``
        over everything else, under the DCP dispute tag."""
        out = {**record, "credential": self.credential}
        if self.signer is not None:
            out["signature"] = sign_record(out, self.signer).model_dump()
        return out
