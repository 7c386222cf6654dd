"""The ``accord`` command line (Typer + Rich)."""
