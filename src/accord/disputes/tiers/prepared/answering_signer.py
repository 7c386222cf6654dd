"""The signer a prepared step runs with: it holds no private key, only the agent's answers.

The step asks it to sign message after message, in an order the step's code fixes. The n-th
message is answered with the n-th signature the agent supplied — only if the message's sha256
is the one the agent was shown, and only once the signature verifies under the agent's
registered public key. A message with no answer yet stops the run (:class:`SignatureNeeded`:
the payload the agent must sign next); a message that differs from the one shown stops it
too (:class:`PayloadChanged`: the dispute moved, prepare again).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from accord.crypto import ED25519, sha256_prefixed, verify_ed25519
from accord.errors import SignatureInvalid


class SignatureNeeded(Exception):
    """The run reached a message no signature answers yet (never an ``AccordError``, so no
    step code takes it for a refusal)."""

    def __init__(self, index: int, message: bytes) -> None:
        super().__init__(f"payload {index} awaits the agent's signature")
        self.index = index
        self.message = message


class PayloadChanged(Exception):
    """The run asked to sign other bytes than the agent was shown for payload ``index``."""

    def __init__(self, index: int) -> None:
        super().__init__(f"payload {index} is not what was prepared")
        self.index = index


@dataclass(frozen=True, slots=True)
class Answer:
    """The agent's signature on the payload whose digest is ``sha256``."""

    sha256: str
    signature: bytes


class AnsweringSigner:
    """A :class:`~accord.crypto.Signer` for key ``kid`` whose signatures are ``answers``;
    the answers from ``given_from`` on are the ones the agent sends now (a refusal names them
    by their place in that request)."""

    def __init__(
        self, kid: str, public_key: bytes, answers: Sequence[Answer] = (), *, given_from: int = 0
    ) -> None:
        self._kid = kid
        self._public_key = public_key
        self._answers = tuple(answers)
        self._given_from = given_from
        self._asked = 0

    @property
    def alg(self) -> str:
        return ED25519

    @property
    def kid(self) -> str:
        return self._kid

    @property
    def public_key(self) -> bytes:
        return self._public_key

    def sign(self, message: bytes) -> bytes:
        """The supplied signature of ``message`` (see the module docstring)."""
        index = self._asked
        self._asked += 1
        if index >= len(self._answers):
            raise SignatureNeeded(index, message)
        answer = self._answers[index]
        if sha256_prefixed(message) != answer.sha256:
            raise PayloadChanged(index)
        try:
            verify_ed25519(self._public_key, message, answer.signature)
        except SignatureInvalid:
            field = f"signatures[{index - self._given_from}]"
            raise SignatureInvalid(
                f"{field} is not {self._kid}'s signature of payload {index}",
                code="disputes.prepared_bad_signature",
                field=field,
                rule="each signature is the agent's registered key's Ed25519 signature of "
                "the payload's bytes",
                kid=self._kid,
                payload=index,
            ) from None
        return answer.signature
