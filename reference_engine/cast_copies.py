"""Casting a copy of an object (rule 707.12): 'copy it, and you may cast the copy without paying its
mana cost' (Mizzix's Mastery). Unlike copying a spell (707.10), the copy is cast: it is created in the
zone the object is in, then cast while the spell or ability that made it is resolving, following
601.2a-h (its targets chosen and checked, its cost paid: here nothing), and then it becomes cast, so
'whenever you cast' abilities trigger and it counts as a spell cast this turn. On the stack it is a
spell like any other, and, being a copy of a card, not a card: off the stack it ceases to exist."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from reference_engine import ops
from reference_engine.effects import Ctx, effect, objects
from reference_engine.layers import characteristics
from reference_engine.model import DecisionKind, GameObject, StackItem, Zone
from reference_engine.moves import Decision, Illegal, Procedure
from reference_engine.targets import check_targets

if TYPE_CHECKING:
    from reference_engine.game import Game


def becomes_cast(game: Game, player: str, spell: GameObject) -> None:
    """601.2i: the copy becomes cast: cast triggers, and the count of spells cast this turn."""
    game.state.spells_cast[player] += 1
    ops.emit(game, "cast", player=player, object_id=spell.id)


def cast_copy(game: Game, player: str, original: GameObject, decided: bool | None = None) -> Procedure:
    """Create a copy of `original` where it is and let `player` cast it without paying its mana cost
    (`decided`: whether to, if already answered). Returns whether the player chose to cast it."""
    state = game.state
    if decided is None:
        ask = Decision(player, DecisionKind.MAY, f"cast the copy of {original.card.name} without paying its mana cost?")
        while True:
            move = yield ask
            if move.yes is not None:
                break
            state.rejection = "answer yes or no"
        decided = bool(move.yes)
    if not decided:
        return False
    yield from cast_copy_of_card(game, player, original.card)
    return True


def cast_copy_of_card(game: Game, player: str, card, pay: Callable[[GameObject], Procedure] | None = None) -> Procedure:
    """Put a copy of `card` onto the stack and cast it: its targets chosen and checked, its costs paid
    by `pay` if it must be paid for (601.2h: nothing otherwise), then it becomes cast (601.2i). Returns
    the copy on the stack, or None (a land is played, not cast)."""
    from reference_engine.casting import spell_ability, spell_targets
    from reference_engine.limits import EngineLimit
    from reference_engine.modal_spells import is_modal

    state = game.state
    copy = state.add_object(card, player, Zone.STACK, face=0)  # 707.12: then cast, onto the stack
    copy.spell_copy = True
    chars = characteristics(state, copy)
    if "Land" in chars.types:  # a land is played, not cast (305.9)
        state.remove_object(copy)
        return None
    ability = spell_ability(chars)
    if ability is not None and is_modal(ability.data):
        state.remove_object(copy)
        raise EngineLimit(f"casting a copy of {chars.name} needs its modes chosen (601.2b): not modelled")
    specs = spell_targets(chars)
    targets: tuple = ()
    if specs:
        decision = Decision(player, DecisionKind.TARGETS, f"choose targets for the copy of {chars.name}",
                            {"source": copy.uid})
        while True:
            move = yield decision
            chosen = tuple(move.targets) if move.targets is not None else None
            try:
                if chosen is None:
                    raise Illegal(f"choose the targets of the copy of {chars.name}")
                check_targets(game, specs, chosen, player, copy.id, game.describe_target)
                targets = chosen
                break
            except Illegal as exc:
                state.rejection = str(exc)
    copy.x = 0 if chars.mana_cost is not None and chars.mana_cost.x_count else None  # 107.3: X is 0
    copy.targets = targets
    state.stack.append(StackItem(id=state.new_id(), controller=player, object_id=copy.id, targets=targets,
                                 x=copy.x, source_name=chars.name))
    if pay is not None:
        yield from pay(copy)
    becomes_cast(game, player, copy)
    return copy


def decided_individually() -> bool:
    """707.12a: of several copies a player 'may cast', each is cast or not by a choice of its own."""
    return True


@effect("cast_copy")
def _cast_copy(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """{what: it, times: N}: 'for each card exiled this way, copy it, and you may cast the copy without
    paying its mana cost' (707.12); 'copy that card three times. You may cast the copies ...': each copy
    is cast or not as its controller chooses for that copy (707.12a), one after another."""
    times = int(params.get("times", 1))
    for original in objects(game, ctx, params["what"]):
        first: bool | None = None
        for _ in range(times):
            answer = first if first is not None and not decided_individually() else None
            cast = yield from cast_copy(game, ctx.controller, original, answer)
            first = cast if first is None else first
