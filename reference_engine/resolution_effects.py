"""More effects of resolving spells and abilities: adding mana, exiling, discarding, lose life for
each opponent, and 'each player sacrifices a creature' (choices made in APNAP order, rule 608.2e).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from reference_engine import ops
from reference_engine.effects import Ctx, effect, run, targets_of, value
from reference_engine.filters import FilterContext, matches
from reference_engine.layers import characteristics
from reference_engine.mana import COLORS, parse_mana
from reference_engine.model import Zone
from reference_engine.moves import Decision, Procedure, choose_one

if TYPE_CHECKING:
    from reference_engine.game import Game


@effect("add_mana")
def _add_mana(game: Game, ctx: Ctx, params: Any) -> Procedure:
    """'Add {B}{B}{B}' / 'Add one mana of any color' from a spell or an ability that isn't a mana
    ability (rule 106.3): the mana is added as it resolves, the color chosen then (608.2d)."""
    pool = game.state.players[ctx.controller].pool
    if isinstance(params, str):
        pool.update(parse_mana(params))
        return
    amount = int(params["any_color"])
    decision = Decision(ctx.controller, "mana", f"choose a color of mana to add ({ctx.source_name})")
    while True:
        move = yield decision
        chosen = move.mana or move.color
        if chosen in COLORS:
            break
        game.state.rejection = f"choose one of the colors {', '.join(COLORS)}"
    pool[chosen] += amount


@effect("player_draws")
def _player_draws(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """'Target player draws N cards' (N may be X)."""
    for target in targets_of(game, ctx, params["who"]):
        if target.kind == "player":
            ops.draw(game, str(target.value), value(game, ctx, params.get("count", 1)))


@effect("opponents_lose_life")
def _opponents_lose_life(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """'Each opponent loses N life'."""
    for player in game.state.turn_order:
        if player != ctx.controller:
            ops.lose_life(game, player, int(params["amount"]))


@effect("discard")
def _discard(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """'Discard N cards': the controller chooses as the effect is applied (608.2d); with fewer cards in
    hand, all of them. With `who: target.0`, 'target opponent discards two cards': that player chooses."""
    for player in ([str(t.value) for t in targets_of(game, ctx, params["who"]) if t.kind == "player"]
                   if "who" in params else [ctx.controller]):
        yield from _discard_by(game, ctx, player, int(params.get("count", 1)))


def discards_accepted(state, player: str, hand: list[int], count: int, chosen) -> bool:
    """The cards chosen to discard are `count` different cards of the player's hand (609.3, 701.9a)."""
    return len(set(chosen)) == count and set(chosen) <= set(hand)


def _discard_by(game: Game, ctx: Ctx, player: str, count: int) -> Procedure:
    state = game.state
    hand = list(state.zone_ids(Zone.HAND, player))
    count = min(count, len(hand))
    if count == 0:
        return
    decision = Decision(player, "objects", f"discard {count} card(s) ({ctx.source_name})",
                        {"candidates": hand, "min": count, "max": count})
    while True:
        move = yield decision
        chosen = move.objects
        if chosen is not None and discards_accepted(state, player, hand, count, chosen):
            break
        state.rejection = f"choose exactly {count} card(s) in your hand to discard"
    for object_id in chosen:
        ops.move(game, state.objects[object_id], Zone.GRAVEYARD)


@effect("each_player_sacrifices")
def _each_player_sacrifices(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """'Each player sacrifices a creature of their choice': each player chooses in APNAP order, then
    the chosen permanents are sacrificed at the same time (rules 608.2e, 101.4)."""
    state = game.state
    chosen: list[int] = []
    for player in state.apnap():
        fctx = FilterContext(player, ctx.source_id)
        options = [o.id for o in state.battlefield()
                   if characteristics(state, o).controller == player and matches(state, o, params["filter"], fctx)]
        if not options:
            continue  # nothing to sacrifice: no choice to make (608.2d)
        chosen.append((yield from choose_one(
            state, player, f"choose a {params.get('describe', 'permanent')} to sacrifice ({ctx.source_name})",
            options, "choose exactly one of the permanents offered")))
    # 608.2f: processed simultaneously, so each leaving permanent sees the others leave (603.10a).
    ops.sacrifice_together(game, [state.objects[i] for i in chosen])


@effect("player_sacrifices")
def _player_sacrifices(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """{who: target.0, filter, describe}: 'target opponent sacrifices a creature of their choice'."""
    state = game.state
    for target in targets_of(game, ctx, params["who"]):
        if target.kind != "player":
            continue
        player = str(target.value)
        fctx = FilterContext(player, ctx.source_id)
        options = [o.id for o in state.battlefield()
                   if characteristics(state, o).controller == player and matches(state, o, params["filter"], fctx)]
        if options:  # nothing to sacrifice: no choice to make (608.2d)
            chosen = yield from choose_one(
                state, player, f"choose a {params.get('describe', 'permanent')} to sacrifice ({ctx.source_name})",
                options, "choose exactly one of the permanents offered")
            ops.sacrifice(game, state.objects[chosen])


@effect("drain_power")
def _drain_power(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """'Target player activates a mana ability of each land they control. Then that player loses all
    unspent mana and you add the mana lost this way' (106.13): the mana moves with its restrictions."""
    from reference_engine.casting import activate_mana
    from reference_engine.moves import Illegal, ManaActivation
    from reference_engine.limits import EngineLimit

    state = game.state
    for target in targets_of(game, ctx, params["who"]):
        player = str(target.value)
        for obj in list(state.battlefield()):
            chars = characteristics(state, obj)
            if chars.controller != player or "Land" not in chars.types:
                continue
            indexes = [i for i, a in enumerate(chars.activated_abilities()) if a.kind == "mana"]
            if len(indexes) > 1:
                raise EngineLimit(f"{chars.name} has several mana abilities: the choice of one is not modelled")
            if not indexes:
                continue
            try:
                yield from activate_mana(game, player, ManaActivation(obj.id, indexes[0]))
            except Illegal as exc:
                if "choose a type of mana" in str(exc):
                    raise EngineLimit(f"{chars.name}'s mana ability needs a choice of type: not modelled") from None
                # its cost can't be paid (a tapped land): that ability can't be activated
        loser, gainer = state.players[player], state.players[ctx.controller]
        lost, restricted = Counter(loser.pool), list(loser.restricted)
        loser.pool.clear()
        loser.restricted.clear()
        gainer.pool.update(lost)
        gainer.restricted.extend(restricted)


@effect("may_search")
def _may_search(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """'You may search your library for a [filter] card, put it into your hand, then shuffle. If you do,
    [then]': "if you do" checks that the player chose to search, found card or not (118.12b). The
    order of the library after the shuffle is not modelled: it is kept as it was."""
    state = game.state
    decision = Decision(ctx.controller, "may", f"search your library ({ctx.source_name})? yes or no")
    while True:
        move = yield decision
        if move.yes is not None:
            break
        state.rejection = "answer yes or no"
    if not move.yes:
        return
    fctx = FilterContext(ctx.controller, ctx.source_id)
    options = [i for i in state.zone_ids(Zone.LIBRARY, ctx.controller)
               if matches(state, state.objects[i], params.get("filter"), fctx)]
    choose = Decision(ctx.controller, "objects", f"choose up to one {params.get('describe', 'card')} from your "
                                                 "library, or none (a search may fail to find)",
                      {"candidates": options, "min": 0, "max": 1})
    while True:
        found = yield choose
        if found.objects is not None and len(found.objects) <= 1 and all(o in options for o in found.objects):
            break
        state.rejection = f"choose at most one {params.get('describe', 'card')} in your library, or none"
    for object_id in found.objects:
        ops.move(game, state.objects[object_id], Zone(params.get("to", "hand")))
    yield from run(game, ctx, params.get("then", []))


@effect("skip_draw_step")
def _skip_draw_step(game: Game, ctx: Ctx, params: Any) -> None:
    """'You skip your draw step this turn'."""
    game.state.skip_draw.add((ctx.controller, game.state.turn))


@effect("spend_as_any_type")
def _spend_as_any_type(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """'For one spell this turn, you may spend mana as though it were mana of any type to pay that spell's
    mana cost' (118.14): a permission for one spell of this turn (`casting.spend_as_any_type`)."""
    from reference_engine.casting import ANY_TYPE

    game.state.this_turn.add(f"{ANY_TYPE}{ctx.controller}:{game.state.new_id():09d}")


@effect("draw_and_reveal")
def _draw_and_reveal(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """{discard_unless: filter}: 'Draw a card and reveal it. If it isn't a land card, discard it' (Sindbad).
    The additional action is performed only on the card its controller drew: if the draw was replaced,
    not on any card drawn as a result of that replacement effect (614.11b)."""
    state = game.state
    fctx = FilterContext(ctx.controller, ctx.source_id)
    for card in ops.draw(game, ctx.controller, 1):
        if card.zone is Zone.HAND and not matches(state, card, params["discard_unless"], fctx):
            ops.move(game, card, Zone.GRAVEYARD)  # discarded (701.9a)
