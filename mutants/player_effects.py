"""Mutants for effects that make a player (often a targeted one) discard or sacrifice, for costs that
sacrifice several permanents, and for modal spells: each named for the rule it breaks (cases/discard/,
cases/sacrifice/, cases/costs/, cases/modes/)."""

from __future__ import annotations

from dataclasses import replace

from mutants.patching import Patcher, mutant


def _asked_of_the_controller(procedure, ctx):
    """Run `procedure`, asking its decisions of the spell's or ability's controller instead."""
    move = None
    try:
        decision = procedure.send(None)
        while True:
            move = yield replace(decision, player=ctx.controller)
            decision = procedure.send(move)
    except StopIteration as done:
        return done.value


# --- discarding (701.9) ---------------------------------------------------------------------------
@mutant("discard-chosen-by-the-caster", "'target player discards two cards': the spell's controller chooses the "
        "cards, not the player who discards them", ["701.9b"])
def _discard_chosen_by_caster(p: Patcher) -> None:
    def wrapper(original):
        def discard_by(game, ctx, player, count):
            return (yield from _asked_of_the_controller(original(game, ctx, player, count), ctx))
        return discard_by
    p.wrap("resolution_effects", "_discard_by", wrapper)


@mutant("discard-nothing-from-too-small-a-hand", "a player told to discard more cards than they hold discards "
        "nothing, instead of as many as possible", ["609.3"])
def _discard_nothing_if_too_few(p: Patcher) -> None:
    from reference_engine.model import Zone

    def wrapper(original):
        def discard_by(game, ctx, player, count):
            if len(game.state.zone_ids(Zone.HAND, player)) < count:
                return
            yield from original(game, ctx, player, count)
        return discard_by
    p.wrap("resolution_effects", "_discard_by", wrapper)


def _discard_with_check(accept):
    """A `_discard_by` whose check of the chosen cards is `accept(state, player, hand, count, chosen)`."""
    def discard_by(game, ctx, player, count):
        from reference_engine import ops
        from reference_engine.model import Zone
        from reference_engine.moves import Decision

        state = game.state
        hand = list(state.zone_ids(Zone.HAND, player))
        count = min(count, len(hand))
        if count == 0:
            return
        decision = Decision(player, "objects", f"discard {count} card(s) ({ctx.source_name})",
                            {"candidates": hand, "min": count, "max": count})
        while True:
            move = yield decision
            chosen = move.objects
            if chosen is not None and accept(state, player, hand, count, chosen):
                break
            state.rejection = f"choose exactly {count} card(s) in your hand to discard"
        for object_id in chosen:
            ops.move(game, state.objects[object_id], Zone.GRAVEYARD)
    return discard_by


@mutant("discard-any-number-of-cards", "'discards two cards' is satisfied by discarding any number of cards from a "
        "hand that holds more: the effect needn't do as much as possible", ["609.3"])
def _discard_any_number(p: Patcher) -> None:
    p.replace("resolution_effects", "_discard_by",
              _discard_with_check(lambda state, player, hand, count, chosen: 0 < len(set(chosen)) and set(chosen) <= set(hand)))


@mutant("discard-from-another-hand", "a card discarded by a player may be one in another player's hand",
        ["701.9a"])
def _discard_from_another_hand(p: Patcher) -> None:
    from reference_engine.model import Zone

    def accept(state, player, hand, count, chosen):
        in_a_hand = {o.id for o in state.objects.values() if o.zone is Zone.HAND}
        return len(set(chosen)) == count and set(chosen) <= in_a_hand
    p.replace("resolution_effects", "_discard_by", _discard_with_check(accept))


# --- sacrificing (701.21a) ------------------------------------------------------------------------
@mutant("sacrifice-chosen-by-the-caster", "'target player sacrifices a creature': the spell's controller chooses "
        "which, not the player who sacrifices it", ["701.21a"])
def _sacrifice_chosen_by_caster(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS

    original = EFFECTS["player_sacrifices"]

    def player_sacrifices(game, ctx, params):
        return (yield from _asked_of_the_controller(original(game, ctx, params), ctx))
    p.set_item(EFFECTS, "player_sacrifices", player_sacrifices)


@mutant("sacrifice-is-destruction", "sacrificing a permanent destroys it, so indestructible or a regeneration "
        "shield stops it", ["701.21a"])
def _sacrifice_is_destruction(p: Patcher) -> None:
    from reference_engine import ops

    def wrapper(original):
        def sacrifice_together(game, objs):
            moved = [ops.destroy(game, o) for o in objs]
            return [o for o in moved if o is not None]
        return sacrifice_together
    p.wrap("ops", "sacrifice_together", wrapper)


@mutant("sacrifice-a-permanent-of-another-player", "a player told to sacrifice a creature may choose one "
        "another player controls", ["701.21a"])
def _sacrifice_anothers_permanent(p: Patcher) -> None:
    from reference_engine import ops
    from reference_engine.effects import EFFECTS, targets_of
    from reference_engine.filters import FilterContext, matches
    from reference_engine.moves import choose_one

    def player_sacrifices(game, ctx, params):
        state = game.state
        for target in targets_of(game, ctx, params["who"]):
            if target.kind != "player":
                continue
            player = str(target.value)
            fctx = FilterContext(player, ctx.source_id)
            options = [o.id for o in state.battlefield() if matches(state, o, params["filter"], fctx)]
            if options:
                chosen = yield from choose_one(state, player, "choose a permanent to sacrifice", options,
                                               "choose exactly one of the permanents offered")
                ops.sacrifice(game, state.objects[chosen])
    p.set_item(EFFECTS, "player_sacrifices", player_sacrifices)


# --- a cost that sacrifices several permanents (601.2h, 118.3) --------------------------------------
def _sacrifice_cost_with(*, at_least_one: bool, any_kind: bool):
    """`casting._sacrifice_cost` with its count check (all N permanents, or at least one) and its
    check of what each permanent is (the kind the cost names, or any) chosen."""
    def sacrifice_cost(game, move, obj, cost):
        from reference_engine import ops
        from reference_engine.casting import _own_object
        from reference_engine.layers import characteristics
        from reference_engine.model import Zone
        from reference_engine.moves import Illegal

        count, chosen = cost.sacrifice_count, set(move.sacrifice)
        if len(chosen) != len(move.sacrifice) or not (0 < len(chosen) <= count if at_least_one else len(chosen) == count):
            raise Illegal(f"choose {count} different permanents to sacrifice for this cost")
        victims = []
        for object_id in move.sacrifice:
            victim = _own_object(game, move.player, object_id, Zone.BATTLEFIELD, "permanent")
            chars = characteristics(game.state, victim)
            if cost.sacrifice_other and victim.id == obj.id:
                raise Illegal("this cost needs another permanent")
            wanted = [s.capitalize() for s in cost.sacrifice]
            if not any_kind and not any(w in chars.types or chars.has_subtype(w) for w in wanted):
                raise Illegal(f"{chars.name} is not {' or '.join(wanted)}")
            victims.append(victim)
        ops.sacrifice_together(game, victims)
    return sacrifice_cost


@mutant("sacrifice-cost-paid-in-part", "'Sacrifice two Saprolings' is paid by sacrificing one: a partial payment "
        "of an activation cost is allowed", ["601.2h", "602.2b"])
def _sacrifice_cost_in_part(p: Patcher) -> None:
    p.replace("casting", "_sacrifice_cost", _sacrifice_cost_with(at_least_one=True, any_kind=False))


@mutant("sacrifice-cost-paid-with-other-permanents", "'Sacrifice two Saprolings' is paid with any two permanents "
        "the player controls, Saprolings or not", ["118.3"])
def _sacrifice_cost_any_kind(p: Patcher) -> None:
    p.replace("casting", "_sacrifice_cost", _sacrifice_cost_with(at_least_one=False, any_kind=True))
