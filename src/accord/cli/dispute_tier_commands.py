"""``accord disputes propose | counter | accept | commit | reveal | nominate | panel | vote |
sign | tally | appeal | appeal-propose | appeal-sign | appeal-pending``: the three DCP-07
tiers from a shell.

Every step is signed with the actor's own key file (``--key FILE``): a party's agent key
(``accord keys new --role agent --principal <agent-id>``), a panel member's arbitrator key
(``--role arbitrator``), or, for ``appeal``, each responsible principal's reviewer key
(``--key`` once per principal) — or, deciding in turn, one principal's reviewer key each:
``appeal-propose`` drafts and signs the decision, ``appeal-sign`` co-signs it (the last
principal's signature resolves the dispute). The key's registration in the ledger says who
acts; nothing on the command line does. ``commit`` draws the 32-byte nonce itself and prints
it: keep it for ``reveal``. Output is JSON. :func:`register` adds the commands to
``accord disputes``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, cast

import typer

from accord.app import PASSPHRASE_ENV, Accord
from accord.approvals import Reviewer
from accord.cli.opening import open_accord
from accord.cli.options import ConfigOption, DbOption, KeysOption
from accord.cli.problems import refused_exit, report_problem
from accord.cli.tables import print_json
from accord.crypto import Ed25519Signer, signer_from_file
from accord.dcp07 import VoteChoice, commitment, new_nonce
from accord.disputes import DisputeTiers
from accord.errors import AccordError

DisputeArg = Annotated[str, typer.Argument(help="disp:<uuid>")]
KeyFile = Annotated[
    Path, typer.Option("--key", help="Your key file (*.key.json): who you are comes from it.")
]
_NONCE_HEX = re.compile(r"^(?:[0-9a-f]{2}){32,64}$")


def _signer(accord: Accord, key: Path) -> Ed25519Signer:
    return signer_from_file(
        key,
        os.environ.get(PASSPHRASE_ENV),
        allow_unsafe_permissions=accord.config.settings.keys.allow_unsafe_permissions,
    )


def _step(
    config: Path | None,
    db: str | None,
    keys: Path | None,
    step: Callable[[Accord, DisputeTiers], Any],
) -> None:
    """Run ``step`` on an opened instance; refused input exits 2, not found 1."""
    accord = open_accord(config, db, keys)
    try:
        done = step(accord, accord.disputes.tiers)
    except AccordError as exc:
        raise refused_exit(exc) from exc
    finally:
        accord.close()
    print_json(done)


def _json(model: Any) -> Any:
    return model.model_dump(mode="json") if model is not None else None


def propose(
    dispute_id: DisputeArg,
    terms: Annotated[str, typer.Option(help="The terms you propose (and so accept).")],
    key: KeyFile,
    responds_to: Annotated[str | None, typer.Option(help="The proposal this counters.")] = None,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Propose terms in direct negotiation (R7)."""
    _step(config, db, keys, lambda a, t: _json(t.negotiation.propose(
        dispute_id, _signer(a, key), terms, responds_to=responds_to)))  # fmt: skip


def counter(
    dispute_id: DisputeArg,
    content_hash: Annotated[str, typer.Option(help="sha256:<hex> of the evidence content.")],
    description: Annotated[str, typer.Option(help="What the evidence shows.")],
    key: KeyFile,
    answers: Annotated[str | None, typer.Option(help="The proposal it answers.")] = None,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Answer with counter-evidence (R7, R33)."""
    _step(config, db, keys, lambda a, t: _json(t.negotiation.counter_evidence(
        dispute_id, _signer(a, key), content_hash=content_hash, description=description,
        answers=answers)))  # fmt: skip


def accept(
    dispute_id: DisputeArg,
    proposal_id: Annotated[str, typer.Argument(help="prop:<uuid>")],
    key: KeyFile,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Accept a proposal; once every party has, the dispute is resolved (R7)."""
    _step(config, db, keys, lambda a, t: _json(t.negotiation.accept(
        dispute_id, _signer(a, key), proposal_id)))  # fmt: skip


def commit(
    dispute_id: DisputeArg,
    choice: Annotated[str, typer.Option(help="What you call (a proposal id, or any word).")],
    key: KeyFile,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Commit to the coin flip (R8); prints the nonce to keep for ``reveal``."""

    def step(accord: Accord, tiers: DisputeTiers) -> Any:
        signer = _signer(accord, key)
        agent = tiers.negotiation.agent_of(signer)
        nonce = new_nonce()
        made = commitment(dispute_id, agent, nonce, choice)
        flip = tiers.negotiation.commit(dispute_id, signer, made)
        return {"commitment": made, "nonce_hex": nonce.hex(), "choice": choice,
                "reveal_deadline": flip.reveal_deadline.isoformat()}  # fmt: skip

    _step(config, db, keys, step)


def reveal(
    dispute_id: DisputeArg,
    nonce: Annotated[str, typer.Option(help="The nonce_hex commit printed.")],
    choice: Annotated[str, typer.Option(help="The choice you committed to.")],
    key: KeyFile,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Reveal your nonce and choice (R8); prints the outcome once the flip is settled."""
    if not _NONCE_HEX.fullmatch(nonce):
        report_problem("invalid input", "--nonce: 64 to 128 lower-case hex digits (R8)")
        raise typer.Exit(2)

    def step(accord: Accord, tiers: DisputeTiers) -> Any:
        flip = tiers.negotiation.reveal(dispute_id, _signer(accord, key), bytes.fromhex(nonce),
                                        choice)  # fmt: skip
        now = accord.clock.now()
        return _json(flip.outcome(now=now)) if flip.is_settled(now) else {"revealed": True}

    _step(config, db, keys, step)


def nominate(
    dispute_id: DisputeArg,
    arbitrator: Annotated[list[str], typer.Option(help="A pool member (repeat).")],
    key: KeyFile,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Nominate arbitrators from the configured pool (R10)."""
    _step(config, db, keys, lambda a, t: [_json(n) for n in t.arbitration.nominate(
        dispute_id, _signer(a, key), arbitrator)])  # fmt: skip


ActionOption = Annotated[
    list[str] | None,
    typer.Option(
        "--action",
        help="A required action: 'AGENT|DEADLINE|ACTION', DEADLINE in RFC 3339 (repeat).",
    ),
]
PrecedentOption = Annotated[
    list[str] | None,
    typer.Option(
        "--precedent",
        help="A precedent applied: 'JUR_ID|APPLICABILITY[|DEPARTURE_REASONING]' (repeat).",
    ),
]
MethodOption = Annotated[
    str, typer.Option(help="How compliance is checked (R20).")
]
ComplianceDeadlineOption = Annotated[
    str | None,
    typer.Option(help="When compliance is checked (default: the last action's deadline)."),
]


def _terms(
    actions: list[str] | None,
    precedents: list[str] | None,
    method: str,
    compliance_deadline: str | None,
) -> dict[str, Any]:
    """The proposal's terms from the ``--action`` / ``--precedent`` options (exit 2 on a
    malformed one)."""
    required = []
    for item in actions or ():
        parts = item.split("|", 2)
        if len(parts) != 3 or not all(parts):
            report_problem("invalid input", "--action: 'AGENT|DEADLINE|ACTION'")
            raise typer.Exit(2)
        due = _instant(parts[1], "--action DEADLINE")
        required.append({"agent_id": parts[0], "deadline": due, "action": parts[2]})
    applied = []
    for item in precedents or ():
        parts = item.split("|", 2)
        if len(parts) < 2 or not all(parts):
            report_problem(
                "invalid input", "--precedent: 'JUR_ID|APPLICABILITY[|DEPARTURE_REASONING]'"
            )
            raise typer.Exit(2)
        applied.append(
            {"jurisprudence_id": parts[0], "applicability": parts[1]}
            | ({"departure_reasoning": parts[2]} if len(parts) == 3 else {})
        )
    return {
        "actions_required": required,
        "compliance_verification_method": method,
        "compliance_deadline": (
            None
            if compliance_deadline is None
            else _instant(compliance_deadline, "--compliance-deadline")
        ),
        "precedents_applied": applied,
    }


def _instant(text: str, option: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        report_problem("invalid input", f"{option}: an RFC 3339 time with its offset")
        raise typer.Exit(2)
    return moment


def panel(
    dispute_id: DisputeArg,
    question: Annotated[str, typer.Option(help="What the panel decides.")],
    position: Annotated[list[str], typer.Option(help="AGENT=ARGUMENT, once per party.")],
    favours: Annotated[str, typer.Option(help="The party the resolution finds for.")],
    resolution: Annotated[str, typer.Option(help="The resolution put to the vote.")],
    action: ActionOption = None,
    precedent: PrecedentOption = None,
    compliance_method: MethodOption = "audit_chain_review",
    compliance_deadline: ComplianceDeadlineOption = None,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Seat the panel to vote on the proposed §6 resolution: eligibility per nominee,
    verifiable draw (R10–R13, R19, R32, R35)."""
    positions: dict[str, str] = {}
    for item in position:
        agent, sep, argument = item.partition("=")
        if not sep or not agent or agent in positions:
            report_problem("invalid input", "--position: AGENT=ARGUMENT, each party once")
            raise typer.Exit(2)
        positions[agent] = argument
    terms = _terms(action, precedent, compliance_method, compliance_deadline)
    _step(config, db, keys, lambda a, t: _json(t.arbitration.form_panel(
        dispute_id, question=question, positions=positions, favours=favours,
        resolution=resolution, **terms)))  # fmt: skip


def panel_propose(
    dispute_id: DisputeArg,
    favours: Annotated[str, typer.Option(help="The party the resolution finds for.")],
    description: Annotated[str, typer.Option(help="What the resolution decides.")],
    key: KeyFile,
    action: ActionOption = None,
    precedent: PrecedentOption = None,
    compliance_method: MethodOption = "audit_chain_review",
    compliance_deadline: ComplianceDeadlineOption = None,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Put a proposed §6 resolution to the panel as a member (your arbitrator key), until the
    first vote (R14, R19)."""
    terms = _terms(action, precedent, compliance_method, compliance_deadline)
    _step(config, db, keys, lambda a, t: _json(t.arbitration.propose(
        dispute_id, _signer(a, key), favours=favours, description=description,
        **terms)))  # fmt: skip


def recommendation_accept(
    dispute_id: DisputeArg,
    key: KeyFile,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Accept the panel's recommended resolution as a party (your agent key); once every
    party has, it resolves the dispute (R15). To refuse it, escalate instead (R17)."""
    _step(config, db, keys, lambda a, t: _json(t.arbitration.accept_recommendation(
        dispute_id, _signer(a, key))))  # fmt: skip


def vote(
    dispute_id: DisputeArg,
    choice: Annotated[str, typer.Argument(help="approve | dissent")],
    reasoning: Annotated[str, typer.Option(help="Your reasoning (kept; its hash is signed).")],
    key: KeyFile,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Vote as a panel member (R14)."""
    if choice not in ("approve", "dissent"):
        report_problem("invalid input", "CHOICE: approve or dissent (R14)")
        raise typer.Exit(2)
    chosen = cast(VoteChoice, choice)
    _step(config, db, keys, lambda a, t: _json(t.arbitration.vote(
        dispute_id, _signer(a, key), chosen, reasoning)))  # fmt: skip


def sign(
    dispute_id: DisputeArg,
    key: KeyFile,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Sign the panel's decided resolution; M approving signatures resolve it (R14, R44).
    A human member signs with its reviewer key."""
    _step(config, db, keys, lambda a, t: _json(t.arbitration.sign_resolution(
        dispute_id, _signer(a, key))))  # fmt: skip


def tally(
    dispute_id: DisputeArg,
    key: KeyFile,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Count the votes after the voting deadline (R14, R15)."""
    _step(config, db, keys, lambda a, t: _json(t.arbitration.tally(
        dispute_id, _signer(a, key))))  # fmt: skip


def appeal(
    dispute_id: DisputeArg,
    outcome: Annotated[str, typer.Option(help="The final decision.")],
    reasoning: Annotated[str, typer.Option(help="Why.")],
    key: Annotated[list[Path], typer.Option("--key", help="A principal's reviewer key (repeat).")],
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """The responsible principals' final decision at human appeal (R16)."""

    def step(accord: Accord, tiers: DisputeTiers) -> Any:
        reviewers: list[Reviewer] = [accord.reviewer(_signer(accord, k)) for k in key]
        return _json(tiers.appeal.decide_appeal(
            dispute_id, reviewers, outcome=outcome, reasoning=reasoning))  # fmt: skip

    _step(config, db, keys, step)


def appeal_propose(
    dispute_id: DisputeArg,
    outcome: Annotated[str, typer.Option(help="The final decision you propose.")],
    reasoning: Annotated[str, typer.Option(help="Why.")],
    key: Annotated[Path, typer.Option("--key", help="Your reviewer key (*.key.json).")],
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Propose the appeal decision and sign it; it replaces any pending proposal (R16)."""
    _step(config, db, keys, lambda a, t: _json(t.appeal.propose_appeal(
        dispute_id, _signer(a, key), outcome=outcome, reasoning=reasoning)))  # fmt: skip


def appeal_sign(
    dispute_id: DisputeArg,
    proposal: Annotated[str, typer.Option(help="The pending proposal's id (res:...).")],
    key: Annotated[Path, typer.Option("--key", help="Your reviewer key (*.key.json).")],
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Co-sign the pending appeal proposal; the last principal's signature resolves (R16)."""
    _step(config, db, keys, lambda a, t: _json(t.appeal.sign_appeal(
        dispute_id, _signer(a, key), proposal)))  # fmt: skip


def appeal_pending(
    dispute_id: DisputeArg,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """The appeal decision awaiting signatures (null if none): who signed, who must (R16)."""
    _step(config, db, keys, lambda a, t: _json(t.appeal.pending_appeal(dispute_id)))


_COMMANDS: dict[str, Callable[..., None]] = {
    "propose": propose,
    "counter": counter,
    "accept": accept,
    "commit": commit,
    "reveal": reveal,
    "nominate": nominate,
    "panel": panel,
    "panel-propose": panel_propose,
    "recommendation-accept": recommendation_accept,
    "vote": vote,
    "sign": sign,
    "tally": tally,
    "appeal": appeal,
    "appeal-propose": appeal_propose,
    "appeal-sign": appeal_sign,
    "appeal-pending": appeal_pending,
}


def register(app: typer.Typer) -> None:
    """Add the tier commands to ``accord disputes``."""
    for name, command in _COMMANDS.items():
        app.command(name)(command)
