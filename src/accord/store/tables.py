"""The database schema as SQLAlchemy Core tables (Alembic migrations create them)."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    text,
)

metadata = MetaData()

#: One row per ledger entry. ``body`` holds the canonical signed bytes and is authoritative;
#: the other columns are derived copies kept for queries, and verification cross-checks them.
ledger_entries = Table(
    "ledger_entries",
    metadata,
    Column("seq", BigInteger, primary_key=True, autoincrement=False),
    Column("event_type", String(64), nullable=False),
    Column("timestamp", String(40), nullable=False),
    Column("signer_kid", String(64), nullable=False),
    Column("body", LargeBinary, nullable=False),
    Column("signature", LargeBinary, nullable=False),
    Column("entry_hash", String(80), nullable=False),
    Column("entry_hash_secondary", String(80), nullable=False),
    Index("ix_ledger_entries_event_type", "event_type"),
)

#: Signed tree heads. ``frontier`` (unsigned, derived) lets the next checkpoint extend this
#: one without re-reading the whole ledger; verification recomputes everything independently.
ledger_checkpoints = Table(
    "ledger_checkpoints",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tree_size", BigInteger, nullable=False, unique=True),
    Column("body", LargeBinary, nullable=False),
    Column("signature", LargeBinary, nullable=False),
    Column("signer_kid", String(64), nullable=False),
    Column("frontier", Text, nullable=False),
)

#: One row per settled, merged, agreed or escalated case; ``document`` is the full case JSON.
cases = Table(
    "cases",
    metadata,
    Column("case_id", String(64), primary_key=True),
    Column("session_id", String(128), nullable=True),
    Column("subject", Text, nullable=False),
    Column("task_type", String(128), nullable=False),
    Column("status", String(32), nullable=False),
    Column("dcp_status", String(32), nullable=False),
    Column("kind", String(40), nullable=True),
    Column("severity", String(16), nullable=True),
    Column("dispute_type", String(40), nullable=True),
    Column("tier", String(40), nullable=False),
    Column("winner", String(256), nullable=True),
    Column("rung", String(40), nullable=True),
    Column("confidence_bp", Integer, nullable=False),
    Column("escalated", Boolean, nullable=False),
    Column("created_at", String(40), nullable=False),
    Column("decided_at", String(40), nullable=True),
    Column("duration_ms", Integer, nullable=False),
    Column("document", Text, nullable=False),
    # the case list by status in page order (newest first reads it backwards)
    Index("ix_cases_status_page", "status", "created_at", "case_id"),
    Index("ix_cases_session", "session_id"),
    Index("ix_cases_created", "created_at"),
    Index("ix_cases_task_type", "task_type"),
)

#: Each agent's part in a case: which answer it gave and how that answer fared.
case_parties = Table(
    "case_parties",
    metadata,
    Column("case_id", String(64), primary_key=True),
    Column("agent_id", String(256), primary_key=True),
    Column("task_type", String(128), nullable=False),
    Column("answer_key", Text, nullable=False),
    Column("outcome", String(16), nullable=False),
    Column("created_at", String(40), nullable=False),
    Index("ix_case_parties_agent", "agent_id"),
)

#: The overruled side of a decision, kept for organisational learning.
dissents = Table(
    "dissents",
    metadata,
    Column("dissent_id", String(64), primary_key=True),
    Column("case_id", String(64), nullable=False),
    Column("agent_id", String(256), nullable=False),
    Column("task_type", String(128), nullable=False),
    Column("kind", String(40), nullable=True),
    Column("severity", String(16), nullable=True),
    Column("department", String(128), nullable=True),
    Column("strategy", String(40), nullable=True),
    Column("created_at", String(40), nullable=False),
    Column("document", Text, nullable=False),
    Index("ix_dissents_agent", "agent_id"),
    Index("ix_dissents_created", "created_at"),
    Index("ix_dissents_case", "case_id"),
)

#: One row per item in the human approval queue; ``document`` is the full item JSON and is
#: authoritative. ``status``/``version`` drive compare-and-set; ``deadline`` (ISO text, sorts
#: like time) is what the sweeper claims on, so deadlines survive restarts.
approval_items = Table(
    "approval_items",
    metadata,
    Column("item_id", String(64), primary_key=True),
    Column("case_id", String(64), nullable=False),
    Column("status", String(16), nullable=False),
    Column("risk", String(16), nullable=False),
    Column("policy_kind", String(32), nullable=False),
    Column("escalation_step", Integer, nullable=False),
    Column("offered_to_role", String(128), nullable=True),
    Column("deadline", String(40), nullable=True),
    Column("created_at", String(40), nullable=False),
    Column("decided_at", String(40), nullable=True),
    Column("decided_by", String(256), nullable=True),
    Column("version", Integer, nullable=False),
    Column("document", Text, nullable=False),
    # the queue by status in page order: a page is one range scan (issue 13)
    Index("ix_approval_items_status_page", "status", "created_at", "item_id"),
    Index("ix_approval_items_deadline", "deadline"),
    Index("ix_approval_items_case", "case_id"),
)

#: An agent's task parked on an approval item; ``context`` is the agent's serialized state.
#: ``resumed_at`` is set exactly once, by whoever resumes the task first.
idempotency_keys = Table(
    "idempotency_keys",
    metadata,
    Column("scope", String(16), primary_key=True),
    Column("idempotency_key", String(256), primary_key=True),
    Column("request_digest", String(64), nullable=False),
    Column("result_id", String(64), nullable=False),
    Column("created_at", String(40), nullable=False),
)

parked_tasks = Table(
    "parked_tasks",
    metadata,
    Column("task_id", String(64), primary_key=True),
    Column("item_id", String(64), nullable=False),
    Column("agent_id", String(256), nullable=False),
    Column("parked_at", String(40), nullable=False),
    Column("resumed_at", String(40), nullable=True),
    Column("context", Text, nullable=False),
    Column("claim", String(256), nullable=True),
    Index("ix_parked_tasks_item", "item_id"),
    Index("ix_parked_tasks_agent", "agent_id"),
)

#: One row per disagreement boundary recorded at session close; ``document`` is the full
#: boundary JSON and is authoritative. ``status`` moves from ``pending`` to ``resolved`` by
#: compare-and-set; one boundary per case.
boundaries = Table(
    "boundaries",
    metadata,
    Column("boundary_id", String(64), primary_key=True),
    Column("session_id", String(128), nullable=False),
    Column("case_id", String(64), nullable=False, unique=True),
    Column("task_type", String(128), nullable=False),
    Column("status", String(16), nullable=False),
    Column("digest", String(80), nullable=False),
    Column("size_bytes", BigInteger, nullable=False),
    Column("transcript_bytes", BigInteger, nullable=False),
    Column("created_at", String(40), nullable=False),
    Column("resolved_at", String(40), nullable=True),
    Column("document", Text, nullable=False),
    Index("ix_boundaries_session_status", "session_id", "status"),
    Index("ix_boundaries_status", "status"),
)

#: Every run of a boundary's tie-breaker probe, whatever came of it (its receipt).
boundary_attempts = Table(
    "boundary_attempts",
    metadata,
    Column("attempt_id", String(64), primary_key=True),
    Column("boundary_id", String(64), nullable=False),
    Column("probe", String(64), nullable=False),
    Column("outcome", String(16), nullable=False),
    Column("attempted_at", String(40), nullable=False),
    Column("receipt_hash", String(80), nullable=False),
    Column("document", Text, nullable=False),
    Index("ix_boundary_attempts_boundary", "boundary_id"),
)

#: API keys of the HTTP service: only the SHA-256 of each token is kept (the token is shown
#: once, at creation). A key is bound to one role and, for agents and reviewers, one identity.
api_keys = Table(
    "api_keys",
    metadata,
    Column("key_id", String(64), primary_key=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("role", String(16), nullable=False),
    Column("agent_id", String(256), nullable=True),
    Column("principal_id", String(256), nullable=True),
    Column("label", String(200), nullable=False),
    Column("created_at", String(40), nullable=False),
    Column("expires_at", String(40), nullable=True),
    Column("revoked_at", String(40), nullable=True),
)

#: The interaction log (R32): one row per A2A interaction between two agents, stored as an
#: ordered pair (``agent_a < agent_b``) so either direction finds it; insert-only.
agent_interactions = Table(
    "agent_interactions",
    metadata,
    Column("interaction_id", String(64), primary_key=True),
    Column("agent_a", String(256), nullable=False),
    Column("agent_b", String(256), nullable=False),
    Column("occurred_at", String(40), nullable=False),
    Index("ix_agent_interactions_pair", "agent_a", "agent_b", "occurred_at"),
)

#: The jurisprudence registry (DCP-07 §7): one row per signed bundle. ``document`` is the
#: canonical signed bundle and is authoritative; it is written once and never updated.
#: ``seq`` orders the registry's hash chain (each bundle's prev_hash is the previous row's
#: ``bundle_hash``); the other columns are derived copies kept for queries.
precedent_bundles = Table(
    "precedent_bundles",
    metadata,
    Column("jurisprudence_id", String(64), primary_key=True),
    Column("seq", BigInteger, nullable=False, unique=True),
    Column("dispute_type", String(40), nullable=False),
    Column("authority_rank", Integer, nullable=False),
    Column("created_at", String(40), nullable=False),
    Column("bundle_hash", String(80), nullable=False),
    Column("bundle_hash_secondary", String(80), nullable=False),
    Column("document", Text, nullable=False),
)

#: Search index: one row per dispute type a bundle applies to (its own and its
#: ``applicable_dispute_types``), in ranking order (authority, then recency).
precedent_types = Table(
    "precedent_types",
    metadata,
    Column("dispute_type", String(40), primary_key=True),
    Column("jurisprudence_id", String(64), primary_key=True),
    Column("authority_rank", Integer, nullable=False),
    Column("created_at", String(40), nullable=False),
    Column("seq", BigInteger, nullable=False),
    Index("ix_precedent_types_ranked", "dispute_type", "authority_rank", "created_at", "seq"),
)

#: Search index: each applicable or inapplicable condition of a bundle, once per dispute type
#: the bundle applies to, by its key (case folded, whitespace runs one space), with the
#: ranking columns: a search walks one range of the ranked index per given condition and
#: checks the inapplicable ones by primary key.
precedent_conditions = Table(
    "precedent_conditions",
    metadata,
    Column("dispute_type", String(40), primary_key=True),
    Column("applicability", String(16), primary_key=True),
    Column("condition", String(256), primary_key=True),
    Column("jurisprudence_id", String(64), primary_key=True),
    Column("authority_rank", Integer, nullable=False),
    Column("created_at", String(40), nullable=False),
    Column("seq", BigInteger, nullable=False),
    Index(
        "ix_precedent_conditions_ranked",
        "dispute_type",
        "applicability",
        "condition",
        "authority_rank",
        "created_at",
        "seq",
    ),
)

#: Supersession edges (R26): the newer bundle lists the older in its signed ``supersedes``;
#: ``superseded_by`` is read from here, so no signed record is ever rewritten.
precedent_supersessions = Table(
    "precedent_supersessions",
    metadata,
    Column("superseded_id", String(64), primary_key=True),
    Column("superseding_id", String(64), primary_key=True),
    Column("created_at", String(40), nullable=False),
    Index("ix_precedent_supersessions_superseding", "superseding_id"),
)

#: One row per armed deadline (a DCP tier's, an approval item's §12.4 timeout): deadlines are
#: rows, not timers. A sweeper claims due ``armed`` rows (``FOR UPDATE SKIP LOCKED`` on
#: PostgreSQL) and marks each ``fired`` exactly once, in the transaction that handles it; at
#: most one row per (kind, subject) is armed at a time (a partial unique index).
deadlines = Table(
    "deadlines",
    metadata,
    Column("deadline_id", String(64), primary_key=True),
    Column("kind", String(40), nullable=False),
    Column("subject_id", String(64), nullable=False),
    Column("tier", String(40), nullable=True),
    Column("due_at", String(40), nullable=False),
    Column("state", String(16), nullable=False),
    Column("armed_at", String(40), nullable=False),
    Column("fired_at", String(40), nullable=True),
    Column("cancelled_at", String(40), nullable=True),
    Column("fired_by", String(128), nullable=True),
    Column("outcome", String(40), nullable=True),
    Column("attempts", Integer, nullable=False),
    Column("last_error", Text, nullable=True),
    Column("version", Integer, nullable=False),
    Index("ix_deadlines_state_due_id", "state", "due_at", "deadline_id"),
    Index("ix_deadlines_subject", "kind", "subject_id"),
    Index(
        "ux_deadlines_armed_subject",
        "kind",
        "subject_id",
        unique=True,
        sqlite_where=text("state = 'armed'"),
        postgresql_where=text("state = 'armed'"),
    ),
)

#: DCP-07 disputes (issue 12): one row per dispute filed through ``Accord.disputes``.
#: ``document`` is the latest signed §4 dispute record (the same record the dispute's latest
#: ledger event carries); the other columns are derived copies kept for queries and for the
#: filing rules (R34: filings per complainant, disputes resolved against their filer);
#: ``opened_seq`` is the ledger entry that opened it (listings run in that order).
dcp_disputes = Table(
    "dcp_disputes",
    metadata,
    Column("dispute_id", String(64), primary_key=True),
    Column("opened_seq", BigInteger, nullable=False, unique=True),
    Column("dispute_type", String(40), nullable=False),
    Column("severity", String(16), nullable=False),
    Column("status", String(32), nullable=False),
    Column("tier", String(40), nullable=False),
    Column("complainant_id", String(256), nullable=False),
    Column("opened_at", String(40), nullable=False),
    Column("updated_at", String(40), nullable=False),
    Column("escalation_deadline", String(40), nullable=True),
    Column("party_escalated", Boolean, nullable=False),
    Column("resolution_id", String(64), nullable=True),
    Column("resolved_against_complainant", Boolean, nullable=False),
    Column("version", Integer, nullable=False),
    Column("document", Text, nullable=False),
    Column("resolution", Text, nullable=True),
    Index("ix_dcp_disputes_complainant", "complainant_id", "opened_at"),
    Index("ix_dcp_disputes_status", "status", "opened_seq"),
)

#: Every party of a DCP-07 dispute (complainant and respondents), to find a party's disputes.
dcp_dispute_parties = Table(
    "dcp_dispute_parties",
    metadata,
    Column("dispute_id", String(64), primary_key=True),
    Column("agent_id", String(256), primary_key=True),
    Column("role", String(16), nullable=False),
    Column("principal_id", String(256), nullable=False),
    Column("organization_id", String(256), nullable=False),
    Index("ix_dcp_dispute_parties_agent", "agent_id", "dispute_id"),
)

#: Evidence content, content-addressed (R33): the key is the ``sha256:`` of the content;
#: written once, never updated (a second submission of the same content shares the row).
dcp_evidence_contents = Table(
    "dcp_evidence_contents",
    metadata,
    Column("content_hash", String(80), primary_key=True),
    Column("media", String(16), nullable=False),
    Column("size", Integer, nullable=False),
    Column("content", LargeBinary, nullable=False),
)

#: Each evidence item of a dispute (R5, R33): insert-only; its content is in
#: ``dcp_evidence_contents`` under ``content_hash``.
dcp_dispute_evidence = Table(
    "dcp_dispute_evidence",
    metadata,
    Column("dispute_id", String(64), primary_key=True),
    Column("evidence_id", String(256), primary_key=True),
    Column("submitted_by", String(256), nullable=False),
    Column("evidence_type", String(256), nullable=False),
    Column("reference", String(256), nullable=False),
    Column("description", Text, nullable=False),
    Column("content_hash", String(80), nullable=False),
    Column("submitted_at", String(40), nullable=False),
    Column("ledger_seq", BigInteger, nullable=False),
)

#: A dispute's timeline: one row per event, in order, with the ledger entry that signs it.
dcp_dispute_events = Table(
    "dcp_dispute_events",
    metadata,
    Column("dispute_id", String(64), primary_key=True),
    Column("position", Integer, primary_key=True),
    Column("event_type", String(64), nullable=False),
    Column("actor", String(256), nullable=False),
    Column("at", String(40), nullable=False),
    Column("status", String(32), nullable=False),
    Column("tier", String(40), nullable=False),
    Column("ledger_seq", BigInteger, nullable=False),
)

#: DCP-07 tiers 1–3 on a persisted dispute (``disputes/tiers``), all keyed by ``dispute_id``.
#: Tier 1: every negotiation step (proposal, acceptance, counter-evidence) in order, and the
#: commit–reveal coin flip (its windows, then one commit and one reveal per party).
dispute_negotiation_steps = Table(
    "dispute_negotiation_steps",
    metadata,
    Column("dispute_id", String(64), primary_key=True),
    Column("position", Integer, primary_key=True),
    Column("kind", String(32), nullable=False),
    Column("agent_id", String(256), nullable=False),
    Column("body", Text, nullable=False),
    Column("recorded_at", String(40), nullable=False),
)
dispute_coin_flips = Table(
    "dispute_coin_flips",
    metadata,
    Column("dispute_id", String(64), primary_key=True),
    Column("options", Text, nullable=False),
    Column("commit_deadline", String(40), nullable=False),
    Column("reveal_deadline", String(40), nullable=False),
    Column("opened_at", String(40), nullable=False),
)
dispute_coin_steps = Table(
    "dispute_coin_steps",
    metadata,
    Column("dispute_id", String(64), primary_key=True),
    Column("kind", String(16), primary_key=True),
    Column("agent_id", String(256), primary_key=True),
    Column("body", Text, nullable=False),
    Column("recorded_at", String(40), nullable=False),
)
#: Tier 2: the parties' nominations, the seated panel (its formation record and the question
#: put to it), one vote per member (the signed vote and the reasoning it hashes).
dispute_nominations = Table(
    "dispute_nominations",
    metadata,
    Column("dispute_id", String(64), primary_key=True),
    Column("nominated_by", String(256), primary_key=True),
    Column("agent_id", String(256), primary_key=True),
    Column("nominated_at", String(40), nullable=False),
)
dispute_panels = Table(
    "dispute_panels",
    metadata,
    Column("panel_id", String(64), primary_key=True),
    Column("dispute_id", String(64), nullable=False, unique=True),
    Column("formation", Text, nullable=False),
    Column("question", Text, nullable=False),
    Column("resolution_hash", String(80), nullable=False),
    Column("formed_at", String(40), nullable=False),
    Column("vote_deadline", String(40), nullable=False),
    Column("decision", String(40), nullable=True),
    Column("tallied_at", String(40), nullable=True),
    Column("pending_resolution", Text, nullable=True),
    # a recommended_resolution awaiting the parties (R15), and the parties who accepted it
    Column("recommendation", Text, nullable=True),
    Column("accepted_by", Text, nullable=True),
)
dispute_panel_votes = Table(
    "dispute_panel_votes",
    metadata,
    Column("panel_id", String(64), primary_key=True),
    Column("agent_id", String(256), primary_key=True),
    Column("dispute_id", String(64), nullable=False),
    Column("vote", Text, nullable=False),
    Column("reasoning", Text, nullable=False),
    Column("cast_at", String(40), nullable=False),
)
#: Tier 1: each proposal's §6 resolution as its acceptors sign it (one row per proposal).
dispute_agreement_drafts = Table(
    "dispute_agreement_drafts",
    metadata,
    Column("proposal_id", String(64), primary_key=True),
    Column("dispute_id", String(64), nullable=False),
    Column("resolution", Text, nullable=False),
)
#: Tier 2: the approval item through which each human panel member votes (one per member).
dispute_ballot_papers = Table(
    "dispute_ballot_papers",
    metadata,
    Column("item_id", String(64), primary_key=True),
    Column("panel_id", String(64), nullable=False),
    Column("dispute_id", String(64), nullable=False),
    Column("agent_id", String(256), nullable=False),
    UniqueConstraint("panel_id", "agent_id", name="uq_dispute_ballot_papers_member"),
)
#: Tier 3: the responsible principals' final decision (one row per dispute).
dispute_appeal_decisions = Table(
    "dispute_appeal_decisions",
    metadata,
    Column("dispute_id", String(64), primary_key=True),
    Column("resolution_id", String(64), nullable=False),
    Column("principals", Text, nullable=False),
    Column("decided_at", String(40), nullable=False),
)

#: DCP-07 compliance (R20–R22): one row per required action of a binding resolution. Its
#: deadline is a ``dispute_compliance`` row of ``deadlines``; ``state`` is ``pending`` until a
#: report verifies it (``verified``), the check or the deadline fails it (``failed``, with the
#: ``policy_conflict`` dispute opened for it, R21), or a human principal stays the resolution
#: (``stayed``, R28). The signed events (``dispute_compliance_verified`` / ``_failed``) are
#: the record; this row is the queryable copy (``ledger_seq`` names the event).
compliance_actions = Table(
    "compliance_actions",
    metadata,
    Column("action_id", String(64), primary_key=True),
    Column("dispute_id", String(64), nullable=False),
    Column("resolution_id", String(64), nullable=False),
    Column("position", Integer, nullable=False),
    Column("agent_id", String(256), nullable=False),
    Column("action", Text, nullable=False),
    Column("method", String(64), nullable=False),
    Column("due_at", String(40), nullable=False),
    Column("resolution_seq", BigInteger, nullable=False),
    Column("state", String(16), nullable=False),
    Column("settled_at", String(40), nullable=True),
    Column("ledger_seq", BigInteger, nullable=True),
    Column("failure", Text, nullable=True),
    Column("followup_dispute_id", String(64), nullable=True),
    Index("ix_compliance_actions_dispute", "dispute_id", "position"),
    Index("ix_compliance_actions_agent", "agent_id", "state"),
    Index("ux_compliance_actions_resolution", "resolution_id", "position", unique=True),
)

#: Repeated non-compliance (R22): one row each time an agent's failures reach the threshold
#: again (a signed ``agent_noncompliance_flagged`` entry, ``ledger_seq``), for termination
#: for cause under DCP-05 — a person's call, which Accord only flags.
compliance_flags = Table(
    "compliance_flags",
    metadata,
    Column("flag_id", String(64), primary_key=True),
    Column("agent_id", String(256), nullable=False),
    Column("failures", Integer, nullable=False),
    Column("threshold", Integer, nullable=False),
    Column("dispute_id", String(64), nullable=False),
    Column("flagged_at", String(40), nullable=False),
    Column("ledger_seq", BigInteger, nullable=False),
    Index("ix_compliance_flags_agent", "agent_id", "flagged_at"),
)

#: Objections to a resolution (R27–R29): ``document`` is the signed §8 record (written once,
#: never updated); the others are copies for queries. Bundles of the resolution list them
#: when read (derived, like ``superseded_by``), never by rewriting the signed bundle.
dispute_objections = Table(
    "dispute_objections",
    metadata,
    Column("objection_id", String(64), primary_key=True),
    Column("dispute_id", String(64), nullable=False),
    Column("resolution_id", String(64), nullable=False),
    Column("objection_type", String(16), nullable=False),
    Column("objecting_agent", String(256), nullable=False),
    Column("status", String(16), nullable=False),
    Column("routed_to", String(40), nullable=True),
    Column("filed_at", String(40), nullable=False),
    Column("record_hash", String(80), nullable=False),
    Column("ledger_seq", BigInteger, nullable=False),
    Column("document", Text, nullable=False),
    Index("ix_dispute_objections_dispute", "dispute_id", "filed_at"),
    Index("ix_dispute_objections_resolution", "resolution_id", "filed_at"),
)

#: Stays of a resolution a human principal ordered on an objection (R28): at most one per
#: objection; ``ledger_seq`` is the reviewer-signed ``dispute_stay_ordered`` entry.
dispute_stays = Table(
    "dispute_stays",
    metadata,
    Column("objection_id", String(64), primary_key=True),
    Column("dispute_id", String(64), nullable=False),
    Column("resolution_id", String(64), nullable=False),
    Column("ordered_by", String(256), nullable=False),
    Column("ordered_at", String(40), nullable=False),
    Column("reason", Text, nullable=False),
    Column("ledger_seq", BigInteger, nullable=False),
    Index("ix_dispute_stays_resolution", "resolution_id"),
)

#: Collecting cases (``Accord.collecting``): a question put to named agents, each of which
#: submits its own position; settled as one case when the last arrives or at the deadline
#: (a ``collecting_case`` deadline row). ``case_id`` names the case it became.
collecting_cases = Table(
    "collecting_cases",
    metadata,
    Column("collecting_id", String(64), primary_key=True),
    Column("subject", Text, nullable=False),
    Column("task_type", String(128), nullable=False),
    Column("session_id", String(128), nullable=True),
    Column("opened_by", String(256), nullable=False),
    Column("opened_at", String(40), nullable=False),
    Column("deadline_at", String(40), nullable=False),
    Column("status", String(16), nullable=False),
    Column("case_id", String(64), nullable=True),
    Column("closed_at", String(40), nullable=True),
    Column("closed_reason", String(40), nullable=True),
    Index("ix_collecting_cases_status", "status", "collecting_id"),
)

#: One row per expected party of a collecting case; ``position`` (the position's JSON, its
#: agent the submitter's) is written once, when that party submits (compare-and-set on NULL);
#: ``signature`` is the party's own signature on it (a ``RecordSignature`` as JSON), when it
#: sent one, verified against its registered agent key before it was stored.
collecting_parties = Table(
    "collecting_parties",
    metadata,
    Column("collecting_id", String(64), primary_key=True),
    Column("agent_id", String(256), primary_key=True),
    Column("ordinal", Integer, nullable=False),
    Column("position", Text, nullable=True),
    Column("submitted_at", String(40), nullable=True),
    Column("signature", Text, nullable=True),
    Index("ix_collecting_parties_agent", "agent_id", "collecting_id"),
)

#: A DCP-07 tier step an agent signs with its own key (``disputes/tiers/prepared``): the step
#: and its validated ``arguments`` (JSON), who acts (``actor_id``, its ``role`` key ``kid``),
#: the pins its runs share (``pinned_at``, ``id_seed`` hex, the ledger head, the dispute's
#: record hash when prepared), the sha256 of each payload shown so far and the signatures
#: given for them (JSON lists; ``round`` = how many, the compare-and-set token), the expiry,
#: and ``consumed_at`` once the step was recorded (a second completion is refused).
dispute_prepared_steps = Table(
    "dispute_prepared_steps",
    metadata,
    Column("prepared_id", String(64), primary_key=True),
    Column("dispute_id", String(64), nullable=False),
    Column("step", String(32), nullable=False),
    Column("arguments", Text, nullable=False),
    Column("actor_id", String(256), nullable=False),
    Column("role", String(16), nullable=False),
    Column("kid", String(128), nullable=False),
    Column("pinned_at", String(40), nullable=False),
    Column("id_seed", String(64), nullable=False),
    Column("head_seq", BigInteger, nullable=False),
    Column("head_hash", String(80), nullable=False),
    Column("head_hash_secondary", String(80), nullable=False),
    Column("dispute_record_hash", String(80), nullable=False),
    Column("payloads", Text, nullable=False),
    Column("signatures", Text, nullable=False),
    Column("round", Integer, nullable=False),
    Column("created_at", String(40), nullable=False),
    Column("expires_at", String(40), nullable=False),
    Column("consumed_at", String(40), nullable=True),
    Index("ix_dispute_prepared_steps_expiry", "expires_at"),
)

#: Webhook subscriptions (issue 30): where Accord pushes events, signed with the
#: subscription's ``secret`` (HMAC-SHA256; it must be stored to sign, it is never shown
#: again after creation); ``events`` is a JSON list of the event names it receives,
#: ``agent`` (if set) keeps only the events that name that agent;
#: ``source`` is ``config`` (from ``accord.yaml``, re-synced when the service opens) or ``api``.
webhook_subscriptions = Table(
    "webhook_subscriptions",
    metadata,
    Column("subscription_id", String(64), primary_key=True),
    Column("url", String(2048), nullable=False),
    Column("events", Text, nullable=False),
    Column("agent", String(256), nullable=True),
    Column("secret", String(256), nullable=False),
    Column("source", String(16), nullable=False),
    Column("created_at", String(40), nullable=False),
)

#: The outbox and delivery log: one row per (event, subscription), written in the
#: transaction that made the event; ``body`` is the exact bytes sent and signed.
#: ``state``: ``pending`` (``next_attempt_at`` says when), ``delivered`` or ``failed``
#: (attempts exhausted); ``dedupe_key`` keeps a scanned event (a near deadline) from being
#: queued twice for one subscription.
webhook_deliveries = Table(
    "webhook_deliveries",
    metadata,
    Column("delivery_id", String(64), primary_key=True),
    Column("subscription_id", String(64), nullable=False),
    Column("event", String(40), nullable=False),
    Column("body", Text, nullable=False),
    Column("dedupe_key", String(256), nullable=False),
    Column("state", String(16), nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("created_at", String(40), nullable=False),
    Column("next_attempt_at", String(40), nullable=False),
    Column("last_attempt_at", String(40), nullable=True),
    Column("last_status", Integer, nullable=True),
    Column("last_error", Text, nullable=True),
    Column("delivered_at", String(40), nullable=True),
    Index("ix_webhook_deliveries_due", "state", "next_attempt_at"),
    Index("ux_webhook_deliveries_dedupe", "subscription_id", "dedupe_key", unique=True),
)
