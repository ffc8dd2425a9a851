"""Static abilities (rule 604) turned into layer applications: what they do, to whom, and when.

A static ability in a card definition reads:
    static: {affects: <filter or {self: true}>, while: <condition on its source>, effects: [...]}
Its effects carry the timestamp of the object it is on (rule 613.7a); level symbols are static
abilities with a `while: {level: [min, max]}` condition (rule 711.2).
"""

from __future__ import annotations

from typing import Any, Callable

from reference_engine.filters import FilterContext, matches
from reference_engine.last_exiled import LAST_EXILED_MODIFIERS, last_exiled_creature
from reference_engine.layers import MODIFIERS, _Application
from reference_engine.model import Ability, GameObject, Zone
from reference_engine.state import GameState

SourceCondition = Callable[[GameState, GameObject | None, Any], bool]
SOURCE_CONDITIONS: dict[str, SourceCondition] = {}


def source_condition(name: str):
    def register(fn: SourceCondition) -> SourceCondition:
        SOURCE_CONDITIONS[name] = fn
        return fn
    return register


@source_condition("class_level")
def _class_level(state: GameState, source: GameObject | None, bounds: Any) -> bool:
    """A Class's level-N static ability applies while it is level N or more (716.2c)."""
    return source is not None and source.class_level >= bounds


@source_condition("level")
def _level(state: GameState, source: GameObject | None, bounds: Any) -> bool:
    """Level symbols: the ability applies while the number of level counters is in range (711.2)."""
    low, high = bounds
    level = source.counters.get("level", 0) if source else 0
    return level >= low and (high is None or level <= high)


@source_condition("creatures_died_under_your_control_this_turn")
def _creatures_died(state: GameState, source: GameObject | None, at_least: Any) -> bool:
    """'As long as two or more creatures died under your control this turn'."""
    return source is not None and state.died_this_turn.get(source.controller, 0) >= int(at_least)


@source_condition("not_your_turn")
def _not_your_turn(state: GameState, source: GameObject | None, value: Any) -> bool:
    """'During turns other than yours': the turn of a player other than the source's controller."""
    return source is not None and state.active != source.controller


def _counter(state: GameState, filt: dict[str, Any], ctx: FilterContext) -> Callable[[dict[int, Any]], int]:
    def count(current: dict[int, Any]) -> int:
        return sum(1 for oid, c in current.items() if matches(state, state.objects[oid], filt, ctx, chars=c))
    return count


def _exiled_totals(state: GameState, source_id: int | None) -> Callable[[], tuple[int, int]]:
    """The total power and toughness of the cards exiled with `source_id` still in exile (614.14, 607.2a)."""
    def totals() -> tuple[int, int]:
        ids = state.linked.get(source_id, []) if source_id is not None else []
        cards = [state.objects[i] for i in ids if i in state.objects and state.objects[i].zone is Zone.EXILE]
        return (sum(_printed_number(c.card.faces[0].power) for c in cards),
                sum(_printed_number(c.card.faces[0].toughness) for c in cards))
    return totals


def _printed_number(value: str | None) -> int:
    """A card's printed power or toughness outside the battlefield; '*' is 0 (208.2a)."""
    return int(value) if value is not None and value.lstrip("-").isdigit() else 0


def _source_counters(source: GameObject | None, kind: str) -> Callable[[dict[int, Any]], int]:
    def count(current: dict[int, Any]) -> int:
        return source.counters.get(kind, 0) if source is not None else 0
    return count


def static_applications(state: GameState, objects: list[GameObject], chars: dict[int, Any]) -> list:
    out: list[_Application] = []

    def add(ability: Ability, source: GameObject | None, source_id: int | None, you: str, timestamp: int) -> None:
        data = ability.data
        affects = data.get("affects", {"self": True})
        ctx = FilterContext(you, source_id)
        if affects == {"self": True}:
            def affected(current, sid=source_id):
                return [sid] if sid in current else []
        else:
            def affected(current, affects=affects, ctx=ctx):  # type: ignore[misc]
                return [oid for oid, c in current.items()
                        if matches(state, state.objects[oid], affects, ctx, chars=c)]
        condition = None
        if "while" in data:
            ((name, value),) = data["while"].items()
            check = SOURCE_CONDITIONS[name]
            condition = (lambda check=check, value=value: check(state, source, value))
        for index, (name, params) in enumerate(data["effects"]):
            layer = MODIFIERS[name][0]
            if data.get("cda") and layer == "7b":
                layer = "7a"  # a characteristic-defining ability that defines power/toughness (613.4a)
            if "count" in params:  # a number of permanents, counted as the effect applies
                params = dict(params, _count=_counter(state, params["count"], FilterContext(you, source_id)))
            if name == "set_pt_exiled_total":
                params = dict(params, _totals=_exiled_totals(state, source_id))
            if name in LAST_EXILED_MODIFIERS:  # 'the last creature card exiled with it', found as it applies
                params = dict(params, _last=last_exiled_creature(state, source_id))
            if "source_counters" in params:  # 'for each [kind] counter on this creature', counted as it applies
                params = dict(params, _count=_source_counters(source, params["source_counters"]))
            out.append(_Application(layer, timestamp, name, params, affected,
                                    key=(source_id if source_id is not None else -id(ability), id(ability), index),
                                    source_id=source_id, ability=ability,
                                    is_cda=bool(data.get("cda")), condition=condition, order=index))

    for obj in objects:
        c = chars[obj.id]
        for ability in c.abilities:
            if ability.kind == "static":
                add(ability, obj, obj.id, c.controller, obj.timestamp)
    for emblem in state.emblems:
        for ability in emblem.abilities:
            if ability.kind == "static":
                add(ability, None, None, emblem.controller, emblem.timestamp)
    return out
