"""The interaction log: every recorded A2A interaction, one row each (table
``agent_interactions``), and the latest one of any pair.

Rows are only ever inserted. Times are stored as :func:`accord.clock.isoformat` text (UTC,
microseconds, ``Z``), which sorts like time, so the pair index answers ``last_interaction``
with one seek.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import ValidationError as PydanticValidationError
from sqlalchemy import func, select

from accord.clock import isoformat
from accord.errors import ValidationError
from accord.ids import new_id
from accord.org.interactions import Interaction
from accord.store import Database
from accord.store.tables import agent_interactions


class InteractionLog:
    """Records interactions and answers the latest one between two agents."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def record(self, a: str, b: str, at: datetime) -> Interaction:
        """Log that ``a`` and ``b`` interacted at ``at``; ``org.invalid_interaction`` when
        they are the same agent, an id is empty or too long, or ``at`` is naive."""
        try:
            interaction = Interaction.between(a, b, at)
        except PydanticValidationError as exc:
            first = exc.errors()[0]
            raise ValidationError(
                f"invalid interaction: {first['msg']}",
                code="org.invalid_interaction",
                field=".".join(str(part) for part in first["loc"]) or "interaction",
                rule=first["msg"],
            ) from None
        row = {
            "interaction_id": new_id("int", at),
            "agent_a": interaction.agent_a,
            "agent_b": interaction.agent_b,
            "occurred_at": isoformat(interaction.at),
        }
        with self.db.write() as conn:
            conn.execute(agent_interactions.insert().values(**row))
        return interaction

    def last_interaction(self, a: str, b: str) -> datetime | None:
        """When ``a`` and ``b`` last interacted, in either direction; None when never."""
        low, high = sorted((a, b))
        query = select(func.max(agent_interactions.c.occurred_at)).where(
            agent_interactions.c.agent_a == low, agent_interactions.c.agent_b == high
        )
        with self.db.read() as conn:
            latest = conn.execute(query).scalar_one_or_none()
        return None if latest is None else datetime.fromisoformat(latest)
