"""Mutants for handling triggered abilities (rule 603): the ways an engine might get them wrong. Each is
named for the rule it breaks."""

from __future__ import annotations

from dataclasses import replace

from mutants.patching import Patcher, mutant


@mutant("triggered-ability-resolves-at-once", "a triggered ability resolves as soon as it is put on the stack, "
        "before any player receives priority", ["603.2", "603.3"])
def _resolves_at_once(p: Patcher) -> None:
    from reference_engine.resolve import resolve_top

    def wrapper(original):
        def put_on_stack(game):
            state = game.state
            before = {item.id for item in state.stack}
            yield from original(game)
            while state.stack and state.stack[-1].id not in before and not state.stack[-1].is_spell:
                yield from resolve_top(game)
        return put_on_stack
    p.wrap("triggers", "put_on_stack", wrapper)


@mutant("trigger-controlled-by-active-player", "a triggered ability is controlled by the active player, not by "
        "the controller of its source", ["603.3a"])
def _controlled_by_active(p: Patcher) -> None:
    def wrapper(original):
        def check(game, event):
            return [replace(t, controller=game.state.active) for t in original(game, event)]
        return check
    p.wrap("triggers", "check", wrapper)


@mutant("triggers-only-on-your-own-turn", "abilities trigger only when their controller could cast a sorcery "
        "(on their own turn)", ["603.2a"])
def _own_turn_only(p: Patcher) -> None:
    def wrapper(original):
        def check(game, event):
            return [t for t in original(game, event) if t.controller == game.state.active]
        return check
    p.wrap("triggers", "check", wrapper)


@mutant("triggers-stacked-active-player-last", "simultaneous triggers of both players: the nonactive player's go "
        "on the stack first (APNAP reversed)", ["603.3b"])
def _apnap_reversed(p: Patcher) -> None:
    from reference_engine.state import GameState

    original = GameState.apnap
    p.set_attr(GameState, "apnap", lambda self: list(reversed(original(self))))


@mutant("one-trigger-per-event", "an ability triggers only once for an event, however many occurrences it has "
        "(three Goblins entering together trigger 'another creature enters' once)", ["603.2c"])
def _one_trigger_per_event(p: Patcher) -> None:
    def wrapper(original):
        def put_on_stack(game):
            state = game.state
            seen, kept = set(), []
            for trigger in state.pending_triggers:
                key = (trigger.source_uid, id(trigger.ability))
                if key in seen:
                    continue
                seen.add(key)
                kept.append(trigger)
            state.pending_triggers = kept
            yield from original(game)
        return put_on_stack
    p.wrap("triggers", "put_on_stack", wrapper)


@mutant("trigger-without-legal-target-stays", "a triggered ability with no legal target is put on the stack "
        "anyway, with no target", ["603.3d"])
def _no_target_stays(p: Patcher) -> None:
    def wrapper(original):
        def choose_targets(game, trigger):
            chosen = yield from original(game, trigger)
            return () if chosen is None else chosen
        return choose_targets
    p.wrap("triggers", "_choose_targets", wrapper)


@mutant("trigger-targets-chosen-by-engine", "a triggered ability's target is picked by the engine (the first "
        "legal one) instead of by its controller as it goes on the stack", ["603.3d"])
def _targets_by_engine(p: Patcher) -> None:
    from reference_engine.targets import candidates, has_legal_choice

    def choose_targets(game, trigger):
        specs = trigger.ability.data.get("targets")
        if not specs:
            return ()
        if not has_legal_choice(game, specs, trigger.controller, trigger.source_id):
            return None
        chosen = []
        for spec in specs:
            found = next(iter(candidates(game, spec, trigger.controller, trigger.source_id)), None)
            if found is not None:
                chosen.append(found)
        return tuple(chosen)
        yield  # a generator that asks nothing
    p.replace("triggers", "_choose_targets", choose_targets)


@mutant("optional-trigger-not-put-on-stack", "a triggered ability whose effect is optional ('you may') is not put "
        "on the stack; the engine takes it that the player declines", ["603.5"])
def _optional_not_on_stack(p: Patcher) -> None:
    def wrapper(original):
        def check(game, event):
            return [t for t in original(game, event)
                    if not any("may" in step for step in t.ability.data.get("effect") or [])]
        return check
    p.wrap("triggers", "check", wrapper)


@mutant("enters-with-counters-ignored", "'this permanent enters with N counters' puts no counters on it",
        ["614.1c", "603.6d"])
def _enters_with_counters_ignored(p: Patcher) -> None:
    def wrapper(original):
        def entry_replacements(game, card, controller, entry, spell_x):
            yield from original(game, card, controller, entry, spell_x)
            face = card.faces[entry.face]
            loyalty = int(face.loyalty) if "Planeswalker" in face.types and face.loyalty is not None else 0
            entry.counters = {"loyalty": loyalty} if loyalty else {}
        return entry_replacements
    p.wrap("replacement", "entry_replacements", wrapper)


# --- delayed triggered abilities (603.7) ---------------------------------------------------------
@mutant("delayed-triggers-never-trigger", "a delayed triggered ability ('at the beginning of the next end step, "
        "sacrifice it') never triggers", ["603.7"])
def _delayed_never(p: Patcher) -> None:
    p.replace("triggers", "_delayed", lambda game, event: [])


@mutant("delayed-trigger-triggers-every-time", "a delayed triggered ability without a stated duration triggers "
        "each time its event occurs, not only the next time", ["603.7b"])
def _delayed_every_time(p: Patcher) -> None:
    def wrapper(original):
        def delayed(game, event):
            kept = list(game.state.delayed)
            found = original(game, event)
            game.state.delayed = kept
            return found
        return delayed
    p.wrap("triggers", "_delayed", wrapper)


@mutant("delayed-trigger-follows-new-object", "a delayed triggered ability still affects the card it refers to "
        "after it left the battlefield and came back as a new object", ["603.7c"])
def _delayed_follows(p: Patcher) -> None:
    def wrapper(original):
        def delayed(game, event):
            state = game.state
            found = original(game, event)
            for trigger in found:
                memory = trigger.event.get("memory") or {}
                current = []
                for object_id in memory.get("it", []):
                    uid = next((o.uid for o in [state.objects.get(object_id)] if o is not None), None)
                    uid = uid if uid is not None else state.__dict__.setdefault("_uids_of", {}).get(object_id)
                    obj = state.find_uid(uid) if uid is not None else None
                    current.append(obj.id if obj is not None else object_id)
                trigger.event["memory"] = {"it": current}
            return found
        return delayed
    p.wrap("triggers", "_delayed", wrapper)

    def remember(original):
        def delayed_trigger(game, ctx, params):
            for object_id in ctx.memory.get("it", []):
                obj = game.state.objects.get(object_id)
                if obj is not None:
                    game.state.__dict__.setdefault("_uids_of", {})[object_id] = obj.uid
            return original(game, ctx, params)
        return delayed_trigger
    from reference_engine.effects import EFFECTS
    p.set_item(EFFECTS, "delayed_trigger", remember(EFFECTS["delayed_trigger"]))


@mutant("delayed-trigger-source-is-its-object", "a delayed triggered ability's source is the object it refers to, "
        "not the spell or ability that created it", ["603.7d", "603.7e"])
def _delayed_source_is_object(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS

    original = EFFECTS["delayed_trigger"]

    def delayed_trigger(game, ctx, params):
        original(game, ctx, params)
        made = game.state.delayed[-1]
        for object_id in made.memory.get("it", []):
            obj = game.state.objects.get(object_id)
            if obj is not None:
                from reference_engine.layers import characteristics

                made.source_id, made.source_uid = obj.id, obj.uid
                made.source_name = characteristics(game.state, obj).name
                break
    p.set_item(EFFECTS, "delayed_trigger", delayed_trigger)


@mutant("delayed-trigger-sees-its-event-just-before", "a delayed 'at the beginning of the next end step' created "
        "during an end step triggers at once, as if that step's beginning came after it was created", ["603.7a"])
def _delayed_sees_earlier(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS
    from reference_engine.triggers import Event

    original = EFFECTS["delayed_trigger"]

    def delayed_trigger(game, ctx, params):
        original(game, ctx, params)
        state = game.state
        when = params["ability"].data["when"]
        if "step" in when and when["step"].get("step") == state.step.value:
            from reference_engine.triggers import check

            state.pending_triggers.extend(check(game, Event("step_begins", {"step": state.step.value,
                                                                             "active": state.active})))
    p.set_item(EFFECTS, "delayed_trigger", delayed_trigger)


# --- "becomes tapped" (603.2e) -------------------------------------------------------------------
@mutant("entering-tapped-becomes-tapped", "a permanent that enters tapped 'becomes tapped' as it enters",
        ["603.2e"])
def _entering_tapped_triggers(p: Patcher) -> None:
    def wrapper(original):
        def arrive(game, new, entry):
            from reference_engine.ops import emit

            original(game, new, entry)
            if new.tapped:
                emit(game, "becomes_tapped", object_id=new.id, uid=new.uid)
        return arrive
    p.wrap("ops", "_arrive", wrapper)


@mutant("tapping-never-becomes-tapped", "'whenever this becomes tapped' never triggers when it is tapped",
        ["603.2e"])
def _tapping_no_event(p: Patcher) -> None:
    def tap(game, obj):
        obj.tapped = True
    p.replace("ops", "tap", tap)


@mutant("enters-triggers-see-unmodified-permanent", "a permanent's own enters abilities are checked as it was "
        "printed, before continuous effects (Humility) apply to it", ["603.6b"])
def _enters_unmodified(p: Patcher) -> None:
    from reference_engine.triggers import TriggerSource

    def wrapper(original):
        def sources(game, event):
            entering = event.data.get("uid") if event.kind == "enters" else None
            for source, abilities in original(game, event):
                if source.uid != entering:
                    yield source, abilities
            if entering is not None:
                obj = game.state.objects.get(event.data["object_id"])
                if obj is not None:
                    printed = tuple(a for a in obj.face_def.abilities if a.kind == "triggered")
                    yield TriggerSource(obj.id, obj.uid, obj.face_def.name, obj.controller, obj.transform_count), printed
        return sources
    p.wrap("triggers", "_sources", wrapper)


# --- state triggers (603.8) ----------------------------------------------------------------------
@mutant("state-triggers-never-trigger", "'when you control no other creatures' never triggers", ["603.8"])
def _state_never(p: Patcher) -> None:
    p.replace("triggers", "state_triggers", lambda game: [])


@mutant("state-trigger-repeats-while-on-stack", "a state trigger triggers again whenever the stack changes, though "
        "its ability is still on the stack", ["603.8"])
def _state_repeats(p: Patcher) -> None:
    def wrapper(original):
        def state_triggers(game):
            state = game.state
            seen = game.__dict__.setdefault("_state_trigger_seen", set())
            key = sum(1 for item in state.stack if item.is_spell)
            if key in seen:
                return original(game)
            seen.add(key)
            stack, state.stack = state.stack, [i for i in state.stack if i.is_spell]
            try:
                return original(game)
            finally:
                state.stack = stack
        return state_triggers
    p.wrap("triggers", "state_triggers", wrapper)


# --- reflexive triggered abilities (603.12) ------------------------------------------------------
@mutant("reflexive-trigger-ignored", "'when you do, ...' never triggers", ["603.12"])
def _reflexive_ignored(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS

    p.set_item(EFFECTS, "reflexive", lambda game, ctx, params: None)


@mutant("reflexive-trigger-without-the-action", "'you may pay {2}{R}. When you do, ...' triggers whether or not "
        "the player pays", ["603.12"])
def _reflexive_regardless(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS

    original = EFFECTS["may_pay"]

    def may_pay(game, ctx, params):
        before = len(game.state.pending_triggers)
        yield from original(game, ctx, params)
        if len(game.state.pending_triggers) == before:
            for step in params.get("then", []):
                if "reflexive" in step:
                    EFFECTS["reflexive"](game, ctx, step["reflexive"])
    p.set_item(EFFECTS, "may_pay", may_pay)


# --- countered spells (603.10e), "do this only once each turn" (603.2h) -------------------------
@mutant("countered-trigger-looks-forward", "'whenever a spell you've cast is countered' looks at the object after "
        "the event, a card in a graveyard, which is no spell: it never triggers", ["603.10e"])
def _countered_forward(p: Patcher) -> None:
    from reference_engine.model import Zone
    from reference_engine.triggers import MATCHERS

    kinds, original = MATCHERS["countered"]

    def countered(game, event, value, source):
        obj = game.state.objects.get(event.data["new_id"])
        return obj is not None and obj.zone is Zone.STACK and original(game, event, value, source)
    p.set_item(MATCHERS, "countered", (kinds, countered))


@mutant("countered-trigger-ignores-caster", "'whenever a spell you've cast is countered' triggers for any "
        "player's spell", ["603.10e"])
def _countered_any(p: Patcher) -> None:
    from reference_engine.triggers import MATCHERS

    kinds, original = MATCHERS["countered"]
    p.set_item(MATCHERS, "countered", (kinds, lambda game, event, value, source: True))


@mutant("once-each-turn-ignored", "'do this only once each turn' doesn't stop the ability triggering again",
        ["603.2h"])
def _once_ignored(p: Patcher) -> None:
    p.replace("triggers", "_done_this_turn", lambda game, source, ability: False)


@mutant("once-each-turn-counts-triggering", "'do this only once each turn' counts the ability triggering, not "
        "the player taking the action", ["603.2h"])
def _once_counts_triggering(p: Patcher) -> None:
    from reference_engine.optional_effects import done_key

    def wrapper(original):
        def check(game, event):
            found = original(game, event)
            for trigger in found:
                if trigger.ability.data.get("once_each_turn"):
                    game.state.this_turn.add(done_key(trigger.source_uid, trigger.ability))
            return found
        return check
    p.wrap("triggers", "check", wrapper)


# --- zone-change triggers (603.6) ---------------------------------------------------------------
@mutant("zone-change-trigger-follows-the-card", "a zone-change trigger's 'return it' finds the card in whatever "
        "zone it is now, not only in the zone it went to", ["603.6", "603.6c"])
def _zone_change_follows(p: Patcher) -> None:
    from reference_engine import effects

    def wrapper(original):
        def objects(game, ctx, ref):
            if ref == "event_object":
                obj = game.state.objects.get(ctx.event.get("new_id", -1))
                if obj is None and ctx.event.get("uid") is not None:
                    obj = game.state.find_uid(ctx.event["uid"])
                return [obj] if obj is not None else []
            return original(game, ctx, ref)
        return objects
    p.wrap("effects", "objects", wrapper)
    del effects
