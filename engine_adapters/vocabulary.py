"""The case format's vocabulary, shared by the adapters' word lists (each engine has its own words)."""

from __future__ import annotations

import re
from typing import Mapping, TypeVar

COLOR_ORDER = "WUBRG"
_SYMBOL = re.compile(r"\{([WUBRGC])\}")

K = TypeVar("K")
V = TypeVar("V")


def inverse(mapping: Mapping[K, V]) -> dict[V, K]:
    """An engine's word for each case word -> the case word for each engine word."""
    return {value: key for key, value in mapping.items()}


def mana_symbols(text: str) -> list[str]:
    """'{G}{G}' -> ['G', 'G']."""
    return _SYMBOL.findall(text or "")


def case_colors(engine_colors, case_color_of: Mapping[str, str]) -> list[str]:
    """An engine's colors as the case format writes them: letters in WUBRG order."""
    have = {case_color_of.get(c) for c in engine_colors}
    return [c for c in COLOR_ORDER if c in have]
