"""What signs a record: the small port every record signature is made through.

:class:`~accord.crypto.ed25519.Ed25519Signer` is the private key the process holds; a
prepared tier step (``disputes/tiers/prepared``) signs through a stand-in that answers with
the signature the agent made elsewhere with its own key. Both are a :class:`Signer`.
"""

from __future__ import annotations

from typing import Protocol


class Signer(Protocol):
    """An Ed25519 key as a signature needs it: who (``kid``, ``public_key``), how (``alg``),
    and the 64-byte detached signature of a message."""

    @property
    def alg(self) -> str: ...

    @property
    def kid(self) -> str: ...

    @property
    def public_key(self) -> bytes: ...

    def sign(self, message: bytes) -> bytes: ...
