"""The framework an adapter needs, at a version it supports, or a clear error naming both."""

from __future__ import annotations

from importlib import metadata

from accord.errors import AccordError


def _release(version: str) -> tuple[int, ...]:
    parts: list[int] = []
    for piece in version.split("."):
        digits = "".join(ch for ch in piece if ch.isdigit()) if piece[:1].isdigit() else ""
        if not digits:
            break
        parts.append(int(digits))
        if not piece.isdigit():  # 2rc1: the release stops here
            break
    return tuple(parts)


def require_framework(distribution: str, *, minimum: str, below: str, extra: str) -> str:
    """The installed version of ``distribution``; ``integrations.missing_extra`` when it is
    not installed, ``integrations.unsupported_version`` outside ``[minimum, below)``."""
    try:
        installed = metadata.version(distribution)
    except metadata.PackageNotFoundError:
        raise AccordError(
            f"{distribution} is not installed: pip install 'accord[{extra}]'",
            code="integrations.missing_extra",
            distribution=distribution,
            extra=extra,
        ) from None
    supported = f">={minimum},<{below}"
    if not _release(minimum) <= _release(installed) < _release(below):
        raise AccordError(
            f"{distribution} {installed} is installed; Accord's {extra} adapter supports "
            f"{distribution}{supported}: pip install 'accord[{extra}]'",
            code="integrations.unsupported_version",
            distribution=distribution,
            installed=installed,
            supported=supported,
        )
    return installed
