"""Meld (rules 701.42, 712.4): two cards of a meld pair become one permanent, represented by both.

A melded permanent is one object (the card whose ability melded them, back face up) that remembers
the other card (`GameObject.meld_partner`). It has only the characteristics of the combined back face
and the sum of both front faces' mana values (712.8g); when it leaves the battlefield, one permanent
leaves and both cards arrive in the new zone (712.21)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reference_engine import ops
from reference_engine.effects import Ctx, effect
from reference_engine.filters import FilterContext, matches
from reference_engine.layers import characteristics
from reference_engine.model import DecisionKind, GameObject, Zone
from reference_engine.moves import Decision, Procedure

if TYPE_CHECKING:
    from reference_engine.game import Game


def is_meld_pair(a: GameObject, b: GameObject) -> bool:
    """Rule 701.42b: only two cards of the same meld pair can be melded; not tokens, not other cards."""
    return (not a.is_token and not b.is_token and a.card.layout == ops.MELD and b.card.layout == ops.MELD
            and a.card is not b.card and a.card.faces[1].name == b.card.faces[1].name)


@effect("meld")
def _meld(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """{with: {name: ..., types: [...]}}: 'If you both own and control this and a [creature] named X, exile
    them, then meld them into Y.' Cards that can't be melded stay in exile (701.42c)."""
    state = game.state
    source = state.objects.get(ctx.source_id) if ctx.source_id is not None else None

    def owned_and_controlled(obj: GameObject) -> bool:
        return obj.zone is Zone.BATTLEFIELD and obj.owner == ctx.controller and \
            characteristics(state, obj).controller == ctx.controller

    if source is None or not owned_and_controlled(source):
        return
    fctx = FilterContext(ctx.controller, source.id)
    partner = next((o for o in state.battlefield()
                    if o.id != source.id and owned_and_controlled(o) and matches(state, o, params["with"], fctx)), None)
    if partner is None:
        return
    first, second = ops.move_together(game, [source, partner], Zone.EXILE)
    if first.zone is not Zone.EXILE or second.zone is not Zone.EXILE or not is_meld_pair(first, second):
        return
    state.remove_object(second)  # both cards become one object (712.4a)
    melded = yield from ops.enter_battlefield(game, first, ctx.controller, transformed=True,
                                              meld_partner=(second.uid, second.card))
    ctx.memory["it"] = [melded.id] if melded is not None else []


def put_partner_card(game: Game, left: GameObject, destination: Zone, position: int | None = None,
                     arranged: bool = False) -> GameObject | None:
    """A melded permanent has left the battlefield: its other card arrives in the same zone (712.21),
    front face up, as a new object of its own (400.7). Into a library, next to the first card, and only
    where the effect then lets the owner arrange the two (`arranged`, see arrange_in_library)."""
    from reference_engine.limits import EngineLimit

    assert left.meld_partner is not None
    if destination is Zone.LIBRARY and not arranged:
        raise EngineLimit("the order of a melded permanent's two cards put into a library (712.21a) is not asked")
    uid, card = left.meld_partner
    return game.state.add_object(card, left.owner, destination, uid=uid,
                                 position=None if position is None else position + 1)


def arrange_in_library(game: Game, new: GameObject) -> Procedure:
    """Rule 712.21a: a melded permanent put into its owner's library becomes two cards there, which that
    player arranges in any order, unrevealed: answered with `choose: {order: [top card, the other]}`."""
    state = game.state
    other = state.objects.get(new.arrived_with) if new.arrived_with is not None else None
    if other is None or new.zone is not Zone.LIBRARY or other.zone is not Zone.LIBRARY:
        return
    pair = {new.uid: new, other.uid: other}
    decision = Decision(new.owner, DecisionKind.ORDER_CARDS,
                        f"arrange {new.card.name} and {other.card.name} in your library (first listed on top)",
                        {"sources": list(pair)})
    while True:
        move = yield decision
        if move.order is not None and sorted(move.order) == sorted(pair):
            break
        state.rejection = "name both cards of the melded permanent, in the order they go into the library"
    placed = arranged_order([pair[uid] for uid in move.order])
    ids = state.zone_ids(Zone.LIBRARY, new.owner)
    start = min(ids.index(new.id), ids.index(other.id))
    for offset, obj in enumerate(placed):
        ids[start + offset] = obj.id


def arranged_order(chosen: list[GameObject]) -> list[GameObject]:
    """The two cards in the order their owner chose, top first (712.21a)."""
    return chosen


def found_objects(game: Game, new: GameObject) -> list[int]:
    """What an effect finds of an object that has just moved (400.7): the new object, and for a melded
    permanent the other card too, so the effect's next actions are taken on both (712.21c)."""
    other = new.arrived_with
    return [new.id] + ([other] if other is not None and other in game.state.objects else [])


def objects_moved(game: Game, moved: list[int]) -> int:
    """How many objects changed zones, given the new objects they became: a melded permanent among them
    counts as one object, though two cards moved (712.21e)."""
    return len(moved)


def choose_exiled_order(game: Game, player: str, found: list[int]) -> Procedure:
    """Rule 712.21b: a player who exiles a melded permanent determines the relative timestamp order of
    its two cards, not the APNAP order of 613.7m: answered with `choose: {order: [earlier, later]}`.
    Asked where something reads the order of cards exiled ('the last creature card exiled with it':
    linked abilities, linked.py); the two cards keep the timestamps they arrived with, reassigned."""
    state = game.state
    pair = {state.objects[i].uid: state.objects[i] for i in found}
    names = " and ".join(o.card.faces[0].name for o in pair.values())
    decision = Decision(player, DecisionKind.ORDER_CARDS,
                        f"choose the timestamp order of {names}, exiled together (first listed earlier)",
                        {"sources": list(pair)})
    while True:
        move = yield decision
        if move.order is not None and sorted(move.order) == sorted(pair):
            break
        state.rejection = "name both cards of the melded permanent, the one exiled first first"
    stamps = sorted(o.timestamp for o in pair.values())
    for obj, stamp in zip(exiled_order([pair[uid] for uid in move.order]), stamps):
        obj.timestamp = stamp


def exiled_order(chosen: list[GameObject]) -> list[GameObject]:
    """The two cards in the timestamp order the exiling player chose, earlier first (712.21b)."""
    return chosen
