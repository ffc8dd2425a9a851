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


@mutant("discard-any-number-of-cards", "'discards two cards' is satisfied by discarding any number of cards from a "
        "hand that holds more: the effect needn't do as much as possible", ["609.3"])
def _discard_any_number(p: Patcher) -> None:
    p.replace("resolution_effects", "discards_accepted",
              lambda state, player, hand, count, chosen: 0 < len(set(chosen)) and set(chosen) <= set(hand))


@mutant("discard-from-another-hand", "a card discarded by a player may be one in another player's hand",
        ["701.9a"])
def _discard_from_another_hand(p: Patcher) -> None:
    from reference_engine.model import Zone

    def accept(state, player, hand, count, chosen):
        in_a_hand = {o.id for o in state.objects.values() if o.zone is Zone.HAND}
        return len(set(chosen)) == count and set(chosen) <= in_a_hand
    p.replace("resolution_effects", "discards_accepted", accept)


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
@mutant("sacrifice-cost-paid-in-part", "'Sacrifice two Saprolings' is paid by sacrificing one: a partial payment "
        "of an activation cost is allowed", ["601.2h", "602.2b"])
def _sacrifice_cost_in_part(p: Patcher) -> None:
    def check_sacrifice_count(chosen, count) -> None:  # one or more, up to the count
        from reference_engine.moves import Illegal

        if not 0 < len(set(chosen)) == len(chosen) <= count:
            raise Illegal(f"choose up to {count} different permanents to sacrifice for this cost")
    p.replace("casting", "check_sacrifice_count", check_sacrifice_count)


@mutant("sacrifice-cost-paid-with-other-permanents", "'Sacrifice two Saprolings' is paid with any two permanents "
        "the player controls, Saprolings or not", ["118.3"])
def _sacrifice_cost_any_kind(p: Patcher) -> None:
    p.replace("casting", "check_sacrificed_kind", lambda chars, wanted: None)


# --- modal spells (700.2) -------------------------------------------------------------------------
@mutant("same-mode-chosen-twice", "a mode of a 'choose two' spell may be chosen twice, though the spell doesn't "
        "say so", ["700.2d"])
def _same_mode_twice(p: Patcher) -> None:
    p.replace("modal_spells", "check_modes_differ", lambda name, modes: None)


@mutant("any-number-of-modes", "a modal spell may be cast with any number of its modes, not the number it says "
        "to choose", ["601.2b", "700.2"])
def _any_number_of_modes(p: Patcher) -> None:
    def check_mode_count(name, modes, least, most) -> None:  # at least one, as many as the player likes
        from reference_engine.moves import Illegal

        if not modes:
            raise Illegal(f"choose modes of {name}")
    p.replace("modal_spells", "check_mode_count", check_mode_count)


@mutant("modes-happen-last-printed-first", "the chosen modes of a modal spell happen in the reverse of their "
        "printed order", ["608.2c", "700.2"])
def _modes_reversed(p: Patcher) -> None:
    from reference_engine.modal_triggers import _shifted

    def wrapper(original):
        def with_modes(data, modes):
            made = original(data, modes)
            if "modes" not in data:
                return made
            steps, offset = [], 0
            for index in sorted(modes):
                mode = data["modes"][index]
                steps.append(_shifted(list(mode["effect"]), offset))
                offset += len(mode.get("targets", []))
            return {**made, "effect": [step for mode_steps in reversed(steps) for step in mode_steps]}
        return with_modes
    p.wrap("modal_spells", "with_modes", wrapper)


@mutant("copy-of-a-modal-spell-without-its-modes", "a copy of a modal spell has none of the modes chosen for the "
        "original, so it does nothing", ["700.2g", "707.10"])
def _copy_without_modes(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS
    from reference_engine.model import Zone

    original = EFFECTS["copy_spell"]

    def copy_spell(game, ctx, params):
        before = {o.id for o in game.state.objects.values() if o.zone is Zone.STACK}
        result = yield from original(game, ctx, params)
        for obj in game.state.objects.values():
            if obj.zone is Zone.STACK and obj.spell_copy and obj.id not in before:
                obj.modes = ()
        return result
    p.set_item(EFFECTS, "copy_spell", copy_spell)


@mutant("sacrificed-to-its-controllers-graveyard", "a sacrificed permanent goes to its controller's graveyard, not "
        "its owner's", ["701.21a"])
def _sacrificed_to_controllers_graveyard(p: Patcher) -> None:
    from reference_engine.layers import characteristics

    def wrapper(original):
        def sacrifice_together(game, objs):
            for obj in objs:
                obj.owner = characteristics(game.state, obj).controller
            return original(game, objs)
        return sacrifice_together
    p.wrap("ops", "sacrifice_together", wrapper)
