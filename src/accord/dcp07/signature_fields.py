"""The signature blocks DCP-07 records carry: Ed25519 under ``DCP-DISPUTE-SIG-v2`` (R36, R44).

They narrow :class:`accord.crypto.RecordSignature` (same fields, same verifier) so a record whose
signature names another algorithm or domain is refused when it is read, not only when verified.
"""

from __future__ import annotations

from typing import Literal

from accord.crypto import RecordSignature
from accord.dcp07.fields import Identifier, Kid


class DisputeSignature(RecordSignature):
    """The single signature of a dispute or objection record."""

    alg: Literal["ed25519"]
    kid: Kid
    domain_sep: Literal["DCP-DISPUTE-SIG-v2"]


class SignerSignature(DisputeSignature):
    """One entry of a resolution's ``signatures[]``: the signing arbitrator (or, at human
    appeal, principal) and its signature (R19)."""

    agent_id: Identifier
