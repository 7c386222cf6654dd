"""The one way the service finds the key it signs a caller's step with.

Who acts comes from the API key; what signs comes from the server's key folder: the acting
principal's ``role`` key under its default name (``accord keys new --role R --principal P``
makes it there and registers it in the ledger), which the library then checks is a
registered, unrevoked key of that role.
"""

from __future__ import annotations

from accord.app import Accord
from accord.crypto import Ed25519Signer, role_key_name
from accord.errors import AccordError, KeyNotFound

NO_SIGNING_KEY = "api.no_signing_key"


def server_signer(
    accord: Accord, role: str, principal_id: str, *, code: str = NO_SIGNING_KEY
) -> Ed25519Signer:
    """``principal_id``'s ``role`` key from the server's key folder; refused with ``code``
    (403: the caller may act, but the server holds no key to sign for it)."""
    name = role_key_name(role, principal_id)
    try:
        return accord.key_signer(name)
    except KeyNotFound as exc:
        raise _no_key(accord, role, principal_id, name, code) from exc


async def server_signer_async(
    accord: Accord, role: str, principal_id: str, *, code: str = NO_SIGNING_KEY
) -> Ed25519Signer:
    """As :func:`server_signer`, from the event loop: a key not unlocked yet is read (a
    sealed one unsealed) on a worker thread (``Accord.key_signer_async``)."""
    name = role_key_name(role, principal_id)
    try:
        return await accord.key_signer_async(name)
    except KeyNotFound as exc:
        raise _no_key(accord, role, principal_id, name, code) from exc


def _no_key(accord: Accord, role: str, principal_id: str, name: str, code: str) -> AccordError:
    return AccordError(
        f"{principal_id} has no {role} key in {accord.keyring.directory}: create and "
        f"register one with `accord keys new --role {role} --principal {principal_id}`",
        code=code,
        field="principal",
        rule=f"the server holds {principal_id}'s registered {role} key",
        principal=principal_id,
        key=name,
    )
