"""Tier steps an agent signs with its own key, over HTTP: prepare, then sign.

``POST /disputes/{id}/prepared-steps`` runs the step as the library would (the key's agent
acting, never a body field) and answers the bytes to sign; ``POST
/disputes/{id}/prepared-steps/{prepared_id}/signatures`` takes the agent's Ed25519 signatures
of them, checked against its registered agent (or arbitrator) key, and records the ordinary
step — or answers the next payload when a record carries an earlier signature (a proposal's
record holds the agent's signature of its §6 draft). The server holds no key for the agent.
``accord disputes sign-prepared`` signs an answer with a local key file. Human appeal steps
stay server-signed (``dispute_tiers.py``).
"""

from __future__ import annotations

from typing import Annotated

from litestar import Request, post
from litestar.datastructures import State
from litestar.params import JSONBody, Parameter
from pydantic import BaseModel, ConfigDict, Field, RootModel

from accord.api.api_keys import Role
from accord.api.errors import error_responses
from accord.api.guards import allow
from accord.api.routes._state import accord_of
from accord.api.routes.disputes import DisputeId, acting_agent
from accord.disputes import (
    MAX_SIGNATURES,
    PayloadSignature,
    PreparedStep,
    PreparedStepArgs,
    StepOutcome,
)

_TAGS = ["dispute tiers"]
_ERRORS = error_responses(400, 401, 403, 404, 409, 413, 422)
PreparedId = Annotated[
    str,
    Parameter(
        max_length=64,
        pattern=r"^prep:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$",
        description="The prepared step's id (`prep:<uuid>`), from the prepare answer.",
    ),
]
Kid = Annotated[
    str | None,
    Parameter(
        max_length=64,
        pattern=r"^[0-9a-f]{32}$",
        description="Which of the agent's registered keys signs (its kid), when it has several.",
    ),
]


class PrepareStepIn(RootModel[PreparedStepArgs]):
    """One tier step, its kind named by ``step``, with that step's usual fields."""

    model_config = ConfigDict(frozen=True)


class SignaturesIn(BaseModel):
    """The agent's signature of each payload the prepared step awaits, in order."""

    model_config = ConfigDict(use_attribute_docstrings=True, frozen=True, extra="forbid")

    signatures: Annotated[list[PayloadSignature], Field(max_length=MAX_SIGNATURES)]
    """The signature of each payload the step awaits, in order."""


@post(
    "/disputes/{dispute_id:str}/prepared-steps",
    opt=allow(Role.AGENT),
    sync_to_thread=True,
    status_code=201,
    responses=_ERRORS,
    tags=_TAGS,
    operation_id="prepareStep",
    summary="Prepare a tier step to sign",
)
def prepare_step(
    request: Request[object, object, State],
    state: State,
    dispute_id: DisputeId,
    data: JSONBody[PrepareStepIn],
    kid: Kid = None,
) -> PreparedStep:
    """Prepare a tier step (``step``: propose, accept, counter_evidence, commit, reveal,
    nominate; vote, tally, sign_resolution as a panel member) as the key's agent: the answer
    holds each payload to sign with the agent's own registered key (``kid`` picks one when
    it has several), and when it expires. A step the tier would refuse is refused here."""
    return accord_of(state).disputes.tiers.prepared.prepare(
        dispute_id, data.root, by=acting_agent(request), kid=kid
    )


@post(
    "/disputes/{dispute_id:str}/prepared-steps/{prepared_id:str}/signatures",
    opt=allow(Role.AGENT),
    sync_to_thread=True,
    status_code=200,
    responses=_ERRORS,
    tags=_TAGS,
    operation_id="signPreparedStep",
    summary="Sign a prepared tier step",
)
def sign_prepared_step(
    request: Request[object, object, State],
    state: State,
    dispute_id: DisputeId,
    prepared_id: PreparedId,
    data: JSONBody[SignaturesIn],
) -> StepOutcome:
    """The key's agent's signatures of the payloads its prepared step awaits: the step is
    recorded (``completed``; ``result`` is the step's usual answer) or the next payload awaits
    (``awaiting_signatures``). Refused, with nothing written: another agent's step (403), a
    signature that does not verify under the agent's registered key (422, naming it), an
    expired, completed or stale step — the dispute moved since it was prepared (409)."""
    return accord_of(state).disputes.tiers.prepared.complete(
        prepared_id, data.signatures, by=acting_agent(request), dispute_id=dispute_id
    )


ROUTES = [prepare_step, sign_prepared_step]
"""Every route of this file, for ``create_app``."""
