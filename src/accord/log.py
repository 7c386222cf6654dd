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
            structlog.processors.KeyValueRenderer(key_order=["event"], sort_keys=True),
        ],
        cache_logger_on_first_use=True,
    )
    return cast(structlog.stdlib.BoundLogger, logger)
