"""python-mtg's words for the case format's steps, colors, mana and counters."""

from __future__ import annotations

from engine_adapters import vocabulary
from engine_adapters.vocabulary import inverse, mana_symbols  # noqa: F401  (re-exported)

ENGINE_STEPS = {
    "untap": "untap", "upkeep": "upkeep", "draw": "draw", "precombat-main": "precombat_main",
    "beginning-of-combat": "beginning_of_combat", "declare-attackers": "declare_attackers",
    "declare-blockers": "declare_blockers", "combat-damage": "combat_damage", "end-of-combat": "end_of_combat",
    "postcombat-main": "postcombat_main", "end": "end", "cleanup": "cleanup",
}
ENGINE_COLORS = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}
ENGINE_MANA = {**ENGINE_COLORS, "C": "colorless"}
ENGINE_COUNTERS = {"+1/+1": "p1p1", "-1/-1": "m1m1"}

CASE_STEPS, CASE_COLORS, CASE_MANA = inverse(ENGINE_STEPS), inverse(ENGINE_COLORS), inverse(ENGINE_MANA)
CASE_COUNTERS = inverse(ENGINE_COUNTERS)


def case_colors(engine_colors: list[str]) -> list[str]:
    return vocabulary.case_colors(engine_colors, CASE_COLORS)


def title(word: str) -> str:
    """python-mtg writes types and keywords in lower case with underscores: 'first_strike' -> 'First strike'."""
    text = str(word).replace("_", " ")
    return text[:1].upper() + text[1:]
