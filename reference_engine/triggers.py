"""Triggered abilities: matching events to trigger conditions (rule 603.2) and putting them on the stack.

A trigger condition in a card definition is a one-key mapping, e.g. `when: {step: {step: end, whose: you}}`;
each key names a matcher registered here with one signature.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from engine_kit.values import value_class
from reference_engine.conditions import holds
from reference_engine.emblems import emblem_characteristics
from reference_engine.filters import FilterContext, matches
from reference_engine.layers import abilities_on_battlefield, characteristics
from reference_engine.model import Ability, DecisionKind, StackItem, Zone
from reference_engine.moves import Choose, Decision, Illegal, Procedure
from reference_engine.state import PendingTrigger

if TYPE_CHECKING:
    from reference_engine.game import Game


@value_class
class Event:
    """Something that happened, for triggered abilities to look at."""

    kind: str
    data: dict[str, Any]


@value_class
class TriggerSource:
    """The object (or emblem) whose triggered ability is being checked."""

    id: int | None
    uid: int
    name: str
    controller: str
    transform_count: int = 0
    snapshot: Any = None  # characteristics, for look-back triggers and last known information


Matcher = Callable[[Any, Event, Any, TriggerSource], bool]
#: Triggered abilities that belong to no object (rad counters', 728.1): each function gives (source,
#: abilities) pairs for a state. Registered by the modules that define them (radiation.py).
INHERENT_SOURCES: list[Callable[[Any], Iterable[tuple[TriggerSource, tuple[Ability, ...]]]]] = []
MATCHERS: dict[str, tuple[tuple[str, ...], Matcher]] = {}


def matcher(name: str, *event_kinds: str):
    def register(fn: Matcher) -> Matcher:
        MATCHERS[name] = (event_kinds, fn)
        return fn
    return register


def _ctx(source: TriggerSource) -> FilterContext:
    return FilterContext(source.controller, source.id, source.uid)


@matcher("enters", "enters")
@matcher("becomes_tapped", "becomes_tapped")  # a permanent already there going from untapped to tapped (603.2e)
@matcher("attacks", "attacks")
@matcher("enters_or_attacks", "enters", "attacks")  # one ability, two trigger events
@matcher("transforms_into", "transformed")  # the permanent as it is right after it transformed (701.27e)
def _the_object(game: Game, event, value, source) -> bool:
    """The object the event happened to: this one ('self'), or one that matches the filter now."""
    if value == "self":
        return event.data["uid"] == source.uid
    obj = game.state.objects.get(event.data["object_id"])
    return obj is not None and matches(game.state, obj, value, _ctx(source))


@matcher("enters_or_transforms_into", "enters", "transformed")
def _enters_or_transforms_into(game: Game, event, value, source) -> bool:
    """'Whenever this creature enters or transforms into <name>' (rule 701.27e). It enters with the
    ability only if the face that has it is up, or if it copies that face (707.5): no name check then."""
    if event.data["uid"] != source.uid:
        return False
    if event.kind == "transformed":
        return event.data["into"] == value
    return True


@matcher("gains_control_from_you", "control_changed")
def _gains_control_from_you(game: Game, event, value, source) -> bool:
    """{player: opponent}: 'whenever an opponent gains control of a permanent from you'; 'self' for
    'when you lose control of this' (the source judged as it was before: 603.10d)."""
    if value == "self":
        return event.data["uid"] == source.uid and event.data["from"] == source.controller
    return event.data["from"] == source.controller and (value.get("player") != "opponent"
                                                        or event.data["to"] != source.controller)


@matcher("becomes_unattached", "unattached")
def _becomes_unattached(game: Game, event, value, source) -> bool:
    """'Whenever this Equipment becomes unattached from a permanent' (self): also as it leaves the
    battlefield attached, judged as it was just before (603.10c)."""
    return value == "self" and event.data["uid"] == source.uid


@matcher("dies", "leaves")
def _dies(game: Game, event, value, source) -> bool:
    """'When this creature dies' (self), or 'whenever another creature dies' ({other: true, types: [...]}),
    the dying object judged as it last existed on the battlefield (rule 603.10a)."""
    if event.data["from"] != Zone.BATTLEFIELD or event.data["to"] != Zone.GRAVEYARD:
        return False
    if value == "self":
        return event.data["uid"] == source.uid
    if value == "enchanted":  # 'when enchanted creature dies': the Aura as it was, still attached (603.6e)
        aura = game.state.objects.get(source.id) if source.id is not None else None
        return aura is not None and aura.attached_to == event.data["object_id"]
    filt = dict(value)
    if filt.pop("other", False) and event.data["uid"] == source.uid:
        return False
    obj = game.state.objects.get(event.data["new_id"])
    return obj is not None and matches(game.state, obj, filt, _ctx(source), chars=event.data["snapshot"])


@matcher("sacrificed", "leaves")
def _sacrificed(game: Game, event, value, source) -> bool:
    """'Whenever you sacrifice an enchantment' ({player: you, filter}): a permanent its controller
    sacrificed (701.21a), judged as it last existed on the battlefield."""
    if not event.data.get("sacrificed"):
        return False
    snap = event.data["snapshot"]
    if value.get("player") == "you" and (snap is None or snap.controller != source.controller):
        return False
    obj = game.state.objects.get(event.data["new_id"])
    return obj is not None and matches(game.state, obj, value.get("filter"), _ctx(source), chars=snap)


@matcher("final_chapter_resolves", "ability_resolved")
def _final_chapter_resolves(game: Game, event, value, source) -> bool:
    """'Whenever the final chapter ability of a Saga you control resolves' (714.2c, 608.2p)."""
    from reference_engine.sagas import chapter_numbers

    ability, snap = event.data["ability"], event.data["snapshot"]
    chapter = (ability.data.get("when", {}).get("nth_counter") or {}) if ability is not None else {}
    if chapter.get("kind") != "lore" or snap is None or "Saga" not in snap.subtypes:
        return False
    if value.get("controller") == "you" and event.data["controller"] != source.controller:
        return False
    return chapter.get("n") == max(chapter_numbers(snap), default=None)


@matcher("step", "step_begins")
def _step(game: Game, event, value, source) -> bool:
    """{step: upkeep, whose: you|each|opponent}: 'at the beginning of [your] upkeep'."""
    if event.data["step"] != value["step"]:
        return False
    whose = value.get("whose", "each")
    active = event.data["active"]
    return whose == "each" or (whose == "you") == (active == source.controller)


@matcher("taps_for_mana", "mana_ability_resolved")
def _taps_for_mana(game: Game, event, value, source) -> bool:
    """'Whenever a player taps a land for mana' / 'you tap a permanent for {C}' (rule 106.12a)."""
    if not event.data["tapped_for_mana"] or not event.data["produced"]:
        return False
    if value.get("player") == "you" and event.data["player"] != source.controller:
        return False
    produced_type = value.get("produced")
    if produced_type and not event.data["produced"].get(produced_type):
        return False
    # The source judged as it was when the ability was activated (it may have been sacrificed to pay).
    return matches(game.state, event.data["source_object"], value.get("source"), _ctx(source),
                   chars=event.data["source_snapshot"])


@matcher("combat_damage_to_player", "combat_damage_to_player")
def _combat_damage_to_player(game: Game, event, value, source) -> bool:
    """'Whenever a [filter] you control deals combat damage to a player': once per such creature."""
    obj = game.state.objects.get(event.data["source_id"])
    if obj is None:
        return False
    return matches(game.state, obj, value.get("source", {}), _ctx(source))


@matcher("day_night_changes", "day_night")
def _day_night_changes(game: Game, event, value, source) -> bool:
    """'Whenever day becomes night or night becomes day': the game loses one designation and gains the
    other (731.1a); it becoming day or night from neither is not such a change."""
    return event.data["was"] is not None
@matcher("nth_counter", "counters_put")
def _nth_counter(game: Game, event, value, source) -> bool:
    """{kind: hour, n: 12}: 'when the twelfth hour counter is put on this': it had fewer than N
    before the counters were put on, and N or more after (rule 122.7)."""
    return (event.data["uid"] == source.uid and event.data["counter"] == value["kind"]
            and event.data["before"] < value["n"] <= event.data["after"])


@matcher("draws", "draws")
def _draws(game: Game, event, value, source) -> bool:
    """'Whenever you draw a card': once per card drawn."""
    return value != "you" or event.data["player"] == source.controller


@matcher("class_level_becomes", "class_level")
def _class_level_becomes(game: Game, event, value, source) -> bool:
    """'When this Class becomes level N' (rule 716.2b)."""
    return event.data["uid"] == source.uid and event.data["level"] == value


@matcher("gains_life", "gains_life")
def _gains_life(game: Game, event, value, source) -> bool:
    """'Whenever you gain life': once per life gain event (rule 119.9)."""
    return value.get("player", "you") != "you" or event.data["player"] == source.controller


@matcher("cast", "cast")
def _cast(game: Game, event, value, source) -> bool:
    """'Whenever you cast a [filter] spell'."""
    if value.get("player") == "you" and event.data["player"] != source.controller:
        return False
    spell = game.state.objects.get(event.data["object_id"])
    return spell is not None and matches(game.state, spell, value.get("filter"), _ctx(source))


MATCHERS["reflexive"] = ((), lambda game, event, value, source: False)  # created already triggered (603.12)


@matcher("damage_prevented", "damage_prevented")
def _damage_prevented(game: Game, event, value, source) -> bool:
    """'Whenever damage that would be dealt to you is prevented' (615.13)."""
    target = event.data["target"]
    return value.get("to") != "you" or (target.kind == "player" and target.value == source.controller)


def _permanent_sources(state) -> list[tuple[TriggerSource, tuple[Ability, ...]]]:
    """The permanents with triggered abilities. They follow from the characteristics, so they are
    kept until the state's version changes: most events (damage, mana, a spell cast) change none."""
    derived = state.now()
    if derived.trigger_sources is not None:
        return derived.trigger_sources
    found = []
    for obj in state.battlefield():
        chars = characteristics(state, obj)
        triggered = tuple([a for a in chars.abilities if a.kind == "triggered"])
        if triggered:  # the others can't trigger: don't describe them
            found.append((TriggerSource(obj.id, obj.uid, chars.name, chars.controller, obj.transform_count, chars),
                          triggered))
    derived.trigger_sources = found
    return found


def lookback_sources(game: Game, leaving: dict[int, Any] | None = None) -> list[tuple[TriggerSource, tuple[Ability, ...]]]:
    """The permanents with triggered abilities, as they are now: taken immediately before an event that
    moves objects off the battlefield, for the abilities that look back in time (603.10a). `leaving`
    gives the characteristics the objects leaving had when their last known information was taken
    (state-based actions take it before performing any of them, 704.8)."""
    state = game.state
    if not leaving:
        return _permanent_sources(state)
    current = {entry[0].id: entry for entry in _permanent_sources(state)}
    out = []
    for obj in state.battlefield():  # in battlefield order, as _permanent_sources
        if obj.id in leaving:
            chars = leaving[obj.id]
            triggered = tuple(a for a in chars.abilities if a.kind == "triggered")
            if triggered:
                out.append((TriggerSource(obj.id, obj.uid, chars.name, chars.controller, obj.transform_count,
                                          chars), triggered))
        elif obj.id in current:
            out.append(current[obj.id])
    return out


def _sources(game: Game, event: Event) -> Iterator[tuple[TriggerSource, tuple[Ability, ...]]]:
    """Permanents and emblems. For an object leaving the battlefield, the permanents as they were
    immediately before the event, the objects leaving included (leaves-the-battlefield abilities look
    back in time, 603.10a); otherwise as they are right after it (603.10)."""
    state = game.state
    if state.lookback is not None and ((event.kind == "leaves" and event.data["from"] == Zone.BATTLEFIELD)
                                       or (event.kind == "unattached" and event.data.get("left"))
                                       or event.kind == "phased_out"):  # 603.10b
        yield from state.lookback
    elif event.kind == "control_changed":
        # 603.10d: abilities that trigger on a player losing control of an object, or on an opponent
        # gaining control of it from that player, look back: the object's abilities are its previous
        # controller's
        for source, abilities in _permanent_sources(state):
            yield (replace(source, controller=event.data["from"]) if source.id == event.data["object_id"]
                   else source), abilities
    else:
        yield from _permanent_sources(state)
    for emblem in state.emblems:
        yield (TriggerSource(None, emblem.uid, emblem.source_name, emblem.controller,
                             snapshot=emblem_characteristics(emblem)), emblem.abilities)
    for inherent in INHERENT_SOURCES:  # abilities of no object: rad counters' (728.1)
        yield from inherent(state)


def _class_level_reached(game: Game, source: TriggerSource, ability: Ability) -> bool:
    """A Class's level-N ability exists only while it is level N or more (rule 716.2c)."""
    needed = ability.data.get("class_level")
    if needed is None:
        return True
    obj = game.state.objects.get(source.id) if source.id is not None else None
    return obj is not None and obj.class_level >= needed


def check(game: Game, event: Event) -> list[PendingTrigger]:
    """Every triggered ability that triggers on `event`; intervening-if clauses checked now (603.4)."""
    found: list[PendingTrigger] = _delayed(game, event)
    kind = event.kind
    for source, abilities in _sources(game, event):
        for ability in abilities:
            if ability.kind != "triggered":
                continue
            ((key, value),) = ability.data["when"].items()
            kinds, fn = MATCHERS[key]
            if kind not in kinds or not _class_level_reached(game, source, ability) or not fn(game, event, value, source):
                continue
            if ability.data.get("once_each_turn") and _done_this_turn(game, source, ability):
                continue  # 603.2h: it triggers only if the action wasn't taken this turn
            pending = PendingTrigger(source.controller, source.id, source.uid, source.name, ability,  # type: ignore[arg-type]
                                     dict(event.data), game.state.new_timestamp(), source.transform_count,
                                     source.snapshot)
            if not holds(game, ability.data.get("if"), _PendingCtx(pending)):
                continue
            found.append(pending)
    return found + _additional_triggers(game, found)


def _done_this_turn(game: Game, source: TriggerSource, ability: Ability) -> bool:
    from reference_engine.optional_effects import done_key

    return done_key(source.uid, ability) in game.state.this_turn


@matcher("countered", "countered")
def _countered(game: Game, event, value, source) -> bool:
    """'Whenever a spell you've cast is countered': the spell as it was on the stack, looking back in
    time (603.10e), since after the event it is a card in a graveyard."""
    return value.get("player") != "you" or event.data["controller"] == source.controller


def _delayed(game: Game, event: Event) -> list[PendingTrigger]:
    """Delayed triggered abilities that trigger on `event` (603.7): each triggers once, the next time its
    event occurs, and then is gone (603.7b)."""
    state = game.state
    found = []
    for delayed in list(state.delayed):
        if delayed.memory.get("turn", state.turn) != state.turn:
            state.delayed.remove(delayed)  # 'this turn': the turn it could trigger in is over
            continue
        ((key, value),) = delayed.ability.data["when"].items()
        kinds, fn = MATCHERS[key]
        source = TriggerSource(delayed.source_id, delayed.source_uid or 0, delayed.source_name, delayed.controller)
        if event.kind in kinds and fn(game, event, value, source):
            state.delayed.remove(delayed)
            found.append(PendingTrigger(delayed.controller, delayed.source_id, delayed.source_uid, delayed.source_name,  # type: ignore[arg-type]
                                        delayed.ability, dict(event.data, memory=delayed.memory),
                                        state.new_timestamp()))
    return found


@matcher("state")
def _state(game: Game, event, value, source) -> bool:
    """A state trigger matches no event: state_triggers looks at the game state instead (603.8)."""
    return False


def state_triggers(game: Game) -> None:
    """Rule 603.8: a state trigger ('when you control no other creatures') triggers as soon as its
    state is true, and not again while that ability has triggered and hasn't left the stack."""
    state = game.state
    watching: list[tuple[TriggerSource, Ability]] = []
    for source, abilities in _permanent_sources(state):
        for ability in abilities:
            if ability.kind == "triggered" and "state" in ability.data["when"]:
                watching.append((source, ability))
    if not watching:  # most states: no permanent has a state trigger
        return
    waiting: set[tuple[int | None, int]] = {(p.source_id, id(p.ability)) for p in state.pending_triggers}
    waiting |= {(i.source_id, id(i.ability)) for i in state.stack if not i.is_spell and i.ability is not None}
    for source, ability in watching:
        if (source.id, id(ability)) in waiting:
            continue
        pending = PendingTrigger(source.controller, source.id, source.uid, source.name, ability, {},  # type: ignore[arg-type]
                                 state.new_timestamp(), source.transform_count, source.snapshot)
        if holds(game, ability.data["when"]["state"], _PendingCtx(pending)):
            state.pending_triggers.append(pending)


def _additional_triggers(game: Game, found: list[PendingTrigger]) -> list[PendingTrigger]:
    """Rule 603.2d: 'if a triggered ability of a [filter] you control triggers, that ability triggers
    an additional time' (a `rule` ability {triggers_additional_time: {source: filter}})."""
    if not found:
        return []
    state = game.state
    rules = [(obj, ability.data["triggers_additional_time"])
             for obj, _, ability in abilities_on_battlefield(state, "rule")
             if "triggers_additional_time" in ability.data]
    extra: list[PendingTrigger] = []
    for pending in found:
        source = state.objects.get(pending.source_id) if pending.source_id is not None else None
        if source is None:  # a leaves-the-battlefield trigger: the object it became, judged as it was
            source = state.objects.get(pending.event.get("new_id", -1))
        if source is None or pending.source_snapshot is None:
            continue
        for obj, spec in rules:
            ctx = FilterContext(characteristics(state, obj).controller, obj.id, obj.uid)
            if matches(state, source, spec.get("source"), ctx, chars=pending.source_snapshot):
                extra.append(replace(pending, timestamp=state.new_timestamp()))
    return extra


@dataclass(frozen=True)
class _PendingCtx:
    pending: PendingTrigger

    @property
    def controller(self) -> str:
        return self.pending.controller

    @property
    def source_id(self) -> int | None:
        return self.pending.source_id


def put_on_stack(game: Game) -> Procedure:
    """Rule 603.3b: each player in APNAP order puts their triggered abilities on the stack in the
    order they choose, choosing targets as they do. Triggers that are all alike need no ordering."""
    state = game.state
    while state.pending_triggers:
        waiting, state.pending_triggers = state.pending_triggers, []
        for player in state.apnap():
            mine = [t for t in waiting if t.controller == player]
            if not mine:
                continue
            if len(mine) > 1 and len({(t.source_uid, id(t.ability)) for t in mine}) > 1:
                mine = yield from _ask_order(game, player, mine)
            for trigger in reversed(mine):  # the first to resolve goes on the stack last
                if "modes" in trigger.ability.data:
                    chosen = yield from _choose_mode(game, trigger)
                    if chosen is None:
                        continue  # no mode can be chosen: removed from the stack (rule 603.3c)
                    trigger = replace(trigger, ability=chosen)
                targets = yield from _choose_targets(game, trigger)
                if targets is None:
                    continue  # no legal targets: removed from the stack (rule 603.3d)
                source = state.objects.get(trigger.source_id) if trigger.source_id else None
                state.stack.append(StackItem(
                    id=state.new_id(), controller=trigger.controller, ability=trigger.ability,
                    source_id=trigger.source_id, source_uid=trigger.source_uid, source_name=trigger.source_name,
                    targets=targets, event=trigger.event, x=enters_x(trigger),
                    source_transform_count=source.transform_count if source else trigger.source_transform_count,
                    source_snapshot=trigger.source_snapshot))


def enters_x(trigger: PendingTrigger) -> int | None:
    """Rule 107.3m: a permanent's own enters-the-battlefield triggered ability that refers to X uses the
    X chosen for the spell that became it (the permanent's own X is 0); None for any other trigger."""
    if trigger.event.get("uid") == trigger.source_uid and "spell_x" in trigger.event:
        return trigger.event["spell_x"]
    return delayed_x(trigger)


def delayed_x(trigger: PendingTrigger) -> int | None:
    """Rule 107.3n: a delayed triggered ability that refers to X, created by a spell or ability with a value
    of X chosen for its costs, uses that value."""
    return (trigger.event.get("memory") or {}).get("x")


def _ask_order(game: Game, player: str, triggers: list[PendingTrigger]) -> Procedure:
    names = ", ".join(t.source_name for t in triggers)
    decision = Decision(player, "order_triggers", f"order triggered abilities of {names} (first resolves first)",
                        {"sources": [t.source_uid for t in triggers]})
    while True:
        move = yield decision
        try:
            return _apply_order(triggers, move)
        except Illegal as exc:
            game.state.rejection = str(exc)


def _apply_order(triggers: list[PendingTrigger], move: Choose) -> list[PendingTrigger]:
    if move.order is None:
        raise Illegal("the order of the triggered abilities must be chosen")
    left = list(triggers)
    ordered = []
    for uid in move.order:
        match = next((t for t in left if t.source_uid == uid), None)
        if match is None:
            raise Illegal("the order names an object without a waiting triggered ability")
        left.remove(match)
        ordered.append(match)
    if left:
        raise Illegal(f"the order leaves out {', '.join(t.source_name for t in left)}")
    return ordered


def _choose_mode(game: Game, trigger: PendingTrigger) -> Procedure:
    """Rules 603.3c, 700.2b: the controller of a modal triggered ability ('choose one —') announces its
    mode as it is put on the stack. A mode whose targets can't be chosen can't be chosen; with no mode
    left, the ability is removed from the stack (None). Returns the ability as that mode makes it."""
    from reference_engine.targets import has_legal_choice

    data = trigger.ability.data
    if "choose_modes" in data:  # 'choose one or more'
        from reference_engine.modal_triggers import choose_several

        several = yield from choose_several(game, trigger)
        return None if several is None else replace(trigger.ability, data=several)
    modes = data["modes"]
    legal = [i for i, mode in enumerate(modes)
             if not mode.get("targets") or has_legal_choice(game, mode["targets"], trigger.controller, trigger.source_id)]
    if not legal:
        return None
    decision = Decision(trigger.controller, DecisionKind.MODES, f"choose a mode for {trigger.source_name}'s ability",
                        {"source": trigger.source_uid, "legal": legal})
    while True:
        move = yield decision
        picked = move.modes
        if picked is None:
            game.state.rejection = f"choose the mode of {trigger.source_name}'s ability (choose one of {len(modes)})"
        elif len(picked) != 1:
            game.state.rejection = f"{trigger.source_name}'s ability says 'choose one': exactly one mode, not {len(picked)}"
        elif not 0 <= picked[0] < len(modes):
            game.state.rejection = f"{trigger.source_name}'s ability has modes 0 to {len(modes) - 1}, not {picked[0]}"
        elif picked[0] not in legal:
            game.state.rejection = (f"mode {picked[0]} of {trigger.source_name}'s ability can't be chosen: its targets "
                                    "can't be chosen (rule 603.3c)")
        else:
            from reference_engine.modal_triggers import combined

            return replace(trigger.ability, data=combined(data, picked))


def _choose_targets(game: Game, trigger: PendingTrigger) -> Procedure:
    from reference_engine.targets import candidates, check_targets, has_legal_choice

    specs = trigger.ability.data.get("targets")
    if not specs:
        return ()
    if not has_legal_choice(game, specs, trigger.controller, trigger.source_id):
        return None
    if all(spec.get("optional") for spec in specs) and \
            not any(True for spec in specs for _ in candidates(game, spec, trigger.controller, trigger.source_id)):
        return ()  # 'up to one target' with nothing to target: no targets is the only choice
    decision = Decision(trigger.controller, "targets", f"choose targets for {trigger.source_name}'s ability",
                        {"source": trigger.source_uid})
    while True:
        move = yield decision
        try:
            if move.targets is None:
                raise Illegal("targets must be chosen")
            check_targets(game, specs, move.targets, trigger.controller, trigger.source_id)
            from reference_engine.modal_triggers import check_different_players

            check_different_players(trigger.ability.data, move.targets)
            return tuple(move.targets)
        except Illegal as exc:
            game.state.rejection = str(exc)

