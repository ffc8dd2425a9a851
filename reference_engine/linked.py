"""Linked abilities (rule 607) that exile cards: 'exile target creature' and 'the exiled card' /
'a card exiled with [this]'. The cards are linked to the object whose ability exiled them, by its id:
a copy of that object has its own link (707.7), and an object that changes zones is a new object
with none (400.7). A card that leaves exile is a new object too, no longer 'exiled with' anything."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reference_engine import ops
from reference_engine.effects import Ctx, effect, objects, ordered_static
from reference_engine.filters import FilterContext, matches
from reference_engine.model import DecisionKind, GameObject, Zone
from reference_engine.moves import Decision, Procedure
from reference_engine.triggers import matcher

if TYPE_CHECKING:
    from reference_engine.game import Game


def exiled_with(game: Game, source_id: int | None) -> list[GameObject]:
    """The cards exiled with the object `source_id` that are still in exile (607.2a)."""
    state = game.state
    ids = state.linked.get(source_id, []) if source_id is not None else []
    return [state.objects[i] for i in ids if i in state.objects and state.objects[i].zone is Zone.EXILE]


@effect("exile_linked")
def _exile_linked(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """'Exile [it]', linked to the ability's source: other abilities of that object refer to the card
    as 'the exiled card' (`exiled_with_self`). With `others_to_graveyard`: 'If you do, return each other
    card exiled with this artifact to its owner's graveyard' (Mimic Vat). A melded permanent becomes two
    cards exiled with it (712.21c), whose relative timestamp order the exiling player chooses (712.21b)."""
    from reference_engine.meld import choose_exiled_order, found_objects

    if ctx.source_id is None:
        return
    earlier = exiled_with(game, ctx.source_id) if params.get("others_to_graveyard") else []
    made = []
    for obj in objects(game, ctx, params["what"]):
        if obj.zone is not Zone.EXILE:
            found = found_objects(game, ops.move(game, obj, Zone.EXILE))
            if len(found) > 1:
                yield from choose_exiled_order(game, ctx.controller, found)
            made.extend(found)
    game.state.linked.setdefault(ctx.source_id, []).extend(made)
    if made:
        for card in earlier:
            ops.move(game, card, Zone.GRAVEYARD)
    ctx.memory["it"] = made


@matcher("leaves_battlefield", "leaves")
def _leaves_battlefield(game: Game, event, value, source) -> bool:
    """'When this creature leaves the battlefield' (self), judged looking back in time (603.10a)."""
    return event.data["from"] == Zone.BATTLEFIELD and value == "self" and event.data["uid"] == source.uid


def exile_as_enters(game: Game, face, controller: str, entry, spec: dict[str, Any]) -> Procedure:
    """{filter}: 'As this creature enters, exile any number of [creature] cards from your graveyard' (a
    replacement effect on its entering, 614.1c). The cards can't include the object becoming this
    permanent nor any other entering the battlefield at the same time (614.13a). They are exiled now,
    and linked to the permanent it becomes (614.14): `entry.exiled`, linked as it arrives."""
    state = game.state
    ctx = FilterContext(controller)
    options = [i for i in state.zone_ids(Zone.GRAVEYARD, controller)
               if i not in entry.entering and matches(state, state.objects[i], spec.get("filter"), ctx)]
    candidates = [i for i in state.zone_ids(Zone.GRAVEYARD, controller)
                  if matches(state, state.objects[i], spec.get("filter"), ctx)]
    if not candidates:
        return
    decision = Decision(controller, DecisionKind.OBJECTS,
                        f"choose any number of cards to exile from your graveyard as {face.name} enters",
                        {"candidates": options, "min": 0, "max": len(options)})
    while True:
        move = yield decision
        chosen = move.objects
        if chosen is None:
            state.rejection = f"choose the cards to exile as {face.name} enters (none is a choice)"
            continue
        wrong = next((c for c in chosen if c not in options), None)
        if wrong is None and len(set(chosen)) == len(chosen):
            break
        if wrong in entry.entering:
            state.rejection = (f"{_name(game, wrong)} is entering the battlefield at the same time as {face.name}: "
                               "it can't be chosen (rule 614.13a)")
        elif wrong is not None:
            state.rejection = f"{_name(game, wrong)} is not a card in your graveyard {face.name} can exile"
        else:
            state.rejection = "a card can be chosen once"
    entry.exiled = list(entry.exiled or []) + [ops.move(game, state.objects[i], Zone.EXILE).id for i in chosen]


def _name(game: Game, object_id: int | None) -> str:
    from reference_engine.layers import characteristics

    obj = game.state.objects.get(object_id) if object_id is not None else None
    return characteristics(game.state, obj).name if obj is not None else "that"


@effect("return_all_to_battlefield")
def _return_all_to_battlefield(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """{filter, tapped, whose}: 'Each player returns all [creature] cards from their graveyard to the
    battlefield' ('return all land cards from your graveyard to the battlefield tapped': `whose: you`,
    `tapped: true`). They enter at the same time (614.13a: none of them can be chosen by another's 'as
    enters' effect; 614.12b: the choices made for them must be payable together), each under its
    owner's control, the active player's first (613.7m)."""
    from reference_engine.layers import characteristics
    from reference_engine.limits import EngineLimit

    state = game.state
    fctx = FilterContext(ctx.controller, ctx.source_id)
    returning = {player: [i for i in state.zone_ids(Zone.GRAVEYARD, player)
                          if matches(state, state.objects[i], params.get("filter"), fctx)]
                 for player in state.apnap() if params.get("whose") != "you" or player == ctx.controller}
    for ids in returning.values():
        if sum(1 for i in ids if any(ordered_static(a) for a in characteristics(state, state.objects[i]).abilities)) > 1:
            raise EngineLimit("the order of one player's permanents entering at once (613.7m) is not asked")
    state.entering_together = frozenset(i for ids in returning.values() for i in ids)
    try:
        for player, ids in returning.items():
            for object_id in ids:
                obj = state.objects.get(object_id)
                if obj is not None and obj.zone is Zone.GRAVEYARD:
                    yield from ops.enter_battlefield(game, obj, player, tapped=bool(params.get("tapped")))
    finally:
        state.entering_together = frozenset()
