"""Static abilities that change what players may do and pay, rather than characteristics (`rule` abilities).

    rule: {cant_cast: {player: each|you|opponent, filter: <spell filter>, after_spells_this_turn: N}}
        'Your opponents can't cast spells with even mana values' (Void Winnower), 'Each player can't
        cast more than one spell each turn' (Rule of Law): checked once the spell is proposed, with its
        choices made (601.3, 601.3a, 601.6).
    rule: {cant_activate: {filter: <filter on the ability's source>, unless_mana: true}}
        'Activated abilities of creatures can't be activated' (Cursed Totem), mana abilities included (602.5);
        with `unless_mana`, '... unless they're mana abilities' (Pithing Needle).
    rule: {cant_block: {player: ..., filter: <filter on the blocker>}}
    rule: {cost_reduction: {player: each|you, filter: <spell filter>, generic: N, colored: [R]}}
        'Spells cost {1} less to cast' (Helm of Awakening): part of the total cost (601.2f), reducing only
        its generic component (118.7a); 'cost {R} less' removes an {R}, or {1} if none is left (118.7b-c).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from reference_engine.filters import FilterContext, matches
from reference_engine.layers import abilities_on_battlefield, characteristics
from reference_engine.mana import ManaCost
from reference_engine.model import CardDef, Face, GameObject

if TYPE_CHECKING:
    from reference_engine.game import Game


def rule_abilities(state, key: str) -> Iterator[tuple[GameObject, str, dict[str, Any]]]:
    """(source, its controller, data) for each `rule` ability with `key` on the battlefield."""
    for obj, chars, ability in abilities_on_battlefield(state, "rule"):
        if key in ability.data:
            yield obj, chars.controller, ability.data[key]


def entry_prohibited(game: Game, face: Face, card: CardDef, controller: str) -> bool:
    """'Lands can't enter the battlefield' (a `rule` ability {cant_enter: <filter>}): whether a permanent
    with the characteristics it would enter with (`face` of `card`, a copy's included, under
    `controller`) can't. A card that can't enter stays where it is (608.3e); a token isn't created (111.5)."""
    from reference_engine.filters import FilterContext, matches
    from reference_engine.layers import printed

    state = game.state
    would_be = None
    for source, source_controller, filt in rule_abilities(state, "cant_enter"):
        would_be = would_be or printed(face, card, controller)
        if matches(state, None, filt, FilterContext(source_controller, source.id), chars=would_be):
            return True
    return False


def counters_prohibited(game: Game, obj: GameObject) -> bool:
    """'Counters can't be put on artifacts, creatures, enchantments, or lands' (Solemnity), 'this creature
    can't have counters put on it' (Melira's Keepers: `{self: true}`): a `rule` ability {cant_have_counters:
    <filter>}. Judged on the permanent as it is, so on one entering with counters as it is on the
    battlefield, its own abilities included (614.17d)."""
    state = game.state
    return any(matches(state, obj, filt, FilterContext(controller, source.id))
               for source, controller, filt in rule_abilities(state, "cant_have_counters"))


def players_cant_get_counters(game: Game) -> bool:
    """'Players can't get counters' (a `rule` ability {players_cant_get_counters: true}): poison counters."""
    return any(bool(v) for _, _, v in rule_abilities(game.state, "players_cant_get_counters"))


def land_play_prohibition(game: Game, player: str) -> str | None:
    """'Players can't play lands' (a `rule` ability {cant_play_lands: each}; rule 305.2b)."""
    for source, controller, who in rule_abilities(game.state, "cant_play_lands"):
        if _applies_to(player, controller, str(who)):
            return f"{characteristics(game.state, source).name} says lands can't be played (rule 305.2b)"
    return None


def _applies_to(player: str, controller: str, who: str) -> bool:
    return who == "each" or (who == "you") == (player == controller)


def cast_prohibition(game: Game, player: str, spell: GameObject) -> str | None:
    """Why `player` may not cast `spell` (already proposed: on the stack, X chosen), or None."""
    state = game.state
    for source, controller, spec in rule_abilities(state, "cant_cast"):
        if not _applies_to(player, controller, spec.get("player", "each")):
            continue
        limit = spec.get("after_spells_this_turn")
        if limit is not None and state.spells_cast[player] < limit:
            continue
        if matches(state, spell, spec.get("filter"), FilterContext(controller, source.id)):
            return f"{characteristics(state, source).name} prohibits casting that spell (rule 601.3)"
    return None


def activation_prohibition(game: Game, obj: GameObject, mana_ability: bool = False) -> str | None:
    """Why the activated abilities of `obj` (a mana ability, or another) can't be activated now (602.5), or None."""
    state = game.state
    for source, controller, spec in rule_abilities(state, "cant_activate"):
        if mana_ability and spec.get("unless_mana"):
            continue
        if matches(state, obj, spec.get("filter"), FilterContext(controller, source.id)):
            return f"{characteristics(state, source).name} prohibits activating that ability (rule 602.5)"
    return None


def block_prohibition(game: Game, blocker: GameObject) -> str | None:
    """'Your opponents can't block with creatures with even mana values' (rule: cant_block)."""
    state = game.state
    player = characteristics(state, blocker).controller
    for source, controller, spec in rule_abilities(state, "cant_block"):
        if _applies_to(player, controller, spec.get("player", "each")) and \
                matches(state, blocker, spec.get("filter"), FilterContext(controller, source.id)):
            return f"{characteristics(state, source).name} prohibits {player} from blocking with that creature"
    return None


def total_cost(game: Game, player: str, spell: GameObject, cost: ManaCost) -> ManaCost:
    """Rule 601.2f: the mana cost (X already chosen) minus cost reductions, never less than {0}."""
    state = game.state
    generic_off = 0
    colored: list[str] = []
    for source, controller, spec in rule_abilities(state, "cost_reduction"):
        if _applies_to(player, controller, spec.get("player", "each")) and \
                matches(state, spell, spec.get("filter"), FilterContext(controller, source.id)):
            generic_off += int(spec.get("generic", 0))
            colored.extend(spec.get("colored", ()))
    for color in colored:
        cost = reduce_colored(cost, color)
    return reduce_generic(cost, generic_off) if generic_off else cost


def reduce_colored(cost: ManaCost, color: str) -> ManaCost:
    """Rules 118.7b-c: a reduction by one mana of a color removes one such symbol of the cost; if the
    cost has none (left), it reduces the generic component by one instead."""
    symbols = list(cost.symbols)
    if color in symbols:
        symbols.remove(color)
        return ManaCost(tuple(symbols))
    return reduce_generic(cost, 1)


def reduce_generic(cost: ManaCost, amount: int) -> ManaCost:
    """Rule 118.7a: a reduction by generic mana affects only the generic component of the cost."""
    generic = sum(int(s) for s in cost.symbols if s.isdigit())
    rest = tuple(s for s in cost.symbols if not s.isdigit())
    left = max(0, generic - amount)
    return ManaCost(((str(left),) if left else ()) + rest)
