"""Text-changing effects (rule 612), applied in layer 3 (rule 613.1c).

'Replace all instances of one color word with another' (Sleight of Mind) changes the words of the
object's rules text that are used as color words: in a card definition, the colors an ability's
effect sets or adds and the colors its filters name. It doesn't change the mana cost or the mana
symbols (a mana symbol is not a word), so the object's own color is unchanged.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from reference_engine.effects import Ctx, effect, objects
from reference_engine.layers import Characteristics, modifier
from reference_engine.mana import COLORS
from reference_engine.model import ContinuousEffect, Zone
from reference_engine.moves import Decision, Procedure

if TYPE_CHECKING:
    from reference_engine.game import Game

#: Keys of ability data whose values are color words.
COLOR_WORD_KEYS = frozenset({"colors", "colors_any"})


def _rewrite(data: Any, old: str, new: str) -> Any:
    if isinstance(data, dict):
        return {k: ([new if c == old else c for c in v] if k in COLOR_WORD_KEYS and isinstance(v, list)
                    else _rewrite(v, old, new)) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return type(data)(_rewrite(v, old, new) for v in data)
    return data


@modifier("change_color_word", "3")
def _change_color_word(chars: Characteristics, params: dict[str, Any]) -> None:
    old, new = params["from"], params["to"]
    changed = []
    for ability in chars.abilities:
        data = _rewrite(dict(ability.data), old, new)
        changed.append(ability if data == ability.data else replace(ability, data=data))
    chars.abilities = changed


def _choose_color(game: Game, player: str, prompt: str, other_than: str | None = None) -> Procedure:
    decision = Decision(player, "color", prompt)
    while True:
        move = yield decision
        if move.color in COLORS and move.color != other_than:
            return move.color
        game.state.rejection = f"choose one of the colors {', '.join(c for c in COLORS if c != other_than)}"


@effect("change_text")
def _change_text(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """{what, word: color}: 'change the text of [it] by replacing all instances of one color word with
    another'. The two words are chosen as the effect applies; it lasts indefinitely."""
    from reference_engine.limits import EngineLimit

    if params["word"] != "color":
        raise EngineLimit(f"changing {params['word']} words is not modelled")
    found = objects(game, ctx, params["what"])
    if any(o.zone is Zone.STACK for o in found):
        raise EngineLimit("changing the text of a spell is not modelled")
    affected = frozenset(o.id for o in found if o.zone is Zone.BATTLEFIELD)
    if not affected:
        return
    old = yield from _choose_color(game, ctx.controller, "choose the color word to replace")
    new = yield from _choose_color(game, ctx.controller, "choose the color word that replaces it", other_than=old)
    state = game.state
    state.effects.append(ContinuousEffect("3", state.new_timestamp(), "change_color_word", {"from": old, "to": new},
                                          affected, ctx.controller, duration="permanent"))
    state.touch()
