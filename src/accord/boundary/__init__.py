"""The boundary room: what a closing session leaves its successor about unresolved cases.

For every case still in dispute at session close, :class:`BoundaryService` records a
:class:`Boundary` — the divergence :class:`Crux`, each agent's conclusion with its evidence
receipt, an executable :class:`TieBreaker` (a registered :class:`Probe`), and the
sub-conclusions the agents agreed on — signed into the ledger. A successor lists
``pending()`` boundaries and settles each with ``resolve()``: one probe call, zero model
tokens, a :class:`ResolutionReceipt` naming the winning side.
"""

from accord.boundary.crux import (
    Side,
    TextCrux,
    crux_sides,
    differing_assumptions,
    extract_crux,
    is_stylistic,
    shared_assumptions,
    style_key,
)
from accord.boundary.model import (
    AMBIGUITY_UNRESOLVED,
    OPEN_STATUSES,
    AttemptOutcome,
    Boundary,
    BoundaryDraft,
    BoundaryStatus,
    Crux,
    CruxKind,
    PositionEntry,
    ProbeAttempt,
    ProbeResultRecord,
    ResolutionReceipt,
    TieBreaker,
    digest_of,
    evidence_receipt,
)
from accord.boundary.model_crux import ModelTextCrux
from accord.boundary.probes import Probe, ProbeFailed, ProbeRegistry, ProbeResult, run_probe
from accord.boundary.procedure import BoundaryInputs, agreed_sub_conclusions, decide_boundary
from accord.boundary.service import (
    BOUNDARY_STATUSES,
    BoundaryService,
    BudgetLine,
    CaseView,
    CloseReport,
    OnResolved,
    transcript_bytes_of,
)
from accord.boundary.store import BoundaryStore, LedgerAppend
from accord.boundary.tiebreak import (
    find_hint,
    hint_keys,
    propose_tie_breaker,
    restates_crux,
    validate_tie_breaker,
    winner_by_answer,
)

__all__ = [
    "AMBIGUITY_UNRESOLVED",
    "BOUNDARY_STATUSES",
    "OPEN_STATUSES",
    "AttemptOutcome",
    "Boundary",
    "BoundaryDraft",
    "BoundaryInputs",
    "BoundaryService",
    "BoundaryStatus",
    "BoundaryStore",
    "BudgetLine",
    "CaseView",
    "CloseReport",
    "Crux",
    "CruxKind",
    "LedgerAppend",
    "ModelTextCrux",
    "OnResolved",
    "PositionEntry",
    "Probe",
    "ProbeAttempt",
    "ProbeFailed",
    "ProbeRegistry",
    "ProbeResult",
    "ProbeResultRecord",
    "ResolutionReceipt",
    "Side",
    "TextCrux",
    "TieBreaker",
    "agreed_sub_conclusions",
    "crux_sides",
    "decide_boundary",
    "differing_assumptions",
    "digest_of",
    "evidence_receipt",
    "extract_crux",
    "find_hint",
    "hint_keys",
    "is_stylistic",
    "propose_tie_breaker",
    "restates_crux",
    "run_probe",
    "shared_assumptions",
    "style_key",
    "transcript_bytes_of",
    "validate_tie_breaker",
    "winner_by_answer",
]
