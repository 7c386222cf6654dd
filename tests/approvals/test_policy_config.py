"""Timeout policies from YAML: every kind parses, and bad input names file, key path and rule."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from accord.approvals import (
    DenyAfter,
    EscalationChain,
    EscalationStep,
    Tiered,
    TierRule,
    WaitForever,
    policy_from_mapping,
)
from accord.errors import ConfigError

SOURCE = "accord.yaml"
PREFIX = "approvals.timeout_policy"


def parse(text: str) -> Any:
    return policy_from_mapping(yaml.safe_load(text), source=SOURCE, key_prefix=PREFIX)


def test_every_kind_parses_from_yaml() -> None:
    assert parse("kind: wait") == WaitForever()
    assert parse("{kind: deny, timeout_minutes: 240}") == DenyAfter(timeout_minutes=240)
    assert parse(
        """
        kind: tiered
        tiers:
          low: {timeout_minutes: 60, on_timeout: approve}
          high: {timeout_minutes: 30, on_timeout: deny}
          critical: {on_timeout: wait}
        """
    ) == Tiered(
        tiers={
            "low": TierRule(timeout_minutes=60, on_timeout="approve"),
            "high": TierRule(timeout_minutes=30, on_timeout="deny"),
            "critical": TierRule(on_timeout="wait"),
        }
    )
    assert parse(
        """
        kind: escalation_chain
        steps:
          - {role: team_lead, timeout_minutes: 30}
          - [department_head, 120]
        on_chain_exhausted: deny
        """
    ) == EscalationChain(
        steps=(
            EscalationStep(role="team_lead", timeout_minutes=30),
            EscalationStep(role="department_head", timeout_minutes=120),
        ),
        on_chain_exhausted="deny",
    )


@pytest.mark.parametrize(
    ("text", "key_path", "rule"),
    [
        ("[wait]", PREFIX, "must be a mapping"),
        ("{timeout_minutes: 5}", f"{PREFIX}.kind", "must be one of"),
        ("{kind: sometimes}", f"{PREFIX}.kind", "must be one of"),
        ("{kind: deny}", f"{PREFIX}.timeout_minutes", "required key is missing"),
        ("{kind: deny, timeout_minutes: 0}", f"{PREFIX}.timeout_minutes", "greater than 0"),
        ("{kind: deny, timeout_minutes: 1.5}", f"{PREFIX}.timeout_minutes", "integer"),
        ("{kind: deny, timeout_minutes: 5, colour: red}", f"{PREFIX}.colour", "unknown key"),
        (
            "{kind: tiered, tiers: {high: {timeout_minutes: 30, on_timeout: explode}}}",
            f"{PREFIX}.tiers.high.on_timeout",
            "'approve', 'deny' or 'wait'",
        ),
        (
            "{kind: tiered, tiers: {urgent: {timeout_minutes: 30, on_timeout: deny}}}",
            f"{PREFIX}.tiers.urgent.[key]",
            "'low', 'medium', 'high' or 'critical'",
        ),
        (
            "{kind: tiered, tiers: {high: {timeout_minutes: 30, on_timeout: wait}}}",
            f"{PREFIX}.tiers.high",
            "drop timeout_minutes",
        ),
        (
            "{kind: escalation_chain, steps: [], on_chain_exhausted: deny}",
            f"{PREFIX}.steps",
            "at least 1 item",
        ),
        (
            "{kind: escalation_chain, steps: [{role: lead}], on_chain_exhausted: deny}",
            f"{PREFIX}.steps[0].timeout_minutes",
            "required key is missing",
        ),
    ],
)
def test_bad_policies_name_the_file_key_path_and_rule(text: str, key_path: str, rule: str) -> None:
    with pytest.raises(ConfigError) as raised:
        parse(text)
    error = raised.value
    assert error.code == "config.invalid"
    assert error.context["file"] == SOURCE
    assert error.context["key_path"] == key_path
    assert rule in error.context["rule"]
    assert str(error).startswith(f"[config.invalid] {SOURCE}: {key_path}: ")


def test_without_a_prefix_the_key_path_starts_at_the_policy() -> None:
    with pytest.raises(ConfigError) as raised:
        policy_from_mapping({"kind": "deny"}, source=SOURCE)
    assert raised.value.context["key_path"] == "timeout_minutes"
    with pytest.raises(ConfigError) as raised:
        policy_from_mapping(None, source=SOURCE)
    assert raised.value.context["key_path"] == "(top level)"
