"""Mutants for planeswalkers, loyalty abilities, emblems, transforming planeswalkers and last known
information (the Arlinn Kord rulings): each breaks one rule the way a real engine might."""

from __future__ import annotations

import copy
from dataclasses import replace

from mutants.patching import Patcher, mutant


# --- loyalty abilities (rules 306.5b, 606) ---------------------------------------------------------
def _loyalty_check(*, timing: bool = True, once: bool = True, enough: bool = True, per_player: bool = False):
    """casting._check_loyalty with some of its rules left out (or the once-per-turn limit shared by
    every permanent of the player)."""
    from reference_engine.casting import sorcery_timing
    from reference_engine.layers import characteristics
    from reference_engine.moves import Illegal

    def check_loyalty(game, player, obj, chars, cost):
        state = game.state
        if timing and sorcery_timing(game, player):
            raise Illegal("not at sorcery speed")
        if once and obj.loyalty_turn == state.turn:
            raise Illegal("already activated this turn")
        if per_player and any(o.loyalty_turn == state.turn for o in state.battlefield()
                              if characteristics(state, o).controller == player):
            raise Illegal("a loyalty ability was already activated this turn")
        if enough and cost.loyalty is not None and cost.loyalty < 0 and obj.counters.get("loyalty", 0) < -cost.loyalty:
            raise Illegal("too few loyalty counters")
    return check_loyalty


@mutant("planeswalker-enters-without-loyalty", "a planeswalker enters with no loyalty counters", ["306.5b"])
def _enters_without_loyalty(p: Patcher) -> None:
    def wrapper(original):
        def entry_replacements(game, card, controller, entry, spell_x):
            yield from original(game, card, controller, entry, spell_x)
            if entry.counters:
                entry.counters.pop("loyalty", None)
        return entry_replacements
    p.wrap("replacement", "entry_replacements", wrapper)


@mutant("loyalty-ability-at-instant-speed", "loyalty abilities can be activated whenever their controller has priority",
        ["606.3"])
def _loyalty_instant_speed(p: Patcher) -> None:
    p.replace("casting", "_check_loyalty", _loyalty_check(timing=False))


@mutant("loyalty-ability-any-number-per-turn", "a permanent's loyalty abilities can be activated more than once a turn",
        ["606.3"])
def _loyalty_any_number(p: Patcher) -> None:
    p.replace("casting", "_check_loyalty", _loyalty_check(once=False))


@mutant("loyalty-limit-per-player", "one loyalty ability per turn per player, not per permanent", ["606.3"])
def _loyalty_per_player(p: Patcher) -> None:
    p.replace("casting", "_check_loyalty", _loyalty_check(per_player=True))


@mutant("negative-loyalty-cost-unchecked", "a minus loyalty cost can be paid with too few loyalty counters", ["606.6"])
def _negative_loyalty_unchecked(p: Patcher) -> None:
    p.replace("casting", "_check_loyalty", _loyalty_check(enough=False))


@mutant("loyalty-cost-not-paid", "activating a loyalty ability doesn't add or remove loyalty counters", ["606.4"])
def _loyalty_cost_not_paid(p: Patcher) -> None:
    def wrapper(original):
        def activate(game, move):
            obj = game.state.objects.get(move.object_id)
            before = obj.counters.get("loyalty") if obj is not None else None
            yield from original(game, move)
            if before is not None and obj.id in game.state.objects:
                obj.counters["loyalty"] = before
                game.state.touch()
        return activate
    p.wrap("casting", "activate", wrapper)


# --- transforming (rules 701.27, 712.18) -----------------------------------------------------------
def _after_transform(p: Patcher, then) -> None:
    """Do `then(game, obj)` each time a permanent transforms."""
    def wrapper(original):
        def transform(game, obj, **kwargs):
            done = original(game, obj, **kwargs)
            if done:
                then(game, obj)
            return done
        return transform
    p.wrap("ops", "transform", wrapper)


@mutant("transform-resets-loyalty-limit", "a transformed permanent counts as new for the once-per-turn loyalty limit",
        ["712.18", "606.3"])
def _transform_resets_limit(p: Patcher) -> None:
    def forget_activation(game, obj):
        obj.loyalty_turn = None
    _after_transform(p, forget_activation)


@mutant("transform-resets-loyalty-counters", "a transforming planeswalker gets its new face's printed loyalty",
        ["712.18", "306.5b"])
def _transform_resets_loyalty(p: Patcher) -> None:
    def printed_loyalty(game, obj):
        if "Planeswalker" in obj.face_def.types:
            obj.counters.pop("loyalty", None)
            if obj.face_def.loyalty:
                obj.counters["loyalty"] = int(obj.face_def.loyalty)
            game.state.touch()
    _after_transform(p, printed_loyalty)


@mutant("transformed-permanent-is-werewolf", "a double-faced permanent back face up is treated as a Werewolf",
        ["712.8e"])
def _transformed_is_werewolf(p: Patcher) -> None:
    from reference_engine.model import Zone

    def wrapper(original):
        def characteristics(state, obj):
            chars = original(state, obj)
            if obj.zone is Zone.BATTLEFIELD and obj.face == 1 and "Werewolf" not in chars.subtypes:
                chars = copy.copy(chars)
                chars.subtypes = list(chars.subtypes) + ["Werewolf"]
            return chars
        return characteristics
    p.wrap("layers", "characteristics", wrapper)


# --- state-based actions (rules 704.5i, 704.5j) and damage to planeswalkers (120.3c) -------------
def _patch_sba_characteristics(p: Patcher, change) -> None:
    """Let the state-based actions (and only them) see characteristics changed by `change`."""
    from reference_engine import sba

    original = sba.characteristics

    def characteristics(state, obj):
        chars = copy.copy(original(state, obj))
        change(chars, obj)
        return chars
    p.set_item(vars(sba), "characteristics", characteristics)


@mutant("legend-rule-by-card", "the legend rule compares cards, not the names of the faces that are up", ["704.5j"])
def _legend_rule_by_card(p: Patcher) -> None:
    def change(chars, obj):
        chars.name = obj.card.name
    _patch_sba_characteristics(p, change)


@mutant("legend-rule-ignored", "a player may control two legendary permanents with the same name", ["704.5j"])
def _legend_rule_ignored(p: Patcher) -> None:
    def change(chars, obj):
        chars.supertypes = [s for s in chars.supertypes if s != "Legendary"]
    _patch_sba_characteristics(p, change)


@mutant("zero-loyalty-planeswalker-stays", "a planeswalker with 0 loyalty stays on the battlefield", ["704.5i"])
def _zero_loyalty_stays(p: Patcher) -> None:
    def change(chars, obj):
        if "Planeswalker" in chars.types and obj.counters.get("loyalty", 0) <= 0:
            chars.types = [t for t in chars.types if t != "Planeswalker"]
    _patch_sba_characteristics(p, change)


@mutant("planeswalker-damage-ignored", "damage dealt to a planeswalker doesn't remove loyalty counters",
        ["120.3c", "306.8"])
def _planeswalker_damage_ignored(p: Patcher) -> None:
    def wrapper(original):
        def deal_damage(game, source, target, amount, **kwargs):
            obj = game.state.objects.get(target.value) if target.kind == "object" else None
            before = obj.counters.get("loyalty") if obj is not None else None
            dealt = original(game, source, target, amount, **kwargs)
            if before is not None:
                obj.counters["loyalty"] = before
                game.state.touch()
            return dealt
        return deal_damage
    p.wrap("ops", "deal_damage", wrapper)


# --- effects of resolving abilities (611.2c) -------------------------------------------------------
@mutant("resolved-effect-affects-later-creatures",
        "'creatures you control get +1/+1 until end of turn' also affects creatures that arrive later", ["611.2c"])
def _resolved_effect_not_locked(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS
    from reference_engine.filters import FilterContext, matches

    original_modify = EFFECTS["modify"]

    def modify(game, ctx, params):
        before = len(game.state.effects)
        original_modify(game, ctx, params)
        what = params["what"]
        if isinstance(what, dict) and "all" in what:
            for effect in game.state.effects[before:]:
                effect.params = dict(effect.params, _live_filter=(what["all"], ctx.controller))
    p.set_item(EFFECTS, "modify", modify)

    def wrapper(original):
        def arrive(game, new, entry):
            original(game, new, entry)
            state = game.state
            for effect in state.effects:
                live = effect.params.get("_live_filter")
                if live and matches(state, new, live[0], FilterContext(live[1])):
                    effect.affected = effect.affected | {new.id}
            state.touch()
        return arrive
    p.wrap("ops", "_arrive", wrapper)


# --- emblems (114) and granted abilities (613.1f) --------------------------------------------------
@mutant("granted-activated-abilities-missing", "activated abilities granted by an effect can't be activated",
        ["613.1f", "114.4"])
def _granted_abilities_missing(p: Patcher) -> None:
    from reference_engine.moves import Illegal

    def activated(chars, index):
        printed = [a for a in chars.activated_abilities() if a in chars.copiable.abilities or a.data.get("intrinsic")]
        if not 0 <= index < len(printed):
            raise Illegal(f"{chars.name} has no activated ability {index}")
        return printed[index]
    p.replace("casting", "_activated", activated)


@mutant("emblem-affects-every-player", "an emblem's 'creatures you control' affects every player's creatures", ["114.2"])
def _emblem_global(p: Patcher) -> None:
    memo: dict[int, object] = {}

    def global_version(ability):
        if ability.kind != "static" or "controller" not in ability.data.get("affects", {}):
            return ability
        if id(ability) not in memo:
            affects = {k: v for k, v in ability.data["affects"].items() if k != "controller"}
            memo[id(ability)] = type(ability)(ability.kind, dict(ability.data, affects=affects), ability.keyword)
        return memo[id(ability)]

    def wrapper(original):
        def static_applications(state, objects, chars):
            saved = state.emblems
            state.emblems = [replace(e, abilities=tuple(global_version(a) for a in e.abilities)) for e in saved]
            try:
                return original(state, objects, chars)
            finally:
                state.emblems = saved
        return static_applications
    p.wrap("statics", "static_applications", wrapper)


# --- last known information (608.2h, 113.7a) and fight (701.14b) -----------------------------------
def _power_of_self(p: Patcher, when_gone) -> None:
    """Patch 'damage equal to its power' for an ability's own source: `when_gone(ctx)` gives the power
    used if the source has left the battlefield (None: the engine's own answer)."""
    def wrapper(original):
        def value(game, ctx, expr):
            if isinstance(expr, dict) and expr.get("power_of") == "self":
                obj = game.state.objects.get(ctx.source_id) if ctx.source_id is not None else None
                if obj is None:
                    power = when_gone(game, ctx)
                    if power is not None:
                        return power
            return original(game, ctx, expr)
        return value
    p.wrap("effects", "value", wrapper)


@mutant("granted-damage-uses-activation-power", "'damage equal to its power' uses its power when the ability was activated",
        ["608.2h"])
def _damage_uses_activation_power(p: Patcher) -> None:
    def wrapper(original):
        def value(game, ctx, expr):
            if isinstance(expr, dict) and expr.get("power_of") == "self" and ctx.snapshot is not None:
                return ctx.snapshot.power or 0
            return original(game, ctx, expr)
        return value
    p.wrap("effects", "value", wrapper)


@mutant("power-of-departed-source-is-zero", "'damage equal to its power' deals none if the creature left the battlefield",
        ["608.2h"])
def _departed_source_zero(p: Patcher) -> None:
    _power_of_self(p, lambda game, ctx: 0)


@mutant("last-known-power-from-activation", "a departed creature's last known power is taken from when the ability was activated",
        ["113.7a", "608.2h"])
def _last_known_from_activation(p: Patcher) -> None:
    _power_of_self(p, lambda game, ctx: (ctx.snapshot.power or 0) if ctx.snapshot is not None else 0)


@mutant("fight-uses-last-known-information", "a creature fights even if the other one left the battlefield",
        ["701.14b"])
def _fight_with_lki(p: Patcher) -> None:
    from reference_engine import ops
    from reference_engine.effects import EFFECTS
    from reference_engine.layers import characteristics
    from reference_engine.model import Target, Zone

    from reference_engine.effects import objects

    def object_id_of(game, ctx, ref):
        if isinstance(ref, str) and ref.startswith("target."):
            index = int(ref.split(".")[1])
            return ctx.targets[index].value if index < len(ctx.targets) else None
        if ref == "self":
            return ctx.source_id
        found = objects(game, ctx, ref)
        return found[0].id if found else None

    def fight(game, ctx, params):
        yield from ()
        state = game.state
        fighters = []
        for ref in params["what"]:
            object_id = object_id_of(game, ctx, ref)
            if object_id is None:
                return
            obj = state.objects.get(object_id)
            if obj is not None and obj.zone is Zone.BATTLEFIELD:
                fighters.append((ops.DamageSource.of(game, obj), obj, characteristics(state, obj).power or 0))
            else:
                last = ops.last_known(game, object_id)
                fighters.append((ops.DamageSource(object_id, None, last), None, (last.power or 0) if last else 0))
        (source_a, a, power_a), (source_b, b, power_b) = fighters
        if b is not None and source_a.chars is not None:
            ops.deal_damage(game, source_a, Target("object", b.id), power_a)
        if a is not None and source_b.chars is not None:
            ops.deal_damage(game, source_b, Target("object", a.id), power_b)
    p.set_item(EFFECTS, "fight", fight)


@mutant("fight-is-one-sided", "in a fight only the first creature deals damage, as if it said 'deals damage to'",
        ["701.14a"])
def _fight_one_sided(p: Patcher) -> None:
    from reference_engine import ops
    from reference_engine.effects import EFFECTS, objects
    from reference_engine.layers import characteristics
    from reference_engine.model import Target, Zone

    def fight(game, ctx, params):
        yield from ()
        state = game.state
        found = [objects(game, ctx, ref) for ref in params["what"]]
        if any(len(objs) != 1 or objs[0].zone is not Zone.BATTLEFIELD for objs in found):
            return
        first, second = found[0][0], found[1][0]
        ops.deal_damage(game, ops.DamageSource.of(game, first), Target("object", second.id),
                        characteristics(state, first).power or 0)
    p.set_item(EFFECTS, "fight", fight)
