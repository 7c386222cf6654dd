"""Options people choose from: short labels for answers of any length, the full text beside.

An answer rendered in at most :data:`accord.approvals.OPTION_LABEL_MAX_CHARS` characters is
its own option. A longer one (a free-text disagreement) is offered as a label — its number,
its opening words and a digest of the full text, so two long answers that open alike still
differ — while the approval item carries the full text in ``option_texts``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from accord.approvals import OPTION_LABEL_MAX_CHARS

PREVIEW_CHARS = 80
"""How much of a long answer its label shows."""


def option_label(text: str, index: int) -> str:
    """``text`` itself when short enough, else ``option N: <opening>… [sha256:<12 hex>]``."""
    if len(text) <= OPTION_LABEL_MAX_CHARS:
        return text
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    opening = " ".join(text[:PREVIEW_CHARS].split())
    return f"option {index + 1}: {opening}… [sha256:{digest}]"


def labelled(texts: Sequence[str]) -> tuple[str, ...]:
    """A label per text, in order (see :func:`option_label`)."""
    return tuple(option_label(text, index) for index, text in enumerate(texts))
