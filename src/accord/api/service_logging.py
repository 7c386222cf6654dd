"""Logs of a serving process: the library's ``accord.*`` records as key=value lines on
stderr, each carrying the request id of the request it happened in (structlog context
variables bound by ``request_context``, merged by ``accord.log``)."""

from __future__ import annotations

import logging

from accord.log import log_to_stderr


def configure_service_logging(level: int = logging.INFO) -> None:
    """``accord.*`` at ``level`` and above to stderr."""
    log_to_stderr(level)
