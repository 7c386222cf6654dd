"""One-coin Dawid–Skene: one accuracy per agent, for items whose answer spaces differ.

Accord's cases each have their own answers (an invoice total, a label, a JSON object), so a
shared K×K confusion matrix does not exist. Each agent is instead right with probability
``p``; when wrong, its answer is one of the item's other observed answers. EM alternates the
posterior over each item's observed answers with each agent's expected accuracy. Every step
is a numpy ``bincount`` over answers — no Python loop over answers or agents.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from accord.errors import ValidationError


@dataclass(frozen=True)
class OneCoinResult:
    """Per-agent accuracy and per-item posteriors over the observed answers."""

    agents: tuple[str, ...]
    accuracy: NDArray[np.float64]
    iterations: int
    converged: bool

    def reliability(self) -> dict[str, float]:
        return {a: float(p) for a, p in zip(self.agents, self.accuracy, strict=True)}


def fit_one_coin(
    votes: Iterable[tuple[str, str, str]],
    *,
    max_iter: int = 100,
    tol: float = 1e-6,
    prior_accuracy: float = 0.7,
    prior_strength: float = 2.0,
) -> OneCoinResult:
    """Fit agent accuracies from ``(item, agent, answer)`` votes (the last vote per pair wins).

    ``prior_accuracy``/``prior_strength`` act as a Beta prior so agents with few answers stay
    near the prior instead of jumping to 0 or 1.
    """
    if not 0.0 < prior_accuracy < 1.0 or prior_strength < 0:
        raise ValidationError(
            "prior_accuracy must lie in (0, 1) and prior_strength >= 0",
            code="learning.bad_prior",
            field="prior_accuracy",
        )
    latest = {(item, agent): answer for item, agent, answer in votes}
    agents = tuple(sorted({agent for _, agent in latest}))
    if not latest:
        return OneCoinResult((), np.zeros(0), 0, True)
    agent_code = {a: i for i, a in enumerate(agents)}
    items: dict[str, int] = {}
    cands: dict[tuple[int, str], int] = {}
    ans_item, ans_agent, ans_cand = [], [], []
    for (item, agent), answer in latest.items():
        i = items.setdefault(item, len(items))
        c = cands.setdefault((i, answer), len(cands))
        ans_item.append(i)
        ans_agent.append(agent_code[agent])
        ans_cand.append(c)
    a_item = np.asarray(ans_item)
    a_agent = np.asarray(ans_agent)
    a_cand = np.asarray(ans_cand)
    n_items, n_agents, n_cands = len(items), len(agents), len(cands)
    cand_item = np.empty(n_cands, dtype=np.int64)
    for (i, _), c in cands.items():
        cand_item[c] = i
    k = np.bincount(cand_item, minlength=n_items)  # observed answers per item
    others = np.maximum(k[a_item] - 1, 1).astype(np.float64)
    answered = np.bincount(a_agent, minlength=n_agents).astype(np.float64)
    p = np.full(n_agents, prior_accuracy)
    converged = False
    iterations = 0
    for iterations in range(1, max_iter + 1):  # noqa: B007 - reported after the loop
        pw = np.clip(p[a_agent], 1e-9, 1 - 1e-9)
        wrong = np.log1p(-pw) - np.log(others)
        base = np.bincount(a_item, weights=wrong, minlength=n_items)
        score = base[cand_item] + np.bincount(a_cand, weights=np.log(pw) - wrong, minlength=n_cands)
        top = np.full(n_items, -np.inf)
        np.maximum.at(top, cand_item, score)
        weight = np.exp(score - top[cand_item])
        post = weight / np.bincount(cand_item, weights=weight, minlength=n_items)[cand_item]
        hits = np.bincount(a_agent, weights=post[a_cand], minlength=n_agents)
        new_p = (hits + prior_strength * prior_accuracy) / (answered + prior_strength)
        delta = float(np.max(np.abs(new_p - p)))
        p = new_p
        if delta < tol:
            converged = True
            break
    return OneCoinResult(agents, p, iterations, converged)
