"""The three DCP-07 tiers over HTTP: one route per ``Accord.disputes.tiers`` call.

Every step is signed as the library requires, with the acting principal's registered key,
which the server holds in its key folder (``api/signing_keys.py``): a party's agent key for
negotiation, coin flip and nominations; a panel member's arbitrator key for votes, the tally
and the resolution's signatures; the reviewer key of the key's principal for a human appeal.
Who acts is the API key's agent or principal, never a body field. Seating a panel is the
operator's step (admin key); reads follow the dispute's read rule.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from litestar import Request, get, post
from litestar.datastructures import State
from litestar.params import JSONBody, Parameter
from pydantic import BaseModel, ConfigDict

from accord.api import body_examples
from accord.api.api_keys import Role
from accord.api.deciding import reviewer_signer
from accord.api.dispute_schemas import (
    ID_PATTERN,
    AcceptIn,
    AppealDecisionIn,
    CommitIn,
    CounterEvidenceIn,
    DeliberateIn,
    FormPanelIn,
    NominateIn,
    PanelProposalIn,
    ProposeIn,
    RevealIn,
    VoteIn,
)
from accord.api.errors import error_responses
from accord.api.guards import READERS, allow, caller
from accord.api.routes._state import accord_of
from accord.api.routes.disputes import DisputeId, acting_agent, readable_dispute
from accord.api.signing_keys import server_signer
from accord.app import Accord
from accord.crypto import Ed25519Signer
from accord.dcp07 import (
    CoinFlip,
    CoinOutcome,
    Negotiation,
    PanelFormation,
    PanelTally,
    PanelVote,
    Proposal,
    ResolutionRecord,
)
from accord.disputes import (
    AgentArbitrator,
    AppealProposal,
    BallotPaper,
    DisputeTiers,
    NegotiationStep,
    Nominations,
    PanelDeliberation,
    PanelEscalation,
    SeatedPanel,
)
from accord.errors import AccordError

_TAGS = ["dispute tiers"]
_STEP_ERRORS = error_responses(400, 401, 403, 404, 409, 413, 422)
_READ_ERRORS = error_responses(400, 401, 403, 404)


class CoinFlipOut(BaseModel):
    """The dispute's coin flip as stored (``flip`` is null before the first commit)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    flip: CoinFlip | None
    """The coin flip's commitments and reveals so far; null before any."""


class PanelOut(BaseModel):
    """The dispute's seated panel (``panel`` is null before one is seated)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    panel: SeatedPanel | None
    """The panel, its members and its votes; null before one is seated."""


class BallotPapersOut(BaseModel):
    """The approval items through which the panel's human members vote (empty before a panel
    is seated, or on a panel of agents)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    papers: tuple[BallotPaper, ...]
    """One ballot paper per member: the question, the positions and the proposed resolution."""


class AppealProposalOut(BaseModel):
    """The appeal decision awaiting principals' signatures (``proposal`` null if none)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    proposal: AppealProposal | None
    """The appeal decision proposed and the co-signatures it has so far; null when none is open."""


def _tiers(state: State) -> DisputeTiers:
    return accord_of(state).disputes.tiers


def _as(request: Request[Any, Any, State], state: State, role: str) -> Ed25519Signer:
    """The key the step is signed with: the API key's agent's ``role`` key."""
    return server_signer(accord_of(state), role, acting_agent(request))


def _reader(request: Request[Any, Any, State], state: State, dispute_id: str) -> None:
    readable_dispute(accord_of(state), caller(request), dispute_id)


# --- tier 1: negotiation (R7) and the coin flip (R8) ---------------------------------------


@get(
    "/disputes/{dispute_id:str}/negotiation",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=_READ_ERRORS,
    tags=_TAGS,
    operation_id="getNegotiation",
    summary="Get a dispute's negotiation",
)
def get_negotiation(
    request: Request[object, object, State], state: State, dispute_id: DisputeId
) -> Negotiation:
    """The dispute's tier-1 state: proposals, counter-evidence, acceptances, deadline."""
    _reader(request, state, dispute_id)
    return _tiers(state).negotiation.negotiation(dispute_id)


@post(
    "/disputes/{dispute_id:str}/proposals",
    opt=allow(Role.AGENT),
    sync_to_thread=True,
    status_code=201,
    responses=_STEP_ERRORS,
    tags=_TAGS,
    operation_id="proposeResolution",
    summary="Propose terms",
)
def propose(
    request: Request[object, object, State],
    state: State,
    dispute_id: DisputeId,
    data: Annotated[ProposeIn, body_examples.PROPOSE],
) -> Proposal:
    """The key's agent proposes ``terms`` (and so accepts them); a proposal every party
    accepts resolves the dispute (R7)."""
    signer = _as(request, state, "agent")
    return _tiers(state).negotiation.propose(
        dispute_id, signer, data.terms, responds_to=data.responds_to
    )


@post(
    "/disputes/{dispute_id:str}/proposals/{proposal_id:str}/acceptance",
    opt=allow(Role.AGENT),
    sync_to_thread=True,
    status_code=200,
    responses=_STEP_ERRORS,
    tags=_TAGS,
    operation_id="acceptProposal",
    summary="Accept a proposal",
)
def accept(
    request: Request[object, object, State],
    state: State,
    dispute_id: DisputeId,
    proposal_id: Annotated[
        str, Parameter(max_length=256, pattern=ID_PATTERN, description="The proposal's id.")
    ],
    data: JSONBody[AcceptIn | None] = None,
) -> NegotiationStep:
    """The key's agent accepts the proposal; once every party has, the dispute resolves and
    the answer carries the signed §6 resolution (R7, R19). No body, or an empty object: any
    field is refused (400 naming it)."""
    signer = _as(request, state, "agent")
    return _tiers(state).negotiation.accept(dispute_id, signer, proposal_id)


@post(
    "/disputes/{dispute_id:str}/counter-evidence",
    opt=allow(Role.AGENT),
    sync_to_thread=True,
    status_code=201,
    responses=_STEP_ERRORS,
    tags=_TAGS,
    operation_id="submitCounterEvidence",
    summary="Submit counter-evidence",
)
def counter_evidence(
    request: Request[object, object, State],
    state: State,
    dispute_id: DisputeId,
    data: JSONBody[CounterEvidenceIn],
) -> Negotiation:
    """The key's agent answers with evidence addressed by its content hash (R7, R33)."""
    signer = _as(request, state, "agent")
    return _tiers(state).negotiation.counter_evidence(
        dispute_id,
        signer,
        content_hash=data.content_hash,
        description=data.description,
        answers=data.answers,
    )


@get(
    "/disputes/{dispute_id:str}/coin",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=_READ_ERRORS,
    tags=_TAGS,
    operation_id="getCoinFlip",
    summary="Get a coin flip's state",
)
def get_coin_flip(
    request: Request[object, object, State], state: State, dispute_id: DisputeId
) -> CoinFlipOut:
    """The dispute's commit–reveal coin flip: commitments, reveals, deadlines (R8)."""
    _reader(request, state, dispute_id)
    return CoinFlipOut(flip=_tiers(state).negotiation.coin_flip(dispute_id))


@get(
    "/disputes/{dispute_id:str}/coin/outcome",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403, 404, 422),
    tags=_TAGS,
    operation_id="getCoinOutcome",
    summary="Get a coin flip's outcome",
)
def get_coin_outcome(
    request: Request[object, object, State], state: State, dispute_id: DisputeId
) -> CoinOutcome:
    """The flip's outcome once settled (every party revealed, or the reveal deadline passed);
    before that it is refused (R8)."""
    _reader(request, state, dispute_id)
    return _tiers(state).negotiation.coin_outcome(dispute_id)


@post(
    "/disputes/{dispute_id:str}/coin/commitments",
    opt=allow(Role.AGENT),
    sync_to_thread=True,
    status_code=201,
    responses=_STEP_ERRORS,
    tags=_TAGS,
    operation_id="commitCoinNonce",
    summary="Commit to a coin-flip nonce",
)
def commit(
    request: Request[object, object, State],
    state: State,
    dispute_id: DisputeId,
    data: JSONBody[CommitIn],
) -> CoinFlip:
    """The key's agent commits to its nonce and choice (R8)."""
    signer = _as(request, state, "agent")
    return _tiers(state).negotiation.commit(dispute_id, signer, data.commitment)


@post(
    "/disputes/{dispute_id:str}/coin/reveals",
    opt=allow(Role.AGENT),
    sync_to_thread=True,
    status_code=201,
    responses=_STEP_ERRORS,
    tags=_TAGS,
    operation_id="revealCoinNonce",
    summary="Reveal a coin-flip nonce",
)
def reveal(
    request: Request[object, object, State],
    state: State,
    dispute_id: DisputeId,
    data: JSONBody[RevealIn],
) -> CoinFlip:
    """The key's agent reveals its nonce and choice, checked against its commitment (R8)."""
    signer = _as(request, state, "agent")
    return _tiers(state).negotiation.reveal(
        dispute_id, signer, bytes.fromhex(data.nonce_hex), data.choice
    )


# --- tier 2: the panel (R10–R15, R35) -------------------------------------------------------


@post(
    "/disputes/{dispute_id:str}/nominations",
    opt=allow(Role.AGENT),
    sync_to_thread=True,
    status_code=201,
    responses=_STEP_ERRORS,
    tags=_TAGS,
    operation_id="nominateArbitrator",
    summary="Nominate arbitrators",
)
def nominate(
    request: Request[object, object, State],
    state: State,
    dispute_id: DisputeId,
    data: JSONBody[NominateIn],
) -> Nominations:
    """The key's agent (a party) nominates candidates from the arbitrator pool (R10)."""
    signer = _as(request, state, "agent")
    added = _tiers(state).arbitration.nominate(dispute_id, signer, data.agent_ids)
    return Nominations(items=added)


@post(
    "/disputes/{dispute_id:str}/panel",
    opt=allow(Role.ADMIN),
    sync_to_thread=True,
    status_code=201,
    responses=_STEP_ERRORS,
    tags=_TAGS,
    operation_id="formPanel",
    summary="Seat an arbitration panel",
)
def form_panel(
    state: State, dispute_id: DisputeId, data: JSONBody[FormPanelIn]
) -> PanelFormation | PanelEscalation:
    """Seat the panel (admin key): drawn verifiably from the eligible pool with the parties'
    revealed coin-flip nonces (R10–R13, R32, R35), to vote on ``resolution``. When the whole
    pool has fewer eligible arbitrators than a panel needs, the dispute goes to human appeal
    instead and the answer says why (``to_level``, ``reason``, ``eligible``, ``needed``)."""
    return _tiers(state).arbitration.form_panel(
        dispute_id,
        question=data.question,
        positions=data.positions,
        favours=data.favours,
        resolution=data.resolution,
        **data.terms(),
    )


@get(
    "/disputes/{dispute_id:str}/panel",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=_READ_ERRORS,
    tags=_TAGS,
    operation_id="getPanel",
    summary="Get a dispute's panel",
)
def get_panel(
    request: Request[object, object, State], state: State, dispute_id: DisputeId
) -> PanelOut:
    """The seated panel: its formation, the question, the votes, the decision."""
    _reader(request, state, dispute_id)
    return PanelOut(panel=_tiers(state).arbitration.panel(dispute_id))


@get(
    "/disputes/{dispute_id:str}/panel/ballot-papers",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=_READ_ERRORS,
    tags=_TAGS,
    operation_id="getBallotPapers",
    summary="Get the panel's ballot papers",
)
def get_ballot_papers(
    request: Request[object, object, State], state: State, dispute_id: DisputeId
) -> BallotPapersOut:
    """The panel's ballot papers: each human member's approval item (decide it at
    ``/approvals/{item_id}/decision`` with the member's reviewer key)."""
    _reader(request, state, dispute_id)
    return BallotPapersOut(papers=_tiers(state).arbitration.ballot_papers(dispute_id))


@get(
    "/disputes/{dispute_id:str}/resolution/verification",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403, 404, 422),
    tags=_TAGS,
    operation_id="verifyResolution",
    summary="Verify a dispute's resolution",
)
def verify_resolution(
    request: Request[object, object, State], state: State, dispute_id: DisputeId
) -> ResolutionRecord:
    """The resolved dispute's §6 record, once every signature on it verifies under the key the
    ledger registered to its signer and everyone who must sign has (every party at tier 1, M
    approving members at tier 2, every party's principal at tier 3); a bad or missing
    signature is 422 ``crypto.signature_invalid`` naming the signer."""
    _reader(request, state, dispute_id)
    return accord_of(state).disputes.verify_resolution(dispute_id)


@post(
    "/disputes/{dispute_id:str}/panel/votes",
    opt=allow(Role.AGENT),
    sync_to_thread=True,
    status_code=201,
    responses=_STEP_ERRORS,
    tags=_TAGS,
    operation_id="castPanelVote",
    summary="Cast a panel vote",
)
def vote(
    request: Request[object, object, State],
    state: State,
    dispute_id: DisputeId,
    data: JSONBody[VoteIn],
) -> PanelVote:
    """The key's agent, a panel member, votes (signed with its arbitrator key, R14, R36)."""
    signer = _as(request, state, "arbitrator")
    return _tiers(state).arbitration.vote(dispute_id, signer, data.vote, data.reasoning)


@post(
    "/disputes/{dispute_id:str}/panel/proposal",
    opt=allow(Role.AGENT),
    sync_to_thread=True,
    status_code=201,
    responses=_STEP_ERRORS,
    tags=_TAGS,
    operation_id="proposePanelResolution",
    summary="Put a proposed resolution to the panel",
)
def propose_resolution(
    request: Request[object, object, State],
    state: State,
    dispute_id: DisputeId,
    data: JSONBody[PanelProposalIn],
) -> PanelOut:
    """The key's agent, a panel member, puts a proposed §6 resolution to the panel (its
    arbitrator key): outcome, required actions, compliance method and deadline, precedents
    applied. Allowed until the first vote; the votes then bind its hash (R14, R19). The
    answer is the panel with the proposal in its ``question``."""
    signer = _as(request, state, "arbitrator")
    arbitration = _tiers(state).arbitration
    arbitration.propose(
        dispute_id, signer, favours=data.favours, description=data.description, **data.terms()
    )
    return PanelOut(panel=arbitration.panel(dispute_id))


@post(
    "/disputes/{dispute_id:str}/panel/recommendation/acceptance",
    opt=allow(Role.AGENT),
    sync_to_thread=True,
    status_code=201,
    responses=_STEP_ERRORS,
    tags=_TAGS,
    operation_id="acceptPanelRecommendation",
    summary="Accept the panel's recommended resolution",
)
def accept_recommendation(
    request: Request[object, object, State], state: State, dispute_id: DisputeId
) -> SeatedPanel:
    """The key's agent, a party, accepts the panel's recommended resolution (its agent key);
    once every party has, the dispute resolves by it (R15). A party that does not accept
    escalates instead (``POST /disputes/{dispute_id}/escalate``, R17)."""
    signer = _as(request, state, "agent")
    return _tiers(state).arbitration.accept_recommendation(dispute_id, signer)


@post(
    "/disputes/{dispute_id:str}/panel/deliberation",
    opt=allow(Role.AGENT),
    sync_to_thread=True,
    status_code=200,
    responses=_STEP_ERRORS,
    tags=_TAGS,
    operation_id="deliberatePanel",
    summary="Run the panel's deliberation",
)
def deliberate(
    request: Request[object, object, State],
    state: State,
    dispute_id: DisputeId,
    data: JSONBody[DeliberateIn],
) -> PanelDeliberation:
    """The key's agent, a panel member, deliberates through the service's model port: it
    judges the parties' positions twice, swapped, and its signed vote (its arbitrator key)
    counts like any other (R14). A model failure casts no vote and is listed in
    ``failures``. Refused when the service has no model configured."""
    accord = accord_of(state)
    model = accord.model
    if model is None:
        raise AccordError(
            "the service has no language model: configure a model: section to let agent "
            "members deliberate",
            code="panels.no_model",
            field="model",
            rule="the service is configured with a model",
            requirement="R14",
        )
    member = AgentArbitrator(
        acting_agent(request), model, _as(request, state, "arbitrator"), max_tokens=data.max_tokens
    )
    # a worker thread of its own: the model calls run in a fresh event loop there, the
    # library's database steps stay off the server's loop
    return asyncio.run(_tiers(state).arbitration.deliberate(dispute_id, [member]))


@post(
    "/disputes/{dispute_id:str}/panel/tally",
    opt=allow(Role.AGENT),
    sync_to_thread=True,
    status_code=200,
    responses=_STEP_ERRORS,
    tags=_TAGS,
    operation_id="tallyPanelVotes",
    summary="Tally the panel's votes",
)
def tally(
    request: Request[object, object, State], state: State, dispute_id: DisputeId
) -> PanelTally:
    """A panel member closes the vote (everyone voted, or the deadline passed: R14, R15)."""
    signer = _as(request, state, "arbitrator")
    return _tiers(state).arbitration.tally(dispute_id, signer)


@post(
    "/disputes/{dispute_id:str}/panel/signatures",
    opt=allow(Role.AGENT, Role.REVIEWER),
    sync_to_thread=True,
    status_code=201,
    responses=_STEP_ERRORS,
    tags=_TAGS,
    operation_id="signPanelResolution",
    summary="Sign the panel's resolution",
)
def sign_resolution(
    request: Request[object, object, State], state: State, dispute_id: DisputeId
) -> ResolutionRecord:
    """A panel member signs the decided §6 resolution; M approving signatures resolve the
    dispute (R14, R19, R44). An agent key signs with its agent's arbitrator key; a reviewer
    key (a human member's principal) with that principal's reviewer key."""
    key = caller(request)
    if key.role is Role.REVIEWER:
        assert key.principal_id is not None  # a reviewer key is always bound to a principal
        signer = reviewer_signer(accord_of(state), key.principal_id)
    else:
        signer = _as(request, state, "arbitrator")
    return _tiers(state).arbitration.sign_resolution(dispute_id, signer)


# --- tier 3: human appeal (R16) -------------------------------------------------------------


@post(
    "/disputes/{dispute_id:str}/appeal/decision",
    opt=allow(Role.REVIEWER),
    sync_to_thread=True,
    status_code=201,
    responses=_STEP_ERRORS,
    tags=_TAGS,
    operation_id="decideAppeal",
    summary="Decide a human appeal",
)
def decide_appeal(
    request: Request[object, object, State],
    state: State,
    dispute_id: DisputeId,
    data: JSONBody[AppealDecisionIn],
) -> ResolutionRecord:
    """The key's principal decides the appeal, final and binding, signed with its reviewer
    key (R16). The responsible principals of all parties decide together: one key decides
    alone only when it is every party's principal (otherwise the library refuses, naming
    them: the principals then decide in turn through ``/appeal/proposals``)."""
    principal_id = caller(request).principal_id
    assert principal_id is not None  # a reviewer key is always bound to a principal
    return appeal_as_reviewer(
        accord_of(state),
        dispute_id,
        principal_id,
        outcome=data.outcome,
        reasoning=data.reasoning,
    )


def appeal_as_reviewer(
    accord: Accord, dispute_id: str, principal_id: str, *, outcome: str, reasoning: str
) -> ResolutionRecord:
    """Decide the appeal as ``principal_id`` alone, signed with their reviewer key from the
    server's key folder (R16): the one adapter the API route and the dispute page share.
    ``outcome`` is the principal's own words, not a choice among positions."""
    reviewer = accord.reviewer(reviewer_signer(accord, principal_id))
    return accord.disputes.tiers.appeal.decide_appeal(
        dispute_id, [reviewer], outcome=outcome, reasoning=reasoning
    )


@get(
    "/disputes/{dispute_id:str}/appeal/proposal",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=_READ_ERRORS,
    tags=_TAGS,
    operation_id="getAppealProposal",
    summary="Get the open appeal proposal",
)
def get_appeal_proposal(
    request: Request[object, object, State], state: State, dispute_id: DisputeId
) -> AppealProposalOut:
    """The pending appeal decision: its §6 draft, who has signed it, who still must (R16)."""
    _reader(request, state, dispute_id)
    return AppealProposalOut(proposal=_tiers(state).appeal.pending_appeal(dispute_id))


@post(
    "/disputes/{dispute_id:str}/appeal/proposals",
    opt=allow(Role.REVIEWER),
    sync_to_thread=True,
    status_code=201,
    responses=_STEP_ERRORS,
    tags=_TAGS,
    operation_id="proposeAppealDecision",
    summary="Propose an appeal decision",
)
def propose_appeal(
    request: Request[object, object, State],
    state: State,
    dispute_id: DisputeId,
    data: JSONBody[AppealDecisionIn],
) -> AppealProposal:
    """The key's principal proposes the final decision, signed with its reviewer key; it
    replaces any pending proposal (whose signatures are dropped). The other responsible
    principals co-sign it; a principal responsible for every party decides at once (R16)."""
    principal_id = caller(request).principal_id
    assert principal_id is not None  # a reviewer key is always bound to a principal
    return propose_appeal_as_reviewer(
        accord_of(state), dispute_id, principal_id, outcome=data.outcome, reasoning=data.reasoning
    )


@post(
    "/disputes/{dispute_id:str}/appeal/proposals/{proposal_id:str}/signatures",
    opt=allow(Role.REVIEWER),
    sync_to_thread=True,
    status_code=201,
    responses=_STEP_ERRORS,
    tags=_TAGS,
    operation_id="signAppealDecision",
    summary="Sign a proposed appeal decision",
)
def sign_appeal(
    request: Request[object, object, State],
    state: State,
    dispute_id: DisputeId,
    proposal_id: Annotated[
        str, Parameter(max_length=256, pattern=ID_PATTERN, description="The proposal's id.")
    ],
) -> AppealProposal:
    """The key's principal co-signs the pending proposal; the last responsible principal's
    signature resolves the dispute, final and binding (``resolution`` in the answer, R16)."""
    principal_id = caller(request).principal_id
    assert principal_id is not None  # a reviewer key is always bound to a principal
    return sign_appeal_as_reviewer(accord_of(state), dispute_id, principal_id, proposal_id)


def propose_appeal_as_reviewer(
    accord: Accord, dispute_id: str, principal_id: str, *, outcome: str, reasoning: str
) -> AppealProposal:
    """Propose the appeal decision as ``principal_id``, signed with their reviewer key from the
    server's key folder (R16): the adapter the API route and the dispute page share."""
    signer = reviewer_signer(accord, principal_id)
    return accord.disputes.tiers.appeal.propose_appeal(
        dispute_id, signer, outcome=outcome, reasoning=reasoning
    )


def sign_appeal_as_reviewer(
    accord: Accord, dispute_id: str, principal_id: str, proposal_id: str
) -> AppealProposal:
    """Co-sign the pending appeal proposal as ``principal_id`` (their reviewer key, R16)."""
    signer = reviewer_signer(accord, principal_id)
    return accord.disputes.tiers.appeal.sign_appeal(dispute_id, signer, proposal_id)


ROUTES = [
    get_negotiation,
    propose,
    accept,
    counter_evidence,
    get_coin_flip,
    get_coin_outcome,
    commit,
    reveal,
    nominate,
    form_panel,
    get_panel,
    get_ballot_papers,
    verify_resolution,
    propose_resolution,
    accept_recommendation,
    vote,
    deliberate,
    tally,
    sign_resolution,
    decide_appeal,
    get_appeal_proposal,
    propose_appeal,
    sign_appeal,
]
"""Every route of this file, for ``create_app``."""
