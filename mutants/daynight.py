"""Mutants for day and night (731, 702.145), transforming (701.27), double-faced cards (712),
Tovolar's abilities and Moonmist's prevention effect (615): the ways an engine might get them wrong."""

from __future__ import annotations

from mutants.patching import Patcher, mutant


def _daynight():
    from reference_engine import daynight

    return daynight


def _untap_check(*, day_to_night, night_to_day, neither_as_day: bool = False, count=None):
    """An untap-step check (502.2) with the given thresholds; `count(state, previous)` counts spells."""
    def untap_step_check(game) -> None:
        state = game.state
        previous = state.previous_active
        if previous is None or (state.day_night is None and not neither_as_day):
            return
        cast = count(state, previous) if count else state.previous_turn_spells[previous]
        if state.day_night in ("day", None) and day_to_night(cast):
            _daynight().become(game, "night")
        elif state.day_night == "night" and night_to_day(cast):
            _daynight().become(game, "day")
    return untap_step_check


# --- the designation (731.1, 702.145d/g) --------------------------------------------------------
@mutant("daybound-does-not-make-day", "a daybound permanent doesn't make it day while it is neither", ["702.145d"])
def _daybound_does_not_make_day(p: Patcher) -> None:
    dn = _daynight()

    def check_designation(game) -> None:
        if game.state.day_night is None and not dn._with_keyword(game, "Daybound") \
                and dn._with_keyword(game, "Nightbound"):
            dn.become(game, "night")
    p.replace("daynight", "check_designation", check_designation)


@mutant("nightbound-does-not-make-night", "a nightbound permanent doesn't make it night while it is neither", ["702.145g"])
def _nightbound_does_not_make_night(p: Patcher) -> None:
    dn = _daynight()

    def check_designation(game) -> None:
        if game.state.day_night is None and dn._with_keyword(game, "Daybound"):
            dn.become(game, "day")
    p.replace("daynight", "check_designation", check_designation)


@mutant("nightbound-wins-when-both-appear", "with daybound and nightbound permanents appearing at once, it becomes night",
        ["702.145d", "702.145g"])
def _nightbound_wins(p: Patcher) -> None:
    dn = _daynight()

    def check_designation(game) -> None:
        if game.state.day_night is not None:
            return
        if dn._with_keyword(game, "Nightbound"):
            dn.become(game, "night")
        elif dn._with_keyword(game, "Daybound"):
            dn.become(game, "day")
    p.replace("daynight", "check_designation", check_designation)


@mutant("phasing-in-one-at-a-time", "permanents phasing in at the untap step do so one after another, daybound and "
        "nightbound applying in between, not all at once", ["502.1", "702.26a"])
def _phasing_in_one_at_a_time(p: Patcher) -> None:
    def wrapper(original):
        def phase_in(game, objs) -> None:
            for obj in objs:
                original(game, [obj])
        return phase_in
    p.wrap("phasing", "phase_in", wrapper)


@mutant("phased-in-daybound-waits-for-priority", "a daybound permanent phasing in makes it day only once a player "
        "would next receive priority, not at once", ["702.145d"])
def _phased_in_daybound_waits(p: Patcher) -> None:
    p.replace_in("phasing", "enforce", lambda game: None)


@mutant("daybound-spell-makes-day", "a daybound spell on the stack makes it day, not only a daybound permanent", ["702.145d"])
def _daybound_spell_makes_day(p: Patcher) -> None:
    from reference_engine.layers import characteristics
    from reference_engine.model import Zone

    def wrapper(original):
        def enforce(game) -> None:  # the stack is outside what the engine's check looks at: look first
            state = game.state
            if state.day_night is None and any(characteristics(state, o).has_keyword("Daybound")
                                               for o in state.in_zone(Zone.STACK)):
                _daynight().become(game, "day")
            original(game)
        return enforce
    p.wrap("daynight", "enforce", wrapper)


@mutant("day-night-lost-without-daybound", "it goes back to neither once no daybound or nightbound permanent is left", ["731.1"])
def _lost_without_daybound(p: Patcher) -> None:
    dn = _daynight()

    def wrapper(original):
        def enforce(game) -> None:
            original(game)
            if not dn._with_keyword(game, "Daybound") and not dn._with_keyword(game, "Nightbound"):
                game.state.day_night = None
        return enforce
    p.wrap("daynight", "enforce", wrapper)


# --- the untap step check (502.2, 731.2) --------------------------------------------------------
@mutant("day-night-check-skipped", "the untap step never checks whether day becomes night or night becomes day", ["502.2", "731.2"])
def _check_skipped(p: Patcher) -> None:
    p.replace("daynight", "untap_step_check", lambda game: None)


@mutant("day-night-checked-after-upkeep-triggers", "day/night changes as the upkeep begins, after 'at the beginning of upkeep' "
        "abilities have triggered, not in the untap step", ["502.2", "731.2"])
def _checked_in_upkeep(p: Patcher) -> None:
    from reference_engine.model import Step

    real_check = _daynight().untap_step_check
    p.replace("daynight", "untap_step_check", lambda game: None)

    def wrapper(original):
        def _begin(game, step):
            result = yield from original(game, step)
            if step is Step.UPKEEP:
                real_check(game)
            return result
        return _begin
    p.wrap("turn", "_begin", wrapper)


@mutant("day-night-counts-every-players-spells", "the untap check counts spells every player cast last turn, not only the active player's",
        ["731.2a", "731.2b"])
def _counts_everyone(p: Patcher) -> None:
    p.replace("daynight", "untap_step_check", _untap_check(
        day_to_night=lambda n: n == 0, night_to_day=lambda n: n >= 2,
        count=lambda state, previous: sum(state.previous_turn_spells.values())))


@mutant("night-becomes-day-after-one-spell", "night becomes day when the previous turn's active player cast one spell", ["731.2b"])
def _night_after_one(p: Patcher) -> None:
    p.replace("daynight", "untap_step_check", _untap_check(day_to_night=lambda n: n == 0, night_to_day=lambda n: n >= 1))


@mutant("day-becomes-night-unless-two-spells", "day becomes night unless the previous turn's active player cast two spells", ["731.2a"])
def _day_needs_two(p: Patcher) -> None:
    p.replace("daynight", "untap_step_check", _untap_check(day_to_night=lambda n: n < 2, night_to_day=lambda n: n >= 2))


@mutant("neither-checked-like-day", "while it is neither, a turn without spells makes it night", ["731.2c"])
def _neither_like_day(p: Patcher) -> None:
    p.replace("daynight", "untap_step_check", _untap_check(
        day_to_night=lambda n: n == 0, night_to_day=lambda n: n >= 2, neither_as_day=True))


# --- transforming as it becomes day or night (702.145b/c/e/f) -----------------------------------
def _become_without_transforming(game, designation: str) -> None:
    from reference_engine.ops import emit

    state = game.state
    was = state.day_night
    if was != designation:
        state.day_night = designation
        state.touch()
        emit(game, "day_night", was=was, now=designation)


@mutant("day-night-transform-is-state-based", "daybound and nightbound permanents transform the next time state-based "
        "actions are checked, not immediately as it becomes day or night", ["702.145c", "702.145f"])
def _transform_is_state_based(p: Patcher) -> None:
    p.replace("daynight", "become", _become_without_transforming)


@mutant("daybound-transforms-only-in-untap-step", "daybound and nightbound permanents transform only when the untap step "
        "makes it day or night", ["702.145b", "702.145e"])
def _transforms_only_in_untap_step(p: Patcher) -> None:
    dn = _daynight()
    real_become = dn.become
    p.replace("daynight", "become", _become_without_transforming)
    p.replace("daynight", "transform_mismatched", lambda game: None)

    def untap_step_check(game) -> None:
        before = game.state.day_night
        _untap_check(day_to_night=lambda n: n == 0, night_to_day=lambda n: n >= 2)(game)
        after = game.state.day_night
        if after != before:
            game.state.day_night = before
            real_become(game, after)
    p.replace("daynight", "untap_step_check", untap_step_check)


@mutant("daybound-transforms-by-other-means", "instructions to transform also turn over daybound and nightbound permanents",
        ["702.145b", "702.145e"])
def _transforms_by_other_means(p: Patcher) -> None:
    def wrapper(original):
        def transform(game, obj, *, by_day_night=False, own_ability_since=None):
            return original(game, obj, by_day_night=True, own_ability_since=own_ability_since)
        return transform
    p.wrap("ops", "transform", wrapper)


@mutant("werewolves-transform-only-by-day-night", "no Werewolf transforms except as it becomes day or night, older ones "
        "included", ["701.27a", "702.145b"])
def _werewolves_only_by_day_night(p: Patcher) -> None:
    from reference_engine.layers import characteristics

    def wrapper(original):
        def transform(game, obj, *, by_day_night=False, own_ability_since=None):
            if not by_day_night and characteristics(game.state, obj).has_subtype("Werewolf"):
                return False
            return original(game, obj, by_day_night=by_day_night, own_ability_since=own_ability_since)
        return transform
    p.wrap("ops", "transform", wrapper)


# --- entering at night (702.145b, 712.8c, 712.13, 712.14) ----------------------------------------
def _undo_entering_transformed(p: Patcher, applies) -> None:
    """Make 702.145b's 'enters transformed' not happen when `applies(game)`."""
    def wrapper(original):
        def entry_replacements(game, card, controller, entry, spell_x):
            before = entry.face
            result = yield from original(game, card, controller, entry, spell_x)
            if before == 0 and entry.face == 1 and applies(game):
                entry.face = 0
            return result
        return entry_replacements
    p.wrap("replacement", "entry_replacements", wrapper)


@mutant("daybound-enters-front-face-up-at-night", "at night a daybound permanent enters front face up and stays so",
        ["702.145b", "702.145c"])
def _enters_front_at_night(p: Patcher) -> None:
    _undo_entering_transformed(p, lambda game: True)
    p.replace("daynight", "transform_mismatched", lambda game: None)


@mutant("daybound-enters-then-transforms", "at night a daybound permanent enters front face up, then transforms",
        ["702.145b", "614.1d"])
def _enters_then_transforms(p: Patcher) -> None:
    _undo_entering_transformed(p, lambda game: True)  # then 702.145c transforms it once it has entered


@mutant("daybound-enters-front-unless-cast", "at night only a daybound spell enters transformed; a daybound card put onto "
        "the battlefield otherwise enters front face up", ["702.145b"])
def _enters_front_unless_cast(p: Patcher) -> None:
    from reference_engine.model import Zone

    entering_from: list[Zone] = []
    _undo_entering_transformed(p, lambda game: bool(entering_from) and entering_from[-1] is not Zone.STACK)
    p.replace("daynight", "transform_mismatched", lambda game: None)

    def wrapper(original):
        def enter_battlefield(game, obj, controller, **kwargs):
            entering_from.append(obj.zone)
            try:
                return (yield from original(game, obj, controller, **kwargs))
            finally:
                entering_from.pop()
        return enter_battlefield
    p.wrap("ops", "enter_battlefield", wrapper)


def _enter_transformed_when(p: Patcher, when) -> None:
    """702.145b's 'enters transformed' applied when `when(day_night)` instead of only at night."""
    def wrapper(original):
        def entry_replacements(game, card, controller, entry, spell_x):
            if entry.face == 0 and card.double_faced and when(game.state.day_night) and \
                    any(a.keyword == "Daybound" for a in card.faces[0].abilities):
                entry.face = 1
            return (yield from original(game, card, controller, entry, spell_x))
        return entry_replacements
    p.wrap("replacement", "entry_replacements", wrapper)


@mutant("daybound-enters-transformed-unless-day", "a daybound permanent enters transformed whenever it isn't day, also "
        "while it is neither", ["702.145b", "702.145d"])
def _enters_transformed_unless_day(p: Patcher) -> None:
    _enter_transformed_when(p, lambda day_night: day_night != "day")


@mutant("daybound-always-enters-transformed", "a daybound permanent enters with its nightbound face up by day too",
        ["702.145b"])
def _always_enters_transformed(p: Patcher) -> None:
    _enter_transformed_when(p, lambda day_night: True)


@mutant("daybound-spell-cast-transformed-at-night", "a daybound spell cast at night is put on the stack back face up",
        ["712.8c", "712.11"])
def _spell_back_face_up(p: Patcher) -> None:
    from reference_engine.model import Zone

    def wrapper(original):
        def cast(game, move):
            yield from original(game, move)
            state = game.state
            spell = state.objects[state.stack[-1].object_id]
            if state.day_night == "night" and spell.zone is Zone.STACK and spell.card.double_faced and \
                    any(a.keyword == "Daybound" for a in spell.card.faces[0].abilities):
                spell.face = 1
                state.touch()
        return cast
    p.wrap("casting", "cast", wrapper)


# --- double-faced cards (712.8, 712.18) ---------------------------------------------------------
@mutant("transformed-permanent-is-a-new-object", "a permanent that transforms becomes a new object, losing the effects, "
        "counters and status that applied to it", ["712.18"])
def _transform_makes_new_object(p: Patcher) -> None:
    from reference_engine.model import Zone

    def wrapper(original):
        def transform(game, obj, **kwargs):
            done = original(game, obj, **kwargs)
            if done:
                game.state.move(obj, Zone.BATTLEFIELD, controller=obj.controller, face=obj.face)
            return done
        return transform
    p.wrap("ops", "transform", wrapper)



@mutant("back-face-keeps-front-abilities", "a permanent back face up also has its front face's abilities", ["712.8e"])
def _back_keeps_front_abilities(p: Patcher) -> None:
    def wrapper(original):
        def printed(face, card, controller, **kwargs):
            chars = original(face, card, controller, **kwargs)
            if card.double_faced and face is card.faces[1]:  # after its own, so their indexes stay
                chars.abilities = chars.abilities + [a for a in card.faces[0].abilities if a not in chars.abilities]
            return chars
        return printed
    p.wrap("layers", "printed", wrapper)


@mutant("card-keeps-back-face-off-battlefield", "a card that leaves the battlefield back face up keeps its back face "
        "characteristics", ["712.8a"])
def _keeps_back_face(p: Patcher) -> None:
    from reference_engine.model import Zone

    def wrapper(original):
        def move_together(game, objs, to, **kwargs):
            faces = [obj.face if obj.zone is Zone.BATTLEFIELD else 0 for obj in objs]
            moved = original(game, objs, to, **kwargs)
            for new, face in zip(moved, faces):
                if face:
                    new.face = face
                    game.state.touch()
            return moved
        return move_together
    p.wrap("ops", "move_together", wrapper)


# --- triggers on combat damage (Tovolar's first ability) ------------------------------------------
def _wrap_matcher(p: Patcher, name: str, make) -> None:
    from reference_engine.triggers import MATCHERS

    kinds, original = MATCHERS[name]
    p.set_item(MATCHERS, name, (kinds, make(original)))


@mutant("combat-damage-trigger-once-per-step", "'whenever a [creature] deals combat damage to a player' triggers once per "
        "combat damage step, however many creatures deal damage", ["603.2", "510.2"])
def _once_per_step(p: Patcher) -> None:
    def make(original):
        def matcher(game, event, value, source):
            if not original(game, event, value, source):
                return False
            state = game.state
            seen = state.__dict__.setdefault("_mutant_seen", set())
            key = (source.uid, state.turn, state.step)
            if key in seen:
                return False
            seen.add(key)
            return True
        return matcher
    _wrap_matcher(p, "combat_damage_to_player", make)


@mutant("combat-damage-trigger-ignores-controller", "'a Wolf or Werewolf you control' also counts opponents' creatures", ["109.5"])
def _ignores_controller(p: Patcher) -> None:
    def make(original):
        def matcher(game, event, value, source):
            filt = {k: v for k, v in value.get("source", {}).items() if k != "controller"}
            return original(game, event, dict(value, source=filt), source)
        return matcher
    _wrap_matcher(p, "combat_damage_to_player", make)


@mutant("combat-damage-trigger-per-matching-type", "'a Wolf or Werewolf' triggers once for each of those types the creature "
        "has", ["603.2", "205.3m"])
def _per_matching_type(p: Patcher) -> None:
    from reference_engine import carddefs

    definitions = dict(carddefs.behaviours())
    for face in ("Tovolar, Dire Overlord", "Tovolar, the Midnight Scourge"):
        abilities = list(definitions[face])
        first = abilities[0]
        when = first.data["when"]["combat_damage_to_player"]
        split = []
        for subtype in when["source"]["subtypes_any"]:
            source = dict(when["source"], subtypes_any=[subtype])
            data = dict(first.data, when={"combat_damage_to_player": dict(when, source=source)})
            split.append(type(first)(first.kind, data, first.keyword))
        definitions[face] = tuple(split + abilities[1:])
    p.replace("carddefs", "behaviours", lambda: definitions)


# --- other rules Tovolar's abilities rely on ------------------------------------------------------
@mutant("intervening-if-ignored-when-triggering", "an intervening 'if' is checked only as the ability resolves, so the "
        "ability goes on the stack even when the condition is false", ["603.4"])
def _if_ignored_when_triggering(p: Patcher) -> None:
    from reference_engine import triggers

    p.set_item(vars(triggers), "holds", lambda game, spec, ctx: True)


@mutant("activated-ability-forgets-x", "an activated ability's X is 0 as it resolves", ["107.3a", "602.2b"])
def _forgets_x(p: Patcher) -> None:
    def wrapper(original):
        def _resolve_ability(game, item):
            item.x = 0
            return (yield from original(game, item))
        return _resolve_ability
    p.wrap("resolve", "_resolve_ability", wrapper)


# --- prevention (615), as Moonmist uses it ------------------------------------------------------
@mutant("prevention-ignored", "'prevent all combat damage that would be dealt by ...' prevents nothing", ["615.1a"])
def _prevention_ignored(p: Patcher) -> None:
    p.replace("prevention", "prevents", lambda game, source, target, amount, *, combat: False)


@mutant("prevention-ignores-exceptions", "'prevent all combat damage that would be dealt by creatures other than ...' "
        "prevents it from every creature", ["615.1a"])
def _prevention_ignores_exceptions(p: Patcher) -> None:
    def prevents(game, source, target, amount, *, combat):
        return any(combat or not e.combat_only for e in game.state.prevention)
    p.replace("prevention", "prevents", prevents)


@mutant("prevention-outlasts-the-turn", "'prevent all combat damage ... this turn' goes on preventing after the turn ends",
        ["514.2", "615.1a"])
def _prevention_outlasts_turn(p: Patcher) -> None:
    p.replace("prevention", "end_of_turn", lambda game: None)
