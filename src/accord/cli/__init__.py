"""The ``accord`` command line (Typer + Rich)."""

__all__: list[str] = []
