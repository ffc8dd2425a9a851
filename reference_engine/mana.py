"""Mana symbols, mana costs, mana pools and paying a cost from a pool (rules 106, 107.4, 202, 601.2h)."""

from __future__ import annotations

import re
from collections import Counter
from typing import Iterable

from engine_kit.values import value_class

COLORS = ("W", "U", "B", "R", "G")
MANA_TYPES = COLORS + ("C",)
GENERIC_ORDER = ("C",) + COLORS  # generic mana is paid with colorless mana first, then colors in WUBRG order
_SYMBOL = re.compile(r"\{([^}]+)\}")


@value_class
class ManaCost:
    """A parsed mana cost. `symbols` keeps each symbol as written inside its braces."""

    symbols: tuple[str, ...]

    @classmethod
    def parse(cls, text: str | None) -> "ManaCost | None":
        if text is None:
            return None
        symbols = tuple(_SYMBOL.findall(text))
        if "".join(f"{{{s}}}" for s in symbols) != text:
            raise ValueError(f"not a mana cost: {text!r}")
        return cls(symbols)

    def __str__(self) -> str:
        return "".join(f"{{{s}}}" for s in self.symbols)

    @property
    def x_count(self) -> int:
        return self.symbols.count("X")

    def mana_value(self, x: int = 0) -> int:
        """Rule 202.3: generic numbers count, each other symbol counts one, X counts its value."""
        total = 0
        for symbol in self.symbols:
            if symbol.isdigit():
                total += int(symbol)
            elif symbol == "X":
                total += x
            elif "/" in symbol and symbol.split("/")[0].isdigit():
                total += int(symbol.split("/")[0])  # {2/W}
            else:
                total += 1
        return total

    def colors(self) -> frozenset[str]:
        return frozenset(ch for s in self.symbols for ch in s if ch in COLORS)

    def with_x(self, x: int) -> "ManaCost":
        """The cost to pay once X is chosen: each {X} becomes generic mana."""
        out = []
        generic = 0
        for symbol in self.symbols:
            if symbol == "X":
                generic += x
            elif symbol.isdigit():
                generic += int(symbol)
            else:
                out.append(symbol)
        return ManaCost(((str(generic),) if generic else ()) + tuple(out))


class Counts(Counter):
    """A Counter held by a game object or player (counters, mana pools), made and saved often: every
    object and player starts with empty ones, and every saved state holds them all. Counter builds
    itself and pickles itself in Python code; this one starts empty without a call and pickles as the
    dict it is, in C. Otherwise a Counter."""

    # Made from a mapping of counts, or empty: dict's own __init__ then does what Counter's does, in C.
    __init__ = dict.__init__  # type: ignore[assignment]

    __reduce__ = object.__reduce__  # type: ignore[assignment]


#: No mana: compared and subtracted, never changed.
NO_MANA: Counter[str] = Counts()


def positive(counts: Counter[str]) -> Counter[str]:
    """The kinds with a positive count (what Counter's unary + gives, without its Python-level loop)."""
    return Counts({kind: n for kind, n in counts.items() if n > 0})


def mana_symbols_in(text: str) -> frozenset[str]:
    """Colors of the mana symbols appearing in rules text (for color identity, rule 903.4)."""
    return frozenset(ch for s in _SYMBOL.findall(text) for ch in s if ch in COLORS)


def parse_mana(text: str) -> Counter[str]:
    """'{G}{G}{C}' -> Counter({'G': 2, 'C': 1}); only single mana types are allowed."""
    pool: Counter[str] = Counts()
    for symbol in _SYMBOL.findall(text):
        if symbol not in MANA_TYPES:
            raise ValueError(f"not a type of mana: {{{symbol}}}")
        pool[symbol] = pool.get(symbol, 0) + 1
    return pool


def pay(pool: Counter[str], cost: ManaCost) -> Counter[str] | None:
    """The pool left after paying `cost` (X already chosen), or None if it can't be paid.

    Colored and colorless requirements are met first, then hybrid symbols, then generic mana,
    which spends colorless mana first and then colors in WUBRG order, so the result is deterministic.
    """
    left = Counts(pool)
    generic = 0
    hybrids: list[tuple[str, ...]] = []
    for symbol in cost.symbols:
        if symbol.isdigit():
            generic += int(symbol)
        elif symbol in MANA_TYPES:
            if left[symbol] <= 0:
                return None
            left[symbol] -= 1
        elif "/" in symbol:
            hybrids.append(tuple(symbol.split("/")))
        else:
            raise ValueError(f"cannot pay {{{symbol}}}")
    result = _pay_hybrids(left, hybrids, generic)
    if result is None:
        return None
    return positive(result)


def _pay_hybrids(left: Counter[str], hybrids: list[tuple[str, ...]], generic: int) -> Counter[str] | None:
    if not hybrids:
        return _pay_generic(left, generic)
    first, rest = hybrids[0], hybrids[1:]
    for option in first:
        if option.isdigit():
            attempt = _pay_hybrids(left, rest, generic + int(option))
        elif left[option] > 0:
            trial = Counter(left)
            trial[option] -= 1
            attempt = _pay_hybrids(trial, rest, generic)
        else:
            attempt = None
        if attempt is not None:
            return attempt
    return None


def _pay_generic(left: Counter[str], generic: int) -> Counter[str] | None:
    if sum(left.values()) < generic:
        return None
    for mana in GENERIC_ORDER:
        take = min(left.get(mana, 0), generic)
        if take:
            left[mana] -= take
            generic -= take
    return left


def format_pool(pool: Counter[str] | Iterable[str]) -> str:
    counter = pool if isinstance(pool, Counter) else Counter(pool)
    return "".join(f"{{{m}}}" * counter[m] for m in MANA_TYPES if counter[m] > 0)
