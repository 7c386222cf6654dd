"""Adapters that put Accord inside agent frameworks: ``accord.integrations.langgraph``.

Each adapter is its own module, imported on purpose; importing ``accord`` (or this package)
imports no framework. An adapter checks its framework's installed version when it is imported
and names the installed and supported versions when they do not fit
(``integrations.unsupported_version``), or the extra to install when the framework is missing
(``integrations.missing_extra``).
"""

from accord.integrations.versions import require_framework

__all__ = ["require_framework"]
