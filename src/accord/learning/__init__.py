"""The learning room: what Accord learns from settled cases and from labelled crowds.

Dawid–Skene reliability without ground truth, majority and weighted votes, numeric
consensus weighted by estimated precision, win rates with the playbook's routing rule,
root-cause reports, and plotted reports; plus loaders to score all this on crowd data.
"""

from accord.learning.aggregate import VoteOutcome, majority_vote, reliability_weights, weighted_vote
from accord.learning.crowd import evaluate_crowd, load_crowd_dataset
from accord.learning.crowd_dataset import CrowdDataset
from accord.learning.dawid_skene import DawidSkeneResult, fit_dawid_skene
from accord.learning.evaluation import CrowdEvaluation, evaluate_dataset
from accord.learning.label_data import LabelMatrix
from accord.learning.numeric import (
    NumericConsensus,
    aggregate_mean,
    fit_numeric_reliability,
    mae,
    rmse,
)
from accord.learning.one_coin import OneCoinResult, fit_one_coin
from accord.learning.outcomes import CaseOutcome
from accord.learning.reliability import estimate_case_reliability, estimate_reliability
from accord.learning.report import ReportFiles, render_report, report_paths
from accord.learning.root_causes import CauseGroup, RootCauseReport, root_cause_report
from accord.learning.summary import AgentRecord, DaySummary, OutcomeSummary, summarize_outcomes
from accord.learning.summary_markdown import summary_markdown
from accord.learning.win_rates import RoutingFlag, WinRateTracker

__all__ = [
    "AgentRecord",
    "CaseOutcome",
    "CauseGroup",
    "CrowdDataset",
    "CrowdEvaluation",
    "DawidSkeneResult",
    "DaySummary",
    "LabelMatrix",
    "NumericConsensus",
    "OneCoinResult",
    "OutcomeSummary",
    "ReportFiles",
    "RootCauseReport",
    "RoutingFlag",
    "VoteOutcome",
    "WinRateTracker",
    "aggregate_mean",
    "estimate_case_reliability",
    "estimate_reliability",
    "evaluate_crowd",
    "evaluate_dataset",
    "fit_dawid_skene",
    "fit_numeric_reliability",
    "fit_one_coin",
    "load_crowd_dataset",
    "mae",
    "majority_vote",
    "reliability_weights",
    "render_report",
    "report_paths",
    "rmse",
    "root_cause_report",
    "summarize_outcomes",
    "summary_markdown",
    "weighted_vote",
]
