"""Mutants for the layer system, continuous effects, counters, state-based actions, lifelink,
planeswalkers and levelers, rule by rule (CR 114, 122, 306, 606, 611, 613, 704, 711; 702.12,
702.15, 702.87): each breaks one rule the way a real engine might get it wrong."""

from __future__ import annotations

import copy

from mutants import shapes
from mutants.patching import Patcher, mutant


# --- the layer system (613) -------------------------------------------------------------------
@mutant("dependency-ignored", "effects in one layer apply in timestamp order only: no effect waits for one it depends on",
        ["613.8", "613.8a", "613.8b"])
def _dependency_ignored(p: Patcher) -> None:
    def in_dependency_order(batch, run):
        return iter(list(batch))
    p.replace("layers", "in_dependency_order", in_dependency_order)


@mutant("static-effect-set-rechecked-per-layer",
        "a static ability's effect is applied in each layer to whatever matches then, not to the set it began with",
        ["613.6"])
def _set_rechecked(p: Patcher) -> None:
    from reference_engine.layers import _LayerRun

    def targets(self, application, chars):
        return list(application.affected(chars))
    p.set_attr(_LayerRun, "targets", targets)


@mutant("cda-in-timestamp-order", "characteristic-defining abilities apply in timestamp order with other effects, not first",
        ["613.3", "604.3"])
def _cda_in_timestamp_order(p: Patcher) -> None:
    def wrapper(original):
        def in_dependency_order(batch, run):
            for application in batch:
                application.is_cda = False
            return original(sorted(batch, key=lambda a: (a.timestamp, a.order)), run)
        return in_dependency_order
    p.wrap("layers", "in_dependency_order", wrapper)


@mutant("cda-pt-in-layer-7b", "a characteristic-defining ability that defines power and toughness applies in layer 7b by timestamp",
        ["613.4a"])
def _cda_pt_in_7b(p: Patcher) -> None:
    def wrapper(original):
        def static_applications(state, objects, chars):
            out = original(state, objects, chars)
            for application in out:
                if application.layer == "7a":
                    application.layer, application.is_cda = "7b", False
            return out
        return static_applications
    p.wrap("statics", "static_applications", wrapper)


def _move_layer_last(p: Patcher, layer: str) -> None:
    from reference_engine import layers

    order = tuple(x for x in layers.LAYER_ORDER if x != layer) + (layer,)
    p.replace_in("layers", "LAYER_ORDER", order)


@mutant("control-change-after-pt", "control-changing effects apply after power and toughness, not in layer 2",
        ["613.1b"])
def _control_last(p: Patcher) -> None:
    _move_layer_last(p, "2")


@mutant("color-change-after-pt", "color-changing effects apply after power and toughness, not in layer 5",
        ["613.1e", "613.5"])
def _color_last(p: Patcher) -> None:
    _move_layer_last(p, "5")


@mutant("copy-effects-newest-first", "copy effects in layer 1 are applied newest first, so the oldest one wins",
        ["613.2"])
def _copy_newest_first(p: Patcher) -> None:
    def copiable_values(state, obj):
        face, card = obj.card.faces[obj.face], obj.card
        copies = [e for e in state.effects if e.layer == "1" and obj.id in e.affected]
        for effect in sorted(copies, key=lambda e: -e.timestamp):
            face, card = effect.params["face"], effect.params["card"]
        return face, card
    p.replace("layers", "copiable_values", copiable_values)


@mutant("face-down-keeps-printed-characteristics", "a face-down permanent keeps the characteristics printed on its card",
        ["613.2b", "708.2a"])
def _face_down_printed(p: Patcher) -> None:
    from reference_engine.layers import printed

    p.replace("layers", "face_down_characteristics", lambda card, controller: printed(card.faces[0], card, controller))


@mutant("type-change-after-pt", "type-changing effects apply after power and toughness, not in layer 4",
        ["613.1d", "613.1"])
def _types_last(p: Patcher) -> None:
    _move_layer_last(p, "4")


@mutant("land-type-keeps-abilities", "a land whose land type an effect sets keeps the abilities of its rules text",
        ["305.7"])
def _land_type_keeps_abilities(p: Patcher) -> None:
    from reference_engine.layers import LAND_TYPES, MODIFIERS

    def set_land_subtypes(chars, params):
        chars.subtypes = [s for s in chars.subtypes if s not in LAND_TYPES] + list(params["subtypes"])
    p.set_item(MODIFIERS, "set_land_subtypes", ("4", set_land_subtypes))


REMOVING = ("lose_all_abilities", "lose_keywords", "cant_have")


def _layer_6_removals(p: Patcher, first: bool) -> None:
    def wrapper(original):
        def in_dependency_order(batch, run):
            if batch and batch[0].layer == "6":
                batch = sorted(batch, key=lambda a: (a.modifier in REMOVING) != first)
            return original(batch, run)
        return in_dependency_order
    p.wrap("layers", "in_dependency_order", wrapper)


@mutant("ability-removal-before-grants", "in layer 6, effects that remove abilities apply before those that add them, whatever their timestamps",
        ["613.7", "613.1f"])
def _removal_first(p: Patcher) -> None:
    _layer_6_removals(p, first=True)


@mutant("ability-removal-after-grants", "in layer 6, effects that remove abilities apply after those that add them, whatever their timestamps",
        ["613.7", "613.9"])
def _removal_last(p: Patcher) -> None:
    _layer_6_removals(p, first=False)


@mutant("simultaneous-entry-nonactive-first", "of permanents entering at once, the non-active player's get the earlier timestamps",
        ["613.7m"])
def _simultaneous_nonactive_first(p: Patcher) -> None:
    from reference_engine import ops
    from reference_engine.effects import EFFECTS
    from reference_engine.layers import characteristics
    from reference_engine.model import Zone

    def living_death(game, ctx, params):
        state = game.state
        exiled = {}
        for player in state.apnap():
            exiled[player] = [ops.move(game, state.objects[i], Zone.EXILE).id
                              for i in list(state.zone_ids(Zone.GRAVEYARD, player))
                              if "Creature" in characteristics(state, state.objects[i]).types]
        for obj in [o for o in state.battlefield() if "Creature" in characteristics(state, o).types]:
            ops.sacrifice(game, obj)
        for player in reversed(state.apnap()):
            for i in exiled[player]:
                if i in state.objects:
                    yield from ops.enter_battlefield(game, state.objects[i], player)
    p.set_item(EFFECTS, "living_death", living_death)


@mutant("cant-have-is-only-loses", "'can't have or gain [keyword]' only removes it, so a newer effect grants it again",
        ["613.1f"])
def _cant_have_is_loses(p: Patcher) -> None:
    from reference_engine.layers import MODIFIERS

    layer, _ = MODIFIERS["cant_have"]
    p.set_item(MODIFIERS, "cant_have", (layer, MODIFIERS["lose_keywords"][1]))


@mutant("attaching-keeps-timestamp", "an Equipment keeps its old timestamp when it becomes attached",
        ["613.7e"])
def _attach_keeps_timestamp(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS

    original = EFFECTS["attach"]

    def attach(game, ctx, params):
        before = {o.id: o.timestamp for o in game.state.battlefield()}
        original(game, ctx, params)
        for obj in game.state.battlefield():
            if obj.id in before and obj.timestamp != before[obj.id]:
                obj.timestamp = before[obj.id]
                game.state.touch()
    p.set_item(EFFECTS, "attach", attach)


@mutant("rule-effects-ignored", "static abilities that affect players or the rules of the game have no effect",
        ["613.10", "613.11"])
def _rule_effects_ignored(p: Patcher) -> None:
    p.replace("rule_effects", "rule_effects", lambda game, key: iter(()))


@mutant("rule-effects-from-printed-abilities",
        "effects on players and on the rules come from permanents' printed abilities, before the layers are applied",
        ["613.10", "613.11"])
def _rule_effects_printed(p: Patcher) -> None:
    from reference_engine.layers import characteristics

    def rule_effects(game, key):
        for obj in game.state.battlefield():
            for ability in obj.face_def.abilities:
                if ability.kind == "rule" and key in ability.data:
                    yield characteristics(game.state, obj).controller, obj.id, ability.data[key]
    p.replace("rule_effects", "rule_effects", rule_effects)


# --- continuous effects (611) --------------------------------------------------------------------
@mutant("static-effects-apply-after-entering",
        "a static ability's effect reaches a permanent only after it has entered, so enters abilities see it unmodified",
        ["611.3c"])
def _statics_after_entering(p: Patcher) -> None:
    from reference_engine.layers import characteristics, printed
    from reference_engine.triggers import MATCHERS

    kinds, original = MATCHERS["enters"]

    def enters(game, event, value, source):
        if value == "self":
            return original(game, event, value, source)
        obj = game.state.objects.get(event.data["object_id"])
        if obj is None:
            return False
        from reference_engine.filters import FilterContext, matches

        now = characteristics(game.state, obj)
        bare = printed(obj.face_def, obj.card, now.controller)
        return matches(game.state, obj, value, FilterContext(source.controller, source.id, source.uid), chars=bare)
    p.set_item(MATCHERS, "enters", (kinds, enters))


@mutant("static-abilities-function-in-graveyards", "a permanent's static abilities keep applying from its owner's graveyard",
        ["611.3b"])
def _statics_in_graveyards(p: Patcher) -> None:
    from reference_engine.layers import printed
    from reference_engine.model import Zone

    def wrapper(original):
        def static_applications(state, objects, chars):
            dead = [o for o in state.all_objects() if o.zone is Zone.GRAVEYARD
                    and any(a.kind == "static" for a in o.face_def.abilities)]
            if not dead:
                return original(state, objects, chars)
            merged = dict(chars)
            for obj in dead:
                merged[obj.id] = printed(obj.face_def, obj.card, obj.owner)
            return original(state, list(objects) + dead, merged)
        return static_applications
    p.wrap("statics", "static_applications", wrapper)


@mutant("resolved-effect-variable-recounted", "a number a resolved effect counts ('for each creature you control') is counted again as things change",
        ["611.2d"])
def _variable_recounted(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS
    from reference_engine.layers import MODIFIERS
    from reference_engine.model import Zone

    original = EFFECTS["modify"]

    def modify(game, ctx, params):
        before = len(game.state.effects)
        original(game, ctx, params)
        counted = [part["modify_pt"]["power"] for part in params["effects"]
                   if "modify_pt" in part and isinstance(part["modify_pt"].get("power"), dict)]
        for effect in game.state.effects[before:]:
            if effect.modifier == "modify_pt" and counted:
                effect.params = dict(effect.params, _recount=(tuple(counted[0]["count"].get("types", ())), ctx.controller))
                effect.params["_objects"] = game.state.objects  # read as characteristics are computed
    p.set_item(EFFECTS, "modify", modify)
    layer, modify_pt = MODIFIERS["modify_pt"]

    def recounting(chars, params):
        if "_recount" not in params:
            return modify_pt(chars, params)
        types, controller = params["_recount"]
        n = sum(1 for o in params["_objects"].values() if o.zone is Zone.BATTLEFIELD and o.controller == controller
                and all(t in o.face_def.types for t in types))
        return modify_pt(chars, {"power": n, "toughness": n})
    p.set_item(MODIFIERS, "modify_pt", (layer, recounting))


@mutant("ended-duration-lasts-forever", "an effect 'for as long as' something that is over before it begins lasts until the end of the game",
        ["611.2b"])
def _ended_duration_forever(p: Patcher) -> None:
    from reference_engine.effects import you_control_source

    shapes.effect_with_params(p, "modify", lambda game, ctx, params: dict(params, until="permanent") if (
        params.get("until") == "while_you_control_source"
        and not you_control_source(game.state, ctx.source_id, ctx.controller)) else params)


@mutant("for-as-long-as-never-ends", "an effect 'for as long as you control [it]' goes on after you stop controlling it",
        ["611.2b"])
def _for_as_long_as_never_ends(p: Patcher) -> None:
    p.replace("layers", "_lasts", lambda state, effect: True)


@mutant("is-effect-applies-after-entering", "'that creature is [characteristic]' from the spell putting it onto the battlefield applies only after it has entered",
        ["611.2e"])
def _is_effect_late(p: Patcher) -> None:
    def wrapper(original):
        def enter_battlefield(game, obj, controller, *, is_effects=None, effect_controller=None, **kwargs):
            new = yield from original(game, obj, controller, **kwargs)
            if new is not None and is_effects:
                from reference_engine.layers import MODIFIERS
                from reference_engine.model import ContinuousEffect

                state = game.state
                timestamp = state.new_timestamp()
                for name, params in is_effects:
                    state.effects.append(ContinuousEffect(MODIFIERS[name][0], timestamp, name, params, frozenset({new.id}),
                                                          effect_controller or new.controller, duration="permanent"))
                state.touch()
            return new
        return enter_battlefield
    p.wrap("ops", "enter_battlefield", wrapper)


@mutant("until-end-of-turn-lasts", "'until end of turn' effects don't end in the cleanup step", ["611.2a", "514.2"])
def _until_end_of_turn_lasts(p: Patcher) -> None:
    shapes.effect_with_params(p, "modify", lambda game, ctx, params: dict(params, until="permanent")
                              if params.get("until", "end_of_turn") == "end_of_turn" else params)


# --- counters (122) ------------------------------------------------------------------------------
@mutant("keyword-counters-ignored", "a keyword counter doesn't give the permanent its keyword", ["122.1b"])
def _keyword_counters_ignored(p: Patcher) -> None:
    p.replace("layers", "_keyword_counter_applications", lambda objects: [])


def _without_counter(p: Patcher, module: str, function: str, kind: str) -> None:
    """`module.function(game, obj, ...)` runs as if `obj` (or each object of a list) had no counter of `kind`."""
    def wrapper(original):
        def patched(game, obj, *args, **kwargs):
            objs = obj if isinstance(obj, list) else [obj]
            hidden = [(o, o.counters.pop(kind, 0)) for o in objs if hasattr(o, "counters")]
            try:
                return original(game, obj, *args, **kwargs)
            finally:
                for o, amount in hidden:
                    if amount:
                        o.counters[kind] = amount
        return patched
    p.wrap(module, function, wrapper)


@mutant("shield-counter-ignored", "a shield counter stops neither destruction nor damage", ["122.1c"])
def _shield_ignored(p: Patcher) -> None:
    _without_counter(p, "ops", "destroy_together", "shield")
    shapes.damage_ignores_shield_counters(p)


@mutant("shield-counter-stops-only-destruction", "a shield counter doesn't prevent damage", ["122.1c"])
def _shield_only_destruction(p: Patcher) -> None:
    shapes.damage_ignores_shield_counters(p)


@mutant("stun-counter-ignored", "a stun counter doesn't stop a permanent from untapping", ["122.1d"])
def _stun_ignored(p: Patcher) -> None:
    _without_counter(p, "ops", "untap", "stun")


@mutant("finality-counter-ignored", "a finality counter doesn't send a dying permanent to exile", ["122.1h"])
def _finality_ignored(p: Patcher) -> None:
    _without_counter(p, "ops", "move_together", "finality")


@mutant("counter-moved-from-nothing", "moving a counter puts one on the second object even if the first has none to remove",
        ["122.5"])
def _counter_from_nothing(p: Patcher) -> None:
    from reference_engine import ops
    from reference_engine.effects import EFFECTS, objects

    def move_counter(game, ctx, params):
        kind = params["kind"]
        for obj in objects(game, ctx, params["from"]):
            ops.remove_counters(game, obj, kind, 1)
        for obj in objects(game, ctx, params["to"]):
            yield from ops.add_counters(game, obj, kind, 1)
    p.set_item(EFFECTS, "move_counter", move_counter)


@mutant("counter-moved-without-removing", "moving a counter puts one on the second object but leaves the first its own",
        ["122.5"])
def _counter_not_removed(p: Patcher) -> None:
    from reference_engine import ops
    from reference_engine.effects import EFFECTS, objects

    def move_counter(game, ctx, params):
        origin, destination = objects(game, ctx, params["from"]), objects(game, ctx, params["to"])
        if origin and destination and origin[0] is not destination[0] and origin[0].counters.get(params["kind"]):
            yield from ops.add_counters(game, destination[0], params["kind"], 1)
    p.set_item(EFFECTS, "move_counter", move_counter)


@mutant("entering-counters-not-put-on", "counters a permanent enters with aren't 'put on' it, so effects that modify putting counters ignore them",
        ["122.6"])
def _entering_counters(p: Patcher) -> None:
    from reference_engine import ops

    def put_entering_counters(game, new, counters):
        for kind, amount in (counters or {}).items():
            ops.put_counters(game, new, kind, amount)
        yield from ()
    p.replace("ops", "put_entering_counters", put_entering_counters)


@mutant("counter-replacement-ignores-controller", "'a creature you control' in a counter replacement effect matches any creature",
        ["122.6", "614.1a"])
def _counter_replacement_any(p: Patcher) -> None:
    from reference_engine.filters import FilterContext, matches
    from reference_engine.layers import characteristics

    def wrapper(original):
        def counters_to_put(game, obj, kind, amount, by=None, *, by_effect=False):
            result = yield from original(game, obj, kind, amount, by, by_effect=by_effect)
            if result <= 0:
                return result
            state = game.state
            for source in state.battlefield():
                chars = characteristics(state, source)
                for ability in chars.abilities:
                    spec = ability.data.get("counters_placed") if ability.kind == "replacement" else None
                    affects = (spec or {}).get("affects") or {}
                    if (spec and spec.get("kind", kind) == kind and affects.get("controller") == "you"
                            and characteristics(state, obj).controller != chars.controller
                            and matches(state, obj, {k: v for k, v in affects.items() if k != "controller"},
                                        FilterContext(chars.controller, source.id))):
                        result += spec.get("plus", 0)  # applied to a creature its controller doesn't control
            return result
        return counters_to_put
    p.wrap("ops", "counters_to_put", wrapper)


@mutant("departed-object-counters-moved", "'put its counters on' another object, for an object that has left the battlefield, moves them from it: none",
        ["122.8"])
def _departed_counters(p: Patcher) -> None:
    from reference_engine.model import Zone

    def last_known_counters(game, object_id, kind):
        obj = game.state.objects.get(object_id) if object_id is not None else None
        return obj.counters.get(kind, 0) if obj is not None and obj.zone is Zone.BATTLEFIELD else 0
    p.replace("effects", "last_known_counters", last_known_counters)


def _nth_counter(p: Patcher, test) -> None:
    from reference_engine.triggers import MATCHERS

    kinds, _ = MATCHERS["nth_counter"]

    def nth_counter(game, event, value, source):
        return (event.data["uid"] == source.uid and event.data["counter"] == value["kind"]
                and test(event.data["before"], event.data["after"], value["n"]))
    p.set_item(MATCHERS, "nth_counter", (kinds, nth_counter))


@mutant("nth-counter-whenever-at-least-n", "'when the Nth counter is put on' triggers whenever a counter is put on and it has N or more",
        ["122.7"])
def _nth_at_least(p: Patcher) -> None:
    _nth_counter(p, lambda before, after, n: after >= n)


@mutant("nth-counter-counts-before", "'when the Nth counter is put on' triggers when it had N counters before the new ones",
        ["122.7"])
def _nth_before(p: Patcher) -> None:
    _nth_counter(p, lambda before, after, n: before >= n)


# --- state-based actions (704) ---------------------------------------------------------------------
@mutant("plus-and-minus-counters-kept", "+1/+1 and -1/-1 counters on one permanent don't cancel out", ["704.5q", "122.3"])
def _counters_kept(p: Patcher) -> None:
    p.replace("sba", "annihilated", lambda obj: 0)


@mutant("attached-creature-stays-attached", "a creature (or a permanent that is no Aura or Equipment) attached to something stays attached",
        ["704.5p"])
def _creature_stays_attached(p: Patcher) -> None:
    def wrapper(original):
        def stays_attached(state, obj, chars):
            if "Equipment" in chars.subtypes and "Creature" in chars.types:
                chars = copy.copy(chars)
                chars.types = [t for t in chars.types if t != "Creature"]
            return original(state, obj, chars)
        return stays_attached
    p.wrap("sba", "stays_attached", wrapper)


@mutant("equipment-stays-on-noncreature", "an Equipment stays attached to a permanent that is no longer a creature",
        ["704.5n"])
def _equipment_stays(p: Patcher) -> None:
    def wrapper(original):
        def stays_attached(state, obj, chars):
            host = state.objects.get(obj.attached_to)
            if "Equipment" in chars.subtypes and "Creature" not in chars.types and host is not None:
                return True
            return original(state, obj, chars)
        return stays_attached
    p.wrap("sba", "stays_attached", wrapper)


@mutant("hone-counters-ignored", "a hone counter on an Equipment gives the equipped creature nothing", ["122.1j"])
def _hone_ignored(p: Patcher) -> None:
    def wrapper(original):
        def counter_applications(objects):
            return [a for a in original(objects) if a.params.get("toughness") != 0 or a.params.get("power", 0) < 0]
        return counter_applications
    p.wrap("layers", "_counter_applications", wrapper)


@mutant("sba-last-known-after-other-actions",
        "a permanent leaving by a state-based action is known as it was after the other state-based actions performed with it",
        ["704.8"])
def _sba_lki_late(p: Patcher) -> None:
    def wrapper(original):
        def move_together(game, objs, to, *, last_known=None, **options):
            return original(game, objs, to, **options)
        return move_together
    p.wrap("ops", "move_together", wrapper)


@mutant("counter-limit-ignored", "a permanent that can't have more than N counters of a kind keeps the extra ones", ["704.5r", "122.4"])
def _counter_limit_ignored(p: Patcher) -> None:
    p.replace("sba", "counter_limits", lambda chars: [])


@mutant("counter-limit-off-by-one", "'can't have more than N counters' leaves N-1", ["704.5r", "122.4"])
def _counter_limit_off_by_one(p: Patcher) -> None:
    def wrapper(original):
        def counter_limits(chars):
            return [(kind, n - 1) for kind, n in original(chars)]
        return counter_limits
    p.wrap("sba", "counter_limits", wrapper)


@mutant("aura-stays-unattached", "an Aura that is attached to nothing stays on the battlefield", ["704.5m"])
def _aura_stays_unattached(p: Patcher) -> None:
    def wrapper(original):
        def aura_legally_attached(state, obj, chars):
            return obj.attached_to is None or obj.attached_to not in state.objects or original(state, obj, chars)
        return aura_legally_attached
    p.wrap("sba", "aura_legally_attached", wrapper)


@mutant("aura-on-illegal-object-stays", "an Aura stays attached to an object it can't enchant, like an Equipment",
        ["704.5m"])
def _aura_illegal_stays(p: Patcher) -> None:
    from reference_engine.model import Zone

    def aura_legally_attached(state, obj, chars):
        host = state.objects.get(obj.attached_to) if obj.attached_to is not None else None
        return host is not None and host.zone is Zone.BATTLEFIELD
    p.replace("sba", "aura_legally_attached", aura_legally_attached)


@mutant("roles-all-stay", "a permanent keeps every Role a player controls on it", ["704.5z"])
def _roles_all_stay(p: Patcher) -> None:
    p.replace("sba", "surplus_roles", lambda state, roles: [])


@mutant("roles-one-per-permanent", "only the newest Role on a permanent stays, whoever controls the others", ["704.5z"])
def _roles_one_per_permanent(p: Patcher) -> None:
    def surplus_roles(state, roles):
        by_host: dict = {}
        for obj, _ in roles:
            by_host.setdefault(obj.attached_to, []).append(obj)
        return [o for group in by_host.values() for o in group if o is not max(group, key=lambda r: r.timestamp)]
    p.replace("sba", "surplus_roles", surplus_roles)


@mutant("state-trigger-as-state-based-action", "an ability that watches for a game state acts at once like a state-based action, without the stack",
        ["704.1a"])
def _state_trigger_as_sba(p: Patcher) -> None:
    def wrapper(original):
        def state_triggers(game):
            before = len(game.state.pending_triggers)
            original(game)
            new = game.state.pending_triggers[before:]
            del game.state.pending_triggers[before:]
            for pending in new:
                from reference_engine.effects import Ctx, run

                ctx = Ctx(pending.controller, pending.source_id, pending.source_uid, pending.source_name, pending.source_snapshot)
                for _ in run(game, ctx, pending.ability.data.get("effect", [])):
                    pass
        return state_triggers
    p.wrap("triggers", "state_triggers", wrapper)


@mutant("state-trigger-checked-only-on-events", "a state trigger is checked only as an event happens to its own source",
        ["704.1a"])
def _state_trigger_events(p: Patcher) -> None:
    p.replace("triggers", "state_triggers", lambda game: None)


@mutant("state-trigger-condition-ignored", "a state trigger triggers whenever state triggers are looked at, whether its state is true or not",
        ["704.1a"])
def _state_trigger_condition_ignored(p: Patcher) -> None:
    from reference_engine import triggers

    def state_triggers(game):
        state = game.state
        waiting = {(t.source_id, id(t.ability)) for t in state.pending_triggers}
        waiting |= {(i.source_id, id(i.ability)) for i in state.stack if not i.is_spell and i.ability is not None}
        for source, abilities in triggers._permanent_sources(state):
            for ability in abilities:
                if ability.kind == "triggered" and "state" in ability.data["when"] and (source.id, id(ability)) not in waiting:
                    state.pending_triggers.append(triggers.PendingTrigger(
                        source.controller, source.id, source.uid, source.name, ability, {}, state.new_timestamp(),
                        source.transform_count, source.snapshot))
    p.replace("triggers", "state_triggers", state_triggers)


@mutant("saga-sacrificed-with-chapter-on-stack", "a Saga past its last chapter is sacrificed even while that chapter ability is on the stack",
        ["704.5s"])
def _saga_early(p: Patcher) -> None:
    from reference_engine.sagas import chapter_numbers

    def must_be_sacrificed(game, obj, chars):
        chapters = chapter_numbers(chars)
        return "Saga" in chars.subtypes and bool(chapters) and obj.counters.get("lore", 0) >= max(chapters)
    p.replace("sagas", "must_be_sacrificed", must_be_sacrificed)


@mutant("saga-sacrificed-at-any-chapter", "a Saga is sacrificed once any of its chapters has resolved", ["704.5s"])
def _saga_any_chapter(p: Patcher) -> None:
    from reference_engine.sagas import chapter_numbers

    def wrapper(original):
        def must_be_sacrificed(game, obj, chars):
            if "Saga" in chars.subtypes and chapter_numbers(chars) and obj.counters.get("lore", 0) >= min(chapter_numbers(chars)) + 1:
                state = game.state
                return not any(p.source_id == obj.id for p in state.pending_triggers) and not any(
                    not i.is_spell and i.source_id == obj.id for i in state.stack)
            return original(game, obj, chars)
        return must_be_sacrificed
    p.wrap("sagas", "must_be_sacrificed", wrapper)


@mutant("world-rule-ignored", "two world permanents stay on the battlefield", ["704.5k"])
def _world_rule_ignored(p: Patcher) -> None:
    p.replace("sba", "world_rule_losers", lambda worlds: [])


@mutant("world-rule-keeps-oldest", "the world rule keeps the world permanent that has had the supertype longest",
        ["704.5k"])
def _world_rule_oldest(p: Patcher) -> None:
    def losers(worlds):
        if len(worlds) < 2:
            return []
        oldest = min(worlds, key=lambda o: o.timestamp)
        return [o for o in worlds if o is not oldest]
    p.replace("sba", "world_rule_losers", losers)


@mutant("zero-life-does-not-lose", "a player with 0 or less life doesn't lose the game", ["704.5a"])
def _zero_life(p: Patcher) -> None:
    def loss_reason(player):
        if player.drew_from_empty_library:
            return f"{player.name} drew from an empty library (704.5b)"
        return None
    p.replace("sba", "loss_reason", loss_reason)


@mutant("one-life-loses", "a player with 1 life loses the game (0 or less, off by one)", ["704.5a"])
def _one_life_loses(p: Patcher) -> None:
    shapes.loss_reason_added(p, lambda player: f"{player.name} has {player.life} life" if player.life <= 1 else None)


@mutant("empty-library-loses", "a player whose library is empty loses, though they didn't try to draw from it", ["704.5b"])
def _empty_library_loses(p: Patcher) -> None:
    from reference_engine import ops
    from reference_engine.model import Zone

    original = ops.draw

    def draw(game, player, count=1, **options):
        drawn = original(game, player, count, **options)
        if not game.state.zone_ids(Zone.LIBRARY, player):
            game.state.players[player].drew_from_empty_library = True
        return drawn
    p.replace("ops", "draw", draw)


@mutant("poison-counters-never-lose", "a player with ten or more poison counters doesn't lose the game", ["704.5c", "122.1f"])
def _poison_never_loses(p: Patcher) -> None:
    shapes.loss_reason_dropped(p, "704.5c")


@mutant("infect-damage-to-players-is-life-loss", "damage from a source with infect makes a player lose life as well as get poison counters",
        ["122.1f", "702.90b"])
def _infect_life_loss(p: Patcher) -> None:
    from reference_engine import ops

    shapes.after_damage(p, lambda game, source, target, dealt: ops.lose_life(game, target.value, dealt) if (
        dealt and target.kind == "player" and source.chars.has_keyword("Infect")) else None)


@mutant("nine-poison-counters-lose", "a player loses with nine poison counters (ten or more, off by one)", ["704.5c"])
def _nine_poison(p: Patcher) -> None:
    shapes.loss_reason_added(p, lambda player: f"{player.name} has {player.poison} poison counters"
                             if player.poison >= 9 else None)


@mutant("empty-library-draw-does-not-lose", "drawing from an empty library doesn't make a player lose", ["704.5b"])
def _empty_library(p: Patcher) -> None:
    shapes.loss_reason_dropped(p, "704.5b")


@mutant("token-stays-off-battlefield", "a token that left the battlefield goes on existing in its new zone", ["704.5d"])
def _token_stays(p: Patcher) -> None:
    p.replace("sba", "ceases_to_exist", lambda obj: False)


@mutant("spell-copy-stays-in-graveyard", "a copy of a spell put into a graveyard stays there like a card", ["704.5e"])
def _spell_copy_stays(p: Patcher) -> None:
    def wrapper(original):
        def ceases_to_exist(obj):
            return False if obj.spell_copy else original(obj)
        return ceases_to_exist
    p.wrap("sba", "ceases_to_exist", wrapper)


@mutant("each-loss-replaced-separately", "each state-based action that would make a player lose needs its own replacement effect",
        ["704.7"])
def _each_loss_replaced(p: Patcher) -> None:
    def wrapper(original):
        def replace_loss(game, player):
            state_player = game.state.players[player]
            reasons = sum([state_player.life <= 0, state_player.drew_from_empty_library, state_player.poison >= 10])
            replaced = yield from original(game, player)
            for _ in range(reasons - 1):
                if replaced:
                    replaced = yield from original(game, player)
            if not replaced and reasons > 1:
                state_player.lost, state_player.loss_reason = True, f"{player} loses (a second state-based action)"
            return replaced
        return replace_loss
    p.wrap("sba", "replace_loss", wrapper)


@mutant("deathtouch-damage-not-lethal", "damage from a source with deathtouch is lethal only if it is at least the toughness",
        ["704.5h", "702.2b"])
def _deathtouch_ignored(p: Patcher) -> None:
    def has_lethal_damage(obj, chars):
        toughness = chars.toughness or 0
        return toughness > 0 and obj.damage >= toughness
    p.replace("sba", "has_lethal_damage", has_lethal_damage)


# --- lifelink (702.15) --------------------------------------------------------------------------
@mutant("lifelink-needs-source-on-battlefield",
        "a source with lifelink that has left the battlefield causes no life gain (its last known information is ignored)",
        ["702.15c"])
def _lifelink_current_only(p: Patcher) -> None:
    from reference_engine import ops
    from reference_engine.model import Zone

    original = ops.deal_damage

    def deal_damage(game, source, target, amount, **kwargs):
        obj = game.state.objects.get(source.object_id) if source.object_id is not None else None
        if (obj is None or obj.zone is not Zone.BATTLEFIELD) and source.chars.has_keyword("Lifelink"):
            chars = copy.copy(source.chars)
            chars.abilities = [a for a in chars.abilities if a.keyword != "Lifelink"]
            source = ops.DamageSource(source.object_id, source.uid, chars)
        return original(game, source, target, amount, **kwargs)
    p.replace("ops", "deal_damage", deal_damage)


@mutant("lifelink-instances-add-up", "each instance of lifelink on a source makes its controller gain the life again",
        ["702.15f"])
def _lifelink_instances(p: Patcher) -> None:
    from reference_engine import ops

    def again(game, source, target, dealt):
        extra = sum(1 for a in source.chars.abilities if a.kind == "keyword" and a.keyword == "Lifelink") - 1
        for _ in range(max(0, extra)):
            ops.gain_life(game, source.chars.controller, dealt)
    shapes.after_damage(p, again)


@mutant("lifelink-combat-gain-is-one-event",
        "combat damage from several sources with lifelink makes their controller gain life in one event", ["702.15e"])
def _lifelink_one_event(p: Patcher) -> None:
    from reference_engine import ops

    original_gain = ops.gain_life

    def wrapper(original):
        def combat_damage(game, **kwargs):
            gained: dict[str, int] = {}

            def gain_life(game_, player, amount):
                if amount > 0:
                    gained[player] = gained.get(player, 0) + amount
            p_inner = Patcher()
            p_inner.replace("ops", "gain_life", gain_life)
            try:
                result = yield from original(game, **kwargs)  # combat damage may ask a choice (616.1)
            finally:
                p_inner.undo()
            for player, amount in gained.items():
                original_gain(game, player, amount)
            return result
        return combat_damage
    p.wrap("combat", "combat_damage", wrapper)


# --- planeswalkers (306) -------------------------------------------------------------------------
@mutant("player-damage-redirected-to-planeswalker",
        "noncombat damage to a player is dealt to a planeswalker that player controls instead (the removed rule 306.7)",
        ["306.7"])
def _redirect(p: Patcher) -> None:
    from reference_engine import ops
    from reference_engine.layers import characteristics
    from reference_engine.model import Target

    original = ops.deal_damage

    def deal_damage(game, source, target, amount, *, combat=False, **kwargs):
        if target.kind == "player" and not combat:
            for obj in game.state.battlefield():
                chars = characteristics(game.state, obj)
                if "Planeswalker" in chars.types and chars.controller == target.value:
                    target = Target("object", obj.id)
                    break
        return original(game, source, target, amount, combat=combat, **kwargs)
    p.replace("ops", "deal_damage", deal_damage)


@mutant("planeswalker-at-instant-speed", "a planeswalker spell can be cast any time its controller has priority",
        ["306.1"])
def _planeswalker_instant(p: Patcher) -> None:
    def wrapper(original):
        def instant_speed(chars):
            return original(chars) or "Planeswalker" in chars.types
        return instant_speed
    p.wrap("casting", "instant_speed", wrapper)


@mutant("additional-loyalty-cost-ignored", "an additional loyalty cost ('cost an additional [+1]') isn't paid", ["606.5"])
def _additional_loyalty_ignored(p: Patcher) -> None:
    p.replace("rule_effects", "loyalty_cost", lambda game, player, cost: cost)


@mutant("additional-loyalty-cost-paid-separately",
        "an additional loyalty cost is paid on its own after the ability's cost, so a minus cost is checked without it",
        ["606.5", "606.6"])
def _additional_loyalty_separate(p: Patcher) -> None:
    def wrapper(original):
        def check_loyalty(game, player, obj, chars, cost):
            from dataclasses import replace

            from reference_engine.rule_effects import rule_effects

            extra = sum(v for c, _, v in rule_effects(game, "additional_loyalty_cost") if c == player)
            return original(game, player, obj, chars, replace(cost, loyalty=cost.loyalty - extra) if extra else cost)
        return check_loyalty
    p.wrap("casting", "_check_loyalty", wrapper)


@mutant("class-level-is-level-counters", "a Class's level is kept as level counters: gaining a level puts one on it, and the level is read from them",
        ["711.7", "702.87c"])
def _class_level_counters(p: Patcher) -> None:
    from reference_engine import ops
    from reference_engine.effects import EFFECTS, objects
    from reference_engine.model import GameObject, Zone

    def gain_class_level(game, ctx, params):
        for obj in objects(game, ctx, "self"):
            if obj.zone is Zone.BATTLEFIELD:
                yield from ops.add_counters(game, obj, "level", params["level"] - obj.counters.get("level", 0) - 1)
                ops.emit(game, "class_level", object_id=obj.id, uid=obj.uid, level=params["level"])
    p.set_item(EFFECTS, "gain_class_level", gain_class_level)
    p.set_attr(GameObject, "class_level", property(lambda self: self.counters.get("level", 0) + 1,
                                                   lambda self, value: None))


@mutant("class-levels-skip-ahead", "a Class can gain any higher level, not only the next one", ["711.7"])
def _class_skip(p: Patcher) -> None:
    from reference_engine import casting

    original = casting.activate

    def activate(game, move):
        obj = game.state.objects.get(move.object_id)
        chars = casting.characteristics(game.state, obj) if obj is not None else None
        if chars is not None and "Class" in chars.subtypes:
            ability = casting._activated(chars, move.ability_index)
            if "becomes_level" in ability.data:
                saved = obj.class_level
                obj.__dict__["class_level"] = ability.data["becomes_level"] - 1
                try:
                    return (yield from original(game, move))  # activating may ask a choice (616.1)
                finally:
                    if obj.id in game.state.objects and obj.class_level == ability.data["becomes_level"] - 1:
                        obj.__dict__["class_level"] = saved
        return (yield from original(game, move))
    p.replace("casting", "activate", activate)


# --- emblems (114) -------------------------------------------------------------------------------
@mutant("emblem-is-a-permanent", "an emblem is treated as a permanent with no types, so 'destroy all nonland permanents' removes it",
        ["114.5"])
def _emblem_is_permanent(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS

    original = EFFECTS["destroy"]

    def destroy(game, ctx, params):
        original(game, ctx, params)
        what = params["what"]
        if isinstance(what, dict) and "all" in what and not any(k in what["all"] for k in ("types", "types_any", "subtypes")):
            game.state.emblems = []
            game.state.touch()
    p.set_item(EFFECTS, "destroy", destroy)


# --- levelers (711) ------------------------------------------------------------------------------
@mutant("leveler-off-battlefield-uses-last-box",
        "off the battlefield a leveler has the power and toughness of its last level box", ["711.6"])
def _leveler_last_box(p: Patcher) -> None:
    def wrapper(original):
        def printed(face, card, controller, **kwargs):
            chars = original(face, card, controller, **kwargs)
            boxes = [params for ability in face.abilities if ability.kind == "static" and "level" in ability.data.get("while", {})
                     for name, params in ability.data["effects"] if name == "set_pt"]
            if boxes:
                chars = copy.copy(chars)
                chars.power, chars.toughness = boxes[-1]["power"], boxes[-1]["toughness"]
            return chars
        return printed
    p.wrap("layers", "printed", wrapper)
