"""Which keys may sign what, at which entry: the key registry replayed from the ledger.

Verification first reads the few key-lifecycle and reviewer-signed rows in seq order (the
*trust pass*): every ``key_registered`` / ``key_revoked`` entry must be signed by a service key
already trusted at that entry, which yields each service key's signing window; every
reviewer-signed record (a human decision) must carry a signature by a reviewer key registered
before it, unrevoked there, whose principal is the record's decider. The chain pass (the
parallel workers) then checks every entry against those windows and returns the entry hashes
of the same rows, so the rows this pass read are shown to be the ones the chain covers.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import ValidationError as PydanticValidationError

from accord.crypto import RecordSignature, SignatureInvalid, verify_record
from accord.errors import VerificationFailed
from accord.ledger.key_events import KEY_EVENTS, KEY_REGISTERED, KeyRegistered, KeyRevoked, KeyRole
from accord.ledger.trust import NO_END, SignerWindow, TrustRoot

REVIEWER_SIGNED_EVENTS: Mapping[str, str] = {
    "approval_decided": "decided_by",
    "dispute_stay_ordered": "ordered_by",
}
"""Event types a reviewer signs, and the record field that must name the key's principal."""
KEY_ONLY_EVENTS = frozenset(("dispute_stay_ordered",))
"""Reviewer-signed events no OS login may take (a stay is refused without a reviewer key)."""
OS_LOGIN = "os_login"
"""``credential`` of a decision an opted-in deployment took from the OS login (not signed by
a reviewer key; only as trustworthy as the service key, and counted in the report)."""
WATCHED_EVENTS = frozenset((*KEY_EVENTS, *REVIEWER_SIGNED_EVENTS))


@dataclass(frozen=True, slots=True)
class RegisteredKey:
    """A key as the registry knows it; it may act in ``registered_at < seq <= revoked_at``."""

    kid: str
    public_key: bytes
    role: KeyRole
    principal: str | None
    registered_at: int
    revoked_at: int | None = None

    def valid_at(self, seq: int) -> bool:
        return self.registered_at < seq and (self.revoked_at is None or seq <= self.revoked_at)


class KeyRegistry:
    """Keys registered so far, replayed entry by entry.

    With a ``root``, every key event must be signed by a service key trusted at its seq
    (verification). Without one, events are taken as stored (the live service looking up a
    reviewer key in its own database; ``verify`` checks them).
    """

    def __init__(self, root: TrustRoot | None) -> None:
        self._root = root
        self._keys: dict[str, RegisteredKey] = {}
        if root is not None:
            self._keys[root.kid] = RegisteredKey(root.kid, root.public_key, "service", None, 0)

    def apply(self, seq: int, event_type: str, signer_kid: str, record: Mapping[str, Any]) -> None:
        """Take in one key event (``VerificationFailed`` naming the entry and the rule)."""
        if self._root is not None and not self.may_sign(signer_kid, seq):
            raise untrusted_signer(seq, signer_kid)
        try:
            if event_type == KEY_REGISTERED:
                self._register(seq, signer_kid, KeyRegistered.model_validate(record))
            else:
                self._revoke(seq, KeyRevoked.model_validate(record))
        except PydanticValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "record"
            raise _failed(
                seq, "ledger.bad_key_event", f"record.{where}", str(first["msg"])
            ) from None

    def _register(self, seq: int, signer_kid: str, event: KeyRegistered) -> None:
        if self._root is not None and event.registered_by != signer_kid:
            raise _failed(
                seq, "ledger.bad_key_event", "record.registered_by", "names the entry's signer"
            )
        if event.kid in self._keys:
            raise _failed(seq, "ledger.bad_key_event", "record.kid", "a kid is registered once")
        self._keys[event.kid] = RegisteredKey(
            event.kid, event.public_key, event.role, event.principal, seq
        )

    def _revoke(self, seq: int, event: KeyRevoked) -> None:
        key = self._keys.get(event.kid)
        if key is None or key.revoked_at is not None:
            raise _failed(
                seq, "ledger.bad_key_event", "record.kid", "revokes a registered, unrevoked key"
            )
        self._keys[event.kid] = replace(key, revoked_at=seq)

    def may_sign(self, kid: str, seq: int) -> bool:
        """Whether ``kid`` is a service key trusted to sign entry ``seq``."""
        key = self._keys.get(kid)
        return key is not None and key.role == "service" and key.valid_at(seq)

    def key(self, kid: str) -> RegisteredKey | None:
        return self._keys.get(kid)

    def current_keys(self, principal: str, role: KeyRole) -> tuple[RegisteredKey, ...]:
        """``principal``'s registered, unrevoked ``role`` keys, oldest first."""
        return tuple(
            k
            for k in self._keys.values()
            if k.principal == principal and k.role == role and k.revoked_at is None
        )

    def reviewer_at(self, kid: str, seq: int) -> RegisteredKey | None:
        """The reviewer key ``kid`` if it may sign a decision in entry ``seq``."""
        key = self._keys.get(kid)
        return key if key is not None and key.role == "reviewer" and key.valid_at(seq) else None

    def windows(self) -> dict[str, SignerWindow]:
        """Service kid → (public key, first seq, last seq) for the chain pass."""
        return {
            k.kid: (k.public_key, k.registered_at + 1, k.revoked_at or NO_END)
            for k in self._keys.values()
            if k.role == "service"
        }


def check_reviewer_signature(
    registry: KeyRegistry, seq: int, event_type: str, record: Mapping[str, Any]
) -> bool:
    """Check the reviewer signature inside a reviewer-signed record; returns False for an
    opted-in OS-login decision (no reviewer signature), True for a signed one."""
    decider_field = REVIEWER_SIGNED_EVENTS[event_type]
    raw = record.get("signature")
    if raw is None and record.get("credential") == OS_LOGIN and event_type not in KEY_ONLY_EVENTS:
        return False
    if not isinstance(raw, Mapping):
        raise _failed(
            seq, "ledger.unsigned_decision", "record.signature", "a reviewer key signs decisions"
        )
    try:
        signature = RecordSignature.model_validate(raw)
    except PydanticValidationError:
        raise _failed(
            seq, "ledger.bad_reviewer_signature", "record.signature", "a record signature"
        ) from None
    key = registry.reviewer_at(signature.kid, seq)
    if key is None:
        raise _failed(
            seq,
            "ledger.untrusted_reviewer",
            "record.signature.kid",
            f"{signature.kid} is not a reviewer key registered before this entry and unrevoked",
        )
    if record.get(decider_field) != key.principal:
        raise _failed(
            seq,
            "ledger.forged_decider",
            f"record.{decider_field}",
            f"the reviewer key {key.kid} belongs to {key.principal}",
        )
    try:
        verify_record(record, signature, key.public_key)
    except SignatureInvalid:
        raise _failed(
            seq, "ledger.bad_reviewer_signature", "record.signature", "signature does not verify"
        ) from None
    return True


@dataclass(slots=True)
class TrustPass:
    """What the trust pass established, for the chain pass to check against."""

    registry: KeyRegistry
    entry_hashes: dict[int, str] = field(default_factory=dict)
    """seq → stored entry_hash of every row this pass read (the chain pass must agree)."""
    signed_decisions: int = 0
    os_login_decisions: int = 0
    problem: VerificationFailed | None = None
    """The first rule a watched row broke (raised only if the chain pass finds nothing earlier,
    so the first bad entry is always the one reported); rows after it are not read."""


def trust_pass(rows: Iterable[Sequence[Any]], root: TrustRoot) -> TrustPass:
    """Replay ``(seq, body, entry_hash)`` rows of the watched event types, in seq order."""
    result = TrustPass(KeyRegistry(root))
    for seq, body, entry_hash in rows:
        try:
            _take(result, int(seq), body)
        except VerificationFailed as exc:
            result.problem = exc
            break
        result.entry_hashes[int(seq)] = str(entry_hash)
    return result


def _take(result: TrustPass, seq: int, body: Any) -> None:
    try:
        data = json.loads(bytes(body))
        event_type, signer_kid, record = data["event_type"], data["signer_kid"], data["record"]
    except (ValueError, KeyError, TypeError):
        raise _failed(
            seq, "ledger.verification_failed", "body", "body is not a ledger entry"
        ) from None
    if not isinstance(record, Mapping) or not isinstance(signer_kid, str):
        raise _failed(seq, "ledger.verification_failed", "body", "body is not a ledger entry")
    if event_type in KEY_EVENTS:
        result.registry.apply(seq, event_type, signer_kid, record)
    elif event_type in REVIEWER_SIGNED_EVENTS:
        if check_reviewer_signature(result.registry, seq, event_type, record):
            result.signed_decisions += 1
        else:
            result.os_login_decisions += 1


def untrusted_signer(seq: int, kid: str) -> VerificationFailed:
    return _failed(
        seq,
        "ledger.untrusted_signer",
        "signer_kid",
        f"signed by {kid!r}, which is not the pinned service key nor a service key it "
        "registered (unrevoked) before this entry",
    )


def _failed(seq: int, code: str, field: str, rule: str) -> VerificationFailed:
    return VerificationFailed(
        f"entry {seq}: {field}: {rule}", code=code, seq=seq, field=field, rule=rule
    )
