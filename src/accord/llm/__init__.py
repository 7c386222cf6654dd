"""The llm room: the ``LanguageModel`` protocol, providers, the scripted model, judge prompts
and token accounting.

Every call has a hard token cap, a timeout, and is counted; answers asked for as JSON come
back parsed and validated, or as a ``ModelError`` with a stable code.
"""

from accord.llm.anthropic import AnthropicModel
from accord.llm.argument import build_argument_request
from accord.llm.budget import BudgetedModel, TokenBudget
from accord.llm.errors import (
    ModelBadOutput,
    ModelConfigError,
    ModelError,
    ModelHTTPError,
    ModelOverCap,
    ModelRateLimited,
    ModelScriptExhausted,
    ModelTimeout,
    ModelUnreachable,
)
from accord.llm.judge import (
    JudgeVerdict,
    ask_judge,
    build_judge_request,
    parse_verdict,
    verdict_schema,
)
from accord.llm.messages import Message, ModelRequest, ModelResponse, TokenUsage
from accord.llm.metering import CaseUsage, MeteredModel, UsageMeter
from accord.llm.openai_compatible import OpenAICompatibleModel
from accord.llm.protocol import LanguageModel
from accord.llm.retry import RetryPolicy, Sleep
from accord.llm.scripted import ScriptedModel
from accord.llm.settings import ModelSettings, build_model
from accord.llm.swap import SwapVerdict, judge_with_swap
from accord.llm.sync import complete_sync

__all__ = [
    "AnthropicModel",
    "BudgetedModel",
    "CaseUsage",
    "JudgeVerdict",
    "LanguageModel",
    "Message",
    "MeteredModel",
    "ModelBadOutput",
    "ModelConfigError",
    "ModelError",
    "ModelHTTPError",
    "ModelOverCap",
    "ModelRateLimited",
    "ModelRequest",
    "ModelResponse",
    "ModelScriptExhausted",
    "ModelSettings",
    "ModelTimeout",
    "ModelUnreachable",
    "OpenAICompatibleModel",
    "RetryPolicy",
    "ScriptedModel",
    "Sleep",
    "SwapVerdict",
    "TokenBudget",
    "TokenUsage",
    "UsageMeter",
    "ask_judge",
    "build_argument_request",
    "build_judge_request",
    "build_model",
    "complete_sync",
    "judge_with_swap",
    "parse_verdict",
    "verdict_schema",
]
