"""`accord keys new --role …`: make a key in the key folder and register it in the ledger."""

from __future__ import annotations

from pydantic import ValidationError as PydanticValidationError

from accord.app import Accord
from accord.approvals import Principal
from accord.crypto import KeyInfo, b64decode, private_path, public_path, role_key_name
from accord.errors import AccordError, ValidationError
from accord.ledger import KEY_ROLES


def register_new_key(
    accord: Accord,
    name: str | None,
    role: str,
    principal: str | None,
    passphrase: str | None,
    *,
    with_pq: bool = False,
) -> KeyInfo:
    """Create key ``name`` (sealed when a passphrase is configured) and register it for
    ``role``; a registration that fails leaves no key behind."""
    if role not in KEY_ROLES:
        raise ValidationError(
            f"--role must be one of {', '.join(KEY_ROLES)}, not {role!r}",
            code="keyring.invalid_role",
            field="role",
            rule=f"one of {', '.join(KEY_ROLES)}",
        )
    if (role == "service") != (principal is None):
        raise ValidationError(
            "--principal names whose key it is (reviewer, arbitrator); service keys have none",
            code="keyring.invalid_principal",
            field="principal",
            rule="--principal with reviewer/arbitrator keys only",
        )
    if principal is not None:
        try:
            Principal(principal_id=principal)
        except PydanticValidationError as exc:
            raise ValidationError(
                f"--principal {principal!r} is not a principal id",
                code="keyring.invalid_principal",
                field="principal",
                rule=str(exc.errors()[0]["msg"]),
            ) from None
    if name is None:
        name = role if principal is None else role_key_name(role, principal)
    keyring = accord.keyring
    info = keyring.create(name, passphrase=passphrase, with_pq=with_pq)
    public_key = b64decode(info.public_key_b64)
    try:
        if role == "reviewer" and principal is not None:
            accord.register_reviewer_key(public_key, principal)
        else:
            accord.ledger.register_key(public_key, role, principal)
    except AccordError:
        private_path(keyring.directory, name).unlink(missing_ok=True)
        public_path(keyring.directory, name, info.kid).unlink(missing_ok=True)
        raise
    return info
