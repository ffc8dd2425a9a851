"""Abilities that trigger on damage being dealt to their source: "whenever this creature is dealt
damage" (enrage). Damage prevented is not dealt and triggers nothing (603.2g)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reference_engine.triggers import matcher

if TYPE_CHECKING:
    from reference_engine.game import Game


@matcher("dealt_damage", "damage")
def _dealt_damage(game: Game, event, value, source) -> bool:
    """`dealt_damage: self`: the damage event's target is this permanent."""
    target = event.data["target"]
    return value == "self" and target.kind == "object" and target.object_id == source.id
