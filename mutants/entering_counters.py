"""Mutants for which counters are put by an effect, as Doubling Season asks ('if an effect would put one
or more counters ...'): those a permanent enters with (614.1c; 306.5b, 714.3a), a counter an effect
moves (122.5) or puts of a kind its controller chose (609.1); not a Saga's turn-based lore counter
(714.3c) nor a loyalty ability's cost (606.4). Each is named for the rule it breaks
(cases/counters/doubling-season-*)."""

from __future__ import annotations

from mutants.patching import Patcher, mutant


@mutant("entering-counters-not-by-an-effect", "the counters a permanent enters with are put on it as by a rule, "
        "not by the replacement effect of an 'enters with' ability, so what modifies only the counters an effect "
        "puts leaves a planeswalker's loyalty and a Saga's first lore counter alone", ["122.6", "306.5b", "714.3a"])
def _entering_not_by_effect(p: Patcher) -> None:
    from reference_engine import ops

    def put_entering_counters(game, new, counters):
        for kind, amount in (counters or {}).items():
            amount = yield from ops.counters_to_put(game, new, kind, amount, new.controller, by_effect=False)
            if amount > 0:
                before = new.counters.get(kind, 0)
                new.counters[kind] += amount
                ops.emit(game, "counters_put", object_id=new.id, uid=new.uid, counter=kind, before=before,
                         after=new.counters[kind])
                game.state.touch()
    p.replace("ops", "put_entering_counters", put_entering_counters)


@mutant("turn-based-lore-counter-by-an-effect", "the lore counter put on a Saga as its controller's precombat main "
        "phase begins is put as by an effect, so 'if an effect would put counters' modifies it", ["714.3c"])
def _turn_based_lore_by_effect(p: Patcher) -> None:
    from reference_engine import ops
    from reference_engine.layers import characteristics

    def add_lore_counters(game):
        state = game.state
        for obj in state.battlefield():
            chars = characteristics(state, obj)
            if "Saga" in chars.subtypes and chars.controller == state.active:
                ops.add_counters_unasked(game, obj, "lore", 1, by=state.active, by_effect=True)
    p.replace("sagas", "add_lore_counters", add_lore_counters)


@mutant("loyalty-cost-counters-by-an-effect", "the loyalty counters a loyalty ability's cost puts on a planeswalker "
        "are put as by an effect, so 'if an effect would put counters' modifies the cost", ["606.4"])
def _loyalty_cost_by_effect(p: Patcher) -> None:
    def wrapper(original):
        def add_counters(game, obj, kind, amount, by=None, *, by_effect=False):
            return (yield from original(game, obj, kind, amount, by, by_effect=by_effect or kind == "loyalty"))
        return add_counters
    p.wrap("ops", "add_counters", wrapper)


def _not_by_effect_in(p: Patcher, effect_name: str) -> None:
    """The effect `effect_name` puts its counters as by no effect (by_effect=False)."""
    from reference_engine import ops
    from reference_engine.effects import EFFECTS

    original = EFFECTS[effect_name]

    def run_effect(game, ctx, params):
        def add_counters(game, obj, kind, amount, by=None, *, by_effect=False):
            return (yield from add(game, obj, kind, amount, by, by_effect=False))
        add, ops.add_counters = ops.add_counters, add_counters
        try:
            return (yield from original(game, ctx, params))
        finally:
            ops.add_counters = add
    p.set_item(EFFECTS, effect_name, run_effect)


@mutant("moved-counter-not-by-an-effect", "a counter an effect moves onto a permanent is put on it as by no effect, so "
        "'if an effect would put counters' doesn't modify it", ["122.5"])
def _moved_not_by_effect(p: Patcher) -> None:
    _not_by_effect_in(p, "move_counter")


@mutant("chosen-counter-not-by-an-effect", "a counter a resolving spell puts on a permanent, of the kind its controller "
        "chose, is put as by the player, not by the spell's effect, so 'if an effect would put counters' doesn't "
        "modify it", ["609.1"])
def _chosen_not_by_effect(p: Patcher) -> None:
    _not_by_effect_in(p, "add_or_remove_counter")


@mutant("blight-counters-not-by-an-effect", "the -1/-1 counters a player puts on a creature when an ability tells them "
        "to blight are put as by the player, not by the ability's effect", ["701.68a", "609.1"])
def _blight_not_by_effect(p: Patcher) -> None:
    _not_by_effect_in(p, "blight")
