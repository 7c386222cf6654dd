"""``Accord.disputes``: DCP-07 disputes, persisted, signed and swept.

Open a dispute, add evidence, escalate, withdraw, read and list them; export one to (and
check one from) the reference SDK's format. Each call is one transaction: the dispute's
rows, its signed ledger event (R30) and its deadline row, or — when anything is refused —
nothing. The tier deadlines fire through ``accord sweep`` / the service's sweeper
(:attr:`Disputes.deadlines` is the :class:`~accord.deadlines.dispute_tier.EscalateOnDeadline`
port they are built with).

Other steps (negotiation, panels, objections, compliance) call the ``*_within`` hooks inside
their own ``with disputes.transaction() as conn:``.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection

from accord.approvals import ApprovalQueue
from accord.clock import Clock
from accord.conflicts import Tier
from accord.crypto import Ed25519Signer, MlDsa65Signer
from accord.dcp07.chain import ChainLink
from accord.dcp07.dispute_record import DisputeRecord, PrecedentCitation
from accord.dcp07.filing_rules import FilingPolicy
from accord.dcp07.resolution_record import ResolutionRecord
from accord.dcp07.sdk_export import export_dispute, sdk_document
from accord.dcp07.sdk_import import import_dispute
from accord.dcp07.statuses import CaseStatus
from accord.disputes.compliance import DEFAULT_FLAG_AFTER, Compliance
from accord.disputes.deadline_port import DisputeDeadlines
from accord.disputes.evidence import load_content
from accord.disputes.filing import DisputeFiling, EvidenceInput, read_evidence
from accord.disputes.listing import DisputeQuery, active_between, list_disputes
from accord.disputes.objections import Objections
from accord.disputes.recorder import Recorded
from accord.disputes.refusals import dispute_refused
from accord.disputes.rows import ledger_seqs
from accord.disputes.rule_calls import RuleCalls
from accord.disputes.steps import DisputeSteps
from accord.disputes.tiers import ArbitratorSettings, DisputeTiers
from accord.disputes.tiers.ballot_withdrawal import BallotWithdrawal
from accord.disputes.tiers.panel_rows import panel_within
from accord.disputes.tiers.prepared import DEFAULT_TTL
from accord.disputes.tiers.resolution_check import check_resolution
from accord.disputes.tiers.stored_desk import StoredDisputeDesk
from accord.disputes.views import DisputePage, StoredDispute
from accord.errors import AccordError
from accord.ledger import Ledger
from accord.limits import Limits
from accord.org import OrgChart
from accord.org.interaction_store import InteractionLog
from accord.org.interactions import InteractionHistory
from accord.precedents import Precedent, Precedents, condition_key
from accord.strict_json import parse_json

CITED_PRECEDENTS = 5
"""How many matching precedents an opening dispute cites (R24)."""
MAX_FILINGS_PER_CALL = 1000


class Disputes(RuleCalls):
    """DCP-07 disputes: the library's entry point (``Accord.disputes``)."""

    def __init__(
        self,
        ledger: Ledger,
        clock: Clock,
        *,
        precedents: Precedents | None = None,
        org: OrgChart | None = None,
        policy: FilingPolicy | None = None,
        limits: Limits | None = None,
        read_only: bool = False,
        arbitrators: ArbitratorSettings | None = None,
        interactions: InteractionHistory | None = None,
        flag_after: int = DEFAULT_FLAG_AFTER,
        approvals: ApprovalQueue | None = None,
        prepared_ttl: timedelta = DEFAULT_TTL,
    ) -> None:
        """``approvals``: the queue through which human panel members vote (R14); a step
        that takes a dispute off ``contextual_arbitration`` withdraws its pending ballot
        papers there, in the step's transaction. ``prepared_ttl``: how long a prepared tier
        step waits for its agent's signatures."""
        self._db = ledger.db
        self._ledger = ledger
        self._clock = clock
        self._precedents = precedents
        self._read_only = read_only
        self._steps = DisputeSteps(
            ledger,
            org=org,
            policy=policy,
            max_evidence_bytes=(limits or Limits()).output_bytes,
            on_tier_exit=None if approvals is None else BallotWithdrawal(approvals),
        )
        self.deadlines = DisputeDeadlines(self._steps)
        """The :class:`EscalateOnDeadline` port ``deadline_sweep(..., disputes=...)`` takes."""
        self.tiers = DisputeTiers(
            db=self._db, ledger=ledger, desk=StoredDisputeDesk(self), clock=clock,
            interactions=interactions or InteractionLog(self._db), arbitrators=arbitrators,
            precedents=precedents, approvals=approvals, prepared_ttl=prepared_ttl,
        )  # fmt: skip
        """Tiers 1–3 on these disputes: ``tiers.negotiation`` (propose, accept, commit,
        reveal), ``tiers.arbitration`` (nominate, form_panel, vote), ``tiers.appeal``."""
        self.compliance = Compliance(ledger, clock, self, flag_after=flag_after)
        self.objections = Objections(ledger, clock, self, compliance=self.compliance)

    # --- a party's calls ----------------------------------------------------------------

    def open(
        self, filing: DisputeFiling | Mapping[str, Any] | None = None, **fields: Any
    ) -> StoredDispute:
        """File a dispute (a :class:`DisputeFiling`, a mapping, or its fields as keywords).

        Its first tier follows its type (R2; ``start_at_appeal`` only when critical, R18); it
        cites the matching precedents (R24) and its first deadline is armed (R3). Refused:
        an unknown type (R1) or severity (R3), an 11th filing in 24 h, a critical dispute
        without evidence or a filer below its evidence bar (R34), evidence whose content does
        not match its hash (R33)."""
        return self.open_many([self._filing(filing, fields)])[0]

    def open_many(
        self, filings: Sequence[DisputeFiling | Mapping[str, Any]]
    ) -> list[StoredDispute]:
        """File every dispute in one transaction, in order: all of them, or (one refused)
        none."""
        self._writable("open disputes")
        if len(filings) > MAX_FILINGS_PER_CALL:
            raise dispute_refused(
                "R34", "filings", f"at most {MAX_FILINGS_PER_CALL} filings per call",
                code="limits.exceeded", found=len(filings),
            )  # fmt: skip
        checked = []
        for index, given in enumerate(filings):
            try:
                checked.append(self._filing(given, {}))
            except AccordError as exc:
                if len(filings) > 1:
                    exc.context = {**exc.context, "index": index}
                raise
        searched: dict[tuple[str, tuple[str, ...]], builtins.list[PrecedentCitation]] = {}
        cited = []
        for f in checked:  # one search per (type, conditions) in a call: the same answer
            key = (f.dispute_type, f.conditions)
            if key not in searched:
                searched[key] = self._citations(f)
            cited.append(searched[key])
        at = self._clock.now()
        with self._db.write() as conn:
            done = self._steps.open_many(conn, list(zip(checked, cited, strict=True)), at)
        return [StoredDispute(record=d.record, ledger_seqs=(d.ledger_seq,)) for d in done]

    def submit_evidence(
        self,
        dispute_id: str,
        evidence: EvidenceInput | Mapping[str, Any] | Sequence[EvidenceInput | Mapping[str, Any]],
        *,
        by: str,
    ) -> StoredDispute:
        """Add party ``by``'s evidence (one item, or several in one event); each item's
        content must hash to the hash given with it (R33)."""
        self._writable("submit evidence")
        many = evidence if isinstance(evidence, Sequence) else [evidence]
        given = [e if isinstance(e, EvidenceInput) else read_evidence(e) for e in many]
        return self._run(
            lambda conn, at: self._steps.submit_evidence(conn, dispute_id, given, by=by, at=at)
        )

    def escalate(
        self, dispute_id: str, *, by: str, to_tier: Tier | str | None = None, reason: str = ""
    ) -> StoredDispute:
        """Party ``by`` escalates to the next tier, or straight to ``human_appeal`` (R17);
        the clock restarts at the new tier."""
        self._writable("escalate")
        return self._run(
            lambda conn, at: self._steps.escalate(
                conn, dispute_id, by=by, at=at, to_tier=to_tier, reason=reason
            )
        )

    def withdraw(self, dispute_id: str, *, by: str, reason: str = "") -> StoredDispute:
        """The complainant ``by`` withdraws its dispute (final)."""
        self._writable("withdraw")
        return self._run(
            lambda conn, at: self._steps.withdraw(conn, dispute_id, by=by, at=at, reason=reason)
        )

    # --- reading ------------------------------------------------------------------------

    def show(self, dispute_id: str) -> StoredDispute:
        """The dispute as it stands (``disputes.not_found``)."""
        with self._db.read() as conn:
            return self._stored(conn, dispute_id)

    def verify_resolution(self, dispute_id: str) -> ResolutionRecord:
        """The resolved dispute's §6 record once every signature verifies under a key the
        ledger registered to its signer, and everyone who must sign has (every party at tier
        1, M approving members at tier 2, every party's principal at tier 3: R19, R36, R44);
        ``crypto.signature_invalid`` naming the signer otherwise."""
        with self._db.read() as conn:
            stored = self._stored(conn, dispute_id)
            if stored.resolution is None:
                raise dispute_refused(
                    "R19", "dispute_id", "a resolved dispute has a resolution to verify",
                    code="disputes.not_resolved", dispute_id=dispute_id, status=stored.status,
                )  # fmt: skip
            dispute = StoredDisputeDesk(self).load_within(conn, dispute_id)
            seated = panel_within(conn, dispute_id)
        formation = None if seated is None else seated.formation
        return check_resolution(stored.resolution, dispute, self._ledger.key_registry(), formation)

    def list(
        self,
        *,
        status: str | None = None,
        dispute_type: str | None = None,
        severity: str | None = None,
        tier: str | None = None,
        party: str | None = None,
        after: str | None = None,
        limit: int | None = None,
    ) -> DisputePage:
        """A page of disputes, oldest first, every given filter holding; pass the page's
        ``next_after`` as ``after`` for the next."""
        query = DisputeQuery.read(
            status=status, dispute_type=dispute_type, severity=severity, tier=tier,
            party=party, after=after, limit=limit,
        )  # fmt: skip
        with self._db.read() as conn:
            return list_disputes(conn, query)

    def active_between(self, a: str, b: str) -> builtins.list[str]:
        """Disputes still active between agents ``a`` and ``b`` (both parties): the
        ``ActiveDisputes`` port panel eligibility reads (R11, R32)."""
        with self._db.read() as conn:
            return active_between(conn, a, b)

    def evidence_content(self, dispute_id: str, evidence_id: str) -> Any:
        """The stored content of one evidence item: bytes, or the JSON value submitted."""
        record = self.show(dispute_id).record
        for item in record.evidence:
            if item.evidence_id == evidence_id:
                with self._db.read() as conn:
                    found = load_content(conn, item.content_hash)
                if found is not None:
                    return found.value()
        raise dispute_refused(
            "R33", "evidence_id", "an evidence item of this dispute",
            code="disputes.evidence_not_found", dispute_id=dispute_id, evidence_id=evidence_id,
        )  # fmt: skip

    # --- the reference SDK's format -----------------------------------------------------

    def export(
        self,
        dispute_id: str,
        *,
        session_nonce: str,
        signer: Ed25519Signer | None = None,
        pq: MlDsa65Signer | None = None,
    ) -> dict[str, Any]:
        """The dispute as an SDK dispute record (JSON values), signed by ``signer`` (default
        the service key) and ``pq`` (else ``classical_only``). What the SDK cannot say (two
        respondents, a withdrawn dispute) is refused naming the requirement."""
        record = self.show(dispute_id).record
        sdk = export_dispute(
            record, session_nonce=session_nonce, classical=signer or self._ledger.signer, pq=pq
        )
        return sdk_document(sdk)

    def import_sdk(
        self,
        data: Mapping[str, Any] | str,
        *,
        classical_public_key: bytes | None = None,
        pq_public_key: bytes | None = None,
        require_hybrid: bool = False,
    ) -> DisputeRecord:
        """Check an SDK dispute record against the stored dispute it names and return what it
        describes: the stored §4 record when they agree, else an unsigned draft with the SDK's
        status and level (applying that is the lifecycle's to decide). Nothing is written."""
        dispute_id = (data if isinstance(data, Mapping) else _json_object(data)).get("dispute_id")
        if not isinstance(dispute_id, str):
            raise dispute_refused(
                "R5", "dispute_id", "the SDK record names a dispute", code="dcp.record_invalid"
            )
        known = self.show(dispute_id).record
        return import_dispute(
            data,
            known=known,
            classical_public_key=classical_public_key or self._ledger.signer.public_key,
            pq_public_key=pq_public_key,
            require_hybrid=require_hybrid,
        )

    # --- hooks for the other DCP-07 steps (inside the caller's transaction) -------------

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A write transaction for the ``*_within`` hooks (all of it commits, or none)."""
        self._writable("change disputes")
        with self._db.write() as conn:
            yield conn

    def show_within(self, conn: Connection, dispute_id: str) -> StoredDispute:
        """The dispute as ``conn`` sees it."""
        return self._stored(conn, dispute_id)

    def chain_link_within(self, conn: Connection) -> ChainLink:
        """The ``prev_hash`` pair for a record appended next in ``conn`` (R19, R27)."""
        return self._steps.chain_link(conn)

    def move_within(
        self,
        conn: Connection,
        dispute_id: str,
        to_status: CaseStatus | str,
        *,
        event_type: str,
        actor: str,
        details: Mapping[str, Any] | None = None,
        tier: Tier | str | None = None,
        rearm: bool = False,
    ) -> StoredDispute:
        """Move the dispute to ``to_status`` through the lifecycle (R6), recording the R30
        event ``event_type`` (e.g. ``dispute_negotiation_proposal`` when negotiation starts,
        ``arbitration_panel_formed`` → ``arbitrating``); ``tier`` changes its level and
        ``rearm`` restarts its tier clock."""
        status = CaseStatus(to_status)
        level = None if tier is None else Tier(tier)
        done = self._steps.move(
            conn, dispute_id, status, event_type=event_type, actor=actor,
            at=self._clock.now(), details=details, tier=level, rearm=rearm,
        )  # fmt: skip
        return self._after(conn, done)

    def record_event_within(
        self,
        conn: Connection,
        dispute_id: str,
        event_type: str,
        *,
        actor: str,
        details: Mapping[str, Any] | None = None,
    ) -> StoredDispute:
        """Record the R30 event ``event_type`` (a vote, an objection, a compliance check)
        without changing the dispute's status — a resolved dispute too (objections and
        compliance checks follow its resolution, R20, R28)."""
        done = self._steps.record_event(
            conn, dispute_id, event_type, actor=actor, at=self._clock.now(), details=details
        )
        return self._after(conn, done)

    def resolve_within(
        self,
        conn: Connection,
        dispute_id: str,
        resolution: ResolutionRecord,
        *,
        actor: str,
        resolved_against: Sequence[str] = (),
    ) -> StoredDispute:
        """Resolve the dispute with the signed §6 ``resolution`` (``dispute_resolved``, final);
        ``resolved_against`` names the parties it went against (their filing score, R34). A
        binding resolution's required actions are tracked with their deadlines (R20)."""
        done = self._steps.resolve(
            conn, dispute_id, resolution, actor=actor, at=self._clock.now(),
            resolved_against=resolved_against,
        )  # fmt: skip
        stored = self._after(conn, done)
        self.compliance.track_within(conn, stored, done.ledger_seq)
        return stored

    def open_within(
        self, conn: Connection, filing: DisputeFiling | Mapping[str, Any]
    ) -> StoredDispute:
        """Open a dispute inside the caller's transaction (R21: a non-compliance dispute
        opened by the compliance check or its deadline)."""
        checked = self._filing(filing, {})
        [done] = self._steps.open_many(
            conn, [(checked, self._citations(checked))], self._clock.now()
        )
        return self._after(conn, done)

    # --- helpers ------------------------------------------------------------------------

    def _filing(
        self, filing: DisputeFiling | Mapping[str, Any] | None, fields: Mapping[str, Any]
    ) -> DisputeFiling:
        if isinstance(filing, DisputeFiling) and not fields:
            return filing
        data = dict(filing or {}) if not isinstance(filing, DisputeFiling) else filing.model_dump()
        return DisputeFiling.read({**data, **fields})

    def _citations(self, filing: DisputeFiling) -> builtins.list[PrecedentCitation]:
        if self._precedents is None:
            return []
        try:
            found = self._precedents.search(
                filing.dispute_type, filing.conditions, limit=CITED_PRECEDENTS
            )
        except AccordError:
            return []  # the type is refused (R1) when the dispute is opened
        return [
            PrecedentCitation(
                jurisprudence_id=p.jurisprudence_id,
                relevance=_relevance(p, filing)[:4096],
            )
            for p in found
        ]

    def _run(self, step: Any) -> StoredDispute:
        at: datetime = self._clock.now()
        with self._db.write() as conn:
            done: Recorded = step(conn, at)
            return self._after(conn, done)

    def _after(self, conn: Connection, done: Recorded) -> StoredDispute:
        return self._stored(conn, done.record.dispute_id)

    def _stored(self, conn: Connection, dispute_id: str) -> StoredDispute:
        row = self._steps.stored(conn, dispute_id)
        return StoredDispute(
            record=row.record,
            resolution=row.resolution,
            party_escalated=row.party_escalated,
            ledger_seqs=tuple(ledger_seqs(conn, dispute_id)),
        )

    def _writable(self, action: str) -> None:
        if self._read_only:
            raise AccordError(
                f"cannot {action}: this Accord was opened read-only (Accord.open(read_only=True))",
                code="accord.read_only",
                action=action,
            )


def _json_object(text: str) -> Mapping[str, Any]:
    value = parse_json(text, Limits(), where="the SDK record")
    if not isinstance(value, Mapping):
        raise dispute_refused(
            "R5", "$", "an SDK record is a JSON object", code="dcp.record_invalid"
        )
    return value


def _relevance(precedent: Precedent, filing: DisputeFiling) -> str:
    """Why a precedent is cited: its authority, the filing's conditions it lists as applicable
    (in the bundle's words; a filing stating none is cited every precedent for its type), and
    its holding."""
    bundle = precedent.bundle
    stated = {condition_key(c) for c in filing.conditions}
    listed = bundle.applicability.applicable_conditions
    matched = [c for c in listed if condition_key(c) in stated]
    if matched:
        why = "matches " + "; ".join(f'"{c}"' for c in matched)
    else:
        why = "no condition stated: every precedent for the type"
    return (
        f"{bundle.authority_level.value} precedent for {filing.dispute_type} ({why}): "
        f"{bundle.summary.holding}"
    )
