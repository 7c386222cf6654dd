"""R8's random strategy: a cryptographically fair coin flip by commit–reveal.

Every party commits first, reveals second; the winner is drawn from every revealed nonce.

* **Nonce**: at least 32 random bytes (:func:`new_nonce` uses ``secrets.token_bytes(32)``).
* **Commit** (``sha256:<hex>``)::

      SHA-256(framed("DCP-07-COIN-COMMIT-v1",
                     UTF8(dispute_id), UTF8(agent_id), nonce, UTF8(choice)))

  (``framed`` is :mod:`accord.dcp07.negotiation.framing`: tag, 0x00, u32be-length-prefixed
  fields). The dispute and the party are inside the hash, so a commit cannot be replayed in
  another dispute nor copied by another party; ``choice`` is what the party calls (for example
  the proposal it wants), fixed before anyone reveals.
* **Reveal**: the nonce and the choice; the commit is recomputed and compared in constant time
  (``hmac.compare_digest``); a reveal that does not match is refused (R8,
  ``coin.reveal_mismatch``) and changes nothing.
* **Order**: reveals open only once every party has committed (or the commit deadline passed:
  then the parties without a commit are out), so nobody chooses a nonce after seeing another.
* **Forfeit**: a party that did not commit, or did not reveal by the reveal deadline, cannot win.
  Withholding a reveal therefore never helps the withholder.
* **Outcome** (``dcp07-coin-v1``): ``seed = SHA-256(framed("DCP-07-COIN-OUTCOME-v1",
  UTF8(dispute_id), then UTF8(agent_id), nonce for each revealing party in agent-id order))``;
  the winner is ``revealers[below(len(revealers))]`` with the draw of
  :mod:`accord.dcp07.negotiation.random_draws` (revealers sorted by agent id); the outcome's
  ``choice`` is the winner's revealed choice. Anyone holding the reveals recomputes it
  (:func:`coin_outcome_from_reveals`).

Deadlines are inclusive: an action at exactly the deadline is in time.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Sequence
from datetime import datetime
from typing import Self

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, model_validator

from accord.dcp07.negotiation.framing import framed, utf8
from accord.dcp07.negotiation.order import NegotiatedOrder
from accord.dcp07.negotiation.random_draws import DRAW_ALGORITHM, DrawStream
from accord.dcp07.negotiation.refusals import NegotiationRefused
from accord.values import revised

COMMIT_TAG = "DCP-07-COIN-COMMIT-v1"
OUTCOME_TAG = "DCP-07-COIN-OUTCOME-v1"
COIN_ALGORITHM = "dcp07-coin-v1"
STRATEGY = "random"
MIN_NONCE_BYTES = 32
_COMMITMENT = re.compile(r"^sha256:[0-9a-f]{64}$")
_R8 = "R8"


def new_nonce() -> bytes:
    """32 bytes from the operating system's CSPRNG (``secrets.token_bytes``)."""
    return secrets.token_bytes(MIN_NONCE_BYTES)


def commitment(dispute_id: str, agent_id: str, nonce: bytes, choice: str) -> str:
    """``sha256:<hex>`` commit of ``agent_id`` to ``nonce`` and ``choice`` in ``dispute_id``."""
    _check_nonce(nonce)
    digest = hashlib.sha256(
        framed(COMMIT_TAG, utf8(dispute_id), utf8(agent_id), nonce, utf8(choice))
    ).hexdigest()
    return f"sha256:{digest}"


class Commit(BaseModel):
    """A party's commitment, as received."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent_id: str = Field(min_length=1)
    commitment: str = Field(pattern=_COMMITMENT.pattern)
    committed_at: datetime


class RevealedNonce(BaseModel):
    """A party's revealed nonce (lower-case hex): what coin outcomes and panel seeds hash."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent_id: str = Field(min_length=1)
    nonce_hex: str = Field(pattern=r"^(?:[0-9a-f]{2}){32,}$")

    @property
    def nonce(self) -> bytes:
        return bytes.fromhex(self.nonce_hex)


class Reveal(RevealedNonce):
    """A party's verified reveal: its nonce, its choice and when it came."""

    choice: str = Field(min_length=1)
    revealed_at: datetime


class CoinOutcome(BaseModel):
    """The flip's result: who revealed, who forfeited, the seed, the winner and its choice.

    ``winner`` and ``choice`` are None only when nobody revealed.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    dispute_id: str
    algorithm: str = COIN_ALGORITHM
    draw_algorithm: str = DRAW_ALGORITHM
    seed_hex: str
    revealed_by: tuple[str, ...]
    forfeited: tuple[str, ...]
    winner: str | None
    choice: str | None


def coin_order(outcome: CoinOutcome, parties: Sequence[str]) -> NegotiatedOrder:
    """R8's random strategy as a turn order: the winner first, the others by agent id;
    undecided when nobody revealed."""
    rest = sorted(p for p in parties if p != outcome.winner)
    if outcome.winner is None:
        return NegotiatedOrder(
            strategy=STRATEGY, order=tuple(rest), decided=False, rationale="nobody revealed"
        )
    return NegotiatedOrder(
        strategy=STRATEGY,
        order=(outcome.winner, *rest),
        decided=True,
        rationale=f"{outcome.winner} won the commit–reveal coin flip (seed {outcome.seed_hex})",
    )


def coin_outcome_from_reveals(
    dispute_id: str, parties: Sequence[str], reveals: Sequence[Reveal]
) -> CoinOutcome:
    """Recompute the outcome from the reveals alone (see the module docstring)."""
    ordered = sorted(reveals, key=lambda r: r.agent_id)
    fields: list[bytes] = [utf8(dispute_id)]
    for reveal in ordered:
        fields += [utf8(reveal.agent_id), reveal.nonce]
    seed = hashlib.sha256(framed(OUTCOME_TAG, *fields)).digest()
    revealed = tuple(r.agent_id for r in ordered)
    forfeited = tuple(sorted(set(parties) - set(revealed)))
    if not ordered:
        return CoinOutcome(
            dispute_id=dispute_id,
            seed_hex=seed.hex(),
            revealed_by=(),
            forfeited=forfeited,
            winner=None,
            choice=None,
        )
    won = ordered[DrawStream(seed).below(len(ordered))]
    return CoinOutcome(
        dispute_id=dispute_id,
        seed_hex=seed.hex(),
        revealed_by=revealed,
        forfeited=forfeited,
        winner=won.agent_id,
        choice=won.choice,
    )


class CoinFlip(BaseModel):
    """A commit–reveal coin flip between a dispute's parties, as an immutable state.

    ``options``, when given, are the only choices a reveal may carry (e.g. proposal ids).

    :meth:`commit` and :meth:`reveal` return the next state or raise ``NegotiationRefused``
    (requirement R8) and leave this one unchanged.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    dispute_id: str = Field(min_length=1)
    parties: tuple[str, ...]
    commit_deadline: AwareDatetime
    reveal_deadline: AwareDatetime
    options: tuple[str, ...] = ()
    commits: tuple[Commit, ...] = ()
    reveals: tuple[Reveal, ...] = ()

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if len(self.parties) < 2 or len(set(self.parties)) != len(self.parties):
            raise ValueError("a coin flip needs at least two distinct parties")
        if self.reveal_deadline <= self.commit_deadline:
            raise ValueError("the reveal deadline comes after the commit deadline")
        return self

    # -- steps ------------------------------------------------------------------------------

    def commit(self, agent_id: str, commitment: str, *, at: datetime) -> CoinFlip:
        """Record ``agent_id``'s commitment (once, by the commit deadline)."""
        self._party(agent_id)
        if at > self.commit_deadline:
            raise _refused(
                f"the commit deadline {self.commit_deadline.isoformat()} has passed",
                "coin.commit_closed",
                "commitment",
                "commits are accepted up to the commit deadline",
                agent_id=agent_id,
            )
        if self._commit_of(agent_id) is not None:
            raise _refused(
                f"{agent_id} has already committed",
                "coin.already_committed",
                "agent_id",
                "each party commits once",
                agent_id=agent_id,
            )
        if not _COMMITMENT.fullmatch(commitment):
            raise _refused(
                "a commitment is sha256: followed by 64 lower-case hex digits",
                "coin.bad_commitment",
                "commitment",
                "sha256:<64 hex>",
                agent_id=agent_id,
            )
        made = Commit(agent_id=agent_id, commitment=commitment, committed_at=at)
        return revised(self, commits=(*self.commits, made))

    def reveal(self, agent_id: str, nonce: bytes, choice: str, *, at: datetime) -> CoinFlip:
        """Record ``agent_id``'s reveal after checking it against its commitment."""
        self._party(agent_id)
        made = self._commit_of(agent_id)
        if made is None:
            raise _refused(
                f"{agent_id} never committed, so has nothing to reveal",
                "coin.not_committed",
                "agent_id",
                "only a party that committed can reveal",
                agent_id=agent_id,
            )
        if not self.reveals_open(at):
            raise _refused(
                "reveals open once every party has committed or the commit deadline has passed",
                "coin.reveal_too_early",
                "revealed_at",
                "nobody reveals while another party may still commit",
                agent_id=agent_id,
                waiting_for=list(self.uncommitted()),
            )
        if at > self.reveal_deadline:
            raise _refused(
                f"the reveal deadline {self.reveal_deadline.isoformat()} has passed: "
                f"{agent_id} forfeits",
                "coin.reveal_closed",
                "revealed_at",
                "a party that does not reveal by the deadline forfeits",
                agent_id=agent_id,
            )
        if any(r.agent_id == agent_id for r in self.reveals):
            raise _refused(
                f"{agent_id} has already revealed",
                "coin.already_revealed",
                "agent_id",
                "each party reveals once",
                agent_id=agent_id,
            )
        _check_nonce(nonce)
        if not choice:
            raise _refused(
                "the choice is not empty",
                "coin.bad_choice",
                "choice",
                "a non-empty choice",
                agent_id=agent_id,
            )
        if self.options and choice not in self.options:
            raise _refused(
                f"{choice!r} is not one of this flip's options",
                "coin.unknown_choice",
                "choice",
                "a choice is one of the options the flip was opened with",
                agent_id=agent_id,
                options=list(self.options),
            )
        expected = commitment(self.dispute_id, agent_id, nonce, choice)
        if not hmac.compare_digest(expected.encode("ascii"), made.commitment.encode("ascii")):
            raise _refused(
                f"{agent_id}'s reveal does not match its commitment",
                "coin.reveal_mismatch",
                "nonce",
                "the revealed nonce and choice hash to the committed value",
                agent_id=agent_id,
            )
        revealed = Reveal(agent_id=agent_id, nonce_hex=nonce.hex(), choice=choice, revealed_at=at)
        return revised(self, reveals=(*self.reveals, revealed))

    # -- reading ----------------------------------------------------------------------------

    def uncommitted(self) -> tuple[str, ...]:
        """Parties that have not committed yet."""
        done = {c.agent_id for c in self.commits}
        return tuple(p for p in self.parties if p not in done)

    def reveals_open(self, now: datetime) -> bool:
        """Every party committed, or the commit deadline has passed."""
        return not self.uncommitted() or now > self.commit_deadline

    def is_settled(self, now: datetime) -> bool:
        """The outcome can no longer change: every committer revealed (with reveals open),
        or the reveal deadline has passed."""
        if now > self.reveal_deadline:
            return True
        revealed = {r.agent_id for r in self.reveals}
        return self.reveals_open(now) and all(c.agent_id in revealed for c in self.commits)

    def outcome(self, *, now: datetime) -> CoinOutcome:
        """The flip's result once settled; ``coin.outcome_too_early`` before."""
        if not self.is_settled(now):
            raise _refused(
                "the coin is still open: a committed party may still reveal",
                "coin.outcome_too_early",
                "now",
                "the outcome is read once every committer revealed or the reveal deadline passed",
                waiting_for=[
                    c.agent_id
                    for c in self.commits
                    if c.agent_id not in {r.agent_id for r in self.reveals}
                ],
            )
        return coin_outcome_from_reveals(self.dispute_id, self.parties, self.reveals)

    def revealed_nonces(self) -> tuple[RevealedNonce, ...]:
        """The verified nonces, by agent id (what a panel seed hashes, R35)."""
        return tuple(
            RevealedNonce(agent_id=r.agent_id, nonce_hex=r.nonce_hex)
            for r in sorted(self.reveals, key=lambda r: r.agent_id)
        )

    def _party(self, agent_id: str) -> None:
        if agent_id not in self.parties:
            raise _refused(
                f"{agent_id} is not a party to {self.dispute_id}",
                "coin.not_a_party",
                "agent_id",
                "only the dispute's parties take part in its coin flip",
                agent_id=agent_id,
            )

    def _commit_of(self, agent_id: str) -> Commit | None:
        return next((c for c in self.commits if c.agent_id == agent_id), None)


def _check_nonce(nonce: bytes) -> None:
    if not isinstance(nonce, bytes) or len(nonce) < MIN_NONCE_BYTES:
        raise _refused(
            f"a nonce is at least {MIN_NONCE_BYTES} random bytes",
            "coin.short_nonce",
            "nonce",
            f"at least {MIN_NONCE_BYTES} bytes from a CSPRNG",
        )


def _refused(
    message: str, code: str, field: str, rule: str, **context: object
) -> NegotiationRefused:
    return NegotiationRefused(
        message, code=code, requirement=_R8, field=field, rule=rule, **context
    )
