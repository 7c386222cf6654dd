"""How the dispute service refuses: every refusal an ``AccordError`` naming the R-number."""

from __future__ import annotations

from typing import Any

from accord.dcp07.refusal import refused
from accord.errors import NotFound, ValidationError


class DisputeNotFound(NotFound):
    """No dispute has this id (``disputes.not_found``)."""

    code = "disputes.not_found"


def not_found(dispute_id: str) -> DisputeNotFound:
    return DisputeNotFound(
        f"no dispute {dispute_id}", dispute_id=dispute_id, field="dispute_id", requirement="R5"
    )


def dispute_refused(
    requirement: str, field: str, rule: str, *, code: str, **context: Any
) -> ValidationError:
    """A refusal naming the DCP-07 ``requirement``, the ``field`` and the ``rule``."""
    return refused(requirement, field, rule, code=code, **context)


def not_a_party(dispute_id: str, agent_id: str, requirement: str) -> ValidationError:
    return dispute_refused(
        requirement,
        "by",
        "only a party to the dispute may take this step",
        code="disputes.not_a_party",
        dispute_id=dispute_id,
        agent_id=agent_id,
    )
