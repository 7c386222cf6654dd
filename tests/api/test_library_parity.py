"""Parity of the HTTP service with the library (issue 13): every public call of the agent-
and reviewer-facing dispute objects is a route in the OpenAPI, or is excluded here for a
stated reason. A public method added to the library without either fails this test."""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any

from litestar import Litestar
from litestar.testing import TestClient

from accord.disputes.compliance import Compliance
from accord.disputes.objections import Objections
from accord.disputes.service import Disputes
from accord.disputes.tiers.appeal import HumanAppeal
from accord.disputes.tiers.arbitration import Arbitration
from accord.disputes.tiers.negotiating import Negotiating
from accord.disputes.tiers.prepared import PreparedSteps

#: The objects an agent or a reviewer reaches through ``Accord.disputes``.
FACING: dict[str, type[Any]] = {
    "disputes": Disputes,
    "disputes.tiers.negotiation": Negotiating,
    "disputes.tiers.arbitration": Arbitration,
    "disputes.tiers.appeal": HumanAppeal,
    "disputes.tiers.prepared": PreparedSteps,
    "disputes.compliance": Compliance,
    "disputes.objections": Objections,
}

_D = "/api/v1/disputes/{dispute_id}"
ROUTED: dict[str, tuple[str, str]] = {
    "disputes.open": ("post", "/api/v1/disputes"),
    "disputes.open_many": ("post", "/api/v1/disputes/batch"),
    "disputes.list": ("get", "/api/v1/disputes"),
    "disputes.show": ("get", _D),
    "disputes.submit_evidence": ("post", f"{_D}/evidence"),
    "disputes.evidence_content": ("get", f"{_D}/evidence/{{evidence_id}}"),
    "disputes.escalate": ("post", f"{_D}/escalate"),
    "disputes.withdraw": ("post", f"{_D}/withdraw"),
    "disputes.export": ("get", f"{_D}/export"),
    "disputes.import_sdk": ("post", "/api/v1/disputes/import"),
    "disputes.comply": ("post", f"{_D}/compliance-reports"),
    "disputes.object": ("post", f"{_D}/objections"),
    "disputes.order_stay": ("post", "/api/v1/objections/{objection_id}/stay"),
    "disputes.cross_check": ("post", "/api/v1/disputes/cross-check"),
    "disputes.tiers.negotiation.negotiation": ("get", f"{_D}/negotiation"),
    "disputes.tiers.negotiation.propose": ("post", f"{_D}/proposals"),
    "disputes.tiers.negotiation.accept": (
        "post",
        f"{_D}/proposals/{{proposal_id}}/acceptance",
    ),
    "disputes.tiers.negotiation.counter_evidence": ("post", f"{_D}/counter-evidence"),
    "disputes.tiers.negotiation.coin_flip": ("get", f"{_D}/coin"),
    "disputes.tiers.negotiation.coin_outcome": ("get", f"{_D}/coin/outcome"),
    "disputes.tiers.negotiation.commit": ("post", f"{_D}/coin/commitments"),
    "disputes.tiers.negotiation.reveal": ("post", f"{_D}/coin/reveals"),
    "disputes.tiers.arbitration.panel": ("get", f"{_D}/panel"),
    "disputes.tiers.arbitration.ballot_papers": ("get", f"{_D}/panel/ballot-papers"),
    "disputes.verify_resolution": ("get", f"{_D}/resolution/verification"),
    "disputes.tiers.arbitration.nominate": ("post", f"{_D}/nominations"),
    "disputes.tiers.arbitration.form_panel": ("post", f"{_D}/panel"),
    "disputes.tiers.arbitration.vote": ("post", f"{_D}/panel/votes"),
    "disputes.tiers.arbitration.propose": ("post", f"{_D}/panel/proposal"),
    "disputes.tiers.arbitration.accept_recommendation": (
        "post",
        f"{_D}/panel/recommendation/acceptance",
    ),
    "disputes.tiers.arbitration.deliberate": ("post", f"{_D}/panel/deliberation"),
    "disputes.tiers.arbitration.tally": ("post", f"{_D}/panel/tally"),
    "disputes.tiers.arbitration.sign_resolution": ("post", f"{_D}/panel/signatures"),
    "disputes.tiers.appeal.decide_appeal": ("post", f"{_D}/appeal/decision"),
    "disputes.tiers.appeal.pending_appeal": ("get", f"{_D}/appeal/proposal"),
    "disputes.tiers.appeal.propose_appeal": ("post", f"{_D}/appeal/proposals"),
    "disputes.tiers.appeal.sign_appeal": (
        "post",
        f"{_D}/appeal/proposals/{{proposal_id}}/signatures",
    ),
    "disputes.compliance.comply": ("post", f"{_D}/compliance-reports"),
    "disputes.compliance.actions": ("get", f"{_D}/compliance"),
    "disputes.compliance.flags": ("get", "/api/v1/compliance/flags"),
    "disputes.objections.object": ("post", f"{_D}/objections"),
    "disputes.objections.order_stay": ("post", "/api/v1/objections/{objection_id}/stay"),
    "disputes.objections.get": ("get", "/api/v1/objections/{objection_id}"),
    "disputes.objections.of_dispute": ("get", f"{_D}/objections"),
    "disputes.objections.awaiting_appeal": ("get", "/api/v1/objections/awaiting-appeal"),
    "disputes.tiers.prepared.prepare": ("post", f"{_D}/prepared-steps"),
    "disputes.tiers.prepared.complete": (
        "post",
        f"{_D}/prepared-steps/{{prepared_id}}/signatures",
    ),
}
"""Library call → the route (method, OpenAPI path) that makes it."""

_HOOK = "a hook other DCP-07 steps call inside their own transaction, not a caller's step"
EXCLUDED: dict[str, str] = {
    "disputes.transaction": _HOOK,
    "disputes.show_within": _HOOK,
    "disputes.chain_link_within": _HOOK,
    "disputes.move_within": _HOOK,
    "disputes.record_event_within": _HOOK,
    "disputes.resolve_within": _HOOK,
    "disputes.open_within": _HOOK,
    "disputes.compliance.track_within": _HOOK,
    "disputes.compliance.stay_within": _HOOK,
    "disputes.compliance.fail_at_deadline": "the compliance deadline's handler: the "
    "service's sweeper fires it (api/sweeper.py), nobody calls it",
    "disputes.compliance.deadline_handler": "builds the handler the sweeper registers",
    "disputes.active_between": "the ActiveDisputes port panel eligibility reads (R11, R32); "
    "it names disputes between any two agents, so no key reads it directly",
    "disputes.tiers.negotiation.agent_of": "whose registered key a signer is: over HTTP the "
    "actor is the API key's agent, and the server picks its key",
    "disputes.compliance.flagged": "bool(flags(agent_id)): GET /compliance/flags?agent_id=",
    "disputes.tiers.arbitration.ballot_paper": "which panel vote an approval item carries: "
    "read the item at GET /approvals/{id}, a dispute's papers at GET "
    "/disputes/{id}/panel/ballot-papers",
    "disputes.objections.in_force": "whether a stay was ordered on the resolution: each "
    "objection in GET /disputes/{id}/objections carries its stay",
}
"""Library call → why no route makes it."""


def public_calls(facing: Mapping[str, type[Any]] = FACING) -> set[str]:
    """Every public method (sync or async) of ``facing``'s objects, as ``object.method``."""
    found = set()
    for prefix, cls in facing.items():
        for name, member in inspect.getmembers(cls):
            if name.startswith("_") or not (
                inspect.isfunction(member) or inspect.iscoroutinefunction(member)
            ):
                continue
            found.add(f"{prefix}.{name}")
    return found


def schema_routes(client: TestClient[Litestar]) -> set[tuple[str, str]]:
    answer = client.get("/schema/openapi.json")
    assert answer.status_code == 200
    paths: dict[str, dict[str, Any]] = answer.json()["paths"]
    return {(method, path) for path, operations in paths.items() for method in operations}


def test_every_public_dispute_call_is_a_route_or_excluded_for_a_reason(
    client: TestClient[Litestar],
) -> None:
    calls = public_calls()
    assert not set(ROUTED) & set(EXCLUDED), "a call is both routed and excluded"
    unaccounted = calls - set(ROUTED) - set(EXCLUDED)
    assert not unaccounted, f"library calls with no route and no reason: {sorted(unaccounted)}"
    stale = (set(ROUTED) | set(EXCLUDED)) - calls
    assert not stale, f"listed here but no longer in the library: {sorted(stale)}"
    assert all(reason.strip() for reason in EXCLUDED.values())
    routes = schema_routes(client)
    missing = {call: route for call, route in ROUTED.items() if route not in routes}
    assert not missing, f"mapped to routes the OpenAPI does not have: {missing}"


def test_the_parity_check_notices_a_call_without_a_route() -> None:
    class Grown(Disputes):
        def settle_everything(self) -> None:
            """A call added to the library without a route."""

    grown = {**FACING, "disputes": Grown}
    assert public_calls(grown) - set(ROUTED) - set(EXCLUDED) == {"disputes.settle_everything"}
