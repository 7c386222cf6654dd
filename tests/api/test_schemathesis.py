"""Property-based tests over the generated OpenAPI (schemathesis ≥ 4, in-process ASGI):
no request the schema allows, nor any it forbids, gets a 5xx or an answer off the schema.

Each operation is driven through schemathesis's hypothesis strategies directly (its pytest
plugin's lazy fixtures do not run on pytest 9), positive and negative, a few examples each.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import negative_data_rejection, positive_data_acceptance

from accord.api import create_app
from accord.app import Accord
from accord.cases import Case
from accord.cli.key_commands import register_new_key
from tests.api.conftest import Tokens, bearer

EXAMPLES = 8
# The operations are shared out between a few tests, so parallel workers fuzz them side by side.
SHARDS = 4


def _stays_invalid(case: schemathesis.Case) -> bool:
    """Whether a negative case still breaks the schema once sent: every call puts a valid
    credential back (so a broken or missing ``Authorization`` is repaired), and a query value
    turned into a one-item array is sent as ``name=value``, the very scalar it replaced."""
    if "Authorization" not in (case.headers or {}):
        return False
    query = case.query or {}
    if any(isinstance(v, list) and len(v) == 1 for v in query.values()):
        return False
    meta = case.meta
    if meta is None:
        return True
    broken = {location for location, info in meta.components.items() if info.mode.is_negative}
    return bool(broken - {ParameterLocation.HEADER})


def _token_for(method: str, path: str, tokens: Tokens) -> str:
    """The key of the role that may call the operation, so generated cases reach the handler:
    reviewers decide, agents act in their own disputes, admins do the rest."""
    if path.endswith(("/decision", "/decisions", "/stay")) or "/appeal/proposals" in path:
        return tokens.reviewer
    if method.upper() == "POST" and path.endswith("/panel"):
        return tokens.admin  # seating a panel is the operator's step
    if method.upper() == "POST" and path.startswith("/api/v1/disputes") and "import" not in path:
        return tokens.agent
    if method.upper() == "POST" and path.startswith("/api/v1/collecting"):
        return tokens.agent  # a party files its own position
    return tokens.admin


@pytest.mark.slow
@pytest.mark.parametrize("shard", range(SHARDS))
def test_no_request_gets_a_server_error_or_an_off_schema_answer(
    accord: Accord, tokens: Tokens, escalated: Case, shard: int
) -> None:
    register_new_key(accord, None, "agent", "agent:billing", None)  # tier steps get signed
    accord.disputes.open(  # one stored dispute, so reads and steps have something to find
        dispute_type="resource_conflict",
        severity="medium",
        complainant="agent:billing",
        respondents=["agent:audit"],
        subject="both booked the GPU for tonight",
    )
    app = create_app(accord, sweep_every=None, max_body_bytes=64_000)
    schema = schemathesis.openapi.from_asgi("/schema/openapi.json", app)
    operations = sorted((r.ok() for r in schema.get_all_operations()), key=lambda o: o.label)
    assert {
        "POST /api/v1/disputes",
        "GET /api/v1/disputes/{dispute_id}",
        "POST /api/v1/disputes/{dispute_id}/proposals",
        "POST /api/v1/disputes/{dispute_id}/panel/votes",
    } <= {o.label for o in operations}
    checked = []
    for operation in operations[shard::SHARDS]:
        headers = bearer(_token_for(operation.method, operation.path, tokens))
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @settings(
                max_examples=EXAMPLES,
                deadline=None,
                database=None,
                # the same examples every run, so a failure reproduces
                derandomize=True,
                suppress_health_check=list(HealthCheck),
            )
            @given(case=operation.as_strategy(generation_mode=mode))
            def run(case: schemathesis.Case) -> None:
                # a schema-valid body may still break a library rule (a 422 naming it), so
                # "schema-valid data is accepted" is not a property of this API
                response = case.call(headers=headers)  # noqa: B023 - called in this iteration
                if response.status_code == 413:  # a generated body over the size limit:
                    return  # refused before parsing, which is what a 413 is for
                excluded = [positive_data_acceptance]
                if not _stays_invalid(case):  # positive cases skip this check anyway
                    excluded.append(negative_data_rejection)
                case.validate_response(response, excluded_checks=excluded)

            try:
                run()
            except Unsatisfiable:  # nothing to break: no parameters and no body
                assert mode is GenerationMode.NEGATIVE
        checked.append(operation.label)
    assert len(checked) >= 10, checked  # each shard fuzzes a real share of the API
