"""``accord.yaml`` → validated settings. Unknown keys, wrong types and broken references
fail with the file, the key path and the rule."""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic import ValidationError as PydanticValidationError

from accord.approvals import TimeoutPolicy, WaitForever, policy_from_mapping
from accord.cases import TriageSettings
from accord.config_errors import config_error, key_path, pydantic_rule, unknown_key
from accord.conflicts import ChainOverrides, DecisionTable, DetectionSettings
from accord.disputes.settings import DisputeSettings
from accord.disputes.tiers.settings import ArbitratorSettings
from accord.errors import ConfigError
from accord.ladder import LadderSettings
from accord.ladder.policy import ResolutionPolicy
from accord.limits import Limits
from accord.llm import ModelSettings
from accord.log import get_logger
from accord.org import OrgChart, org_chart_from_mapping
from accord.settings_model import StrictSettings
from accord.strict_yaml import read_yaml_file
from accord.webhooks import WebhookSettings

log = get_logger(__name__)

#: The strategy chains' key before this release (read for one more release, with a warning).
DEPRECATED_CHAINS_KEY = "classification.chains"
#: Where the strategy chains belong: the resolution policy, the one source of the ladder.
CHAINS_KEY = "conflict_resolution.chains"


class DatabaseSettings(StrictSettings):
    url: str | None = Field(default=None, min_length=1)
    sqlite_synchronous: Literal["OFF", "NORMAL", "FULL", "EXTRA"] = "FULL"


class KeySettings(StrictSettings):
    directory: str = Field(default="accord-keys", min_length=1)
    service_key: str = Field(default="service", min_length=1)
    trust_root: str | None = Field(default=None, pattern=r"^[0-9a-f]{32}$")
    """The kid ``verify`` pins (default: the service key's own); set it to the first service
    key's kid once the service key was rotated."""
    allow_unsafe_permissions: bool = False
    """Only warn (instead of refusing) on a key folder writable by group/other or a private
    key readable by them."""


class LedgerSettings(StrictSettings):
    checkpoint_every: int | None = Field(default=1024, ge=1)
    witnesses: list[Annotated[str, Field(min_length=1)]] = Field(
        default_factory=list, max_length=16
    )
    """Folders each new signed checkpoint is written to (see ``accord.ledger.witness``)."""


class LadderConfig(StrictSettings):
    """Thresholds of the tier-1 rungs."""

    confidence_tie_gap: float = Field(default=0.1, ge=0.0, le=1.0)
    min_confidence: float = Field(default=0.5, ge=0.0, le=1.0)
    source_tolerance: float = Field(default=0.10, ge=0.0, le=1.0)


class TaskTypeConfig(StrictSettings):
    detection: dict[str, Any] = Field(default_factory=dict)


class EmbeddingSettings(StrictSettings):
    """``settle.embedding``: the local semantic layer (the ``accord[semantic]`` extra), asked
    before ``settle.semantic``'s model about free-text answers no fact tells apart."""

    agree_above: float = Field(default=0.75, ge=-1.0, le=1.0)
    differ_below: float = Field(default=0.40, ge=-1.0, le=1.0)


class SettleConfig(StrictSettings):
    """How settle detects and decides: detection defaults, per task type, ladder thresholds."""

    detection: dict[str, Any] = Field(default_factory=dict)
    task_types: dict[str, TaskTypeConfig] = Field(default_factory=dict)
    ladder: LadderConfig = LadderConfig()
    semantic: ModelSettings | None = None
    embedding: EmbeddingSettings | None = None
    allow_unknown_agents: bool = False
    """With an org chart configured, positions from agents not in it are refused unless true."""


class LearningSettings(StrictSettings):
    """Reliability learnt from history weights the tier-1 vote."""

    reliability: bool = True
    refit_every: int = Field(default=1000, ge=1)
    refit_growth: float = Field(default=0.1, ge=0, le=10)
    """Refit only once the history grew by this fraction too (0: every ``refit_every``)."""
    min_answers: int = Field(default=5, ge=1)


class ApprovalsSettings(StrictSettings):
    """The human queue: the §12.4 timeout policy and which roles each person holds."""

    timeout_policy: dict[str, Any] | None = None
    principals: dict[str, list[str]] = Field(default_factory=dict)
    """The configured reviewers (principal → roles): only they may decide."""
    allow_os_login: bool = False
    """Let ``accord approvals decide`` without ``--key`` decide as ``human:<OS login>`` (still
    only a configured reviewer; the decision is then not signed by a reviewer key)."""


class ReviewerSessionSettings(StrictSettings):
    """How long a reviewer's sign-in on the web page lasts: it ends after ``idle_minutes``
    without a request and ``absolute_minutes`` after sign-in, whichever comes first."""

    idle_minutes: int = Field(default=30, ge=1, le=24 * 60)
    absolute_minutes: int = Field(default=8 * 60, ge=1, le=7 * 24 * 60)


class BoundarySettings(StrictSettings):
    """Session hand-off: probes to load (``name: "package.module:attribute"``) and tie-breakers
    keyed ``task_type:field``, ``*:field``, ``task_type`` or ``*``."""

    probes: dict[str, str] = Field(default_factory=dict)
    tie_breakers: dict[str, dict[str, Any]] = Field(default_factory=dict)


class EventStreamSettings(StrictSettings):
    """A parked task's server-sent event stream: a ``: ping`` comment every
    ``heartbeat_seconds``; the stream ends after ``max_seconds`` (reconnect with
    ``Last-Event-ID``)."""

    heartbeat_seconds: float = Field(default=15.0, gt=0, le=300)
    max_seconds: float = Field(default=300.0, gt=0, le=3600)


class Settings(StrictSettings):
    """Everything ``accord.yaml`` may say (sections grow with each room)."""

    database: DatabaseSettings = DatabaseSettings()
    keys: KeySettings = KeySettings()
    ledger: LedgerSettings = LedgerSettings()
    org: str | dict[str, Any] | None = None
    settle: SettleConfig = SettleConfig()
    classification: dict[str, Any] | None = None
    learning: LearningSettings = LearningSettings()
    conflict_resolution: dict[str, Any] | None = None
    model: ModelSettings | None = None
    approvals: ApprovalsSettings = ApprovalsSettings()
    reviewer_sessions: ReviewerSessionSettings = ReviewerSessionSettings()
    boundary: BoundarySettings = BoundarySettings()
    limits: Limits = Limits()
    arbitrators: ArbitratorSettings | None = None
    disputes: DisputeSettings = DisputeSettings()
    webhooks: WebhookSettings = WebhookSettings()
    event_stream: EventStreamSettings = EventStreamSettings()


class LoadedConfig(BaseModel):
    """Settings plus what they reference, resolved relative to the config file."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    source: str
    base_dir: Path
    settings: Settings
    org: OrgChart | None
    decide: TriageSettings = TriageSettings()
    policy: ResolutionPolicy = ResolutionPolicy()
    approval_policy: TimeoutPolicy = WaitForever()

    def keys_directory(self) -> Path:
        return (self.base_dir / self.settings.keys.directory).resolve()


def settings_from_mapping(data: Any, *, source: str) -> Settings:
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise ConfigError(
            f"{source}: the top level must be a mapping",
            code="config.invalid",
            file=source,
            key_path="(top level)",
            rule="must be a mapping",
        )
    try:
        return Settings.model_validate(data)
    except PydanticValidationError as exc:
        first = exc.errors()[0]
        loc = _written_loc(data, tuple(first["loc"]), first["type"])
        where = key_path("", loc) or "(top level)"
        if first["type"] == "extra_forbidden":
            allowed = _allowed_keys(Settings, loc[:-1])
            if allowed:
                raise unknown_key(source, where, allowed) from exc
        rule = _RULES.get(loc, pydantic_rule(first))
        raise config_error(source, where, rule, code="config.invalid") from exc


#: Rules worded for keys that accept several forms (pydantic would name only one of them).
_RULES: dict[tuple[int | str, ...], str] = {
    ("org",): "must be a path to an org chart file, or the org chart itself as a mapping",
}


def _written_loc(data: Any, loc: tuple[int | str, ...], kind: str) -> tuple[int | str, ...]:
    """The part of pydantic's error location that names keys the user wrote (pydantic adds
    union branch tags such as ``str`` or ``TaskTypeConfig`` after them)."""
    node: Any = data
    for depth, part in enumerate(loc):
        in_mapping = isinstance(node, Mapping) and isinstance(part, str) and part in node
        in_list = isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        if in_mapping or in_list:
            node = node[part]
        else:
            missing_key = kind == "missing" and isinstance(node, Mapping)
            return loc[: depth + 1] if missing_key else loc[:depth]
    return loc


def _allowed_keys(model: type[BaseModel], loc: tuple[int | str, ...]) -> list[str]:
    """The keys a settings section accepts, found by following ``loc`` through the models."""
    current: Any = model
    for part in loc:
        fields = getattr(current, "model_fields", None)
        if not isinstance(part, str) or fields is None or part not in fields:
            return []
        annotation = fields[part].annotation
        candidates = [annotation, *getattr(annotation, "__args__", ())]
        current = next(
            (c for c in candidates if isinstance(c, type) and issubclass(c, BaseModel)), None
        )
        if current is None:
            return []
    return sorted(getattr(current, "model_fields", {}))


def load_config(path: Path | None) -> LoadedConfig:
    """Load ``accord.yaml`` (or defaults when ``path`` is None)."""
    if path is None:
        return LoadedConfig(source="(defaults)", base_dir=Path.cwd(), settings=Settings(), org=None)
    data = read_yaml_file(path)
    source = str(path)
    settings = settings_from_mapping(data, source=source)
    base = path.resolve().parent
    org: OrgChart | None = None
    if isinstance(settings.org, str):
        org_path = base / settings.org
        org = org_chart_from_mapping(read_yaml_file(org_path) or {}, source=str(org_path))
    elif isinstance(settings.org, dict):
        org = org_chart_from_mapping(settings.org, source=source, key_prefix="org")
    policy = policy_settings(settings, source=source)
    decide = decide_settings(settings, source=source, policy=policy)
    timeout = settings.approvals.timeout_policy
    approval_policy = (
        WaitForever()
        if timeout is None
        else policy_from_mapping(timeout, source=source, key_prefix="approvals.timeout_policy")
    )
    return LoadedConfig(
        source=source,
        base_dir=base,
        settings=settings,
        org=org,
        decide=decide,
        policy=policy,
        approval_policy=approval_policy,
    )


def _deep_merged(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """``override`` on top of ``base``, mapping by mapping: a task type that sets only
    ``numeric.conflict_gap`` keeps the company's ``numeric.major_gap``."""
    merged = dict(base)
    for key, value in override.items():
        below = merged.get(key)
        if isinstance(value, Mapping) and isinstance(below, Mapping):
            merged[key] = _deep_merged(below, value)
        else:
            merged[key] = value
    return merged


def policy_settings(settings: Settings, *, source: str) -> ResolutionPolicy:
    """The ``conflict_resolution`` section, the one source of what runs after tier 1.

    The deprecated ``classification.chains`` is still read as ``conflict_resolution.chains``
    (a ``DeprecationWarning`` and a ``config.deprecated_key`` log line name the new key);
    setting both is refused (``config.duplicate_key``): which one to keep is the user's call.
    """
    policy = ResolutionPolicy.from_mapping(settings.conflict_resolution, source=source)
    legacy = settings.classification or {}
    if "chains" not in legacy:
        return policy
    if "chains" in (settings.conflict_resolution or {}):
        raise config_error(
            source,
            DEPRECATED_CHAINS_KEY,
            f"{DEPRECATED_CHAINS_KEY} is deprecated and {CHAINS_KEY} is also set: keep only "
            f"{CHAINS_KEY}",
            code="config.duplicate_key",
        )
    message = (
        f"{source}: {DEPRECATED_CHAINS_KEY} is deprecated and will be removed in the next "
        f"release; move it to {CHAINS_KEY} (same format)"
    )
    warnings.warn(message, DeprecationWarning, stacklevel=2)
    log.warning(
        "config.deprecated_key",
        file=source,
        key=DEPRECATED_CHAINS_KEY,
        replacement=CHAINS_KEY,
    )
    chains = ChainOverrides.from_mapping(
        legacy["chains"], source=source, key_prefix="classification"
    )
    return ResolutionPolicy(
        company=policy.company,
        departments=policy.departments,
        conflict_types=policy.conflict_types,
        chains=chains,
    )


def decide_settings(
    settings: Settings, *, source: str, policy: ResolutionPolicy | None = None
) -> TriageSettings:
    """The settle section read through the conflicts room's own strict readers; the decision
    table's chains come from the policy (:func:`policy_settings` unless given)."""
    if policy is None:
        policy = policy_settings(settings, source=source)
    settle = settings.settle
    detection = DetectionSettings.from_mapping(
        settle.detection, source=source, key_prefix="settle.detection"
    )
    by_task = {
        name: DetectionSettings.from_mapping(
            _deep_merged(settle.detection, task.detection),
            source=source,
            key_prefix=key_path("settle", ["task_types", name, "detection"]),
        )
        for name, task in settle.task_types.items()
    }
    classification = {
        key: value for key, value in (settings.classification or {}).items() if key != "chains"
    }
    table = DecisionTable.from_mapping(
        classification, source=source, key_prefix="classification"
    ).with_chains(policy.chains)
    ladder = LadderSettings(**settle.ladder.model_dump())
    return TriageSettings(
        detection=detection,
        detection_by_task=by_task,
        table=table,
        ladder=ladder,
        allow_unknown_agents=settle.allow_unknown_agents,
    )
