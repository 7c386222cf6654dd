"""The composition root: the :class:`Accord` facade and the wiring that builds its parts."""

from accord.app.facade import Accord
from accord.app.wiring import PASSPHRASE_ENV, AccordParts, WiringOptions, wire

__all__ = ["PASSPHRASE_ENV", "Accord", "AccordParts", "WiringOptions", "wire"]
