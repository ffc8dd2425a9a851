"""Prevention effects (rule 615): 'prevent all [combat] damage that would be dealt [this turn] by ...'.

A prevention effect from a resolved spell or ability watches damage events for as long as it lasts;
it is not a characteristic of any object. Which sources it covers is decided as each damage event
would happen, from the source's characteristics then: the set of creatures is not locked in as the
effect begins (rule 611.2c applies only to effects that change objects' characteristics).
Prevented damage is never dealt, so nothing that triggers on it triggers (603.2g).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reference_engine.filters import FilterContext, matches
from reference_engine.model import Target


@dataclass(eq=False)
class PreventionEffect:
    """`source`: a filter on the source of the damage; `combat_only`: only combat damage."""

    source: dict[str, Any]
    combat_only: bool
    controller: str
    timestamp: int
    duration: str = "end_of_turn"  # end_of_turn | permanent


def add(game, effect: PreventionEffect) -> None:
    game.state.prevention.append(effect)


def prevents(game, source, target: Target, amount: int, *, combat: bool) -> bool:
    """True if some prevention effect prevents all of this damage (615.1a)."""
    state = game.state
    for effect in state.prevention:
        if effect.combat_only and not combat:
            continue
        obj = state.objects.get(source.object_id) if source.object_id is not None else None
        if matches(state, obj, effect.source, FilterContext(effect.controller), chars=source.chars):  # type: ignore[arg-type]
            return True
    return False


def end_of_turn(game) -> None:
    """Rule 514.2: 'this turn' prevention effects end in the cleanup step."""
    state = game.state
    state.prevention = [e for e in state.prevention if e.duration != "end_of_turn"]
