"""The conflicts room: positions and evidence, detection, classification, merging.

Parallel agents' :class:`Position` s go into :func:`detect`, which groups their answers and
names the conflict (kind and severity) or recognises complementary work — free-text answers
by the facts they state (:mod:`accord.conflicts.prose`; :func:`evaluate_prose` measures it on
a labelled corpus); :func:`classify`
turns a detected conflict into a DCP-07 dispute type, a starting tier and a strategy chain
(a :class:`DecisionTable`, configurable from YAML); :func:`merge_complementary` joins outputs
that complete each other. Everything here is pure: no I/O, no clock, no global state.
"""

from accord.conflicts.classification import (
    DEFAULT_DISPUTE_TYPES,
    ChainOverrides,
    Classification,
    DecisionTable,
    classify,
)
from accord.conflicts.detection import AnswerGroup, Detection, FieldConflict, detect
from accord.conflicts.dispute_type import STARTING_TIERS, TIER_ORDER, DisputeType, Tier
from accord.conflicts.evidence import Evidence
from accord.conflicts.kinds import ConflictKind, Severity
from accord.conflicts.merge import MergeResult, declared_confidence, merge_complementary
from accord.conflicts.position import (
    MAX_LABEL_LENGTH,
    OutputKind,
    Position,
    output_kind,
    validate_positions,
)
from accord.conflicts.prose import ProseDetail, ProseSettings
from accord.conflicts.prose.embedding import EmbeddingComparator, SemanticExtraMissing
from accord.conflicts.prose.evaluation import (
    CorpusCase,
    ProseEvaluation,
    evaluate_prose,
    read_corpus,
)
from accord.conflicts.settings import (
    DEFAULT_INCOMPATIBLE_SETS,
    DetectionSettings,
    NumericThresholds,
)
from accord.conflicts.strategy_chain import CHAIN_STEPS, CRITICAL_CHAIN, DEFAULT_CHAIN
from accord.conflicts.text import SemanticComparator, SemanticLayers, normalize_text

__all__ = [
    "CHAIN_STEPS",
    "CRITICAL_CHAIN",
    "DEFAULT_CHAIN",
    "DEFAULT_DISPUTE_TYPES",
    "DEFAULT_INCOMPATIBLE_SETS",
    "MAX_LABEL_LENGTH",
    "STARTING_TIERS",
    "TIER_ORDER",
    "AnswerGroup",
    "ChainOverrides",
    "Classification",
    "ConflictKind",
    "CorpusCase",
    "DecisionTable",
    "Detection",
    "DetectionSettings",
    "DisputeType",
    "EmbeddingComparator",
    "Evidence",
    "FieldConflict",
    "MergeResult",
    "NumericThresholds",
    "OutputKind",
    "Position",
    "ProseDetail",
    "ProseEvaluation",
    "ProseSettings",
    "SemanticComparator",
    "SemanticExtraMissing",
    "SemanticLayers",
    "Severity",
    "Tier",
    "classify",
    "declared_confidence",
    "detect",
    "evaluate_prose",
    "merge_complementary",
    "normalize_text",
    "output_kind",
    "read_corpus",
    "validate_positions",
]
