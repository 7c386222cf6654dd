"""The composition root: the ``Accord`` facade."""

from accord.app.facade import PASSPHRASE_ENV, Accord

__all__ = ["PASSPHRASE_ENV", "Accord"]
