"""Logs of a serving process: key=value events on stderr, each carrying the request id of
the request it happened in (structlog context variables bound by ``request_context``)."""

from __future__ import annotations

import logging
import sys

import structlog


class _CurrentStderr:
    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()


def configure_service_logging(level: int = logging.INFO) -> None:
    structlog.configure(
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(file=_CurrentStderr()),  # type: ignore[arg-type]
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.KeyValueRenderer(
                key_order=["timestamp", "level", "event", "request_id"]
            ),
        ],
        cache_logger_on_first_use=False,
    )
