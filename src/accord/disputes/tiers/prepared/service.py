"""Prepare-then-sign: a tier step an agent signs with its own key, the server holding none.

**Prepare** runs the step exactly as the tier service would — at a pinned instant (a frozen
clock), naming its records from a stored seed (:class:`~accord.ids.SeededIds`), chaining a §6
draft to the ledger head of that moment — with a signer that holds no key
(:class:`AnsweringSigner`). The first message the step asks it to sign stops the run, and
the transaction rolls back: nothing is written but the prepared row (pins, the sha256 of what
was shown, the expiry). The agent gets the bytes.

**Complete** takes the agent's signatures and runs the step again with the same pins; the
signer answers each message with the agent's signature only if the bytes are the ones shown
and the signature verifies under the agent's registered, unrevoked key. Either the step
finishes — and commits together with the prepared row marked consumed (compare-and-set: a
second completion is refused) — or it reaches a message no signature answers yet, because
that message carries an earlier signature (a proposal's record holds the party's signature
of its §6 draft): the round is kept and the agent signs the next payload. A dispute that
moved since prepare (its record hash differs, or any payload would) is refused
(``disputes.prepared_stale``) with nothing written; so is an expired, consumed or foreign
prepared step. Nothing outside the database keeps state from a rolled-back run: the ledger
reads its head in the transaction, and after-commit callbacks run only on commit.

A step is judged at the instant it was prepared (its records carry that instant). It expires
``ttl`` later, never after the dispute's tier deadline nor the end of the step's own window
(a coin flip's commit or reveal deadline, a panel's vote deadline, read in the step's
transaction); completion re-checks the expiry inside its write transaction."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from pydantic import ValidationError as PydanticValidationError
from sqlalchemy import Connection

from accord.clock import FrozenClock
from accord.crypto.encoding import b64decode
from accord.dcp07.refusal import from_pydantic, refused
from accord.disputes.tiers.arbitration import Arbitration
from accord.disputes.tiers.credentials import UnknownActor
from accord.disputes.tiers.negotiating import Negotiating
from accord.disputes.tiers.prepared import prepared_rows
from accord.disputes.tiers.prepared.answering_signer import (
    Answer,
    AnsweringSigner,
    PayloadChanged,
    SignatureNeeded,
)
from accord.disputes.tiers.prepared.models import (
    Payload,
    PayloadSignature,
    PreparedStep,
    StepOutcome,
    payload_of,
)
from accord.disputes.tiers.prepared.pinned_desk import PinnedDesk
from accord.disputes.tiers.prepared.prepared_rows import PreparedRow
from accord.disputes.tiers.prepared.step_kinds import PreparedStepArgs, StepResult, validated_step
from accord.disputes.tiers.tier_context import TierContext
from accord.errors import AccordError, NotFound
from accord.ids import SeededIds, new_id
from accord.ledger import KeyRole
from accord.ledger.entry import ChainHead
from accord.ledger.key_registry import RegisteredKey
from accord.ledger.ledger import head_within, registry_within

DEFAULT_TTL = timedelta(minutes=5)
MIN_TTL = timedelta(seconds=10)
MAX_TTL = timedelta(hours=1)
PURGE_AFTER = timedelta(days=1)
"""Prepared rows that expired longer ago than this are deleted by the next prepare."""
MAX_SIGNATURES = 8
_REQ = "R36"

ServicesFor = Callable[[TierContext], tuple[Negotiating, Arbitration]]
"""The tier services built over a (pinned) context."""


class _NothingToSign(Exception):
    pass


class PreparedSteps:
    """Tier steps an agent prepares, then completes with its own signatures."""

    def __init__(
        self, context: TierContext, services_for: ServicesFor, *, ttl: timedelta = DEFAULT_TTL
    ) -> None:
        if not MIN_TTL <= ttl <= MAX_TTL:
            raise AccordError(
                f"a prepared step lives {MIN_TTL.seconds} s to {MAX_TTL.seconds} s",
                code="config.invalid",
                field="ttl",
                rule="10 s <= ttl <= 1 h",
            )
        self._c = context
        self._services_for = services_for
        self.ttl = ttl

    def prepare(
        self,
        dispute_id: str,
        step: PreparedStepArgs | Mapping[str, Any],
        *,
        by: str,
        kid: str | None = None,
    ) -> PreparedStep:
        """Prepare ``step`` on ``dispute_id`` for agent ``by`` (its registered key of the
        step's role; ``kid`` picks one when it has several): the payloads to sign, or none
        for a step that signs nothing (complete it with no signatures)."""
        args = validated_step(step)
        key = self._key_of(by, args.role, kid)
        now = self._c.clock.now()
        seed = secrets.token_bytes(32)
        seen: dict[str, Any] = {}

        def opened(conn: Connection) -> None:
            seen["dispute"] = self._c.desk.load_within(conn, dispute_id)
            seen["head"] = head_within(conn)

        def finishing(conn: Connection) -> None:
            seen["window"] = args.window_end_within(conn, seen["dispute"])
            raise _NothingToSign

        def stopped(conn: Connection, stop: Exception) -> None:
            if isinstance(stop, SignatureNeeded):  # the step's own writes are visible here
                seen["window"] = args.window_end_within(conn, seen["dispute"])

        context = self._pinned(now, seed, lambda _conn: seen["head"], opened, finishing, stopped)
        shown: tuple[Payload, ...] = ()
        try:
            self._run(context, args, dispute_id, AnsweringSigner(key.kid, key.public_key))
        except SignatureNeeded as need:
            shown = (payload_of(need.index, need.message),)
        except _NothingToSign:
            pass
        if "dispute" not in seen:  # every step kind opens its one transaction; guard anyway
            raise AccordError(
                f"step {args.step} did not run inside a dispute transaction",
                code="disputes.prepared_unsupported",
                field="step",
                rule="a prepared step is one tier step in one transaction",
            )
        dispute = seen["dispute"]
        ends = (now + self.ttl, dispute.tier_deadline, seen.get("window"))
        expires = min(end for end in ends if end is not None)
        row = PreparedRow(
            prepared_id=new_id("prep", now),
            dispute_id=dispute_id,
            step=args.step,
            arguments=args.model_dump(mode="json"),
            actor_id=by,
            role=args.role,
            kid=key.kid,
            pinned_at=now,
            id_seed=seed,
            head=seen["head"],
            dispute_record_hash=dispute.record_hash,
            payloads=tuple(_kept(p) for p in shown),
            signatures=(),
            created_at=now,
            expires_at=expires,
            consumed_at=None,
        )
        with self._c.desk.transaction() as conn:
            prepared_rows.purge_within(conn, now - PURGE_AFTER)
            prepared_rows.insert_within(conn, row)
        return _shown(row, shown)

    def complete(
        self,
        prepared_id: str,
        signatures: Sequence[PayloadSignature | Mapping[str, Any]],
        *,
        by: str,
        dispute_id: str | None = None,
    ) -> StepOutcome:
        """Agent ``by``'s signatures of the payloads its prepared step awaits, in order: the
        step is recorded (``completed``), or the next payload awaits (see the module).
        ``dispute_id``, when given, must be the prepared step's dispute."""
        given = _signatures(signatures)
        with self._c.db.read() as conn:
            row = prepared_rows.load_within(conn, prepared_id)
            registry = registry_within(conn)
        if row is not None and dispute_id is not None and row.dispute_id != dispute_id:
            row = None
        row = _usable(row, prepared_id, by, self._c.clock.now())
        awaited = row.payloads[row.round :]
        if len(given) != len(awaited):
            raise refused(
                _REQ,
                "signatures",
                f"one signature per payload awaiting it ({len(awaited)})",
                code="disputes.prepared_signatures",
                given=len(given),
            )
        for index, (signature, payload) in enumerate(zip(given, awaited, strict=True)):
            if signature.sha256 != payload["sha256"]:
                raise refused(
                    _REQ,
                    f"signatures[{index}].sha256",
                    f"names the payload it signs ({payload['sha256']})",
                    code="disputes.prepared_signatures",
                )
        key = registry.key(row.kid)
        if key is None or key.role != row.role or key.principal != by or key.revoked_at is not None:
            raise UnknownActor(
                f"key {row.kid} is no longer {by}'s registered, unrevoked {row.role} key",
                kid=row.kid,
                field="key",
                rule=f"a tier step is signed by the acting agent's registered {row.role} key",
            )
        every = (*row.signatures, *(s.signature_b64 for s in given))
        answers = [
            Answer(p["sha256"], _decoded(s, i))
            for i, (p, s) in enumerate(zip(row.payloads, every, strict=True))
        ]
        now = self._c.clock.now()

        def opened(conn: Connection) -> None:
            current = prepared_rows.load_within(conn, prepared_id)
            if current is None or current.consumed_at is not None or current.round != row.round:
                raise _raced(prepared_id)
            if (
                self._c.desk.load_within(conn, row.dispute_id).record_hash
                != row.dispute_record_hash
            ):
                raise _stale(prepared_id, "the dispute has moved since it was prepared")

        def finishing(conn: Connection) -> None:
            if self._c.clock.now() >= row.expires_at:
                raise _expired(row)
            if not prepared_rows.consume_within(conn, row, every, now):
                raise _raced(prepared_id)

        head: ChainHead = row.head
        context = self._pinned(row.pinned_at, row.id_seed, lambda _conn: head, opened, finishing)
        signer = AnsweringSigner(key.kid, key.public_key, answers, given_from=row.round)
        args = validated_step(row.arguments)
        try:
            result = self._run(context, args, row.dispute_id, signer)
        except SignatureNeeded as need:
            next_payload = payload_of(need.index, need.message)
            payloads = (*row.payloads, _kept(next_payload))
            with self._c.desk.transaction() as conn:
                if not prepared_rows.advance_within(conn, row, payloads, every):
                    raise _raced(prepared_id) from None
            advanced = replace(row, payloads=payloads, signatures=every)
            return StepOutcome(
                status="awaiting_signatures", prepared=_shown(advanced, (next_payload,))
            )
        except PayloadChanged as changed:
            raise _stale(
                prepared_id, f"payload {changed.index} is no longer what the step would sign"
            ) from None
        done = replace(row, signatures=every, consumed_at=now)
        return StepOutcome(status="completed", prepared=_shown(done, ()), result=result)

    # -- inside -------------------------------------------------------------------------------

    def _key_of(self, agent: str, role: KeyRole, kid: str | None) -> RegisteredKey:
        keys = self._c.ledger.key_registry().current_keys(agent, role)
        if kid is not None:
            keys = tuple(k for k in keys if k.kid == kid)
        if not keys:
            raise UnknownActor(
                f"{agent} has no registered, unrevoked {role} key"
                + (f" {kid}" if kid is not None else "")
                + (
                    " (an admin enrols its own public key: POST /api/v1/agent-keys; "
                    if role == "agent"
                    else " ("
                )
                + f"a server-held key: `accord keys new --role {role} --principal {agent}`)",
                field="kid" if kid is not None else "key",
                rule=f"the step is signed by the acting agent's registered {role} key",
                agent_id=agent,
            )
        if len(keys) > 1:
            raise refused(
                _REQ,
                "kid",
                f"{agent} has {len(keys)} registered {role} keys: name the one that signs",
                code="disputes.prepared_key_ambiguous",
                kids=[k.kid for k in keys],
            )
        return keys[0]

    def _pinned(
        self,
        at: datetime,
        seed: bytes,
        head: Callable[[Connection], ChainHead],
        opened: Callable[[Connection], None],
        finishing: Callable[[Connection], None],
        stopped: Callable[[Connection, Exception], None] | None = None,
    ) -> TierContext:
        return replace(
            self._c,
            clock=FrozenClock(at),
            ids=SeededIds(seed),
            head=head,
            desk=PinnedDesk(self._c.desk, opened=opened, finishing=finishing, stopped=stopped),
        )

    def _run(
        self, context: TierContext, args: PreparedStepArgs, dispute_id: str, signer: AnsweringSigner
    ) -> StepResult:
        negotiation, arbitration = self._services_for(context)
        return args.run(dispute_id, signer, negotiation, arbitration)


def _signatures(given: Sequence[PayloadSignature | Mapping[str, Any]]) -> list[PayloadSignature]:
    if isinstance(given, str | bytes) or len(given) > MAX_SIGNATURES:
        raise refused(
            _REQ,
            "signatures",
            f"a list of at most {MAX_SIGNATURES} signatures",
            code="disputes.prepared_signatures",
        )
    out = []
    for index, one in enumerate(given):
        try:
            out.append(PayloadSignature.model_validate(one))
        except PydanticValidationError as error:
            raise from_pydantic(error, requirement=_REQ, record=f"signatures[{index}]") from None
    return out


def _decoded(signature_b64: str, index: int) -> bytes:
    try:
        raw = b64decode(signature_b64)
    except ValueError:
        raw = b""
    if len(raw) != 64:
        raise refused(
            _REQ,
            f"signatures[{index}].signature_b64",
            "a 64-byte Ed25519 signature in standard base64",
            code="disputes.prepared_signatures",
        )
    return raw


def _usable(row: PreparedRow | None, prepared_id: str, by: str, now: datetime) -> PreparedRow:
    if row is None:
        raise NotFound(
            f"no prepared step {prepared_id} (prepared steps are forgotten a day after they "
            "expire)",
            code="disputes.prepared_not_found",
            prepared_id=prepared_id,
        )
    if row.actor_id != by:
        raise AccordError(
            f"prepared step {prepared_id} is {row.actor_id}'s: only its agent completes it",
            code="disputes.prepared_not_yours",
            field="prepared_id",
            rule="an agent completes only the steps it prepared",
            prepared_id=prepared_id,
        )
    if row.consumed_at is not None:
        raise AccordError(
            f"prepared step {prepared_id} was already completed",
            code="disputes.prepared_consumed",
            field="prepared_id",
            rule="a prepared step is completed once",
            prepared_id=prepared_id,
        )
    if now >= row.expires_at:
        raise _expired(row)
    return row


def _expired(row: PreparedRow) -> AccordError:
    return AccordError(
        f"prepared step {row.prepared_id} expired at {row.expires_at.isoformat()}: prepare "
        "it again",
        code="disputes.prepared_expired",
        field="prepared_id",
        rule="a prepared step is completed before it expires (the TTL, the tier's deadline "
        "and the step's own window, whichever ends first)",
        prepared_id=row.prepared_id,
    )


def _stale(prepared_id: str, why: str) -> AccordError:
    return AccordError(
        f"prepared step {prepared_id} is stale: {why}; prepare it again",
        code="disputes.prepared_stale",
        field="prepared_id",
        rule="a prepared step completes on the dispute as it was prepared",
        prepared_id=prepared_id,
    )


def _raced(prepared_id: str) -> AccordError:
    return AccordError(
        f"prepared step {prepared_id} was completed or advanced by another request",
        code="disputes.prepared_consumed",
        field="prepared_id",
        rule="a prepared step is completed once",
        prepared_id=prepared_id,
    )


def _kept(payload: Payload) -> dict[str, str]:
    return {"sha256": payload.sha256, "what": payload.what}


def _shown(row: PreparedRow, payloads: tuple[Payload, ...]) -> PreparedStep:
    return PreparedStep(
        prepared_id=row.prepared_id,
        dispute_id=row.dispute_id,
        step=row.step,
        actor_id=row.actor_id,
        role=row.role,
        kid=row.kid,
        prepared_at=row.pinned_at,
        expires_at=row.expires_at,
        signed=row.round,
        payloads=payloads,
        consumed=row.consumed_at is not None,
    )
