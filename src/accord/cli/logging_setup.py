"""Structured logs for the command line: JSON-ish key=value events on stderr, never stdout."""

from __future__ import annotations

import logging
import sys

import structlog


class _CurrentStderr:
    """Writes to whatever ``sys.stderr`` is now (test runners swap and close streams)."""

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()


def configure_logging(verbose: bool) -> None:
    """Warnings and errors by default (info with ``-v``), always to stderr."""
    structlog.configure(
        wrapper_class=structlog.make_filtering_bound_logger(
            logging.INFO if verbose else logging.WARNING
        ),
        logger_factory=structlog.PrintLoggerFactory(file=_CurrentStderr()),  # type: ignore[arg-type]
        processors=[
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.KeyValueRenderer(key_order=["timestamp", "level", "event"]),
        ],
        cache_logger_on_first_use=False,
    )
