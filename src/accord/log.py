"""How the library logs: structlog's key=value events handed to the standard ``logging``
module (loggers named ``accord.*``).

The library never configures logging and never writes to stdout: it only adds the
``NullHandler`` the logging documentation asks libraries for, so an application that has not
configured logging sees nothing. The application (the CLI: ``cli/logging_setup.py``) decides
where records go. Independent of ``structlog.configure``: a host's structlog set-up neither
breaks nor redirects these loggers.
"""

from __future__ import annotations

import logging
import sys
import time
from typing import cast

import structlog

ROOT = "accord"
logging.getLogger(ROOT).addHandler(logging.NullHandler())


def get_logger(name: str) -> structlog.stdlib.BoundLogger:
    """A structlog logger writing to ``logging.getLogger(name)``; ``name`` starts with
    ``accord``. Disabled levels cost one ``isEnabledFor`` check."""
    logger = structlog.wrap_logger(
        logging.getLogger(name),
        wrapper_class=structlog.stdlib.BoundLogger,
        processors=[
            structlog.stdlib.filter_by_level,
            structlog.contextvars.merge_contextvars,  # e.g. the service's request_id
            structlog.processors.KeyValueRenderer(
                key_order=["event", "request_id"], sort_keys=True, drop_missing=True
            ),
        ],
        cache_logger_on_first_use=True,
    )
    return cast(structlog.stdlib.BoundLogger, logger)


class _CurrentStderr:
    """Writes to whatever ``sys.stderr`` is now (test runners swap and close streams)."""

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()


_FORMATTER = logging.Formatter("%(asctime)s level=%(levelname)s %(message)s", "%Y-%m-%dT%H:%M:%SZ")
_FORMATTER.converter = time.gmtime
_STDERR = logging.StreamHandler(_CurrentStderr())
_STDERR.setFormatter(_FORMATTER)


def log_to_stderr(level: int) -> None:
    """For applications (the CLI, the service) — never called by the library itself: send
    ``accord.*`` records at ``level`` and above to stderr as ``timestamp level=… event=…``."""
    logger = logging.getLogger(ROOT)
    logger.setLevel(level)
    if _STDERR not in logger.handlers:  # idempotent: the CLI's callback runs per command
        logger.addHandler(_STDERR)
