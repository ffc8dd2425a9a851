"""Linked abilities (rule 607) that exile cards: 'exile target creature' and 'the exiled card' /
'a card exiled with [this]'. The cards are linked to the object whose ability exiled them, by its id:
a copy of that object has its own link (707.7), and an object that changes zones is a new object
with none (400.7). A card that leaves exile is a new object too, no longer 'exiled with' anything."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reference_engine import ops
from reference_engine.effects import Ctx, effect, objects
from reference_engine.model import GameObject, Zone
from reference_engine.triggers import matcher

if TYPE_CHECKING:
    from reference_engine.game import Game


def exiled_with(game: Game, source_id: int | None) -> list[GameObject]:
    """The cards exiled with the object `source_id` that are still in exile (607.2a)."""
    state = game.state
    ids = state.linked.get(source_id, []) if source_id is not None else []
    return [state.objects[i] for i in ids if i in state.objects and state.objects[i].zone is Zone.EXILE]


@effect("exile_linked")
def _exile_linked(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """'Exile [it]', linked to the ability's source: other abilities of that object refer to the card
    as 'the exiled card' (`exiled_with_self`). With `others_to_graveyard`: 'If you do, return each other
    card exiled with this artifact to its owner's graveyard' (Mimic Vat)."""
    if ctx.source_id is None:
        return
    earlier = exiled_with(game, ctx.source_id) if params.get("others_to_graveyard") else []
    made = []
    for obj in objects(game, ctx, params["what"]):
        if obj.zone is not Zone.EXILE:
            made.append(ops.move(game, obj, Zone.EXILE).id)
    game.state.linked.setdefault(ctx.source_id, []).extend(made)
    if made:
        for card in earlier:
            ops.move(game, card, Zone.GRAVEYARD)
    ctx.memory["it"] = made


@matcher("leaves_battlefield", "leaves")
def _leaves_battlefield(game: Game, event, value, source) -> bool:
    """'When this creature leaves the battlefield' (self), judged looking back in time (603.10a)."""
    return event.data["from"] == Zone.BATTLEFIELD and value == "self" and event.data["uid"] == source.uid
