"""Phasing (rule 702.26): a phased-out permanent is treated as though it doesn't exist
(`GameState.battlefield()` leaves it out) until it phases in, which isn't entering the battlefield.

Abilities that trigger when a permanent phases out look back in time (603.10b): they are judged with the
permanents as they were immediately before, the one phasing out included."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reference_engine import ops
from reference_engine.daynight import enforce
from reference_engine.effects import Ctx, effect, objects
from reference_engine.layers import characteristics
from reference_engine.model import GameObject, Zone
from reference_engine.triggers import matcher

if TYPE_CHECKING:
    from reference_engine.game import Game


def phase_out(game: Game, objs: list[GameObject]) -> None:
    """The permanents phase out, with everything attached to them (indirectly, 702.26g), at once."""
    from reference_engine.triggers import lookback_sources

    state = game.state
    going = [o for o in objs if o.zone is Zone.BATTLEFIELD and not o.phased_out]
    going += [o for o in state.battlefield() if o.attached_to in {g.id for g in going} and o not in going]
    if not going:
        return
    before = lookback_sources(game)
    for obj in going:
        obj.phased_out_controller = characteristics(state, obj).controller
    for obj in going:
        obj.phased_out = True
        if state.combat:  # 506.4: it is removed from combat
            state.combat.attackers.pop(obj.id, None)
            state.combat.blockers.pop(obj.id, None)
    state.touch()
    outer, state.lookback = state.lookback, before
    try:
        for obj in going:
            ops.emit(game, "phased_out", object_id=obj.id, uid=obj.uid)
    finally:
        state.lookback = outer


def phase_in(game: Game, objs: list[GameObject]) -> None:
    """The permanents phase in, all at once (702.26a): not entering the battlefield, so no enters
    abilities trigger (702.26d). They exist again (702.26c), so daybound and nightbound apply to them at
    once, as they do at any time (702.145d, g), before the rest of the untap step."""
    if not objs:
        return
    for obj in objs:
        obj.phased_out = False
        obj.phased_out_controller = None
    game.state.touch()
    enforce(game)
    for obj in objs:
        ops.emit(game, "phased_in", object_id=obj.id, uid=obj.uid)


def untap_step_phasing(game: Game) -> None:
    """Rule 502.1: the active player's permanents with phasing phase out and those that phased out under
    their control phase in, simultaneously, before anything untaps."""
    state = game.state
    on_battlefield = [state.objects[i] for i in state.zone_ids(Zone.BATTLEFIELD)]
    coming = [o for o in on_battlefield if o.phased_out and o.phased_out_controller == state.active]
    going = [o for o in state.battlefield()
             if characteristics(state, o).controller == state.active and characteristics(state, o).has_keyword("Phasing")]
    phase_out(game, going)
    phase_in(game, coming)


@effect("phase_out")
def _phase_out(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """'It phases out' / 'target creature phases out' (702.26)."""
    phase_out(game, objects(game, ctx, params["what"]))


@matcher("phases_out", "phased_out")
@matcher("phases_in", "phased_in")
def _phases(game: Game, event, value, source) -> bool:
    """'Whenever this creature phases out' / 'phases in' (self)."""
    return value == "self" and event.data["uid"] == source.uid
