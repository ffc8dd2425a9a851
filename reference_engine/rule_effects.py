"""Continuous effects that affect players or the rules of the game rather than objects (rules 613.10,
613.11). They come from `rule` abilities, read from the permanents' characteristics after every layer
has been applied, so an ability removed in layer 6 generates no such effect."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from reference_engine.restrictions import rule_abilities

if TYPE_CHECKING:
    from reference_engine.game import Game


def rule_effects(game: Game, key: str) -> Iterator[tuple[str, int | None, Any]]:
    """(controller, source id, value) of each `rule` ability `{key: value}` that functions now:
    on a permanent (its current characteristics) or an emblem."""
    state = game.state
    for obj, controller, value in rule_abilities(state, key):
        yield controller, obj.id, value
    for emblem in state.emblems:
        for ability in emblem.abilities:
            if ability.kind == "rule" and key in ability.data:
                yield emblem.controller, None, ability.data[key]


def has_hexproof(game: Game, player: str) -> bool:
    """'You have hexproof' (702.11): the player can't be the target of opponents' spells and abilities."""
    return any(controller == player for controller, _, _ in rule_effects(game, "player_hexproof"))


def life_total_cant_change(game: Game, player: str) -> bool:
    """'Your life total can't change' (`rule: {life_total_cant_change: you}`): the player neither gains nor
    loses life, and so can't pay life greater than 0 (614.17b, 119.4b)."""
    return any(controller == player for controller, _, _ in rule_effects(game, "life_total_cant_change"))


def loyalty_cost(game: Game, player: str, cost):
    """Rule 606.5: a loyalty ability's cost with every additional loyalty cost of 'loyalty abilities
    you activate cost an additional [+1]' combined into one cost to add or remove counters."""
    from dataclasses import replace

    extra = sum(value for controller, _, value in rule_effects(game, "additional_loyalty_cost") if controller == player)
    return replace(cost, loyalty=cost.loyalty + extra) if extra else cost
