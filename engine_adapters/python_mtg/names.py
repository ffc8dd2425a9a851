"""The case format's words and python-mtg's words for the same things: steps, colors, mana, counters."""

from __future__ import annotations

import re

ENGINE_STEPS = {
    "untap": "untap", "upkeep": "upkeep", "draw": "draw", "precombat-main": "precombat_main",
    "beginning-of-combat": "beginning_of_combat", "declare-attackers": "declare_attackers",
    "declare-blockers": "declare_blockers", "combat-damage": "combat_damage", "end-of-combat": "end_of_combat",
    "postcombat-main": "postcombat_main", "end": "end", "cleanup": "cleanup",
}
CASE_STEPS = {engine: case for case, engine in ENGINE_STEPS.items()}

ENGINE_COLORS = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}
CASE_COLORS = {engine: case for case, engine in ENGINE_COLORS.items()}
ENGINE_MANA = {**ENGINE_COLORS, "C": "colorless"}
CASE_MANA = {engine: case for case, engine in ENGINE_MANA.items()}
COLOR_ORDER = "WUBRG"

ENGINE_COUNTERS = {"+1/+1": "p1p1", "-1/-1": "m1m1"}
CASE_COUNTERS = {engine: case for case, engine in ENGINE_COUNTERS.items()}

_SYMBOL = re.compile(r"\{([WUBRGC])\}")


def mana_symbols(text: str) -> list[str]:
    """'{G}{G}' -> ['G', 'G']."""
    return _SYMBOL.findall(text or "")


def case_colors(engine_colors: list[str]) -> list[str]:
    have = {CASE_COLORS.get(c) for c in engine_colors}
    return [c for c in COLOR_ORDER if c in have]


def title(word: str) -> str:
    """python-mtg writes types and keywords in lower case with underscores: 'first_strike' -> 'First strike'."""
    text = str(word).replace("_", " ")
    return text[:1].upper() + text[1:]
