"""A blocking helper for scripts and CLIs that are not async."""

from __future__ import annotations

import asyncio

from accord.llm.messages import ModelRequest, ModelResponse
from accord.llm.protocol import LanguageModel


def complete_sync(model: LanguageModel, request: ModelRequest) -> ModelResponse:
    """Run ``model.complete(request)`` to completion; inside an event loop, ``await`` instead."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(model.complete(request))
    raise RuntimeError("complete_sync cannot run inside an event loop: await model.complete()")
