"""Copies of a card defined by name (rule 707.13): 'Choose a card name that hasn't been chosen from among
Disenchant, ..., and Black Lotus. Create a copy of the card with the chosen name. You may cast the copy.
(You still pay its costs.)' (Garth One-Eye).

No object is copied: the copy's characteristics are those of the card with that name in the Oracle
card reference (the card data sent with the case, as for a token created by name, 111.11), and the copy
is created outside the game. If it is cast, it is cast from there while the ability resolves, its costs
paid (601.2); on the stack it is a copy of a card, so a permanent spell becomes a token as it resolves
(608.3f). If it isn't cast, it stays outside the game: it is in no zone of the game at all.
The names already chosen are the source's: a new object (one that left and came back) has chosen none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reference_engine.effects import Ctx, effect, source, token_named
from reference_engine.layers import characteristics
from reference_engine.model import DecisionKind
from reference_engine.moves import Decision, Procedure

if TYPE_CHECKING:
    from reference_engine.game import Game

CHOSEN_KEY = "names_chosen"


@effect("copy_card_named")
def _copy_card_named(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """{among: [names], not_chosen_before: true, may_cast: true}: choose one of the names (with `choose:
    {option: <name>}`) not chosen before by this source, create a copy of that card outside the game, and
    let the controller cast it, paying its costs (707.13)."""
    state = game.state
    obj = source(game, ctx)
    before = tuple(obj.chosen.get(CHOSEN_KEY, ())) if obj is not None and params.get("not_chosen_before") else ()
    options = [name for name in params["among"] if name not in before]
    if not options:
        return
    decision = Decision(ctx.controller, DecisionKind.OPTION, f"choose a card name from among {', '.join(options)}",
                        {"options": options})
    while True:
        move = yield decision
        if move.option in options:
            break
        state.rejection = f"choose one of {', '.join(options)}" + (
            f" ({move.option} has been chosen before)" if move.option in before else "")
    name = str(move.option)
    if obj is not None:
        obj.chosen = dict(obj.chosen, **{CHOSEN_KEY: before + (name,)})
        state.touch()
    card = token_named(game, name)  # the Oracle card reference: nothing in the game is copied
    if params.get("may_cast"):
        yield from cast_paying_costs(game, ctx.controller, card)


def cast_paying_costs(game: Game, player: str, card) -> Procedure:
    """'You may cast the copy. (You still pay its costs.)': asked with {yes: true, pay: [...]} or {yes:
    false}. A payment that can't be made is rejected before anything is cast."""
    from reference_engine.cast_copies import cast_copy_of_card
    from reference_engine.mana import ManaCost
    from reference_engine.optional_effects import _pay, yes_paying

    state = game.state
    cost = card.faces[0].mana_cost or ManaCost(())
    decision = Decision(player, DecisionKind.MAY, f"cast the copy of {card.name}, paying {cost}? yes or no",
                        {"cost": str(cost)})
    move = yield from yes_paying(game, player, decision, cost.with_x(0))
    if move is None:
        return
    payments = move.payments

    def pay(spell) -> Procedure:
        mana_cost = characteristics(state, spell).mana_cost
        yield from _pay(game, player, mana_cost.with_x(0) if mana_cost is not None else ManaCost(()), payments)
    yield from cast_copy_of_card(game, player, card, pay)
