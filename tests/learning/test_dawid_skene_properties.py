from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.learning import LabelMatrix, fit_dawid_skene

Triple = tuple[str, str, str]


@st.composite
def crowds(draw: st.DrawFn) -> tuple[list[Triple], int]:
    """Small random crowds: up to 8 items, 5 workers, 2–4 classes named ``a``, ``b``, …"""
    k = draw(st.integers(min_value=2, max_value=4))
    answers = draw(
        st.lists(
            st.tuples(
                st.integers(0, 7).map(lambda i: f"q{i}"),
                st.integers(0, 4).map(lambda w: f"w{w}"),
                st.integers(0, k - 1).map(lambda c: "abcd"[c]),
            ),
            min_size=1,
            max_size=30,
        )
    )
    return answers, k


@settings(max_examples=150, deadline=None)
@given(crowds())
def test_posteriors_are_probability_rows(crowd: tuple[list[Triple], int]) -> None:
    triples, k = crowd
    fit = fit_dawid_skene(LabelMatrix.from_triples(triples, classes="abcd"[:k]))
    assert np.all(fit.posteriors >= 0.0)
    assert np.all(fit.posteriors <= 1.0)
    np.testing.assert_allclose(fit.posteriors.sum(axis=1), 1.0, atol=1e-12)
    np.testing.assert_allclose(fit.confusion.sum(axis=2), 1.0, atol=1e-12)
    assert abs(float(np.sum(fit.priors)) - 1.0) < 1e-12


@settings(max_examples=300, deadline=None)
@given(crowds(), st.randoms(use_true_random=False))
def test_relabelling_classes_permutes_the_results_consistently(
    crowd: tuple[list[Triple], int], rnd: random.Random
) -> None:
    triples, k = crowd
    names = list("abcd"[:k])
    renamed = list(names)
    rnd.shuffle(renamed)
    rename = dict(zip(names, renamed, strict=True))
    before = fit_dawid_skene(LabelMatrix.from_triples(triples, classes=names))
    after = fit_dawid_skene(
        LabelMatrix.from_triples([(q, w, rename[c]) for q, w, c in triples], classes=names)
    )
    moved = [names.index(rename[name]) for name in names]
    np.testing.assert_allclose(after.posteriors[:, moved], before.posteriors, atol=1e-7)
    np.testing.assert_allclose(after.priors[moved], before.priors, atol=1e-7)
    np.testing.assert_allclose(after.confusion[:, moved][:, :, moved], before.confusion, atol=1e-7)
    assert abs(after.iterations - before.iterations) <= 1  # the stopping test may round apart
    clear = np.sort(before.posteriors, axis=1)
    decided = clear[:, -1] - clear[:, -2] > 1e-6
    for row, item in enumerate(before.items):
        if decided[row]:
            assert after.labels()[item] == rename[before.labels()[item]]
