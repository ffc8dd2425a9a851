"""'The next [kind of] spell you cast this turn [can't be countered]' (rule 611.2f).

Such an effect doesn't begin when it is created: it waits until its player next puts a spell it
applies to on the stack (601.2a), applies to that spell only, and ends with the turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reference_engine.effects import Ctx, effect
from reference_engine.filters import FilterContext, matches
from reference_engine.model import GameObject

if TYPE_CHECKING:
    from reference_engine.game import Game

#: What such an effect can give the spell: rules of the spell itself.
SPELL_RULES = frozenset({"cant_be_countered"})


@effect("next_spell")
def _next_spell(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """{filter, rule: cant_be_countered}: 'the next [filter] spell you cast this turn [rule]'."""
    if params["rule"] not in SPELL_RULES:
        raise KeyError(f"unknown spell rule {params['rule']!r}")
    state = game.state
    state.next_spell.append((ctx.controller, state.turn, dict(params.get("filter") or {}), params["rule"]))


def modify(game: Game, player: str, spell: GameObject) -> None:
    """The spell `player` has just put on the stack: each waiting effect of theirs it matches applies
    to it, and is then used up."""
    state = game.state
    waiting = []
    for entry in state.next_spell:
        owner, turn, filt, rule = entry
        if turn != state.turn:
            continue  # 'this turn' is over
        if owner == player and matches(state, spell, filt, FilterContext(player)):
            spell.spell_rules = spell.spell_rules | {rule}
        else:
            waiting.append(entry)
    state.next_spell = waiting
