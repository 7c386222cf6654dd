"""The one extension point of the llm room: a ``LanguageModel`` answers a ``ModelRequest``."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from accord.llm.messages import ModelRequest, ModelResponse


@runtime_checkable
class LanguageModel(Protocol):
    """Anything that completes a request, async.

    Contract for every implementation: pass ``max_tokens`` to the provider as the hard
    limit; raise ``ModelOverCap`` when the answer used more; with ``json_schema`` return
    ``parsed`` valid against it or raise ``ModelBadOutput``; raise only ``ModelError``.
    """

    name: str

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """Answer one request."""
        ...
