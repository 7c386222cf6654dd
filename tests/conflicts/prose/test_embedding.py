"""The local semantic layer: thresholds on cosine similarity, asked only where facts cannot
tell; and the bundled all-MiniLM-L6-v2 model from the accord[semantic] extra."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from accord.conflicts import (
    DetectionSettings,
    EmbeddingComparator,
    Position,
    SemanticLayers,
    detect,
)

from ._reading import compare


class Table:
    """An encoder that looks vectors up (and counts the texts it was asked for)."""

    def __init__(self, vectors: dict[str, list[float]]) -> None:
        self.vectors = vectors
        self.asked: list[str] = []

    def __call__(self, texts: Sequence[str]) -> list[list[float]]:
        self.asked.extend(texts)
        return [self.vectors[text] for text in texts]


ENCODER = Table({"a": [1.0, 0.0], "a'": [0.9, 0.1], "b": [0.0, 1.0], "c": [0.6, 0.8]})


@pytest.mark.parametrize(("other", "answer"), [("a'", True), ("b", False), ("c", None)])
def test_similar_texts_agree_dissimilar_ones_differ_and_the_middle_cannot_tell(
    other: str, answer: bool | None
) -> None:
    assert EmbeddingComparator(ENCODER).equivalent("a", other) is answer


def test_each_text_is_embedded_once() -> None:
    encoder = Table(dict(ENCODER.vectors))
    comparator = EmbeddingComparator(encoder)
    comparator.equivalent("a", "b")
    comparator.equivalent("b", "a'")
    assert encoder.asked == ["a", "b", "a'"]


def test_thresholds_must_be_ordered() -> None:
    with pytest.raises(ValueError, match="differ_below <= agree_above"):
        EmbeddingComparator(ENCODER, agree_above=0.3, differ_below=0.6)


class Undecided:
    name = "undecided"

    def equivalent(self, a: str, b: str, *, question: str | None = None) -> bool | None:
        return None


def test_layers_ask_the_next_comparator_only_when_one_cannot_tell() -> None:
    layers = SemanticLayers([Undecided(), EmbeddingComparator(ENCODER)])
    assert layers.name == "undecided then embedding"
    assert layers.equivalent("a", "a'") is True
    assert SemanticLayers([Undecided()]).equivalent("a", "b") is None


@pytest.fixture(scope="module")
def bundled() -> EmbeddingComparator:
    return EmbeddingComparator.bundled()


def test_the_bundled_model_tells_a_paraphrase_from_another_cause(
    bundled: EmbeddingComparator,
) -> None:
    cause = "A cold cache after every deploy slows checkout down."
    same = "Checkout is slow because the cache starts cold after each deploy."
    other = "The payment provider had a regional outage and dropped the callbacks."
    assert bundled.similarity(cause, same) > bundled.similarity(cause, other)
    assert bundled.equivalent(cause, same) is True
    assert bundled.equivalent(cause, other) is False


def test_the_bundled_model_decides_only_what_facts_cannot(bundled: EmbeddingComparator) -> None:
    # negation fools embeddings (they score ~0.9) — the facts decide those first
    assert compare("Approve the renewal.", "Do not approve the renewal.").has_conflict
    cause = "A cold cache after every deploy slows checkout down."
    same = "Checkout is slow because the cache starts cold after each deploy."
    without_model = compare(cause, same)
    assert without_model.has_conflict  # facts cannot tell, and no layer was given:
    assert not without_model.comparable  # not comparable, never a silent contradiction
    decided = detect(
        [Position(agent="a", output=cause), Position(agent="b", output=same)],
        DetectionSettings(),
        bundled,
    )
    assert not decided.has_conflict
    assert decided.prose is not None
    assert decided.prose.decided_by == "semantic"
