"""Mutants of mana, costs, casting, activating and resolving (rules 106, 107.3-107.6, 117, 118, 601,
602, 605, 608): each breaks one rule the way an engine might, named for what it gets wrong."""

from __future__ import annotations

from collections import Counter

from mutants.patching import Patcher, mutant


def _no_effect(game, ctx, params):
    return None


# --- mana (106, 605) ------------------------------------------------------------------------------
@mutant("spell-mana-not-added", "mana added by a spell or a non-mana ability as it resolves is lost", ["106.3"])
def _spell_mana_not_added(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS

    p.set_item(EFFECTS, "add_mana", _no_effect)


@mutant("mana-spell-is-a-mana-ability", "a spell that only adds mana resolves at once, like a mana ability", ["605.5b"])
def _mana_spell_is_mana_ability(p: Patcher) -> None:
    from reference_engine import casting, effects, ops
    from reference_engine.layers import characteristics
    from reference_engine.model import Zone

    original = casting.cast

    def cast(game, move):
        original(game, move)
        state = game.state
        item = state.stack[-1]
        obj = state.objects[item.object_id]
        ability = casting.spell_ability(characteristics(state, obj))
        steps = ability.data.get("effect", []) if ability else []
        if steps and all("add_mana" in step and isinstance(step["add_mana"], str) for step in steps):
            state.stack.remove(item)
            ctx = effects.Ctx(item.controller, obj.id, obj.uid, "", None)
            for _ in effects.run(game, ctx, steps):
                pass
            ops.move(game, obj, Zone.GRAVEYARD)
    p.replace("casting", "cast", cast)


@mutant("targeted-mana-ability-is-a-mana-ability", "an activated ability with a target that adds mana resolves at once, "
        "without the stack", ["605.5a"])
def _targeted_mana_ability(p: Patcher) -> None:
    from reference_engine import casting, ops
    from reference_engine.model import Zone

    original = casting.activate

    def activate(game, move):
        original(game, move)
        state = game.state
        item = state.stack[-1] if state.stack else None
        if item is None or item.is_spell or not item.targets:
            return
        steps = item.ability.data.get("effect", [])
        if any("add_mana" in step for step in steps):
            state.stack.remove(item)
            for target in item.targets:
                obj = state.objects.get(target.value)
                if obj is not None:
                    ops.move(game, obj, Zone.EXILE)
            state.players[item.controller].pool["W"] += 1
    p.replace("casting", "activate", activate)


@mutant("activated-mana-abilities-use-the-stack", "an activated mana ability's mana is added only when the ability "
        "resolves from the stack", ["605.3b", "605.1a"])
def _activated_mana_abilities_use_stack(p: Patcher) -> None:
    from reference_engine import casting
    from reference_engine.layers import characteristics
    from reference_engine.mana import format_pool
    from reference_engine.model import Ability, StackItem

    original = casting.activate

    def activate(game, move):
        state = game.state
        obj = state.objects.get(move.object_id)
        abilities = characteristics(state, obj).activated_abilities() if obj is not None else []
        is_mana = 0 <= move.ability_index < len(abilities) and abilities[move.ability_index].kind == "mana"
        pool = state.players[move.player].pool
        before = Counter(pool)
        original(game, move)
        if not is_mana:
            return
        gained = pool - before
        pool.clear()
        pool.update(before)
        ability = Ability("activated", {"effect": [{"add_mana": format_pool(gained)}]} if gained else {"effect": []})
        state.stack.append(StackItem(id=state.new_id(), controller=move.player, ability=ability,
                                     source_id=obj.id, source_uid=obj.uid, source_name=characteristics(state, obj).name))
    p.replace("casting", "activate", activate)


@mutant("any-color-includes-colorless", "'one mana of any color' may be colorless mana", ["106.1a"])
def _any_color_includes_colorless(p: Patcher) -> None:
    from reference_engine.mana import MANA_TYPES

    def wrapper(original):
        def base_options(game, obj, ability, controller, visiting=frozenset()):
            spec = ability.data["add"]
            if isinstance(spec, dict) and "any_color" in spec:
                return set(MANA_TYPES), int(spec["any_color"])
            return original(game, obj, ability, controller, visiting)
        return base_options
    p.wrap("manaprod", "base_options", wrapper)


@mutant("mana-pool-never-empties", "unspent mana stays in the pool from one step to the next", ["106.4"])
def _mana_pool_never_empties(p: Patcher) -> None:
    from reference_engine import combat
    from reference_engine.model import Step

    def end_step(game, step):
        if step is Step.END_OF_COMBAT:
            combat.end_combat(game)
    p.replace("turn", "_end_step", end_step)


@mutant("leftover-mana-lost-when-paying", "mana left in the pool after paying a cost is lost at once", ["118.3a", "106.4"])
def _leftover_mana_lost(p: Patcher) -> None:
    def wrapper(original):
        def pay_mana(game, player, cost, x, payments):
            original(game, player, cost, x, payments)
            game.state.players[player].pool.clear()
        return pay_mana
    p.wrap("casting", "pay_mana", wrapper)


# --- mana symbols in costs (107.4) ----------------------------------------------------------------
def _rewrite_costs(p: Patcher, rewrite) -> None:
    """Patch mana.pay so each symbol of the cost is first rewritten by `rewrite` (symbol -> symbol)."""
    from reference_engine.mana import ManaCost

    def wrapper(original):
        def pay(pool, cost):
            return original(pool, ManaCost(tuple(rewrite(s) for s in cost.symbols)))
        return pay
    p.wrap("mana", "pay", wrapper)


@mutant("colored-cost-paid-with-any-mana", "a colored mana symbol in a cost can be paid with any type of mana", ["107.4a"])
def _colored_paid_with_any(p: Patcher) -> None:
    _rewrite_costs(p, lambda s: "1" if s in ("W", "U", "B", "R", "G") else s)


@mutant("colorless-cost-paid-with-any-mana", "{C} in a cost is paid like generic mana", ["107.4c"])
def _colorless_paid_with_any(p: Patcher) -> None:
    _rewrite_costs(p, lambda s: "1" if s == "C" else s)


@mutant("hybrid-cost-paid-with-anything", "a hybrid symbol is paid like {1}, with any mana", ["107.4e"])
def _hybrid_paid_with_anything(p: Patcher) -> None:
    _rewrite_costs(p, lambda s: "1" if "/" in s else s)


@mutant("hybrid-cost-only-first-half", "a hybrid symbol can be paid only the way its first half says", ["107.4e"])
def _hybrid_first_half(p: Patcher) -> None:
    _rewrite_costs(p, lambda s: s.split("/")[0] if "/" in s else s)


@mutant("generic-cost-refuses-colorless", "generic mana in a cost can't be paid with colorless mana", ["107.4b"])
def _generic_refuses_colorless(p: Patcher) -> None:
    from reference_engine.mana import COLORS

    def pay_generic(left, generic):
        if sum(left[c] for c in COLORS) < generic:
            return None
        for mana in COLORS:
            take = min(left[mana], generic)
            left[mana] -= take
            generic -= take
        return left
    p.replace("mana", "_pay_generic", pay_generic)


@mutant("zero-cost-is-no-cost", "a mana cost of {0} is treated as no mana cost, so the spell can't be cast", ["118.5", "107.4d"])
def _zero_cost_is_no_cost(p: Patcher) -> None:
    from reference_engine import casting
    from reference_engine.layers import characteristics
    from reference_engine.moves import Illegal

    original = casting.cast

    def cast(game, move):
        obj = game.state.objects.get(move.object_id)
        cost = characteristics(game.state, obj).mana_cost if obj is not None else None
        if cost is not None and cost.symbols == ("0",):
            raise Illegal("no mana cost")
        original(game, move)
    p.replace("casting", "cast", cast)


@mutant("no-mana-abilities-while-paying", "mana abilities can't be activated while a cost is being paid, only "
        "beforehand", ["601.2g", "117.1d", "605.3a"])
def _no_mana_abilities_while_paying(p: Patcher) -> None:
    from reference_engine.moves import Illegal

    def wrapper(original):
        def pay_mana(game, player, cost, x, payments):
            if payments:
                raise Illegal("mana abilities can't be activated now")
            original(game, player, cost, x, payments)
        return pay_mana
    p.wrap("casting", "pay_mana", wrapper)


# --- resolving (608) --------------------------------------------------------------------------------
@mutant("resolved-spell-exiled", "an instant or sorcery is exiled, not put into its owner's graveyard, as it resolves",
        ["608.2n"])
def _resolved_spell_exiled(p: Patcher) -> None:
    from reference_engine import ops
    from reference_engine.model import Zone

    def wrapper(original):
        def resolve_spell(game, item):
            uid = game.state.objects[item.object_id].uid
            yield from original(game, item)
            card = game.state.find_uid(uid)
            if card is not None and card.zone is Zone.GRAVEYARD:
                ops.move(game, card, Zone.EXILE)
        return resolve_spell
    p.wrap("resolve", "_resolve_spell", wrapper)
