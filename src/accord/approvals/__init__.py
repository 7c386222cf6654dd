"""The human approval queue: people decide escalated cases while agents park their tasks.

Items carry the positions and the analysis so far; decisions come from authenticated
principals and are compare-and-set; deadlines are rows that any sweeper settles exactly once
under the item's §12.4 timeout policy.
"""

from accord.approvals.acting_deadline import (
    CASE_TIER_WORDS,
    ActingDeadline,
    CaseTierAction,
    DeadlineSource,
    acting_deadline,
    acting_deadline_of,
)
from accord.approvals.conflict_rule import (
    CONFLICT_RULE,
    PARTY_RULE,
    refuse_non_party,
    refuse_party_acting,
)
from accord.approvals.events import (
    APPROVAL_CANCELLED,
    APPROVAL_DEADLINE_CLEARED,
    APPROVAL_DECIDED,
    APPROVAL_ESCALATED,
    APPROVAL_EXPIRED,
    APPROVAL_REQUESTED,
    Event,
)
from accord.approvals.item import (
    MAX_WRITTEN_OUTCOME_CHARS,
    OPTION_LABEL_MAX_CHARS,
    TIMEOUT_DECIDER,
    ApprovalDecision,
    ApprovalItem,
    ApprovalStatus,
    HumanOutcome,
)
from accord.approvals.parked_task import ParkedTask, Resumption
from accord.approvals.parking import Parking, TaskHandle
from accord.approvals.policies import (
    DeadlineAction,
    DenyAfter,
    EscalationChain,
    EscalationStep,
    OnTimeout,
    Risk,
    Tiered,
    TierRule,
    TimeoutPolicy,
    WaitForever,
    next_deadline,
    on_deadline,
    role_at_step,
)
from accord.approvals.policy_config import policy_from_mapping
from accord.approvals.position_summary import PositionSummary
from accord.approvals.principal import Principal
from accord.approvals.queue import ApprovalQueue, EventSink
from accord.approvals.refusals import (
    AlreadyDecided,
    AlreadyResumed,
    ApprovalCancelled,
    ConflictedDecider,
    DecisionForbidden,
    DecisionWaitTimedOut,
    NotAParty,
    UnconfiguredReviewer,
)
from accord.approvals.reviewer import Credential, Reviewer
from accord.approvals.rows import item_document, item_from_row
from accord.approvals.transitions import refuse_unless_one_decision
from accord.approvals.verdict import (
    DECISION_VERDICTS,
    DecisionVerdict,
    verdict_of,
    verdict_of_decision,
    verdict_of_outcome,
    verdict_words,
)

__all__ = [
    "APPROVAL_CANCELLED",
    "APPROVAL_DEADLINE_CLEARED",
    "APPROVAL_DECIDED",
    "APPROVAL_ESCALATED",
    "APPROVAL_EXPIRED",
    "APPROVAL_REQUESTED",
    "CASE_TIER_WORDS",
    "CONFLICT_RULE",
    "DECISION_VERDICTS",
    "MAX_WRITTEN_OUTCOME_CHARS",
    "OPTION_LABEL_MAX_CHARS",
    "PARTY_RULE",
    "TIMEOUT_DECIDER",
    "ActingDeadline",
    "AlreadyDecided",
    "AlreadyResumed",
    "ApprovalCancelled",
    "ApprovalDecision",
    "ApprovalItem",
    "ApprovalQueue",
    "ApprovalStatus",
    "CaseTierAction",
    "ConflictedDecider",
    "Credential",
    "DeadlineAction",
    "DeadlineSource",
    "DecisionForbidden",
    "DecisionVerdict",
    "DecisionWaitTimedOut",
    "DenyAfter",
    "EscalationChain",
    "EscalationStep",
    "Event",
    "EventSink",
    "HumanOutcome",
    "NotAParty",
    "OnTimeout",
    "ParkedTask",
    "Parking",
    "PositionSummary",
    "Principal",
    "Resumption",
    "Reviewer",
    "Risk",
    "TaskHandle",
    "TierRule",
    "Tiered",
    "TimeoutPolicy",
    "UnconfiguredReviewer",
    "WaitForever",
    "acting_deadline",
    "acting_deadline_of",
    "item_document",
    "item_from_row",
    "next_deadline",
    "on_deadline",
    "policy_from_mapping",
    "refuse_non_party",
    "refuse_party_acting",
    "refuse_unless_one_decision",
    "role_at_step",
    "verdict_of",
    "verdict_of_decision",
    "verdict_of_outcome",
    "verdict_words",
]
