"""Conditions about the game ('if you didn't cast a spell this turn', 'if it's night'), by name.

Used by intervening-if clauses (rule 603.4) and by effects that check something as they resolve.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from reference_engine.filters import FilterContext, matches

if TYPE_CHECKING:
    from reference_engine.game import Game

GameCondition = Callable[[Any, Any, Any], bool]  # (game, value, ctx) -> bool
GAME_CONDITIONS: dict[str, GameCondition] = {}


def game_condition(name: str):
    def register(fn: GameCondition) -> GameCondition:
        GAME_CONDITIONS[name] = fn
        return fn
    return register


def holds(game: Any, spec: dict[str, Any] | None, ctx: Any) -> bool:
    """True if every named condition in `spec` holds. `ctx` has .controller and .source_id."""
    if not spec:
        return True
    for name, value in spec.items():
        check = GAME_CONDITIONS.get(name)
        if check is None:
            raise KeyError(f"unknown condition {name!r}")
        if not check(game, value, ctx):
            return False
    return True


def _in_range(count: int, bounds: dict[str, int]) -> bool:
    return count >= bounds.get("min", 0) and ("max" not in bounds or count <= bounds["max"])


@game_condition("spells_cast_this_turn")
def _spells_cast_this_turn(game: Game, value, ctx) -> bool:
    """{player: you, max: 0}: how many spells that player cast this turn, from the turn record."""
    player = ctx.controller if value.get("player", "you") == "you" else value["player"]
    return _in_range(game.state.spells_cast[player], value)


@game_condition("spells_cast_last_turn")
def _spells_cast_last_turn(game: Game, value, ctx) -> bool:
    """{total: {max: 0}} counts all players' spells last turn; {any_player: {min: 2}} one player's."""
    counts = game.state.previous_turn_spells
    if "total" in value:
        return _in_range(sum(counts.values()), value["total"])
    if "any_player" in value:
        return any(_in_range(counts[p], value["any_player"]) for p in game.state.players)
    raise KeyError("spells_cast_last_turn needs 'total' or 'any_player'")


@game_condition("you_control")
def _you_control(game: Game, value, ctx) -> bool:
    """{filter: {...}, min: N}: how many permanents matching the filter you control."""
    fctx = FilterContext(ctx.controller, ctx.source_id)
    filt = dict(value.get("filter", {}), controller="you")
    count = sum(1 for obj in game.state.battlefield() if matches(game.state, obj, filt, fctx))
    return _in_range(count, value)


@game_condition("day_night")
def _day_night(game: Game, value, ctx) -> bool:
    return (game.state.day_night or "neither") == value


@game_condition("source_counters")
def _source_counters(game: Game, value, ctx) -> bool:
    """{kind: "+1/+1", max: 0}: counters on the source, or on it as it last existed on the
    battlefield ('if it had no +1/+1 counters on it')."""
    from reference_engine.effects import last_known_counters

    return _in_range(last_known_counters(game, ctx.source_id, value["kind"]), value)


@game_condition("source_toughness")
def _source_toughness(game: Game, value, ctx) -> bool:
    """{max: 3}: the source's toughness ('if its toughness is 3 or less'); false once it has left
    the battlefield, as such a condition is checked again on resolution (603.4)."""
    from reference_engine.layers import characteristics
    from reference_engine.model import Zone

    obj = game.state.objects.get(ctx.source_id) if ctx.source_id is not None else None
    if obj is None or obj.zone is not Zone.BATTLEFIELD:
        return False
    toughness = characteristics(game.state, obj).toughness
    return toughness is not None and _in_range(toughness, value)
