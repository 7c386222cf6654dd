"""Logs for the command line: the library's ``accord.*`` records as ``timestamp level=…
event=…`` lines on stderr, never stdout."""

from __future__ import annotations

import logging
import sys
import time

from accord.log import ROOT


class _CurrentStderr:
    """Writes to whatever ``sys.stderr`` is now (test runners swap and close streams)."""

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()


_FORMATTER = logging.Formatter("%(asctime)s level=%(levelname)s %(message)s", "%Y-%m-%dT%H:%M:%SZ")
_FORMATTER.converter = time.gmtime
_HANDLER = logging.StreamHandler(_CurrentStderr())
_HANDLER.setFormatter(_FORMATTER)


def configure_logging(verbose: bool) -> None:
    """Warnings and errors by default (info with ``-v``), always to stderr."""
    logger = logging.getLogger(ROOT)
    logger.setLevel(logging.INFO if verbose else logging.WARNING)
    if _HANDLER not in logger.handlers:  # the CLI's callback runs once per command
        logger.addHandler(_HANDLER)
