"""Counters on players (rule 122.1): poison counters (122.1f) and rad counters (122.1i, 728).

Poison counters are kept on `Player.poison` (the state-based action of 704.5c reads them there),
every other kind on `Player.counters`. Card definitions give players counters with the effect
`give_counters: {who, kind, count}` ('target player gets two rad counters'), and test for them with
the condition `active_player_counters: {kind, min, max}`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reference_engine import restrictions
from reference_engine.conditions import game_condition
from reference_engine.effects import Ctx, effect, targets_of, value
from reference_engine.model import Player

if TYPE_CHECKING:
    from reference_engine.game import Game


def counters_of(player: Player) -> dict[str, int]:
    """Every kind of counter the player has, with how many (kinds they have none of left out)."""
    found = {"poison": player.poison} if player.poison else {}
    if player.counters:
        found.update((kind, n) for kind, n in player.counters.items() if n > 0)
    return found


def count(player: Player, kind: str) -> int:
    return player.poison if kind == "poison" else player.counters.get(kind, 0)


def give(game: Game, player: str, kind: str, amount: int) -> int:
    """The player gets `amount` counters of `kind`, unless players can't get counters (Solemnity).
    Returns how many they got."""
    if amount <= 0 or restrictions.players_cant_get_counters(game):
        return 0
    holder = game.state.players[player]
    if kind == "poison":
        holder.poison += amount
    else:
        holder.counters[kind] += amount
    return amount


def remove(game: Game, player: str, kind: str, amount: int) -> int:
    """The player removes up to `amount` counters of `kind` from themselves; returns how many."""
    holder = game.state.players[player]
    removed = min(max(amount, 0), count(holder, kind))
    if kind == "poison":
        holder.poison -= removed
    elif removed:
        holder.counters[kind] -= removed
        if holder.counters[kind] <= 0:
            del holder.counters[kind]
    return removed


def _players(game: Game, ctx: Ctx, who: Any) -> list[str]:
    """`who`: 'you', 'each' (each player, in APNAP order), 'each_opponent', or a player target."""
    state = game.state
    if who == "each":
        return state.apnap()
    if who == "each_opponent":
        return state.opponents(ctx.controller)
    return [str(t.value) for t in targets_of(game, ctx, who) if t.kind == "player"]


@effect("give_counters")
def _give_counters(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """'Target player gets two rad counters', 'each player gets X rad counters' (122.1)."""
    amount = value(game, ctx, params.get("count", 1))
    for player in _players(game, ctx, params.get("who", "you")):
        give(game, player, params["kind"], amount)


@game_condition("active_player_counters")
def _active_player_counters(game: Game, spec: dict[str, Any], ctx: Any) -> bool:
    """{kind: rad, min: 1}: 'if that player has one or more rad counters', of the active player
    (whose step or phase began: checked as it triggers and again as it resolves, 603.4)."""
    have = count(game.state.players[game.state.active], spec["kind"])
    return have >= spec.get("min", 0) and ("max" not in spec or have <= spec["max"])
