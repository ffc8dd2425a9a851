"""Mutants for levelers, power/toughness sublayers, copies, indestructible and lifelink (the
Transcendent Master rulings): each breaks one rule the way a real engine might get it wrong."""

from __future__ import annotations

import copy
from typing import Any, Callable

from mutants.patching import Patcher, mutant


def _is_level_symbol(application: Any) -> bool:
    """A layer application made by a level symbol (a static ability with `while: {level: ...}`)."""
    ability = application.ability
    return ability is not None and "level" in ability.data.get("while", {})


def _wrap_statics(p: Patcher, change: Callable[[Any, list], list]) -> None:
    """Rewrite the layer applications of static abilities: change(state, applications) -> applications."""
    def wrapper(original):
        def static_applications(state, objects, chars):
            return change(state, original(state, objects, chars))
        return static_applications
    p.wrap("statics", "static_applications", wrapper)


def _sba_sees(p: Patcher, view: Callable[[Any, Any], Any]) -> None:
    """The state-based actions see characteristics through `view(obj, chars)`; nothing else does."""
    from reference_engine import sba

    original = sba.characteristics

    def characteristics(state, obj):
        return view(obj, original(state, obj))
    p.set_item(vars(sba), "characteristics", characteristics)


def _without_keyword(chars: Any, keyword: str) -> Any:
    out = copy.copy(chars)
    out.abilities = [a for a in chars.abilities if not (a.kind == "keyword" and a.keyword == keyword)]
    return out


# --- level up and level symbols (rules 702.87, 711) ---------------------------------------------
@mutant("level-up-at-instant-speed", "level up can be activated at any time the player has priority", ["702.87a", "602.5d"])
def _level_up_instant(p: Patcher) -> None:
    from reference_engine.casting import KEYWORD_ACTIVATIONS

    instant = {k: v for k, v in KEYWORD_ACTIVATIONS["Level up"].items() if k != "timing"}
    p.set_item(KEYWORD_ACTIVATIONS, "Level up", instant)


@mutant("level-counts-level-ups", "a leveler's level counts its level up activations, not its level counters",
        ["711.2a", "122.1"])
def _level_counts_level_ups(p: Patcher) -> None:
    """The level is a number kept beside the counters: level counters in the starting state and
    level ups change it; counters put or removed by other effects don't."""
    from reference_engine.casting import KEYWORD_ACTIVATIONS
    from reference_engine.effects import EFFECTS, objects
    from reference_engine.model import Zone
    from reference_engine.statics import SOURCE_CONDITIONS

    def build(original):
        def setup_build(setup, cards):
            state, labels = original(setup, cards)
            for obj in state.battlefield():
                obj.__dict__["_level"] = obj.counters.get("level", 0)
            return state, labels
        return setup_build
    p.wrap("setup", "build", build)

    def level_up(game, ctx, params):
        for obj in objects(game, ctx, "self"):
            if obj.zone is Zone.BATTLEFIELD:
                obj.__dict__["_level"] = obj.__dict__.get("_level", 0) + 1
        return EFFECTS["add_counters"](game, ctx, params)
    p.set_item(EFFECTS, "level_up_counted", level_up)
    spec = dict(KEYWORD_ACTIVATIONS["Level up"], effect=[{"level_up_counted": {"what": "self", "kind": "level", "amount": 1}}])
    p.set_item(KEYWORD_ACTIVATIONS, "Level up", spec)

    def level(state, source, bounds):
        low, high = bounds
        value = source.__dict__.get("_level", 0) if source else 0
        return value >= low and (high is None or value <= high)
    p.set_item(SOURCE_CONDITIONS, "level", level)


def _level_band(p: Patcher, in_band: Callable[[int, int, int | None], bool]) -> None:
    """Level symbols apply while in_band(level counters, N1, N2 or None for 'N1+') holds."""
    from reference_engine.statics import SOURCE_CONDITIONS

    def level(state, source, bounds):
        return in_band(source.counters.get("level", 0) if source else 0, *bounds)
    p.set_item(SOURCE_CONDITIONS, "level", level)


@mutant("level-band-top-excluded", "a LEVEL N1-N2 band stops applying at N2 level counters, not above it", ["711.2a"])
def _level_band_top_excluded(p: Patcher) -> None:
    _level_band(p, lambda level, low, high: level >= low and (high is None or level < high))


@mutant("level-band-starts-early", "a LEVEL N1-N2 band already applies with N1-1 level counters", ["711.2a", "711.5"])
def _level_band_starts_early(p: Patcher) -> None:
    _level_band(p, lambda level, low, high: level >= low - 1 and (high is None or level <= high))


@mutant("level-abilities-replace-others", "a level symbol's abilities replace the leveler's other abilities, level up "
        "included (the level symbols themselves stay, so its power and toughness are still right)", ["711.4", "613.1f"])
def _level_abilities_replace(p: Patcher) -> None:
    from reference_engine.layers import MODIFIERS

    def level_symbol(ability) -> bool:
        return ability.kind == "static" and "level" in ability.data.get("while", {})

    def grant_replacing(chars, params):
        chars.abilities = [a for a in chars.abilities if level_symbol(a)] + list(params["abilities"])
    p.set_item(MODIFIERS, "grant_replacing", ("6", grant_replacing))

    def change(state, applications):
        for application in applications:
            if _is_level_symbol(application) and application.modifier == "grant":
                application.modifier = "grant_replacing"
        return applications
    _wrap_statics(p, change)


@mutant("level-up-cannot-be-lost", "level up is treated as a rule of leveler cards, so 'loses all abilities' keeps it",
        ["702.87a", "613.1f"])
def _level_up_kept(p: Patcher) -> None:
    from reference_engine.layers import MODIFIERS

    def lose_all_abilities(chars, params):
        chars.abilities = [a for a in chars.abilities if a.kind == "keyword" and a.keyword == "Level up"]
    p.set_item(MODIFIERS, "lose_all_abilities", ("6", lose_all_abilities))


@mutant("level-pt-is-base", "a level symbol's power and toughness is used as the leveler's printed values, before any setting effect",
        ["711.2a", "613.4b", "613.7a"])
def _level_pt_is_base(p: Patcher) -> None:
    def change(state, applications):
        for application in applications:
            if _is_level_symbol(application) and application.modifier == "set_pt":
                application.layer = "7a"
        return applications
    _wrap_statics(p, change)


@mutant("level-symbol-timestamp-of-last-counter", "a level symbol's effects take the timestamp of the last level counter put on the leveler",
        ["613.7a"])
def _level_symbol_new_timestamp(p: Patcher) -> None:
    def add_counters(original):
        def wrapped(game, obj, kind, amount, by=None, *, by_effect=False):
            yield from original(game, obj, kind, amount, by, by_effect=by_effect)
            if kind == "level" and amount > 0:
                obj.__dict__["_level_timestamp"] = game.state.new_timestamp()
                game.state.touch()
        return wrapped
    p.wrap("ops", "add_counters", add_counters)

    def change(state, applications):
        for application in applications:
            source = state.objects.get(application.source_id)
            if _is_level_symbol(application) and source is not None and "_level_timestamp" in source.__dict__:
                application.timestamp = source.__dict__["_level_timestamp"]
        return applications
    _wrap_statics(p, change)


@mutant("level-symbol-applies-last", "a level symbol's power and toughness overrides every other setting effect", ["613.4b", "613.7a"])
def _level_symbol_last(p: Patcher) -> None:
    def change(state, applications):
        for application in applications:
            if _is_level_symbol(application) and application.modifier == "set_pt":
                application.timestamp = state.next_timestamp  # later than any effect so far
        return applications
    _wrap_statics(p, change)


# --- power and toughness sublayers (rule 613.4) ------------------------------------------------
@mutant("pt-setting-after-modifying", "effects that set power and toughness apply after those that modify it (7b after 7c)",
        ["613.4b", "613.4c"])
def _setting_after_modifying(p: Patcher) -> None:
    p.replace("layers", "LAYER_ORDER", ("2", "3", "4", "5", "6", "7a", "7c", "7b", "7d"))


@mutant("pt-modifying-in-timestamp-with-setting", "modifying effects share the setting effects' sublayer, so a later setting effect overwrites them",
        ["613.4c", "613.7"])
def _modifying_with_setting(p: Patcher) -> None:
    from reference_engine.layers import MODIFIERS

    _, modify_pt = MODIFIERS["modify_pt"]
    p.set_item(MODIFIERS, "modify_pt", ("7b", modify_pt))


@mutant("pt-counters-before-setting", "+1/+1 and -1/-1 counters change the base power and toughness, so setting effects overwrite them",
        ["613.4c", "122.1a"])
def _counters_before_setting(p: Patcher) -> None:
    from reference_engine import layers

    counter_applications = layers._counter_applications
    p.replace("layers", "_counter_applications", lambda objects: [])

    def wrapper(original):
        def static_applications(state, objects, chars):
            out = original(state, objects, chars)
            for application in counter_applications(objects):
                application.layer = "7a"
                out.append(application)
            return out
        return static_applications
    p.wrap("statics", "static_applications", wrapper)


@mutant("pt-switch-before-modifying", "switching effects apply before modifying effects (7d before 7c)", ["613.4c", "613.4d"])
def _switch_before_modifying(p: Patcher) -> None:
    p.replace("layers", "LAYER_ORDER", ("2", "3", "4", "5", "6", "7a", "7b", "7d", "7c"))


@mutant("pt-switch-before-setting", "switching effects apply before setting effects, to the printed values", ["613.4b", "613.4d"])
def _switch_before_setting(p: Patcher) -> None:
    p.replace("layers", "LAYER_ORDER", ("2", "3", "4", "5", "6", "7a", "7d", "7b", "7c"))


@mutant("pt-switch-locks-in-values", "a switch sets power and toughness to the values it had when the switch began",
        ["613.4d", "613.5"])
def _switch_locks_in(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS, objects
    from reference_engine.layers import characteristics
    from reference_engine.model import ContinuousEffect, Zone

    original = EFFECTS["modify"]

    def modify(game, ctx, params):
        parts = [part for part in params["effects"] if "switch_pt" not in part]
        if len(parts) < len(params["effects"]):
            state = game.state
            for obj in objects(game, ctx, params["what"]):
                if obj.zone is Zone.BATTLEFIELD:
                    chars = characteristics(state, obj)
                    state.effects.append(ContinuousEffect(
                        "7b", state.new_timestamp(), "set_pt", {"power": chars.toughness, "toughness": chars.power},
                        frozenset({obj.id}), ctx.controller, duration=params.get("until", "end_of_turn")))
            state.touch()
        if parts:
            return original(game, ctx, dict(params, effects=parts))
        return None
    p.set_item(EFFECTS, "modify", modify)


# --- copies (rule 707.2) -----------------------------------------------------------------------
@mutant("copy-keeps-counters", "a permanent entering as a copy also gets the counters of what it copies", ["707.2", "122.2"])
def _copy_keeps_counters(p: Patcher) -> None:
    def copiable(original):
        def copiable_for_permanent(game, obj):
            game.state.__dict__["_copied_counters"] = dict(obj.counters)
            return original(game, obj)
        return copiable_for_permanent
    p.wrap("copying", "copiable_for_permanent", copiable)

    def replacements(original):
        def entry_replacements(game, card, controller, entry, spell_x):
            game.state.__dict__.pop("_copied_counters", None)
            yield from original(game, card, controller, entry, spell_x)
            copied = game.state.__dict__.pop("_copied_counters", None)
            if entry.copy_of is not None and copied:
                counters = dict(entry.counters or {})
                for kind, amount in copied.items():
                    counters[kind] = counters.get(kind, 0) + amount
                entry.counters = counters
        return entry_replacements
    p.wrap("replacement", "entry_replacements", replacements)


@mutant("copy-takes-current-values", "a copy takes the current power, toughness and abilities of what it copies", ["707.2"])
def _copy_takes_current(p: Patcher) -> None:
    from dataclasses import replace as replace_fields

    from reference_engine.layers import characteristics
    from reference_engine.model import CardDef

    def copiable(original):
        def copiable_for_permanent(game, obj):
            face, _ = original(game, obj)
            chars = characteristics(game.state, obj)
            current = replace_fields(face, power=str(chars.power), toughness=str(chars.toughness),
                                     abilities=tuple(chars.abilities))
            return current, CardDef(name=current.name, layout="copy", faces=(current,))
        return copiable_for_permanent
    p.wrap("copying", "copiable_for_permanent", copiable)


# --- indestructible (rule 702.12) and what it doesn't stop --------------------------------------
@mutant("destroy-ignores-indestructible", "'destroy' effects put indestructible permanents into the graveyard", ["701.8a", "702.12b"])
def _destroy_ignores(p: Patcher) -> None:
    from reference_engine.model import Zone

    from reference_engine import ops

    p.replace("ops", "destroy_together", lambda game, objs, **kwargs: ops.move_together(game, list(objs), Zone.GRAVEYARD,
                                                                               orders=kwargs.get("orders"),
                                                                               arranged=kwargs.get("arranged", False)))


@mutant("lethal-damage-ignores-indestructible", "the state-based action for lethal damage destroys indestructible creatures",
        ["704.5g", "702.12b"])
def _lethal_ignores(p: Patcher) -> None:
    _sba_sees(p, lambda obj, chars: _without_keyword(chars, "Indestructible"))


@mutant("indestructible-stops-sacrifice", "an indestructible permanent can't be sacrificed", ["701.21a", "702.12b"])
def _indestructible_stops_sacrifice(p: Patcher) -> None:
    from reference_engine.layers import characteristics

    def sacrifice(original):
        def wrapped(game, objs):
            return original(game, [o for o in objs if not characteristics(game.state, o).has_keyword("Indestructible")])
        return wrapped
    p.wrap("ops", "sacrifice_together", sacrifice)


@mutant("indestructible-stops-legend-rule", "the legend rule doesn't put indestructible permanents into the graveyard",
        ["704.5j", "702.12b"])
def _indestructible_stops_legend_rule(p: Patcher) -> None:
    def view(obj, chars):
        if chars.has_keyword("Indestructible") and "Legendary" in chars.supertypes:
            chars = copy.copy(chars)
            chars.supertypes = [s for s in chars.supertypes if s != "Legendary"]
        return chars
    _sba_sees(p, view)


@mutant("indestructible-stops-zero-toughness", "an indestructible creature with toughness 0 or less stays on the battlefield",
        ["704.5f", "702.12b"])
def _indestructible_stops_zero_toughness(p: Patcher) -> None:
    def view(obj, chars):
        if chars.has_keyword("Indestructible") and chars.toughness is not None and chars.toughness <= 0:
            chars = copy.copy(chars)
            chars.toughness = 1
        return chars
    _sba_sees(p, view)


# --- lifelink (rule 702.15) and buyback (702.27) -----------------------------------------------
@mutant("lifelink-ignored", "damage dealt by a source with lifelink gains its controller no life", ["702.15b"])
def _lifelink_ignored(p: Patcher) -> None:
    from reference_engine.ops import DamageSource

    def deal_damage(original):
        def wrapped(game, source, target, amount, **kwargs):
            plain = DamageSource(source.object_id, source.uid, _without_keyword(source.chars, "Lifelink"))
            return original(game, plain, target, amount, **kwargs)
        return wrapped
    p.wrap("ops", "deal_damage", deal_damage)


@mutant("buyback-forgotten", "a spell whose buyback was paid still goes to the graveyard as it resolves", ["702.27a"])
def _buyback_forgotten(p: Patcher) -> None:
    def ask(original):
        def wrapped(game, player, keyword, cost, name):
            yield from original(game, player, keyword, cost, name)
            item = game.state.stack[-1]
            item.optional_costs_paid = tuple(k for k in item.optional_costs_paid if k != keyword)
        return wrapped
    p.wrap("casting", "_ask_optional_cost", ask)
