"""The turn (rules 500-514) and priority (117) as one generator: it yields each Decision a player
must make and receives their move. Moves are performed here; an illegal one restores the state."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING


from reference_engine import casting, combat, ops, prevention
from reference_engine.daynight import untap_step_check
from reference_engine.layers import characteristics
from reference_engine.model import STEPS, DecisionKind, Duration, Step, Zone
from reference_engine.moves import Activate, Cast, Decision, Illegal, Move, Pass, PlayLand, Procedure
from reference_engine.resolve import resolve_top
from reference_engine.sba import before_priority

if TYPE_CHECKING:
    from reference_engine.game import Game

NO_PRIORITY = (Step.UNTAP, Step.CLEANUP)
MAX_HAND_SIZE = 7


def play(game: Game, *, resume: bool = True) -> Procedure:
    """Run the game from the current step; with `resume`, the step's beginning already happened."""
    state = game.state
    while not state.over:
        yield from run_step(game, begin=not resume)
        resume = False
        if state.over:
            return
        _next_step(game)


def run_step(game: Game, *, begin: bool) -> Procedure:
    state = game.state
    step = state.step
    if begin:
        skip = yield from _begin(game, step)
        if skip:
            return
    if step is Step.CLEANUP:
        yield from _cleanup(game)
    elif step not in NO_PRIORITY:
        yield from priority_round(game)
    _end_step(game, step)


def untap_step(game: Game) -> None:
    """Rule 502.1-3: first phasing, then the day/night check, then the active player untaps their
    permanents."""
    from reference_engine.phasing import untap_step_phasing

    untap_step_phasing(game)
    untap_step_check(game)
    untap_permanents(game)


def untap_permanents(game: Game) -> None:
    """Rule 502.3: the active player's permanents untap, except those an effect keeps tapped
    ('creatures with power 3 or greater don't untap during their controllers' untap steps')."""
    state = game.state
    kept = _kept_tapped(game)
    for obj in state.battlefield():
        if characteristics(state, obj).controller == state.active and obj.id not in kept:
            ops.untap(game, obj)


def _kept_tapped(game: Game) -> set[int]:
    """Permanents matched by a `doesnt_untap` rule ability of a permanent on the battlefield."""
    from reference_engine.filters import FilterContext, matches

    state = game.state
    kept: set[int] = set()
    for source in state.battlefield():
        chars = characteristics(state, source)
        for ability in chars.abilities:
            if ability.kind == "rule" and "doesnt_untap" in ability.data:
                ctx = FilterContext(chars.controller, source.id, source.uid)
                kept |= {o.id for o in state.battlefield() if matches(state, o, ability.data["doesnt_untap"], ctx)}
    return kept


def _begin(game: Game, step: Step) -> Procedure:
    """Turn-based actions and 'at the beginning of' triggers. Returns True to skip the step."""
    state = game.state
    if (state.active, step.value) in state.skips:
        # 614.10: 'skip your next draw step' replaces that step with nothing; each such effect skips one
        # occurrence (614.10a), and a step already begun can't be skipped (the effect waits for the next).
        state.skips.remove((state.active, step.value))
        return True
    if step is Step.UNTAP:
        start_of_turn_control(game)
        untap_step(game)
        return False
    if step is Step.DRAW and (state.active, state.turn) in state.skip_draw:
        return True  # 'you skip your draw step this turn': the step doesn't happen at all
    if step is Step.DRAW and not (state.turn == 1 and state.active == state.turn_order[0]):
        ops.draw(game, state.active)  # 504.1 (the starting player skips their first draw, 103.8a)
    if step is Step.PRECOMBAT_MAIN:
        from reference_engine.sagas import add_lore_counters

        add_lore_counters(game)  # 714.3c: a turn-based action as the precombat main phase begins
    if step in (Step.DECLARE_BLOCKERS, Step.FIRST_STRIKE_DAMAGE, Step.COMBAT_DAMAGE):
        if not state.combat or not state.combat.attackers:
            return True  # 508.8: no attackers, no blockers or combat damage steps
    if step is Step.BEGINNING_OF_COMBAT:
        from reference_engine.state import Combat

        state.combat = Combat()
    elif step is Step.DECLARE_ATTACKERS:
        yield from combat.declare_attackers(game)
    elif step is Step.DECLARE_BLOCKERS:
        yield from combat.declare_blockers(game)
    elif step is Step.FIRST_STRIKE_DAMAGE:
        if not combat.has_first_strike_step(game):
            return True
        yield from combat.combat_damage(game, first_strike=True, split_steps=True)
    elif step is Step.COMBAT_DAMAGE:
        yield from combat.combat_damage(game, first_strike=False, split_steps=bool(state.combat_now.first_strike_dealt))
    ops.emit(game, "step_begins", step=step.value, active=state.active)
    return False


def start_of_turn_control(game: Game) -> None:
    """Rule 302.6: as a turn begins, the active player's permanents have been under their control
    continuously since their most recent turn began."""
    state = game.state
    for obj in state.battlefield():
        if characteristics(state, obj).controller == state.active:
            obj.summoning_sick = False


def _end_step(game: Game, step: Step) -> None:
    state = game.state
    for player in state.players.values():
        player.pool.clear()  # 106.4: mana empties at the end of each step and phase
        player.restricted.clear()
        player.snow.clear()
    if step is Step.END_OF_COMBAT:
        combat.end_combat(game)


def _next_step(game: Game) -> None:
    state = game.state
    index = STEPS.index(state.step)
    if state.step is Step.CLEANUP:
        _new_turn(game)
        return
    state.step = STEPS[index + 1]
    state.priority = None


def _new_turn(game: Game) -> None:
    state = game.state
    state.previous_turn_spells = state.spells_cast.copy()
    state.previous_active = state.active
    state.spells_cast.clear()
    for player in state.players.values():
        player.lands_played = 0
    state.turn += 1
    state.active = state.next_player(state.active)
    # 'Until your next turn' effects end as that player's next turn begins.
    state.effects = [e for e in state.effects if not (e.duration == Duration.UNTIL_YOUR_NEXT_TURN and e.controller == state.active)]
    state.step = Step.UNTAP
    state.priority = None
    state.touch()


def _cleanup(game: Game) -> Procedure:
    """Rule 514: discard to hand size, remove damage and end 'until end of turn' effects; if anything
    then happens, players get priority and another cleanup step follows (514.3a)."""
    state = game.state
    hand = state.zone_ids(Zone.HAND, state.active)
    from reference_engine.rule_effects import rule_effects

    unlimited = any(c == state.active for c, _, _ in rule_effects(game, "no_max_hand_size"))
    if len(hand) > MAX_HAND_SIZE and not unlimited:
        yield from _discard_to_hand_size(game, len(hand) - MAX_HAND_SIZE)
    for obj in state.battlefield():
        obj.damage = 0
        obj.deathtouch_damage = False
    state.effects = [e for e in state.effects if e.duration != Duration.END_OF_TURN]
    prevention.end_of_turn(game)
    state.this_turn.clear()
    state.died_this_turn.clear()
    state.resolutions_this_turn.clear()
    state.entering_control.clear()
    state.regeneration.clear()  # 'the next time it would be destroyed this turn' (614.8)
    state.touch()
    performed = yield from _sba_or_triggers(game)
    if performed:
        yield from priority_round(game)
        yield from _cleanup(game)


def _sba_or_triggers(game: Game) -> Procedure:
    from reference_engine import sba

    performed = yield from sba.check(game)
    if performed or state_has_triggers(game):
        yield from before_priority(game)
        return True
    return False


def state_has_triggers(game: Game) -> bool:
    return bool(game.state.pending_triggers)


def _discard_to_hand_size(game: Game, count: int) -> Procedure:
    state = game.state
    hand = list(state.zone_ids(Zone.HAND, state.active))
    decision = Decision(state.active, "objects", f"discard {count} card(s) down to hand size (514.1)",
                        {"candidates": hand, "min": count, "max": count})
    while True:
        move = yield decision
        if move.objects is not None and len(set(move.objects)) == count and set(move.objects) <= set(hand):
            for object_id in move.objects:
                ops.move(game, state.objects[object_id], Zone.GRAVEYARD)
            return
        state.rejection = f"choose exactly {count} card(s) in hand to discard"


def priority_round(game: Game) -> Procedure:
    """Rule 117: the active player receives priority; the step ends when all pass with an empty stack."""
    state = game.state
    state.priority = state.active
    passes = 0
    checked = False
    while True:
        if not checked:
            yield from before_priority(game)
        checked = False
        if state.over:
            return
        move: Move = yield priority_decision(state.priority)
        if isinstance(move, Pass):
            passes += 1
            if passes < len(state.players):
                state.priority = state.next_player(state.priority)
                # 117.5: state-based actions and triggers are handled before the next player receives
                # priority, but passing changed nothing since they were: the check would find nothing.
                checked = True
                continue
            if not state.stack:
                return
            yield from resolve_top(game)  # 117.4: all passed in succession; the top resolves
            state.priority = state.active
            passes = 0
            continue
        saved = state.save()
        try:
            yield from _perform(game, move)
        except Illegal as exc:
            state.restore(saved)
            state.rejection = str(exc)
            continue
        passes = 0  # 117.3c: the player who acted receives priority again


@lru_cache(maxsize=None)
def priority_decision(player: str) -> Decision:
    """`player` receives priority (117.1): a value, made once per player rather than at every priority."""
    return Decision(player, DecisionKind.PRIORITY, "act or pass priority")


def _perform(game: Game, move: Move) -> Procedure:
    if isinstance(move, PlayLand):
        yield from casting.play_land(game, move)
    elif isinstance(move, Cast):
        yield from casting.cast_with_optional_costs(game, move)
    elif isinstance(move, Activate):
        yield from casting.activate(game, move)
    else:
        raise Illegal(f"{type(move).__name__} is not a priority action")
