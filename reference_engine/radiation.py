"""Rad counters (rules 122.1i, 728): the inherent triggered ability associated with them.

"At the beginning of each player's precombat main phase, if that player has one or more rad
counters, that player mills a number of cards equal to the number of rad counters they have. For
each nonland card milled this way, that player loses 1 life and removes one rad counter from
themselves." It has no source and is controlled by the active player (728.1, an exception to
113.8). It is a triggered ability like any other: it triggers on the event of the precombat main
phase beginning, its intervening if is checked then and again as it resolves (603.4), and it waits
on the stack while players get priority.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reference_engine import ops
from reference_engine import player_counters
from reference_engine.effects import Ctx, effect
from reference_engine.layers import characteristics
from reference_engine.model import Ability, Zone
from reference_engine.restrictions import rule_abilities
from reference_engine.triggers import INHERENT_SOURCES, TriggerSource

if TYPE_CHECKING:
    from reference_engine.game import Game
    from reference_engine.state import GameState

TEXT = ("At the beginning of each player's precombat main phase, if that player has one or more rad counters, that "
        "player mills a number of cards equal to the number of rad counters they have. For each nonland card milled "
        "this way, that player loses 1 life and removes one rad counter from themselves.")

#: The ability as a card definition would write it (reference_engine/cards/), with the effect below.
RAD_ABILITY = Ability("triggered", {
    "when": {"step": {"step": "precombat-main", "whose": "each"}},
    "if": {"active_player_counters": {"kind": "rad", "min": 1}},
    "effect": [{"radiation": {}}],
}, text=TEXT)

#: How the ability is named where a source's name would be (the stack's observed `name`).
NAME = "rad counters"
#: The uid of its (absent) source: no object has it (object ids and uids count from 1).
NO_SOURCE_UID = 0


def controller(state: GameState) -> str:
    """Rule 728.1: the active player controls it."""
    return state.active


def inherent_sources(state: GameState) -> tuple[tuple[TriggerSource, tuple[Ability, ...]], ...]:
    """The triggered abilities that belong to no object (as triggers.py's sources: a source, its
    abilities): the one associated with rad counters. It is checked against every event, so its
    (immutable, absent) source is made once per controller; the ability is read each time."""
    return ((_SOURCES[controller(state)], (RAD_ABILITY,)),)


class _Sources(dict):
    """The rad ability's absent source as each player controls it, made when first needed."""

    def __missing__(self, player: str) -> TriggerSource:
        source = self[player] = TriggerSource(None, NO_SOURCE_UID, NAME, player)
        return source


_SOURCES = _Sources()


INHERENT_SOURCES.append(inherent_sources)


@effect("radiation")
def _radiation(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """The effect of the ability (728.1): the player whose precombat main phase began mills as many
    cards as they have rad counters (701.17a: those cards move together from the top of their
    library to their graveyard); then, for each nonland card milled, 1 life lost and 1 counter removed."""
    state = game.state
    player = str(ctx.event.get("active", state.active))
    count = player_counters.count(state.players[player], "rad")
    top = [state.objects[i] for i in state.zone_ids(Zone.LIBRARY, player)[:count]]
    milled = ops.move_together(game, top, Zone.GRAVEYARD) if top else []
    nonland = sum(1 for card in milled if "Land" not in characteristics(state, card).types)
    if nonland:
        life_from_radiation(game, player, nonland)
        player_counters.remove(game, player, "rad", nonland)


def life_from_radiation(game: Game, player: str, amount: int) -> None:
    """Life lost 'from radiation' is the life this ability makes its player lose (728.1a): 'you gain
    life rather than lose life from radiation' (a `rule` ability {radiation_gains_life: you}) makes
    that player gain it instead."""
    if any(controller == player for _, controller, _ in rule_abilities(game.state, "radiation_gains_life")):
        ops.gain_life(game, player, amount)
    else:
        ops.lose_life(game, player, amount)
