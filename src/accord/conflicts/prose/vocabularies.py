"""The words Accord knows without being told: verdicts, hedges, negators and label vocabularies.

Every phrase is lower-case and written as its words (``"looks good to me"``); matching is by
words, so punctuation and spacing in an answer do not matter. Companies add their own labels
through :class:`accord.conflicts.prose.ProseSettings` (``vocabularies``, and the detection
settings' ``label_values`` and ``incompatible_sets``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

APPROVE, REJECT, DEFER = "approve", "reject", "defer"
POSITIVE, NEGATIVE = "positive", "negative"

_DECISIONS: dict[str, tuple[str, ...]] = {
    APPROVE: (
        "approve", "approved", "approves", "approving", "approval granted", "accept",
        "accepted", "accepts", "accepting", "lgtm", "looks good", "looks good to me",
        "look good", "looks fine", "good to go", "ship it", "ship", "merge it", "merge",
        "go ahead", "go-ahead", "green light", "greenlight", "green-light", "sign off",
        "signed off", "sign-off", "thumbs up", "proceed", "allow", "allowed", "grant",
        "granted", "go", "safe to merge", "safe to ship", "safe to deploy", "safe to release",
        "safe to proceed", "fine to merge", "fine to ship", "ok to merge", "ok to ship",
        "okay to merge", "ready to merge", "ready to ship", "ready to release",
        "ready to deploy", "no blockers", "no blocker", "no objections", "no objection",
        "nothing blocking", "no reason to block", "not a blocker", "go for it", "no concerns",
        "no concern", "cleared", "cleared to go", "sign it", "signing", "fine to sign",
        "ok to sign", "safe to sign",
    ),
    REJECT: (
        "reject", "rejected", "rejects", "rejecting", "decline", "declined", "declines",
        "declining", "deny", "denied", "denies", "block", "blocked", "blocks", "veto",
        "vetoed", "refuse", "refused", "hold off", "hold", "no-go", "no go", "nogo",
        "needs changes", "changes requested", "request changes", "requesting changes",
        "blocker", "a blocker", "objection", "stop", "do not merge", "not approved",
        "cannot approve", "can't approve",
    ),
    DEFER: (
        "defer", "deferred", "postpone", "postponed", "revisit later", "needs more information",
        "need more information", "needs more info", "more information needed", "wait and see",
        "table it", "park it",
    ),
}

_ASSESSMENTS: dict[str, tuple[str, ...]] = {
    POSITIVE: (
        "pass", "passes", "passed", "passing", "succeeds", "succeeded", "successful",
        "successfully", "works", "working", "fixed", "correct", "valid", "compliant",
        "on track", "on time", "on schedule", "healthy", "accurate", "consistent", "matches",
        "reconciles", "balanced", "no errors", "no discrepancies", "no issues", "no problems",
        "within budget", "under budget", "safe",
    ),
    NEGATIVE: (
        "fail", "fails", "failed", "failing", "failure", "broken", "breaks", "incorrect",
        "invalid", "wrong", "non compliant", "noncompliant", "delayed", "late",
        "behind schedule", "off track", "unhealthy", "inaccurate", "inconsistent", "mismatch",
        "discrepancy", "discrepancies", "over budget", "unsafe", "missed", "missing",
    ),
}

YES_WORDS = frozenset({"yes", "yep", "yeah", "yup", "affirmative", "correct", "right"})
NO_WORDS = frozenset({"no", "nope", "nah", "negative", "none", "nothing"})

NEGATORS = frozenset(
    {"not", "never", "no", "cannot", "nor", "without", "neither", "hardly", "nothing", "none"}
)
"""Words that flip the verdict they stand before (and any word ending in ``n't``)."""

CLAUSE_BREAKS = frozenset({"but", "however", "though", "although", "yet", "otherwise"})

HEDGES = frozenset(
    {
        "probably", "likely", "maybe", "perhaps", "possibly", "presumably", "tentatively",
        "leaning", "lean", "seems", "seem", "might", "may", "could", "unsure", "guess",
        "think", "believe", "suppose", "arguably", "roughly",
    }
)
"""Words that make a verdict in their clause hedged (``probably not``, ``I think approve``)."""

QUESTION_NEGATIVE_CUES = frozenset(
    {
        "block", "blocker", "blockers", "blocking", "reject", "deny", "decline", "stop",
        "halt", "hold", "veto", "concern", "concerns", "objection", "objections", "risk",
        "risks", "problem", "problems", "issue", "issues", "wrong", "fail", "fails",
        "failing", "bug", "bugs", "error", "errors", "missing", "unsafe", "against",
        "discrepancy", "discrepancies", "delay", "delayed", "late", "overdue", "breach",
    }
)
"""Words that make a yes/no question ask about a problem: "yes" then means the negative side."""

APPROXIMATORS = frozenset(
    {"about", "around", "approximately", "approx", "roughly", "nearly", "almost", "circa",
     "some", "~", "≈", "est", "estimated", "ca"}
)
LOWER_BOUNDS = (("more", "than"), ("over",), ("above",), ("at", "least"), ("exceeds",),
                ("exceeding",), ("greater", "than"), ("upwards", "of"), ("minimum", "of"))
UPPER_BOUNDS = (("less", "than"), ("under",), ("below",), ("at", "most"), ("up", "to"),
                ("fewer", "than"), ("maximum", "of"), ("no", "more", "than"), ("within",))

STATUS_CUES = frozenset({"status", "state", "ticket", "task"})
LEVEL_CUES = frozenset(
    {"risk", "priority", "severity", "impact", "urgency", "likelihood", "confidence",
     "effort", "complexity", "exposure", "criticality"}
)
"""Nouns a level word (low / medium / high / critical) must sit next to, in prose."""

_BUILTIN_VOCABULARIES: dict[str, dict[str, tuple[str, ...]]] = {
    "level": {
        "low": ("low",),
        "medium": ("medium", "moderate", "med", "mid"),
        "high": ("high", "elevated"),
        "critical": ("critical", "severe"),
    },
    "priority": {
        "p0": ("p0", "priority 0", "sev0", "sev 0"),
        "p1": ("p1", "priority 1", "sev1", "sev 1"),
        "p2": ("p2", "priority 2", "sev2", "sev 2"),
        "p3": ("p3", "priority 3", "sev3", "sev 3"),
        "p4": ("p4", "priority 4", "sev4", "sev 4"),
    },
    "status": {
        "done": ("done", "complete", "completed", "finished", "closed"),
        "in progress": ("in progress", "in-progress", "ongoing", "underway", "wip"),
        "blocked": ("blocked", "stuck", "on hold"),
        "not started": ("not started", "todo", "to do", "not yet started"),
    },
}
CUED_VOCABULARIES: Mapping[str, frozenset[str]] = MappingProxyType(
    {"level": LEVEL_CUES, "status": STATUS_CUES}
)
"""Vocabularies whose words count in prose only beside a cue (``risk is high``); alone as an
answer (``High``) they always count."""


def decision_phrases() -> Mapping[str, str]:
    """Each decision phrase → ``approve``, ``reject`` or ``defer``."""
    return _invert(_DECISIONS)


def assessment_phrases() -> Mapping[str, str]:
    """Each assessment phrase → ``positive`` or ``negative``."""
    return _invert(_ASSESSMENTS)


def builtin_vocabularies() -> Mapping[str, Mapping[str, tuple[str, ...]]]:
    """The built-in label vocabularies: name → canonical label → its synonyms."""
    return MappingProxyType({k: MappingProxyType(v) for k, v in _BUILTIN_VOCABULARIES.items()})


def _invert(table: Mapping[str, Iterable[str]]) -> Mapping[str, str]:
    found: dict[str, str] = {}
    for canonical, phrases in table.items():
        for phrase in phrases:
            found[phrase] = canonical
    return MappingProxyType(found)
