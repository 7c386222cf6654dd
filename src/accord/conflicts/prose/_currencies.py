"""Currencies by symbol, ISO code or name, from babel's CLDR data (built once, on first use).

``€``, ``EUR``, ``euro`` and ``euros`` are all EUR; ``$`` and ``dollars`` are USD unless the
text says ``CA$``, ``A$`` or ``Canadian dollars``. Names come in English and in the configured
locale's language.
"""

from __future__ import annotations

import threading
from functools import lru_cache

from babel.numbers import get_currency_name, get_currency_symbol, list_currencies

_EXTRA = {
    "$": "USD", "us$": "USD", "usd": "USD", "dollar": "USD", "dollars": "USD", "bucks": "USD",
    "€": "EUR", "eur": "EUR", "euro": "EUR", "euros": "EUR", "£": "GBP", "gbp": "GBP",
    "sterling": "GBP", "pounds sterling": "GBP", "pound sterling": "GBP",
    "¥": "JPY", "yen": "JPY", "₹": "INR", "rupees": "INR", "chf": "CHF",
    "francs": "CHF", "swiss francs": "CHF", "c$": "CAD", "ca$": "CAD", "a$": "AUD",
    "au$": "AUD", "kr": "SEK", "zł": "PLN", "₩": "KRW", "₽": "RUB", "r$": "BRL", "元": "CNY",
}
_COMMON = (
    "USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "INR", "CNY", "SEK", "NOK", "DKK", "PLN",
    "BRL", "MXN", "SGD", "HKD", "NZD", "ZAR", "KRW", "CZK", "HUF", "TRY", "AED", "SAR", "ILS",
)
_lock = threading.Lock()


@lru_cache(maxsize=8)
def currency_names(locale: str) -> dict[str, str]:
    """Lower-cased symbol or name → ISO 4217 code, for English and ``locale`` (codes themselves
    count only in capitals: see :func:`is_code`)."""
    with _lock:
        found: dict[str, str] = {}
        for language in dict.fromkeys(("en", locale)):
            for code in _COMMON:
                for count in (1, 2):
                    name = get_currency_name(code, count, language).lower()
                    found.setdefault(name, code)
                symbol = get_currency_symbol(code, language).lower()
                if symbol != code.lower():
                    found.setdefault(symbol, code)
        found.update(_EXTRA)
        return found


SYMBOLS = frozenset("$€£¥₹₩₽元")
"""Characters that are a currency by themselves."""


@lru_cache(maxsize=1)
def _codes() -> frozenset[str]:
    return frozenset(list_currencies())


def is_code(word: str) -> bool:
    """True for an ISO 4217 code written in capitals (``EUR``; ``eur`` is read as a name)."""
    return len(word) == 3 and word.isupper() and word in _codes()
