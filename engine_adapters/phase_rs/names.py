"""The case format's words and phase.rs's words for the same things: steps, colors, mana, counters."""

from __future__ import annotations

import re
from typing import Any

ENGINE_STEPS = {
    "untap": "Untap", "upkeep": "Upkeep", "draw": "Draw", "precombat-main": "PreCombatMain",
    "beginning-of-combat": "BeginCombat", "declare-attackers": "DeclareAttackers",
    "declare-blockers": "DeclareBlockers", "combat-damage": "CombatDamage", "end-of-combat": "EndCombat",
    "postcombat-main": "PostCombatMain", "end": "End", "cleanup": "Cleanup",
}
#: phase.rs has one combat damage step; with first strike it happens twice (rule 510.4).
CASE_STEPS = {engine: case for case, engine in ENGINE_STEPS.items()}

ENGINE_COLORS = {"W": "White", "U": "Blue", "B": "Black", "R": "Red", "G": "Green"}
CASE_COLORS = {engine: case for case, engine in ENGINE_COLORS.items()}
ENGINE_MANA = {**ENGINE_COLORS, "C": "Colorless"}
CASE_MANA = {engine: case for case, engine in ENGINE_MANA.items()}
COLOR_ORDER = "WUBRG"

ENGINE_COUNTERS = {"+1/+1": "P1P1", "-1/-1": "M1M1"}
CASE_COUNTERS = {engine: case for case, engine in ENGINE_COUNTERS.items()}

ENGINE_DAY_NIGHT = {"neither": None, "day": "Day", "night": "Night"}
CASE_DAY_NIGHT = {None: "neither", "Day": "day", "Night": "night"}

_SYMBOL = re.compile(r"\{([WUBRGC])\}")


def mana_symbols(text: str) -> list[str]:
    """'{G}{G}' -> ['G', 'G']."""
    return _SYMBOL.findall(text or "")


def deck_name(card: dict[str, Any]) -> str:
    """The name phase.rs knows a card by in a deck list and on its objects: the front face's name."""
    return card["faces"][0]["name"]


def case_colors(engine_colors: list[str]) -> list[str]:
    have = {CASE_COLORS.get(c) for c in engine_colors}
    return [c for c in COLOR_ORDER if c in have]


def case_counter(kind: str) -> str:
    return CASE_COUNTERS.get(kind, kind.lower())
