"""An object's loyalty (rule 306.5): a characteristic only planeswalkers have (306.5). A planeswalker
on the battlefield has as much loyalty as it has loyalty counters (306.5c); anywhere else, its
printed loyalty (306.5a)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reference_engine.layers import characteristics
from reference_engine.model import GameObject, Zone

if TYPE_CHECKING:
    from reference_engine.state import GameState


def loyalty(state: GameState, obj: GameObject) -> int | None:
    """The object's loyalty now, or None for an object that has none (not a planeswalker)."""
    chars = characteristics(state, obj)
    if "Planeswalker" not in chars.types:
        return None
    if obj.zone is Zone.BATTLEFIELD:
        return obj.counters.get("loyalty", 0)
    return chars.loyalty
