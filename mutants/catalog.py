"""The mutants: each breaks one rule the corpus encodes, the way a real engine might get it wrong."""

from __future__ import annotations

from collections import Counter

from mutants.patching import Patcher, mutant


# --- mana (rules 106, 605) ---------------------------------------------------------------------
@mutant("undefined-mana-makes-colorless", "an ability that would make mana of an undefined type makes {C}", ["106.5"])
def _undefined_mana(p: Patcher) -> None:
    def wrapper(original):
        def production(game, obj, ability, controller, chosen):
            produced = original(game, obj, ability, controller, chosen)
            return produced if produced or isinstance(ability.data["add"], str) else Counter({"C": 1})
        return production
    p.wrap("manaprod", "production", wrapper)


@mutant("could-produce-ignores-replacements", "'could produce' ignores replacement effects", ["106.7"])
def _could_produce_ignores_replacements(p: Patcher) -> None:
    p.replace("manaprod", "possible_types", lambda specs, types: set(types))


@mutant("could-produce-needs-payable-cost", "'could produce' excludes sources whose costs can't be paid (tapped)", ["106.7"])
def _could_produce_payable(p: Patcher) -> None:
    def wrapper(original):
        def could_produce(game, obj, visiting=frozenset()):
            return set() if obj.tapped else original(game, obj, visiting)
        return could_produce
    p.wrap("manaprod", "could_produce", wrapper)


@mutant("every-mana-ability-taps-for-mana", "any mana ability counts as tapping for mana, {T} or not", ["106.12"])
def _every_mana_ability_taps(p: Patcher) -> None:
    p.replace("manaprod", "is_tapping_for_mana", lambda ability: ability.kind == "mana")


@mutant("mana-trigger-on-activation", "'tapped for mana' triggers even when no mana (or not that type) is produced", ["106.12a"])
def _mana_trigger_on_activation(p: Patcher) -> None:
    from reference_engine.triggers import MATCHERS

    kinds, _ = MATCHERS["taps_for_mana"]

    def matcher(game, event, value, source):
        if not event.data["tapped_for_mana"]:
            return False
        if value.get("player") == "you" and event.data["player"] != source.controller:
            return False
        return "types" not in value.get("source", {}) or all(
            t in event.data["source_snapshot"].types for t in value["source"]["types"])
    p.set_item(MATCHERS, "taps_for_mana", (kinds, matcher))


@mutant("mana-abilities-use-the-stack", "triggered mana abilities go on the stack instead of resolving at once", ["605.4a"])
def _mana_abilities_use_stack(p: Patcher) -> None:
    p.replace("manaprod", "is_triggered_mana_ability", lambda ability: False)


@mutant("mana-replacement-ignored", "replacement effects don't modify what a mana ability produces", ["106.12b"])
def _mana_replacement_ignored(p: Patcher) -> None:
    p.replace("manaprod", "replace_production", lambda specs, produced: produced)


@mutant("could-produce-nothing", "'could produce' never finds a type of mana", ["106.7"])
def _could_produce_nothing(p: Patcher) -> None:
    p.replace("manaprod", "could_produce", lambda game, obj, visiting=frozenset(): set())


@mutant("mana-replacement-ignores-source-filter", "'if a land is tapped for mana' applies to any permanent", ["106.12b"])
def _mana_replacement_any_source(p: Patcher) -> None:
    def wrapper(original):
        def applies(game, spec, controller, effect_source_id, source, source_chars, player, tapped_for_mana):
            loose = {k: v for k, v in spec.items() if k != "source"}
            return original(game, loose, controller, effect_source_id, source, source_chars, player, tapped_for_mana)
        return applies
    p.wrap("replacement", "mana_replacement_applies", wrapper)


@mutant("mana-ability-triggers-lost", "abilities triggered by a mana ability that aren't mana abilities never trigger",
        ["603.2", "605.5a"])
def _mana_ability_triggers_lost(p: Patcher) -> None:
    from reference_engine import manaprod

    original = manaprod.check

    def check(game, event):
        return [t for t in original(game, event) if manaprod.is_triggered_mana_ability(t.ability)]
    p.replace_in("manaprod", "check", check)


@mutant("tapping-for-any-cost-is-for-mana", "tapping a land to pay any {T} cost counts as tapping it for mana", ["106.12"])
def _tapping_for_any_cost(p: Patcher) -> None:
    from reference_engine import casting, ops
    from reference_engine.triggers import Event

    original = casting.activate

    def activate(game, move):
        obj = game.state.objects.get(move.object_id)
        before = obj.tapped if obj else True
        snap = ops.snapshot(game, obj) if obj else None
        yield from original(game, move)
        if obj is not None and not before and obj.tapped and "Land" in snap.types:
            event = Event("mana_ability_resolved", {"source_id": obj.id, "source_object": obj, "player": move.player, "tapped_for_mana": True,
                                                    "produced": Counter({"C": 1}), "source_snapshot": snap})
            game.state.pending_triggers.extend(
                t for t in __import__("reference_engine.triggers", fromlist=["check"]).check(game, event)
                if not t.ability.data.get("mana_ability"))
    p.replace("casting", "activate", activate)


# --- X (rule 107.3m) ------------------------------------------------------------------------------
@mutant("enters-x-is-zero", "'enters with X' uses the permanent's X (0), not the X of the spell it was", ["107.3m"])
def _enters_x_is_zero(p: Patcher) -> None:
    def wrapper(original):
        def enter_battlefield(game, obj, controller, **kwargs):
            kwargs["spell_x"] = None
            return original(game, obj, controller, **kwargs)
        return enter_battlefield
    p.wrap("ops", "enter_battlefield", wrapper)


@mutant("permanent-keeps-x", "a permanent's mana value still counts the X chosen for the spell", ["107.3m", "202.3e"])
def _permanent_keeps_x(p: Patcher) -> None:
    from reference_engine.model import Zone

    def wrapper(original):
        def characteristics(state, obj):
            chars = original(state, obj)
            if obj.zone is Zone.BATTLEFIELD and obj.spell_x:
                import copy

                chars = copy.copy(chars)
                chars.mana_value += obj.spell_x
            return chars
        return characteristics
    p.wrap("layers", "characteristics", wrapper)


# --- {T} and {Q} (rules 107.5, 107.6, 302.6) ----------------------------------------------------
def _tap_untap_check(*, sickness: bool = True, tapped: bool = True, untapped: bool = True):
    from reference_engine.moves import Illegal

    def check_tap_untap(game, obj, chars, cost):
        if tapped and cost.tap and obj.tapped:
            raise Illegal(f"{chars.name} is already tapped")
        if untapped and cost.untap and not obj.tapped:
            raise Illegal(f"{chars.name} is already untapped")
        if sickness and (cost.tap or cost.untap) and "Creature" in chars.types and obj.summoning_sick \
                and not chars.has_keyword("Haste"):
            raise Illegal(f"{chars.name} is summoning sick")
    return check_tap_untap


@mutant("summoning-sickness-ignored", "creatures can pay {T} and {Q} the turn they arrive", ["302.6"])
def _summoning_sickness_ignored(p: Patcher) -> None:
    p.replace("casting", "check_tap_untap", _tap_untap_check(sickness=False))


@mutant("tapped-permanent-pays-tap", "a permanent that is already tapped can pay {T}", ["107.5"])
def _tapped_pays_tap(p: Patcher) -> None:
    p.replace("casting", "check_tap_untap", _tap_untap_check(tapped=False))


@mutant("untapped-permanent-pays-untap", "a permanent that is already untapped can pay {Q}", ["107.6"])
def _untapped_pays_untap(p: Patcher) -> None:
    p.replace("casting", "check_tap_untap", _tap_untap_check(untapped=False))


@mutant("summoning-sickness-never-wears-off", "permanents stay summoning sick after their controller's turn begins",
        ["302.6"])
def _sickness_never_wears_off(p: Patcher) -> None:
    p.replace("turn", "start_of_turn_control", lambda game: None)


@mutant("summoning-sickness-wears-off-every-turn", "permanents stop being summoning sick as any player's turn begins",
        ["302.6"])
def _sickness_wears_off_every_turn(p: Patcher) -> None:
    def every_turn(game) -> None:
        for obj in game.state.battlefield():
            obj.summoning_sick = False
    p.replace("turn", "start_of_turn_control", every_turn)


@mutant("untap-symbol-treated-as-tap", "{Q} is paid like {T}: the permanent must be untapped", ["107.6"])
def _untap_as_tap(p: Patcher) -> None:
    from reference_engine.moves import Illegal

    def wrapper(original):
        def check_tap_untap(game, obj, chars, cost):
            if cost.untap and obj.tapped:
                raise Illegal(f"{chars.name} is tapped")
            if cost.untap:
                return None
            return original(game, obj, chars, cost)
        return check_tap_untap
    p.wrap("casting", "check_tap_untap", wrapper)


@mutant("summoning-sickness-applies-to-noncreatures", "302.6 also stops noncreature permanents from paying {T}", ["302.6"])
def _sickness_for_all(p: Patcher) -> None:
    from reference_engine.moves import Illegal

    def wrapper(original):
        def check_tap_untap(game, obj, chars, cost):
            if (cost.tap or cost.untap) and obj.summoning_sick:
                raise Illegal(f"{chars.name} arrived this turn")
            return original(game, obj, chars, cost)
        return check_tap_untap
    p.wrap("casting", "check_tap_untap", wrapper)


@mutant("flash-ignored", "creature spells with flash can only be cast at sorcery speed", ["702.8a"])
def _flash_ignored(p: Patcher) -> None:
    p.replace("casting", "instant_speed", lambda chars: "Instant" in chars.types)


# --- the turn record (Nightpack Ambusher) -----------------------------------------------------
@mutant("countered-spell-not-counted", "a spell that was countered doesn't count as cast this turn", ["601.2i"])
def _countered_not_counted(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS

    original = EFFECTS["counter"]

    def counter(game, ctx, params):
        for obj in __import__("reference_engine.effects", fromlist=["objects"]).objects(game, ctx, params["what"]):
            game.state.spells_cast[obj.controller] -= 1
        return original(game, ctx, params)
    p.set_item(EFFECTS, "counter", counter)


@mutant("intervening-if-not-rechecked", "an intervening 'if' is checked only when the ability triggers", ["603.4"])
def _intervening_if_once(p: Patcher) -> None:
    p.replace("resolve", "intervening_if_holds", lambda game, data, ctx: True)


@mutant("spells-counted-since-source-arrived", "'this turn' counts only spells cast since the source arrived", ["603.4"])
def _spells_since_source(p: Patcher) -> None:
    from reference_engine.conditions import GAME_CONDITIONS

    original_cast = __import__("reference_engine.casting", fromlist=["cast"]).cast

    def cast(game, move):
        yield from original_cast(game, move)
        game.state.__dict__.setdefault("_cast_times", []).append((move.player, game.state.next_timestamp))
    p.replace("casting", "cast", cast)

    def spells_cast_this_turn(game, value, ctx):
        source = game.state.objects.get(ctx.source_id)
        since = source.timestamp if source is not None else 0
        player = ctx.controller
        count = sum(1 for who, when in game.state.__dict__.get("_cast_times", []) if who == player and when > since)
        return count >= value.get("min", 0) and ("max" not in value or count <= value["max"])
    p.set_item(GAME_CONDITIONS, "spells_cast_this_turn", spells_cast_this_turn)


# --- putting triggered abilities on the stack (rule 603.3b) ---------------------------------------
@mutant("trigger-order-reversed", "simultaneous triggers go on the stack in the order chosen, so the first chosen resolves last",
        ["603.3b"])
def _trigger_order_reversed(p: Patcher) -> None:
    def wrapper(original):
        def apply_order(triggers, move):
            return list(reversed(original(triggers, move)))
        return apply_order
    p.wrap("triggers", "_apply_order", wrapper)


# --- damage and state-based actions -----------------------------------------------------------
@mutant("damage-not-removed-in-cleanup", "damage stays marked on creatures after the turn ends", ["514.2"])
def _damage_stays(p: Patcher) -> None:
    from reference_engine.model import Zone

    def wrapper(original):
        def cleanup(game):
            saved = {o.id: o.damage for o in game.state.in_zone(Zone.BATTLEFIELD)}
            result = yield from original(game)
            for obj in game.state.in_zone(Zone.BATTLEFIELD):
                obj.damage = saved.get(obj.id, obj.damage)
            return result
        return cleanup
    p.wrap("turn", "_cleanup", wrapper)


@mutant("lethal-damage-ignored", "the state-based action for lethal damage never destroys a creature", ["704.5g"])
def _lethal_damage_ignored(p: Patcher) -> None:
    p.replace("sba", "has_lethal_damage", lambda obj, chars: False)


@mutant("any-damage-is-lethal", "any damage marked on a creature destroys it, as if from deathtouch", ["704.5g"])
def _any_damage_is_lethal(p: Patcher) -> None:
    p.replace("sba", "has_lethal_damage", lambda obj, chars: obj.damage > 0)


@mutant("zero-toughness-survives", "a creature with toughness 0 or less stays on the battlefield", ["704.5f"])
def _zero_toughness_survives(p: Patcher) -> None:
    p.replace("sba", "has_no_toughness", lambda chars: False)


# --- continuous effects -------------------------------------------------------------------------
@mutant("static-abilities-lock-in-their-set", "a static ability affects only what was there before its source (as if 611.2c)",
        ["611.3a"])
def _statics_lock_in(p: Patcher) -> None:
    def wrapper(original):
        def static_applications(state, objects, chars):
            applications = original(state, objects, chars)
            for app in applications:
                source = state.objects.get(app.source_id) if app.source_id is not None else None
                if source is None:
                    continue
                inner = app.affected
                app.affected = (lambda current, inner=inner, since=source.timestamp:
                                [i for i in inner(current) if state.objects[i].timestamp <= since])
            return applications
        return static_applications
    p.wrap("statics", "static_applications", wrapper)

@mutant("anthem-counts-each-matching-type", "'Wolves and Werewolves get +1/+1' gives a bonus for each type matched",
        ["613.4c", "205.3"])
def _anthem_per_type(p: Patcher) -> None:
    from reference_engine import carddefs, filters

    def subtypes_any(state, obj, value, ctx, chars):
        return any(chars.has_subtype(t) for t in value)

    definitions = dict(carddefs.behaviours())
    ambusher = list(definitions["Nightpack Ambusher"])
    anthem = ambusher[1]
    split = []
    for subtype in anthem.data["affects"]["subtypes_any"]:
        data = dict(anthem.data, affects=dict(anthem.data["affects"], subtypes_any=[subtype]))
        split.append(type(anthem)(anthem.kind, data, anthem.keyword))
    definitions["Nightpack Ambusher"] = tuple(ambusher[:1] + split + ambusher[2:])
    p.replace("carddefs", "behaviours", lambda: definitions)
    p.set_item(filters.CONDITIONS, "subtypes_any", subtypes_any)


# --- tokens ---------------------------------------------------------------------------------------
@mutant("token-named-after-its-subtypes", "an unnamed token is named after its subtypes, without 'Token'", ["111.4"])
def _token_name_without_token(p: Patcher) -> None:
    def wrapper(original):
        def token_card(spec):
            if not spec.get("name"):
                spec = dict(spec, name=" ".join(spec.get("subtypes", ())))
            return original(spec)
        return token_card
    p.wrap("carddefs", "token_card", wrapper)
