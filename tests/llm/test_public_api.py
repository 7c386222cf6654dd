from __future__ import annotations

import accord.errors
import accord.llm


def test_the_llm_room_exports_exactly_its_public_names_in_sorted_order() -> None:
    assert accord.llm.__all__ == [
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


def test_every_exported_callable_has_a_docstring() -> None:
    for name in accord.llm.__all__:
        value = getattr(accord.llm, name)
        if callable(value) and name != "Sleep":
            assert value.__doc__, name


def test_every_model_error_has_its_own_stable_llm_code() -> None:
    errors = [
        getattr(accord.llm, name)
        for name in accord.llm.__all__
        if isinstance(getattr(accord.llm, name), type)
        and issubclass(getattr(accord.llm, name), accord.llm.ModelError)
    ]
    codes = [error.code for error in errors]
    assert len(errors) == 9
    assert len(set(codes)) == len(codes)
    assert all(code.startswith("llm.") for code in codes)
    assert all(issubclass(error, accord.errors.AccordError) for error in errors)


def test_the_llm_room_imports_nothing_of_accord_but_errors() -> None:
    import ast
    from pathlib import Path

    room = Path(accord.llm.__file__).parent
    for source in room.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.module.startswith("accord")
            ):
                assert node.module == "accord.errors" or node.module.startswith("accord.llm"), (
                    f"{source.name} imports {node.module}"
                )
