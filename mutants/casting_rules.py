"""Mutants of mana, costs, casting, activating and resolving (rules 106, 107.3-107.6, 117, 118, 601,
602, 605, 608): each breaks one rule the way an engine might, named for what it gets wrong."""

from __future__ import annotations

import weakref
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

    original = casting.cast_with_optional_costs  # once the casting is done (its costs read the spell on the stack)

    def cast(game, move):
        yield from original(game, move)
        state = game.state
        item = state.stack[-1] if state.stack else None
        if item is None or not item.is_spell:
            return
        obj = state.objects[item.object_id]
        ability = casting.spell_ability(characteristics(state, obj))
        steps = ability.data.get("effect", []) if ability else []
        if steps and all("add_mana" in step and isinstance(step["add_mana"], str) for step in steps):
            state.stack.remove(item)
            ctx = effects.Ctx(item.controller, obj.id, obj.uid, "", None)
            for _ in effects.run(game, ctx, steps):
                pass
            ops.move(game, obj, Zone.GRAVEYARD)
    p.replace("casting", "cast_with_optional_costs", cast)


@mutant("targeted-mana-ability-is-a-mana-ability", "an activated ability with a target that adds mana resolves at once, "
        "without the stack", ["605.5a"])
def _targeted_mana_ability(p: Patcher) -> None:
    from reference_engine import casting, ops
    from reference_engine.model import Zone

    original = casting.activate

    def activate(game, move):
        yield from original(game, move)
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
        name = characteristics(state, obj).name if obj is not None else ""  # before a cost sacrifices it
        pool = state.players[move.player].pool
        before = Counter(pool)
        yield from original(game, move)
        if not is_mana:
            return
        gained = pool - before
        pool.clear()
        pool.update(before)
        ability = Ability("activated", {"effect": [{"add_mana": format_pool(gained)}]} if gained else {"effect": []})
        state.stack.append(StackItem(id=state.new_id(), controller=move.player, ability=ability,
                                     source_id=obj.id, source_uid=obj.uid, source_name=name))
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
        def pay_mana(game, player, cost, x, payments, **kwargs):
            yield from original(game, player, cost, x, payments, **kwargs)
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
        yield from original(game, move)
    p.replace("casting", "cast", cast)


@mutant("no-mana-abilities-while-paying", "mana abilities can't be activated while a cost is being paid, only "
        "beforehand", ["601.2g", "117.1d", "605.3a"])
def _no_mana_abilities_while_paying(p: Patcher) -> None:
    from reference_engine.moves import Illegal

    def wrapper(original):
        def pay_mana(game, player, cost, x, payments, **kwargs):
            if payments:
                raise Illegal("mana abilities can't be activated now")
            yield from original(game, player, cost, x, payments, **kwargs)
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


# --- casting (601) --------------------------------------------------------------------------------
@mutant("illegal-targets-accepted", "a spell or ability may be cast or activated with targets its text doesn't allow",
        ["601.2c", "601.2e"])
def _illegal_targets_accepted(p: Patcher) -> None:
    p.replace("targets", "check_targets", lambda *args, **kwargs: None)


@mutant("same-target-twice-for-one-word", "the same object may be chosen twice for one instance of the word 'target'",
        ["601.2c"])
def _same_target_twice(p: Patcher) -> None:
    def wrapper(original):
        def check_targets(game, specs, chosen, controller, source_id, describe=None):
            return original(game, [{k: v for k, v in s.items() if k != "word"} for s in specs], chosen, controller,
                            source_id, describe)
        return check_targets
    p.wrap("targets", "check_targets", wrapper)


@mutant("targets-always-different", "a spell's targets must all be different, even for separate words 'target'",
        ["601.2c"])
def _targets_always_different(p: Patcher) -> None:
    from reference_engine.moves import Illegal

    def wrapper(original):
        def check_targets(game, specs, chosen, controller, source_id, describe=None):
            original(game, specs, chosen, controller, source_id, describe)
            if len(set(chosen)) != len(chosen):
                raise Illegal("the same target twice")
        return check_targets
    p.wrap("targets", "check_targets", wrapper)


@mutant("up-to-targets-all-required", "'up to N targets' must have all N", ["601.2c"])
def _up_to_targets_required(p: Patcher) -> None:
    def wrapper(original):
        def check_targets(game, specs, chosen, controller, source_id, describe=None):
            return original(game, [{k: v for k, v in s.items() if k != "optional"} for s in specs], chosen,
                            controller, source_id, describe)
        return check_targets
    p.wrap("targets", "check_targets", wrapper)


@mutant("partial-payment-allowed", "a cost that can't be paid in full is paid as far as it goes and the spell is cast",
        ["601.2h"])
def _partial_payment(p: Patcher) -> None:
    def wrapper(original):
        def pay(pool, cost):
            left = original(pool, cost)
            return left if left is not None else type(pool)()
        return pay
    p.wrap("mana", "pay", wrapper)


@mutant("spell-x-forgotten-on-the-stack", "a spell's X is 0 once it is on the stack", ["107.3a", "107.3i"])
def _spell_x_forgotten(p: Patcher) -> None:
    from reference_engine import casting

    original = casting.cast

    def cast(game, move):
        yield from original(game, move)
        state = game.state
        item = state.stack[-1]
        if item.x:
            item.x = 0
            state.objects[item.object_id].x = 0
    p.replace("casting", "cast", cast)


@mutant("x-counts-one-off-the-stack", "an {X} in a card's mana cost counts 1 toward its mana value off the stack",
        ["107.3g"])
def _x_counts_one(p: Patcher) -> None:
    from reference_engine.mana import ManaCost

    original = ManaCost.mana_value

    def mana_value(self, x: int = 0) -> int:
        return original(self, x if x else 1) if self.x_count else original(self, x)
    p.set_attr(ManaCost, "mana_value", mana_value)


def _timing(p: Patcher, *, own_turn: bool = True, main_phase: bool = True, empty_stack: bool = True) -> None:
    from reference_engine.model import Step

    def sorcery_timing(game, player):
        state = game.state
        if own_turn and player != state.active:
            return "only during your own turn"
        if main_phase and state.step not in (Step.PRECOMBAT_MAIN, Step.POSTCOMBAT_MAIN):
            return "only during a main phase"
        if empty_stack and state.stack:
            return "only while the stack is empty"
        return None
    p.replace("casting", "sorcery_timing", sorcery_timing)


@mutant("sorcery-speed-ignores-the-stack", "sorceries, creatures and lands may be cast or played while the stack "
        "isn't empty", ["117.1a", "117.1c", "307.1"])
def _sorcery_speed_ignores_stack(p: Patcher) -> None:
    _timing(p, empty_stack=False)


@mutant("sorcery-speed-on-any-turn", "noninstant spells may be cast in any player's main phase", ["117.1a", "307.1"])
def _sorcery_speed_any_turn(p: Patcher) -> None:
    _timing(p, own_turn=False)


@mutant("cast-prohibitions-ignored", "'can't cast' effects don't stop anyone", ["601.3"])
def _cast_prohibitions_ignored(p: Patcher) -> None:
    p.replace("restrictions", "cast_prohibition", lambda game, player, spell: None)


@mutant("cast-prohibition-judged-before-choices", "a 'can't cast' effect judges the card before its X is chosen "
        "(X = 0)", ["601.3a", "601.6"])
def _cast_prohibition_before_choices(p: Patcher) -> None:
    def wrapper(original):
        def cast_prohibition(game, player, spell):
            saved = spell.x
            spell.x = 0 if saved is not None else None
            try:
                return original(game, player, spell)
            finally:
                spell.x = saved
        return cast_prohibition
    p.wrap("restrictions", "cast_prohibition", wrapper)


@mutant("cast-prohibition-stops-its-controller", "'your opponents can't cast' stops every player", ["601.3"])
def _cast_prohibition_everyone(p: Patcher) -> None:
    p.replace_in("restrictions", "_applies_to", lambda player, controller, who: True)


@mutant("unpayable-cost-paid-as-zero", "a card with no mana cost can be cast as if its cost were {0}", ["118.6"])
def _unpayable_cost_paid(p: Patcher) -> None:
    from reference_engine import casting
    from reference_engine.layers import characteristics
    from reference_engine.mana import ManaCost

    original = casting.cast

    def cast(game, move):
        obj = game.state.objects.get(move.object_id)
        if obj is not None:
            chars = characteristics(game.state, obj)
            if chars.mana_cost is None and "Land" not in chars.types:
                face = obj.card.faces[obj.face]
                object.__setattr__(face, "mana_cost", ManaCost(("0",)))
                obj.card.printed_cache.clear()
                try:
                    return (yield from original(game, move))
                finally:
                    object.__setattr__(face, "mana_cost", None)
                    obj.card.printed_cache.clear()
        return (yield from original(game, move))
    p.replace("casting", "cast", cast)


@mutant("cost-reductions-ignored", "'spells cost {1} less' doesn't change what is paid", ["601.2f", "118.7"])
def _cost_reductions_ignored(p: Patcher) -> None:
    p.replace("restrictions", "total_cost", lambda game, player, spell, cost: cost)


@mutant("cost-reduction-takes-colored-mana", "a generic cost reduction also removes colored mana from a cost with no "
        "generic part", ["118.7a"])
def _cost_reduction_colored(p: Patcher) -> None:
    from reference_engine.mana import ManaCost

    def reduce_generic(cost, amount):
        symbols = list(cost.symbols)
        while amount and symbols:
            generic = next((i for i, s in enumerate(symbols) if s.isdigit()), None)
            if generic is not None:
                left = int(symbols[generic]) - 1
                symbols[generic:generic + 1] = [str(left)] if left else []
            else:
                symbols.pop()
            amount -= 1
        return ManaCost(tuple(symbols))
    p.replace("restrictions", "reduce_generic", reduce_generic)


# --- priority (117) -------------------------------------------------------------------------------
def _priority_round(*, keep_after_acting: bool = True, to_active_after_resolution: bool = True,
                    passes_needed_all: bool = True, active_first: bool = True, sba_first: bool = True):
    """turn.priority_round with one of its rules changed."""
    from reference_engine.moves import Decision, Illegal, Pass
    from reference_engine.resolve import resolve_top
    from reference_engine.sba import before_priority
    from reference_engine import turn

    def priority_round(game):
        state = game.state
        state.priority = state.active if active_first else state.next_player(state.active)
        passes = 0
        checked = False
        while True:
            if not checked and sba_first:
                yield from before_priority(game)
            checked = False
            if state.over:
                return
            move = yield Decision(state.priority, "priority", "act or pass priority")
            if isinstance(move, Pass):
                passes += 1
                if passes < (len(state.players) if passes_needed_all else 1):
                    state.priority = state.next_player(state.priority)
                    checked = True
                    continue
                if not state.stack:
                    return
                controller = state.stack[-1].controller
                yield from resolve_top(game)
                state.priority = state.active if to_active_after_resolution else controller
                passes = 0
                continue
            saved = state.save()
            try:
                yield from turn._perform(game, move)
            except Illegal as exc:
                state.restore(saved)
                state.rejection = str(exc)
                continue
            passes = 0
            if not keep_after_acting:
                state.priority = state.next_player(state.priority)
    return priority_round


@mutant("priority-passes-after-acting", "after casting a spell or activating an ability, priority goes to the next "
        "player", ["117.3c"])
def _priority_passes_after_acting(p: Patcher) -> None:
    p.replace("turn", "priority_round", _priority_round(keep_after_acting=False))


@mutant("priority-to-controller-after-resolution", "after a spell resolves, its controller receives priority, not "
        "the active player", ["117.3b"])
def _priority_to_controller(p: Patcher) -> None:
    p.replace("turn", "priority_round", _priority_round(to_active_after_resolution=False))


@mutant("one-pass-resolves", "the top of the stack resolves (or the step ends) as soon as one player passes",
        ["117.4", "117.3d", "608.1"])
def _one_pass_resolves(p: Patcher) -> None:
    p.replace("turn", "priority_round", _priority_round(passes_needed_all=False))


@mutant("non-active-player-first", "the nonactive player receives priority first in each step", ["117.3a"])
def _non_active_first(p: Patcher) -> None:
    p.replace("turn", "priority_round", _priority_round(active_first=False))


@mutant("no-state-based-actions-before-priority", "state-based actions and waiting triggers are dealt with only "
        "after a player has passed", ["117.5", "117.2d", "117.2a"])
def _no_sba_before_priority(p: Patcher) -> None:
    p.replace("turn", "priority_round", _priority_round(sba_first=False))


@mutant("first-in-first-out", "the stack resolves from the bottom: the first spell cast resolves first",
        ["117.7", "608.1"])
def _first_in_first_out(p: Patcher) -> None:
    def wrapper(original):
        def resolve_top(game):
            stack = game.state.stack
            stack.insert(len(stack) - 1, stack.pop(0)) if len(stack) > 1 else None
            yield from original(game)
        return resolve_top
    p.wrap("resolve", "resolve_top", wrapper)


@mutant("anyone-may-act-without-priority", "a player may cast spells and activate abilities while another player "
        "holds priority", ["117.1"])
def _anyone_may_act(p: Patcher) -> None:
    from reference_engine.game import Game
    from reference_engine.moves import Illegal, answers

    def apply(self, move):
        decision = self.pending
        if decision is None:
            raise Illegal(self.over_reason())
        if move.player != decision.player and decision.kind != "priority":
            raise Illegal("not waiting for that player")
        if not answers(decision, move):
            raise Illegal(f"the game is waiting for {decision.describe()}")
        self.state.rejection = None
        self.pending = self._step(move)
        if self.state.rejection is not None:
            reason, self.state.rejection = self.state.rejection, None
            raise Illegal(reason)
    p.set_attr(Game, "apply", apply)


@mutant("draw-step-draws-nothing", "the active player doesn't draw in their draw step", ["504.1", "117.2c"])
def _draw_step_draws_nothing(p: Patcher) -> None:
    import types

    from reference_engine import ops

    proxy = types.SimpleNamespace(**{k: v for k, v in vars(ops).items() if not k.startswith("__")})
    proxy.draw = lambda game, player, count=1: None
    p.replace_in("turn", "ops", proxy)


# --- costs (118) ----------------------------------------------------------------------------------
@mutant("life-paid-beyond-life-total", "a player can pay more life than they have", ["118.3", "119.4"])
def _life_beyond_total(p: Patcher) -> None:
    p.replace("casting", "check_life_payment", lambda game, player, amount: None)


@mutant("life-cost-not-subtracted", "paying life as a cost leaves the life total as it was", ["118.3b"])
def _life_cost_not_subtracted(p: Patcher) -> None:
    from reference_engine import casting

    original = casting.activate

    def activate(game, move):
        life = game.state.players[move.player].life
        yield from original(game, move)
        game.state.players[move.player].life = life
    p.replace("casting", "activate", activate)


@mutant("mana-abilities-activated-automatically", "paying a mana cost first taps every untapped land its payer "
        "controls for mana", ["118.3c"])
def _mana_abilities_automatic(p: Patcher) -> None:
    from reference_engine.layers import characteristics
    from reference_engine.moves import ManaActivation

    def wrapper(original):
        def pay_mana(game, player, cost, x, payments, **kwargs):
            state = game.state
            listed = {a.object_id for a in payments}
            auto = tuple(ManaActivation(o.id) for o in state.battlefield()
                         if not o.tapped and o.id not in listed and characteristics(state, o).controller == player
                         and "Land" in characteristics(state, o).types)
            yield from original(game, player, cost, x, tuple(payments) + auto, **kwargs)
        return pay_mana
    p.wrap("casting", "pay_mana", wrapper)


@mutant("additional-cost-counts-in-mana-value", "a spell's paid additional cost is added to its mana value",
        ["118.8d"])
def _additional_cost_mana_value(p: Patcher) -> None:
    from dataclasses import replace

    from reference_engine.model import Zone

    def wrapper(original):
        def characteristics(state, obj):
            chars = original(state, obj)
            if obj.zone is Zone.STACK:
                item = next((i for i in state.stack if i.object_id == obj.id), None)
                if item is not None and item.optional_costs_paid:
                    extra = sum(a.additional_cost.mana_value() for a in chars.abilities
                                if a.kind == "keyword" and a.keyword in item.optional_costs_paid
                                and a.additional_cost is not None)
                    return replace(chars, mana_value=chars.mana_value + extra)
            return chars
        return characteristics
    p.wrap("layers", "characteristics", wrapper)


@mutant("optional-additional-cost-always-paid", "declining an optional additional cost (buyback) pays it anyway",
        ["118.8b"])
def _optional_cost_always_paid(p: Patcher) -> None:
    from reference_engine.moves import Choose

    def wrapper(original):
        def ask(game, player, keyword, cost, name):
            inner = original(game, player, keyword, cost, name)
            answer = None
            try:
                decision = inner.send(None)
                while True:
                    answer = yield decision
                    if isinstance(answer, Choose) and answer.yes is False:
                        answer = Choose(answer.player, yes=True)
                    decision = inner.send(answer)
            except StopIteration:
                return
        return ask
    p.wrap("casting", "_ask_optional_cost", wrapper)


@mutant("unless-cost-ignored", "'sacrifice this unless you sacrifice a creature' sacrifices it even when the other "
        "cost is paid", ["118.12a"])
def _unless_cost_ignored(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS

    original = EFFECTS["sacrifice_unless"]

    def sacrifice_unless(game, ctx, params):
        yield from original(game, ctx, params)
        from reference_engine import effects, ops
        for obj in effects.objects(game, ctx, "self"):
            if obj.zone.value == "battlefield":
                ops.sacrifice(game, obj)
    p.set_item(EFFECTS, "sacrifice_unless", sacrifice_unless)


@mutant("unless-clause-never-sacrifices", "'sacrifice this unless you sacrifice a creature' keeps it when no creature "
        "is sacrificed", ["118.12a"])
def _unless_never_sacrifices(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS
    from reference_engine import ops

    original = EFFECTS["sacrifice_unless"]

    def sacrifice_unless(game, ctx, params):
        saved = ops.sacrifice
        ops.sacrifice = lambda game, obj: None if obj.id == ctx.source_id else saved(game, obj)
        try:
            yield from original(game, ctx, params)
        finally:
            ops.sacrifice = saved
    p.set_item(EFFECTS, "sacrifice_unless", sacrifice_unless)


@mutant("impossible-option-offered", "a player who controls no creature is still asked to choose one to sacrifice",
        ["608.2d"])
def _impossible_option_offered(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS
    from reference_engine.moves import Decision

    original = EFFECTS["sacrifice_unless"]

    def sacrifice_unless(game, ctx, params):
        yield Decision(ctx.controller, "objects", "choose a creature to sacrifice", {"candidates": [], "min": 0, "max": 1})
        yield from original(game, ctx, params)
    p.set_item(EFFECTS, "sacrifice_unless", sacrifice_unless)


@mutant("if-you-do-ignores-the-choice", "'you may pay {R}. If you do, ...' goes on as if paid when the player "
        "declines", ["118.12"])
def _if_you_do_ignores_choice(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS, run

    original = EFFECTS["may_pay"]

    def may_pay(game, ctx, params):
        inner = original(game, ctx, params)
        declined = False
        try:
            decision = inner.send(None)
            while True:
                answer = yield decision
                declined = answer.yes is False
                decision = inner.send(answer)
        except StopIteration:
            pass
        if declined:
            yield from run(game, ctx, params["then"])
    p.set_item(EFFECTS, "may_pay", may_pay)


@mutant("no-mana-abilities-while-resolving", "mana abilities can't be activated to pay a cost while a spell or "
        "ability resolves", ["608.2g", "605.3a", "117.1d"])
def _no_mana_abilities_while_resolving(p: Patcher) -> None:
    from reference_engine import optional_effects

    original = optional_effects._payment_problem

    def payment_problem(game, player, cost, payments):
        return "no mana abilities while resolving" if payments else original(game, player, cost, payments)
    p.replace_in("optional_effects", "_payment_problem", payment_problem)


# --- activating (602) -----------------------------------------------------------------------------
@mutant("anyone-activates-any-ability", "a player may activate the abilities of permanents they don't control",
        ["602.2"])
def _anyone_activates(p: Patcher) -> None:
    from reference_engine.model import Zone

    def wrapper(original):
        def own_object(game, player, object_id, zone, what):
            obj = game.state.objects.get(object_id)
            if zone is Zone.BATTLEFIELD and obj is not None and obj.zone is zone:
                return obj
            return original(game, player, object_id, zone, what)
        return own_object
    p.wrap("casting", "_own_object", wrapper)


@mutant("activate-once-each-turn-ignored", "'Activate only once each turn' doesn't limit activations", ["602.1b"])
def _once_each_turn_ignored(p: Patcher) -> None:
    p.replace("casting", "_check_once_each_turn", lambda game, obj, index, data: None)


@mutant("once-each-turn-means-once", "'Activate only once each turn' allows one activation for the rest of the game",
        ["602.1b"])
def _once_each_turn_once(p: Patcher) -> None:
    from reference_engine.moves import Illegal

    def check(game, obj, index, data):
        if data.get("limit") == "once_each_turn":
            if index in obj.activated_turns:
                raise Illegal("already activated")
            obj.activated_turns[index] = game.state.turn
    p.replace("casting", "_check_once_each_turn", check)


@mutant("activation-prohibitions-ignored", "'activated abilities of creatures can't be activated' stops nothing",
        ["602.5"])
def _activation_prohibitions_ignored(p: Patcher) -> None:
    p.replace("restrictions", "activation_prohibition", lambda game, obj, mana_ability=False: None)


@mutant("ability-leaves-with-its-source", "an ability on the stack is removed when its source leaves the "
        "battlefield", ["602.2a", "113.7a"])
def _ability_leaves_with_source(p: Patcher) -> None:
    from reference_engine.model import Zone
    from reference_engine.state import GameState

    original = GameState.move

    def move(self, obj, to, **kwargs):
        was = obj.zone
        new = original(self, obj, to, **kwargs)
        if was is Zone.BATTLEFIELD:
            self.stack[:] = [i for i in self.stack if i.is_spell or i.source_id != obj.id]
        return new
    p.set_attr(GameState, "move", move)


# --- resolving (608) ------------------------------------------------------------------------------
@mutant("one-illegal-target-stops-the-spell", "a spell with any illegal target doesn't resolve at all", ["608.2b"])
def _one_illegal_target(p: Patcher) -> None:
    def wrapper(original):
        def legal_flags(game, specs, item):
            flags = original(game, specs, item)
            return tuple(False for _ in flags) if not all(flags) else flags
        return legal_flags
    p.wrap("resolve", "_legal_flags", wrapper)


@mutant("instructions-in-reverse-order", "a spell's first two instructions are followed in the opposite order",
        ["608.2c"])
def _instructions_reversed(p: Patcher) -> None:
    def wrapper(original):
        def run(game, ctx, steps):
            steps = list(steps or [])
            # Only the first two: a spell's last instruction is often 'exile this', and a spell gone from
            # the stack while it still resolves is no state an engine can be in.
            yield from original(game, ctx, steps[1::-1] + steps[2:])
        return run
    p.wrap("effects", "run", wrapper)


@mutant("nonactive-player-chooses-first", "for 'each player' effects the nonactive player chooses first",
        ["608.2e", "101.4"])
def _nonactive_chooses_first(p: Patcher) -> None:
    from reference_engine.state import GameState

    def apnap(self):
        order = self.turn_order
        start = order.index(self.active)
        order = order[start:] + order[:start]
        return order[1:] + order[:1]
    p.set_attr(GameState, "apnap", apnap)


@mutant("color-check-needs-only-that-color", "'green creatures' means creatures that are only green", ["608.2j"])
def _color_only(p: Patcher) -> None:
    from reference_engine.filters import CONDITIONS

    p.set_item(CONDITIONS, "colors", lambda state, obj, value, ctx, chars: set(chars.colors) == set(value))


@mutant("aura-enters-unattached", "an Aura spell enters the battlefield attached to nothing", ["608.3c"])
def _aura_unattached(p: Patcher) -> None:
    def wrapper(original):
        def resolve_spell(game, item):
            uid = game.state.objects[item.object_id].uid
            yield from original(game, item)
            permanent = game.state.find_uid(uid)
            if permanent is not None and permanent.zone.value == "battlefield":
                permanent.attached_to = None
                game.state.touch()
        return resolve_spell
    p.wrap("resolve", "_resolve_spell", wrapper)


# --- more mana, costs and resolving ---------------------------------------------------------------
@mutant("restricted-mana-spent-on-anything", "mana that can be spent only on creature spells pays for any spell",
        ["106.6"])
def _restricted_spent_on_anything(p: Patcher) -> None:
    p.replace("casting", "spendable_on", lambda game, entry, spell: True)


@mutant("restricted-mana-never-spent", "mana with a spending restriction can't be spent at all", ["106.6"])
def _restricted_never_spent(p: Patcher) -> None:
    p.replace("casting", "spendable_on", lambda game, entry, spell: False)


@mutant("restriction-only-on-mana-before-replacement", "mana a replacement effect adds to a restricted mana "
        "ability's production is unrestricted", ["106.6a"])
def _restriction_before_replacement(p: Patcher) -> None:
    def wrapper(original):
        def resolve_mana_ability(game, obj, ability, controller, produced, snap):
            restricted = game.state.players[controller].restricted
            before = len(restricted)
            yield from original(game, obj, ability, controller, produced, snap)
            del restricted[before + sum(produced.values()):]
        return resolve_mana_ability
    p.wrap("manaprod", "resolve_mana_ability", wrapper)


@mutant("drained-mana-stays", "Drain Power's target taps its lands but keeps the mana", ["106.13"])
def _drained_mana_stays(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS

    original = EFFECTS["drain_power"]

    def drain_power(game, ctx, params):
        pools = {name: (Counter(pl.pool), list(pl.restricted)) for name, pl in game.state.players.items()}
        original(game, ctx, params)
        gainer = game.state.players[ctx.controller]
        for name, player in game.state.players.items():
            if name != ctx.controller:
                lost = gainer.pool - pools[ctx.controller][0]
                gainer.pool.clear()
                gainer.pool.update(pools[ctx.controller][0])
                player.pool.update(lost)
    p.set_item(EFFECTS, "drain_power", drain_power)


@mutant("mana-ability-needs-mana", "a mana ability that would produce no mana can't be activated", ["605.2"])
def _mana_ability_needs_mana(p: Patcher) -> None:
    from reference_engine.moves import Illegal

    def wrapper(original):
        def production(game, obj, ability, controller, chosen):
            produced = original(game, obj, ability, controller, chosen)
            if not produced:
                raise Illegal("that ability can't produce mana now")
            return produced
        return production
    p.wrap("manaprod", "production", wrapper)


def _alternative_mutant(p: Patcher, *, always_pay: bool | None = None, mana_value: bool = False) -> None:
    from dataclasses import replace

    from reference_engine import casting

    original = casting.pay_and_become_cast
    # The spells cast for their alternative cost: the objects themselves, not their ids (ids start again
    # with each case, and an engine session plays many).
    paid_alternative: weakref.WeakSet = weakref.WeakSet()

    def pay_and_become_cast(game, move, on_stack, cost):
        chars = casting.characteristics(game.state, on_stack)
        alternative = casting.alternative_cost(chars)
        if alternative is not None and always_pay is not None:
            cost = alternative if always_pay else chars.mana_cost
        yield from original(game, move, on_stack, cost)
        if alternative is not None and cost == alternative:
            paid_alternative.add(on_stack)
    p.replace("casting", "pay_and_become_cast", pay_and_become_cast)
    if mana_value:
        def wrapper(characteristics):
            def chars_of(state, obj):
                chars = characteristics(state, obj)
                alternative = casting.alternative_cost(chars) if obj in paid_alternative else None
                if alternative is not None and obj.zone.value == "stack":
                    return replace(chars, mana_value=alternative.mana_value())
                return chars
            return chars_of
        p.wrap("layers", "characteristics", wrapper)


@mutant("alternative-cost-is-mandatory", "a spell with an alternative cost must be cast for it", ["118.9b"])
def _alternative_mandatory(p: Patcher) -> None:
    _alternative_mutant(p, always_pay=True)


@mutant("alternative-cost-ignored", "choosing an alternative cost still makes the player pay the mana cost", ["118.9"])
def _alternative_ignored(p: Patcher) -> None:
    _alternative_mutant(p, always_pay=False)


@mutant("alternative-cost-sets-mana-value", "a spell cast for an alternative cost has that cost's mana value",
        ["118.9c"])
def _alternative_mana_value(p: Patcher) -> None:
    _alternative_mutant(p, mana_value=True)


@mutant("sacrificed-permanent-pays-again", "a permanent already sacrificed for one cost can pay another "
        "'sacrifice a creature' cost", ["118.10"])
def _sacrificed_pays_again(p: Patcher) -> None:
    from reference_engine.model import Zone

    def wrapper(original):
        def sacrifice_cost(game, move, obj, cost):
            victim = game.state.objects.get(move.sacrifice[0]) if len(move.sacrifice) == 1 else None
            if victim is not None and victim.zone is Zone.GRAVEYARD:
                return
            original(game, move, obj, cost)
        return sacrifice_cost
    p.wrap("casting", "_sacrifice_cost", wrapper)


@mutant("permanent-spell-targets-not-rechecked", "an Aura spell whose target became illegal still resolves",
        ["608.3b"])
def _permanent_targets_not_rechecked(p: Patcher) -> None:
    from reference_engine.layers import characteristics

    def wrapper(original):
        def legal_flags(game, specs, item):
            flags = original(game, specs, item)
            if item.is_spell and "Enchantment" in characteristics(game.state, game.state.objects[item.object_id]).types:
                return tuple(True for _ in flags)
            return flags
        return legal_flags
    p.wrap("resolve", "_legal_flags", wrapper)


@mutant("text-defined-x-uses-announced-x", "an X defined by the spell's text takes the value announced for it (0)",
        ["107.3c"])
def _text_defined_x(p: Patcher) -> None:
    def wrapper(original):
        def value(game, ctx, expr):
            if isinstance(expr, dict) and "count" in expr:
                return ctx.x
            return original(game, ctx, expr)
        return value
    p.wrap("effects", "value", wrapper)


@mutant("activations-share-x", "activating an {X} ability again changes the X of its earlier activations still on "
        "the stack", ["107.3k"])
def _activations_share_x(p: Patcher) -> None:
    from reference_engine import casting

    original = casting.activate

    def activate(game, move):
        yield from original(game, move)
        state = game.state
        top = state.stack[-1] if state.stack else None
        if top is not None and not top.is_spell and move.x is not None:
            for item in state.stack:
                if not item.is_spell and item.source_id == top.source_id and item.x is not None:
                    item.x = top.x
    p.replace("casting", "activate", activate)


# --- alternative costs, Phyrexian mana, conditional flash -----------------------------------------
@mutant("free-cast-keeps-x", "a spell cast without paying its mana cost may have any X", ["107.3b"])
def _free_cast_keeps_x(p: Patcher) -> None:
    from reference_engine import casting

    original = casting._cast_with_announcements

    def cast_with_announcements(game, move, options):
        if move.x:
            from dataclasses import replace
            x = move.x
            move = replace(move, x=0)
            gen = original(game, move, options)
            try:
                decision = gen.send(None)
                while True:
                    answer = yield decision
                    decision = gen.send(answer)
            except StopIteration:
                pass
            state = game.state
            item = state.stack[-1]
            item.x = x
            state.objects[item.object_id].x = x
            return
        yield from original(game, move, options)
    p.replace("casting", "_cast_with_announcements", cast_with_announcements)


@mutant("cast-without-paying-ignored", "'you may cast spells without paying their mana costs' offers nothing",
        ["118.9"])
def _cast_without_paying_ignored(p: Patcher) -> None:
    from reference_engine import casting

    def wrapper(original):
        def alternatives(game, player, chars):
            return [c for c in original(game, player, chars) if c is not casting.WITHOUT_PAYING]
        return alternatives
    p.wrap("casting", "alternatives", wrapper)


@mutant("no-mana-cost-never-castable", "a card with no mana cost can't be cast even for an alternative cost",
        ["118.6a"])
def _no_mana_cost_never_castable(p: Patcher) -> None:
    from reference_engine import casting
    from reference_engine.moves import Illegal

    def wrapper(original):
        def propose(game, move):
            obj = game.state.objects.get(move.object_id)
            if obj is not None and casting.characteristics(game.state, obj).mana_cost is None:
                raise Illegal("no mana cost")
            return original(game, move)
        return propose
    p.wrap("casting", "propose", wrapper)


@mutant("additional-costs-dropped-with-alternative", "a spell cast for an alternative cost isn't asked for its "
        "optional additional costs", ["118.9d"])
def _additional_dropped(p: Patcher) -> None:
    from reference_engine import casting

    original = casting.cast_with_optional_costs

    def cast_with_optional_costs(game, move):
        obj = game.state.objects.get(move.object_id)
        chars = casting.characteristics(game.state, obj) if obj is not None else None
        if chars is not None and casting.alternatives(game, move.player, chars):
            yield from casting._cast_with_announcements(game, move, casting.alternatives(game, move.player, chars))
            return
        yield from original(game, move)
    p.replace("casting", "cast_with_optional_costs", cast_with_optional_costs)


@mutant("phyrexian-paid-only-with-mana", "a Phyrexian mana symbol can't be paid with 2 life", ["107.4f", "118.13a"])
def _phyrexian_only_mana(p: Patcher) -> None:
    p.replace("casting", "phyrexian_symbols", lambda cost: [])
    _rewrite_costs(p, lambda s: s[:-2] if s.endswith("/P") else s)  # paid like its color


@mutant("phyrexian-life-not-paid", "choosing to pay 2 life for a Phyrexian symbol pays nothing", ["107.4f"])
def _phyrexian_life_not_paid(p: Patcher) -> None:
    import types

    from reference_engine import ops

    proxy = types.SimpleNamespace(**{k: v for k, v in vars(ops).items() if not k.startswith("__")})
    proxy.pay_life = lambda game, player, amount, **_: None  # casting pays life through ops.pay_life (119.4)
    p.replace_in("casting", "ops", proxy)


@mutant("phyrexian-paid-with-any-mana", "a Phyrexian symbol not paid with life can be paid with any mana", ["107.4f"])
def _phyrexian_any_mana(p: Patcher) -> None:
    from reference_engine.mana import ManaCost

    def wrapper(original):
        def pay_and_become_cast(game, move, on_stack, cost):
            if cost is not None:
                colors = ("W", "U", "B", "R", "G")
                declined = casting_symbols(on_stack, game)
                cost = ManaCost(tuple("1" if s in colors and s in declined else s for s in cost.symbols))
            yield from original(game, move, on_stack, cost)
        return pay_and_become_cast

    def casting_symbols(obj, game):
        from reference_engine.layers import characteristics
        mana_cost = characteristics(game.state, obj).mana_cost
        return {s[:-2] for s in mana_cost.symbols if s.endswith("/P")} if mana_cost else set()
    p.wrap("casting", "pay_and_become_cast", wrapper)


@mutant("conditional-flash-ignored", "'this spell has flash as long as ...' never gives it flash", ["601.3d"])
def _conditional_flash_ignored(p: Patcher) -> None:
    p.replace("casting", "conditional_flash", lambda game, player, chars: False)


@mutant("conditional-flash-unconditional", "'this spell has flash as long as ...' gives it flash always", ["601.3d"])
def _conditional_flash_always(p: Patcher) -> None:
    p.replace("casting", "conditional_flash", lambda game, player, chars: any(
        a.kind == "keyword" and a.keyword == "Flash" for a in chars.abilities))


@mutant("triggered-mana-abilities-only-for-their-controller", "a triggered mana ability ('whenever a player taps a "
        "land for mana') triggers only for its controller's lands", ["605.4"])
def _triggered_mana_own_only(p: Patcher) -> None:
    from reference_engine import manaprod

    original = manaprod.check

    def check(game, event):
        found = original(game, event)
        return [t for t in found if not manaprod.is_triggered_mana_ability(t.ability)
                or t.controller == event.data.get("player")]
    p.replace_in("manaprod", "check", check)


@mutant("flash-for-a-cost-without-the-cost", "'cast as though it had flash if you pay {2} more' needs no more mana",
        ["601.3c"])
def _flash_without_cost(p: Patcher) -> None:
    from reference_engine.mana import ManaCost

    p.replace("casting", "flash_for_a_cost", lambda chars: ManaCost(()) if any(
        a.kind == "keyword" and a.keyword == "Flash" and a.extra_cost is not None for a in chars.abilities) else None)


@mutant("flash-cost-always-added", "a spell that may be cast as though it had flash for {2} more always costs {2} "
        "more", ["601.3c"])
def _flash_cost_always(p: Patcher) -> None:
    from reference_engine import casting
    from reference_engine.mana import ManaCost

    def wrapper(original):
        def propose(game, move):
            sorcery_time = casting.sorcery_timing(game, move.player) is None
            on_stack, cost = original(game, move)
            extra = casting.flash_for_a_cost(casting.characteristics(game.state, on_stack))
            if extra is not None and cost is not None and sorcery_time:
                cost = ManaCost(cost.symbols + extra.symbols)
            return on_stack, cost
        return propose
    p.wrap("casting", "propose", wrapper)


@mutant("snow-cost-paid-with-any-mana", "{S} in a cost is paid like generic mana, from any source", ["107.4h"])
def _snow_any_mana(p: Patcher) -> None:
    from reference_engine.mana import ManaCost

    p.replace("casting", "pay_snow", lambda owner, cost, held_back: (
        ManaCost(tuple("1" if s == "S" else s for s in cost.symbols)), Counter()))


@mutant("snow-sources-ignored", "mana from a snow source isn't told apart, so nothing can pay {S}", ["107.4h"])
def _snow_sources_ignored(p: Patcher) -> None:
    def wrapper(original):
        def resolve_mana_ability(game, obj, ability, controller, produced, snap):
            yield from original(game, obj, ability, controller, produced, snap)
            game.state.players[controller].snow.clear()
        return resolve_mana_ability
    p.wrap("manaprod", "resolve_mana_ability", wrapper)


@mutant("colored-reduction-needs-that-color", "'costs {R} less' does nothing to a cost without (enough) {R}",
        ["118.7b", "118.7c"])
def _colored_reduction_needs_color(p: Patcher) -> None:
    from reference_engine.mana import ManaCost

    def reduce_colored(cost, color):
        symbols = list(cost.symbols)
        if color in symbols:
            symbols.remove(color)
        return ManaCost(tuple(symbols))
    p.replace("restrictions", "reduce_colored", reduce_colored)


@mutant("colored-reduction-is-generic", "'costs {R} less' reduces generic mana, like 'costs {1} less'", ["118.7"])
def _colored_reduction_generic(p: Patcher) -> None:
    from reference_engine import restrictions

    p.replace("restrictions", "reduce_colored", lambda cost, color: restrictions.reduce_generic(cost, 1))


@mutant("activation-limit-per-controller", "'Activate only once each turn' counts again for a new controller",
        ["602.5b"])
def _activation_limit_per_controller(p: Patcher) -> None:
    from reference_engine.layers import characteristics
    from reference_engine.moves import Illegal

    def check(game, obj, index, data):
        if data.get("limit") != "once_each_turn":
            return
        key = (index, characteristics(game.state, obj).controller)
        if obj.activated_turns.get(key) == game.state.turn:
            raise Illegal("already activated")
        obj.activated_turns[key] = game.state.turn
    p.replace("casting", "_check_once_each_turn", check)


@mutant("alternative-costs-all-offered", "after one alternative cost is chosen, the others are offered as well (the "
        "last accepted is paid)", ["118.9a"])
def _alternative_costs_all_offered(p: Patcher) -> None:
    import inspect

    from reference_engine import casting

    source = inspect.getsource(casting._cast_with_announcements)
    edited = source.replace("                chosen = option\n                break\n", "                chosen = option\n")
    assert edited != source, "casting._cast_with_announcements changed: update this mutant"
    namespace = dict(vars(casting))
    exec(compile(edited, casting.__file__, "exec"), namespace)
    p.replace("casting", "_cast_with_announcements", namespace["_cast_with_announcements"])


@mutant("look-back-needs-the-object-still-there", "'if you cast a spell this turn' counts only spells whose "
        "permanents are still on the battlefield", ["608.2i"])
def _look_back_needs_object(p: Patcher) -> None:
    from reference_engine import casting
    from reference_engine.model import Zone

    original_cast = casting.pay_and_become_cast
    cast_uids: dict[int, str] = {}

    def pay_and_become_cast(game, move, on_stack, cost):
        yield from original_cast(game, move, on_stack, cost)
        cast_uids[on_stack.uid] = move.player
    p.replace("casting", "pay_and_become_cast", pay_and_become_cast)

    from reference_engine.state import GameState

    original_move = GameState.move

    def move(self, obj, to, **kwargs):
        was = obj.zone
        new = original_move(self, obj, to, **kwargs)
        if was is Zone.BATTLEFIELD and obj.uid in cast_uids:
            self.spells_cast[cast_uids.pop(obj.uid)] -= 1
        return new
    p.set_attr(GameState, "move", move)


@mutant("each-player-sacrifices-one-at-a-time", "'each player sacrifices' is carried out one player after another, "
        "not simultaneously", ["608.2f"])
def _sacrifices_one_at_a_time(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS

    original = EFFECTS["each_player_sacrifices"]

    def each_player_sacrifices(game, ctx, params):
        from reference_engine import ops
        from reference_engine import resolution_effects
        saved = resolution_effects.ops
        chosen = []
        proxy = type("Ops", (), {"snapshot": staticmethod(ops.snapshot),
                                 "sacrifice_together": staticmethod(lambda game, objs: chosen.extend(o.id for o in objs))})
        resolution_effects.ops = proxy
        try:
            yield from original(game, ctx, params)
        finally:
            resolution_effects.ops = saved
        for object_id in chosen:
            ops.sacrifice(game, game.state.objects[object_id])
    p.set_item(EFFECTS, "each_player_sacrifices", each_player_sacrifices)


@mutant("spell-copy-becomes-a-card", "a copy of a permanent spell becomes a nontoken permanent as it resolves",
        ["608.3f"])
def _spell_copy_becomes_card(p: Patcher) -> None:
    def wrapper(original):
        def resolve_spell(game, item):
            obj = game.state.objects[item.object_id]
            obj.spell_copy = False
            yield from original(game, item)
        return resolve_spell
    p.wrap("resolve", "_resolve_spell", wrapper)


@mutant("only-as-an-instant-means-as-a-sorcery", "'Activate only as an instant' is treated like 'only as a sorcery'",
        ["602.5e"])
def _instant_means_sorcery(p: Patcher) -> None:
    from reference_engine import casting

    original = casting.check_timing_instruction

    def check(game, player, data):
        if data.get("timing") == "instant":
            data = {"timing": "sorcery"}
        original(game, player, data)
    p.replace("casting", "check_timing_instruction", check)


def _search_mutant(p: Patcher, when) -> None:
    """may_search whose 'If you do' part runs when `when(searched, found)` says so."""
    from reference_engine.effects import EFFECTS, run

    original = EFFECTS["may_search"]

    def may_search(game, ctx, params):
        inner = original(game, ctx, dict(params, then=[]))
        searched, found = False, ()
        try:
            decision = inner.send(None)
            while True:
                answer = yield decision
                if decision.kind == "may":
                    searched = bool(answer.yes)
                elif answer.objects is not None:
                    found = answer.objects
                decision = inner.send(answer)
        except StopIteration:
            pass
        if when(searched, found):
            yield from run(game, ctx, params.get("then", []))
    p.set_item(EFFECTS, "may_search", may_search)


@mutant("if-you-do-checks-what-was-found", "'you may search ... If you do' needs a card to be found", ["118.12b"])
def _if_you_do_found(p: Patcher) -> None:
    _search_mutant(p, lambda searched, found: searched and bool(found))


@mutant("if-you-do-after-declined-search", "'you may search ... If you do' applies even when the player declines "
        "to search", ["118.12b"])
def _if_you_do_declined(p: Patcher) -> None:
    _search_mutant(p, lambda searched, found: True)


@mutant("if-you-do-never-follows-a-search", "the 'If you do' part after a search never happens", ["118.12"])
def _if_you_do_never(p: Patcher) -> None:
    _search_mutant(p, lambda searched, found: False)
