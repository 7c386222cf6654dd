"""``accord disputes object | objections | stay | comply | compliance | flags | cross-check``:
the rules after a resolution (DCP-07 R20–R22, R27–R29, R31).

:func:`add_rule_commands` registers them on the ``accord disputes`` sub-app. ``stay`` is
signed with the principal's reviewer key (``--key FILE`` or ``$ACCORD_REVIEWER_KEY``): the
principal is the key's, never an option. ``object`` and ``comply`` act for the party named by
``--by`` and sign with the service key, as the other ``accord disputes`` steps do.
``cross-check`` needs no database: it reads two or more exported chains (``accord ledger tail
--json``), refusing a file above :data:`MAX_CHAIN_FILE_BYTES` before reading it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Final

import typer
from rich.console import Console

from accord.app import PASSPHRASE_ENV
from accord.cli.opening import open_accord
from accord.cli.options import ConfigOption, DbOption, JsonOption, KeysOption
from accord.cli.problems import refused_exit, report_problem
from accord.cli.tables import listing, print_json, text_cell
from accord.crypto import signer_from_file
from accord.dcp07 import ExportedEntry, cross_check, parse_exported_chain
from accord.errors import AccordError
from accord.limits import Limits

MAX_CHAIN_FILE_BYTES: Final = 256 * 1024 * 1024
"""Largest exported chain ``cross-check`` reads."""
REVIEWER_KEY_ENV: Final = "ACCORD_REVIEWER_KEY"

ById = Annotated[str, typer.Option("--by", help="The party (agent id) taking this step.")]
DisputeArg = Annotated[str, typer.Argument(help="disp:<uuid>")]


def object_command(
    dispute_id: DisputeArg,
    resolution: Annotated[str, typer.Option("--resolution", help="res:<uuid> objected to.")],
    by: ById,
    objection_type: Annotated[
        str, typer.Option("--type", help="substantive, procedural, precedent or rights.")
    ],
    summary: Annotated[str, typer.Option("--summary", help="The grounds in one line.")],
    reasoning: Annotated[str, typer.Option("--reasoning", help="The detailed reasoning.")],
    remedy_type: Annotated[str, typer.Option("--remedy-type", help="e.g. rehearing.")],
    remedy: Annotated[str, typer.Option("--remedy", help="What you ask for.")],
    evidence: Annotated[
        list[str] | None, typer.Option("--evidence", help="An evidence reference (repeat).")
    ] = None,
    precedent: Annotated[
        list[str] | None, typer.Option("--precedent", help="A jur:<uuid> relied on (repeat).")
    ] = None,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """Object to a dispute's resolution (R27); a rights objection goes to human appeal (R29).
    The resolution stays in force unless a principal orders a stay (R28)."""
    accord = open_accord(config, db, keys)
    try:
        stored = accord.disputes.object(
            dispute_id,
            resolution,
            by,
            objection_type,
            {
                "summary": summary,
                "detailed_reasoning": reasoning,
                "evidence_references": evidence or [],
                "precedent_references": precedent or [],
            },
            {"type": remedy_type, "description": remedy},
        )
    except AccordError as exc:
        raise refused_exit(exc) from exc
    finally:
        accord.close()
    if as_json:
        print_json(stored.to_json_dict())
        return
    routed = f", routed to {stored.routed_to}" if stored.routed_to else ""
    Console().print(
        f"{stored.objection_id}: {stored.record.objection_type.value} objection filed "
        f"(ledger entry {stored.ledger_seq}{routed})"
    )


def objections_command(
    dispute_id: Annotated[str | None, typer.Argument(help="disp:<uuid>")] = None,
    awaiting_appeal: Annotated[
        bool,
        typer.Option("--awaiting-appeal", help="Rights objections waiting for a principal."),
    ] = False,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """A dispute's objections (with their stays), or those awaiting human appeal."""
    if (dispute_id is None) != awaiting_appeal:
        report_problem("invalid input", "give DISPUTE_ID or --awaiting-appeal")
        raise typer.Exit(2)
    accord = open_accord(
        config, db, keys, create_service_key=False, must_exist=True, read_only=True
    )
    try:
        objections = accord.disputes.objections
        found = (
            objections.awaiting_appeal()
            if dispute_id is None
            else objections.of_dispute(dispute_id)
        )
    except AccordError as exc:
        raise refused_exit(exc) from exc
    finally:
        accord.close()
    if as_json:
        print_json([o.to_json_dict() for o in found])
        return
    table = listing("objection id", "dispute id", "type", "by", "status", "routed", "stayed by")
    for o in found:
        r = o.record
        table.add_row(
            r.objection_id,
            r.dispute_id,
            r.objection_type.value,
            r.objecting_party.agent_id,
            r.status.value,
            o.routed_to or "-",
            o.stay.ordered_by if o.stay else "-",
        )
    Console().print(table)


def stay_command(
    objection_id: Annotated[str, typer.Argument(help="obj:<uuid>")],
    key: Annotated[
        Path | None,
        typer.Option(
            "--key",
            envvar=REVIEWER_KEY_ENV,
            help=f"Your reviewer key file (*.key.json; default ${REVIEWER_KEY_ENV}).",
        ),
    ] = None,
    reason: Annotated[str, typer.Option("--reason", help="Why (kept in the signed order).")] = "",
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Order a stay of the resolution an objection answers (R28), as the principal whose
    reviewer key you hold: the key signs the order."""
    if key is None:
        report_problem("invalid input", f"a stay is signed: give --key or ${REVIEWER_KEY_ENV}")
        raise typer.Exit(2)
    accord = open_accord(config, db, keys)
    try:
        signer = signer_from_file(
            key,
            os.environ.get(PASSPHRASE_ENV),
            allow_unsafe_permissions=accord.config.settings.keys.allow_unsafe_permissions,
        )
        stay = accord.disputes.order_stay(objection_id, accord.reviewer(signer), reason)
    except AccordError as exc:
        raise refused_exit(exc) from exc
    finally:
        accord.close()
    Console().print(
        f"{stay.resolution_id} stayed on {stay.objection_id} by {stay.ordered_by} "
        f"(ledger entry {stay.ledger_seq})"
    )


def comply_command(
    dispute_id: DisputeArg,
    by: ById,
    entry: Annotated[
        list[int], typer.Option("--entry", help="A ledger seq showing compliance (repeat).")
    ],
    note: Annotated[str, typer.Option("--note", help="A short note.")] = "",
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """Report compliance with the dispute's binding resolution (R20). Exit 1 when the check
    fails: the failure is recorded and a policy_conflict dispute opened at human appeal (R21)."""
    accord = open_accord(config, db, keys)
    try:
        outcome = accord.disputes.comply(dispute_id, by, {"entries": entry, "note": note})
    except AccordError as exc:
        raise refused_exit(exc) from exc
    finally:
        accord.close()
    if as_json:
        print_json(outcome.to_json_dict())
    else:
        for action in outcome.verified:
            Console().print(f"{action.action_id}: verified (ledger entry {action.ledger_seq})")
        for action in outcome.failed:
            Console().print(
                f"{action.action_id}: failed — {action.failure}; "
                f"{action.followup_dispute_id} opened at human appeal"
            )
        for flag in outcome.flags:
            Console().print(f"{flag.agent_id} flagged: {flag.failures} failed actions (R22)")
    if not outcome.complied:
        raise typer.Exit(1)


def compliance_command(
    dispute_id: Annotated[str | None, typer.Option("--dispute", help="disp:<uuid>")] = None,
    agent: Annotated[str | None, typer.Option("--agent", help="An agent id.")] = None,
    state: Annotated[
        str | None, typer.Option("--state", help="pending, verified, failed or stayed.")
    ] = None,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """Required actions of binding resolutions and what became of them (R20, R21)."""
    accord = open_accord(
        config, db, keys, create_service_key=False, must_exist=True, read_only=True
    )
    try:
        found = accord.disputes.compliance.actions(
            dispute_id=dispute_id, agent_id=agent, state=state
        )
    except (AccordError, ValueError) as exc:
        accord.close()
        report_problem("invalid input", exc)
        raise typer.Exit(2) from exc
    accord.close()
    if as_json:
        print_json([a.to_json_dict() for a in found])
        return
    table = listing("action id", "dispute id", "agent", "action", "due", "state", "follow-up")
    for a in found:
        table.add_row(
            a.action_id,
            a.dispute_id,
            a.agent_id,
            text_cell(a.action),
            a.due_at.isoformat(),
            a.state.value,
            a.followup_dispute_id or "-",
        )
    Console().print(table)


def flags_command(
    agent: Annotated[str | None, typer.Option("--agent", help="An agent id.")] = None,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """Agents flagged for repeated non-compliance (R22), for a person to weigh termination
    for cause (DCP-05)."""
    accord = open_accord(
        config, db, keys, create_service_key=False, must_exist=True, read_only=True
    )
    try:
        found = accord.disputes.compliance.flags(agent)
    finally:
        accord.close()
    if as_json:
        print_json([f.to_json_dict() for f in found])
        return
    table = listing("flag id", "agent", "failures", "threshold", "dispute id", "flagged at")
    for f in found:
        table.add_row(
            f.flag_id, f.agent_id, str(f.failures), str(f.threshold), f.dispute_id, f.flagged_at
        )
    Console().print(table)


def cross_check_command(
    chains: Annotated[
        list[Path], typer.Argument(help="Each party's exported chain (accord ledger tail --json).")
    ],
    dispute: Annotated[
        str | None,
        typer.Option(
            "--dispute", help="The disp:<uuid> to check (default: the one every chain references)."
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Check that the parties' chains agree about one dispute (R31): each chain links, all
    reference the dispute, evidence timestamps agree, the resolution is in every chain.
    Exit 1 naming the mismatch."""
    parsed: dict[str, list[ExportedEntry]] = {}
    try:
        for path in chains:
            parsed[_party_name(path, parsed)] = _read_chain(path)
        report = cross_check(parsed, dispute)
    except AccordError as exc:
        report_problem("mismatch" if exc.code == "dcp.cross_chain_mismatch" else "error", exc)
        raise typer.Exit(1 if exc.code == "dcp.cross_chain_mismatch" else 2) from exc
    if as_json:
        print_json(report.model_dump(mode="json"))
        return
    Console().print(
        f"{report.dispute_id}: {len(report.parties)} chains agree — "
        f"{len(report.evidence_compared)} evidence items compared, resolution "
        f"{report.resolution_id} ({report.resolution_hash}) in every chain"
    )


def _party_name(path: Path, taken: dict[str, list[ExportedEntry]]) -> str:
    name = str(path)
    if name in taken:
        raise AccordError(
            f"{name} is given twice", code="dcp.cross_chain_parties", field="chains",
            rule="each party's chain once",
        )  # fmt: skip
    return name


def _read_chain(path: Path) -> list[ExportedEntry]:
    where = str(path)
    try:
        size = path.stat().st_size
        if size > MAX_CHAIN_FILE_BYTES:
            raise AccordError(
                f"{where}: {size:,} bytes, above {MAX_CHAIN_FILE_BYTES:,}",
                code="limits.exceeded",
                field=where,
                rule=f"an exported chain is at most {MAX_CHAIN_FILE_BYTES:,} bytes",
            )
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise AccordError(
            f"{where}: cannot read the chain ({exc.__class__.__name__})",
            code="io.unreadable",
            field=where,
            rule="a readable UTF-8 JSON file",
        ) from None
    return parse_exported_chain(text, Limits(), where=where)


def add_rule_commands(disputes_app: typer.Typer) -> None:
    """Register the commands on the ``accord disputes`` sub-app."""
    disputes_app.command("object")(object_command)
    disputes_app.command("objections")(objections_command)
    disputes_app.command("stay")(stay_command)
    disputes_app.command("comply")(comply_command)
    disputes_app.command("compliance")(compliance_command)
    disputes_app.command("flags")(flags_command)
    disputes_app.command("cross-check")(cross_check_command)
