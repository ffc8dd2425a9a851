"""Casting spells from the top of a library with a permission from a static ability, and what the
permission gives a spell cast this way (rule 611.3d).

    rule: {cast_from_top_of_library: {filter: <spell filter>, on_enter: [steps]}}
        'You may cast creature spells with power 4 or greater from the top of your library. If you cast
        a creature spell this way, it gains haste until end of turn.' (Thundermane Dragon). The steps
        run as the permanent the spell becomes enters, with it as 'self'; what they grant lasts as long
        as they say, not only while the permission's source is on the battlefield (611.3d, an exception
        to 611.3a-b).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reference_engine.filters import FilterContext, matches
from reference_engine.model import GameObject, Zone
from reference_engine.restrictions import rule_abilities

if TYPE_CHECKING:
    from reference_engine.game import Game
    from reference_engine.model import StackItem
    from reference_engine.moves import Procedure


def library_permission(game: Game, player: str, obj: GameObject) -> tuple[GameObject, dict[str, Any]] | None:
    """(the permanent giving it, the permission) if `player` may cast `obj`, the top card of their
    library, from there; None otherwise."""
    state = game.state
    library = state.zone_ids(Zone.LIBRARY, player)
    if obj.zone is not Zone.LIBRARY or obj.owner != player or not library or library[0] != obj.id:
        return None
    for source, controller, spec in rule_abilities(state, "cast_from_top_of_library"):
        if controller == player and matches(state, obj, spec.get("filter"), FilterContext(controller, source.id)):
            return source, spec
    return None


def as_it_enters_cast_this_way(game: Game, item: StackItem, name: str, new: GameObject) -> Procedure:
    """What the permission the spell was cast with gives the permanent it becomes (611.3d)."""
    from reference_engine import effects

    if not item.permission_on_enter:
        return
    ctx = effects.Ctx(item.controller, new.id, new.uid, name, None, (), (), 0, {}, None, {"it": [new.id]})
    yield from effects.run(game, ctx, list(item.permission_on_enter))
