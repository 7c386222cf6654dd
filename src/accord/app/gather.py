"""The asyncio fan-out behind ``Accord.settle_gather``: await many agents, keep who answered."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Mapping, Sequence
from typing import Any

from accord.cases.settle import MIN_POSITIONS
from accord.conflicts import Position
from accord.errors import ValidationError
from accord.log import get_logger

log = get_logger("accord")

FanOut = Mapping[str, Awaitable[Any]] | Sequence[Awaitable[Any]]


async def gather_positions(
    fan_out: FanOut, *, timeout: float | None
) -> list[Position | Mapping[str, Any]]:
    """The positions of the agents of ``fan_out`` that answered within ``timeout`` seconds.

    ``fan_out`` maps agent → awaitable (each may return a :class:`Position`, a position
    mapping, or a bare output, named by its key), or is a list of awaitables (each must then
    return a Position or a mapping with ``agent``). Agents that raise or time out (cancelled)
    are left out and logged; fewer than ``MIN_POSITIONS`` answers is
    ``settle.too_few_answers``.
    """
    if isinstance(fan_out, Mapping):
        named: list[tuple[str | None, Awaitable[Any]]] = list(fan_out.items())
    elif isinstance(fan_out, Sequence) and not isinstance(fan_out, str | bytes):
        named = [(None, awaitable) for awaitable in fan_out]
    else:
        raise ValidationError(
            "fan_out must map agents to awaitables, or be a list of awaitables",
            code="settle.bad_fan_out",
            field="fan_out",
            rule="a mapping agent -> awaitable, or a list of awaitables",
        )
    results = await _gather_within(
        [awaitable for _, awaitable in named], timeout, [a for a, _ in named]
    )
    positions: list[Position | Mapping[str, Any]] = []
    for index, ((agent, _), result) in enumerate(zip(named, results, strict=True)):
        if isinstance(result, BaseException):
            where = agent if agent is not None else f"fan_out[{index}]"
            log.warning("settle_gather.agent_failed", agent=where, error=repr(result))
            continue
        positions.append(_gathered_position(agent, index, result))
    if len(positions) < MIN_POSITIONS:
        raise ValidationError(
            f"too few answers: {len(positions)} of {len(named)} agents of the fan-out "
            f"answered; settling needs at least {MIN_POSITIONS} (nothing was signed)",
            code="settle.too_few_answers",
            field="fan_out",
            rule=f"at least {MIN_POSITIONS} agents must answer",
            answered=len(positions),
            asked=len(named),
        )
    return positions


async def _gather_within(
    awaitables: list[Awaitable[Any]], timeout: float | None, agents: list[str | None]
) -> list[Any]:
    """Each awaitable's result or exception; those unfinished after ``timeout`` are cancelled
    and reported as ``TimeoutError``."""
    tasks = [asyncio.ensure_future(a) for a in awaitables]
    if not tasks:
        return []
    try:
        done, pending = await asyncio.wait(tasks, timeout=timeout)
    except asyncio.CancelledError:  # the caller gave up: so do the agents, as with gather
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
    for task in pending:
        task.cancel()
    if pending:
        await asyncio.gather(*pending, return_exceptions=True)
    out: list[Any] = []
    for agent, task in zip(agents, tasks, strict=True):
        if task not in done:
            out.append(TimeoutError(f"{agent or 'agent'} did not answer within {timeout} s"))
        elif task.cancelled():  # an agent cancelled itself: left out like one that failed
            out.append(asyncio.CancelledError(f"{agent or 'agent'} was cancelled"))
        else:
            error = task.exception()
            out.append(error if error is not None else task.result())
    return out


def _gathered_position(agent: str | None, index: int, result: Any) -> Position | Mapping[str, Any]:
    """One fan-out result as a position; its agent must agree with the mapping key."""
    if isinstance(result, Position):
        named_as = result.agent
    elif isinstance(result, Mapping) and "output" in result:
        named_as = result.get("agent", agent)
    elif agent is not None:
        return {"agent": agent, "output": result}
    else:
        raise ValidationError(
            f"fan_out[{index}] returned a bare output: with a list, return a Position or a "
            "mapping with agent and output",
            code="settle.bad_fan_out",
            field=f"fan_out[{index}]",
            rule="a Position or a mapping with agent and output",
        )
    if agent is not None and named_as != agent:
        raise ValidationError(
            f"fan_out[{agent!r}] returned a position for {named_as!r}",
            code="settle.bad_fan_out",
            field=f"fan_out[{agent!r}]",
            rule="the position's agent is the key it was returned under",
        )
    if isinstance(result, Position):
        return result
    return {**result, "agent": named_as}
