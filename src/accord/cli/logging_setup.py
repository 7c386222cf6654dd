"""Logs for the command line: the library's ``accord.*`` records as ``timestamp level=…
event=…`` lines on stderr, never stdout."""

from __future__ import annotations

import logging

from accord.log import log_to_stderr


def configure_logging(verbose: bool) -> None:
    """Warnings and errors by default (info with ``-v``), always to stderr."""
    log_to_stderr(logging.INFO if verbose else logging.WARNING)
