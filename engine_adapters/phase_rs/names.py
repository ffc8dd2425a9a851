"""phase.rs's words for the case format's steps, colors, mana, counters and day/night."""

from __future__ import annotations

from typing import Any

from engine_adapters import vocabulary
from engine_adapters.vocabulary import inverse, mana_symbols  # noqa: F401  (re-exported)

#: phase.rs has one combat damage step; with first strike it happens twice (rule 510.4).
ENGINE_STEPS = {
    "untap": "Untap", "upkeep": "Upkeep", "draw": "Draw", "precombat-main": "PreCombatMain",
    "beginning-of-combat": "BeginCombat", "declare-attackers": "DeclareAttackers",
    "declare-blockers": "DeclareBlockers", "combat-damage": "CombatDamage", "end-of-combat": "EndCombat",
    "postcombat-main": "PostCombatMain", "end": "End", "cleanup": "Cleanup",
}
ENGINE_COLORS = {"W": "White", "U": "Blue", "B": "Black", "R": "Red", "G": "Green"}
ENGINE_MANA = {**ENGINE_COLORS, "C": "Colorless"}
ENGINE_COUNTERS = {"+1/+1": "P1P1", "-1/-1": "M1M1"}
ENGINE_DAY_NIGHT = {"neither": None, "day": "Day", "night": "Night"}

CASE_STEPS, CASE_COLORS, CASE_MANA = inverse(ENGINE_STEPS), inverse(ENGINE_COLORS), inverse(ENGINE_MANA)
CASE_COUNTERS, CASE_DAY_NIGHT = inverse(ENGINE_COUNTERS), inverse(ENGINE_DAY_NIGHT)


def deck_name(card: dict[str, Any]) -> str:
    """The name phase.rs knows a card by in a deck list and on its objects: the front face's name."""
    return card["faces"][0]["name"]


def case_colors(engine_colors: list[str]) -> list[str]:
    return vocabulary.case_colors(engine_colors, CASE_COLORS)


def case_counter(kind: str) -> str:
    return CASE_COUNTERS.get(kind, kind.lower())
