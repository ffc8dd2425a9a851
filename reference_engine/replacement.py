"""Replacement effects (rule 614): how permanents enter, and what mana abilities produce.

Entering: 'enters with N counters', 'as this enters, you may have it enter as a copy', 'as this
enters, choose a color', daybound entering transformed at night (702.145b), planeswalkers' loyalty
(306.5b).
Mana: 'if a land is tapped for mana, it produces {B} instead' (106.12b), 'produces twice as much'.
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations
from typing import Any

from reference_engine.filters import FilterContext, matches
from reference_engine.layers import characteristics
from reference_engine.limits import EngineLimit
from reference_engine.model import CardDef, Face
from reference_engine.moves import Decision, Procedure


# --- entering the battlefield --------------------------------------------------------------------
def entry_replacements(game, card: CardDef, controller: str, entry, spell_x: int | None) -> Procedure:
    """Apply the entering permanent's own 'as enters' / 'enters with' abilities to `entry` (614.12)."""
    state = game.state
    if (entry.face == 0 and card.double_faced and state.day_night == "night"
            and any(a.keyword == "Daybound" for a in card.faces[0].abilities)):
        entry.face = 1  # rule 702.145b: if it is night, it enters transformed
    face = card.faces[entry.face]
    for ability in face.abilities:
        if ability.kind == "replacement" and "as_enters_copy" in ability.data:
            chosen = yield from _choose_copy(game, face, controller, ability.data["as_enters_copy"])
            if chosen is not None:
                entry.copy_of = chosen
                face = chosen[0]
    for ability in face.abilities:
        if ability.kind == "replacement" and "as_enters_choose" in ability.data:
            what = ability.data["as_enters_choose"]
            answer = yield from _choose_as_enters(game, face, controller, what)
            entry.choices = dict(entry.choices or {}, **{what: answer})
    counters: Counter[str] = Counter(entry.counters or {})
    for ability in face.abilities:
        if ability.kind == "replacement" and "enters_with_counters" in ability.data:
            for kind, amount in ability.data["enters_with_counters"].items():
                counters[kind] += (spell_x or 0) if amount == "X" else int(amount)
    if "Planeswalker" in face.types and face.loyalty is not None:
        counters["loyalty"] += int(face.loyalty)
    if "Saga" in face.subtypes:
        counters["lore"] += 1  # 714.3a: as a Saga enters, its controller puts a lore counter on it
    entry.counters = dict(counters)


def _choose_copy(game, face: Face, controller: str, spec: dict[str, Any]) -> Procedure:
    """'You may have this enter as a copy of any creature on the battlefield' (rule 707.5)."""
    from reference_engine.copying import copiable_for_permanent

    state = game.state
    filt = spec.get("filter", {})
    ctx = FilterContext(controller)
    options = [o.id for o in state.battlefield() if matches(state, o, filt, ctx)]
    if not options:
        return None
    decision = Decision(controller, "objects", f"choose what {face.name} enters as a copy of (or nothing)",
                        {"candidates": options, "min": 0, "max": 1})
    while True:
        move = yield decision
        chosen = move.objects if move.objects is not None else (() if move.yes is False else None)
        if chosen is None:
            game.state.rejection = "choose an object to copy, or none"
            continue
        if len(chosen) > 1 or any(c not in options for c in chosen):
            wrong = next((c for c in chosen if c not in options), None)
            what = characteristics(state, state.objects[wrong]).name if wrong in state.objects else "that"
            game.state.rejection = (f"{what} is not a creature on the battlefield {face.name} can copy"
                                    if wrong is not None else f"{face.name} copies one creature at most")
            continue
        if not chosen:
            return None
        return copiable_for_permanent(game, state.objects[chosen[0]])


def _choose_as_enters(game, face: Face, controller: str, what: str) -> Procedure:
    """'As this creature enters, choose a color': the choice is made before it enters (614.12a), by
    whoever it enters under, even for a copy of a permanent that made that choice (707.6)."""
    from reference_engine.mana import COLORS

    if what != "color":
        raise KeyError(f"unknown 'as enters' choice {what!r}")
    decision = Decision(controller, "color", f"choose a color as {face.name} enters")
    while True:
        move = yield decision
        if move.color in COLORS:
            return move.color
        game.state.rejection = f"choose one of the colors {', '.join(COLORS)}"


# --- mana production -----------------------------------------------------------------------------
def mana_replacements(game, source, source_chars, player: str, tapped_for_mana: bool) -> list[Any]:
    """Replacement abilities that apply to a mana ability of `source` (with characteristics
    `source_chars`, as it was when activated) resolving for `player`."""
    state = game.state
    found = []
    for obj in state.battlefield():
        chars = characteristics(state, obj)
        for ability in chars.abilities:
            if ability.kind == "replacement" and "mana_production" in ability.data:
                spec = ability.data["mana_production"]
                if mana_replacement_applies(game, spec, chars.controller, obj.id, source, source_chars, player,
                                            tapped_for_mana):
                    found.append((obj.timestamp, spec))
    return [spec for _, spec in sorted(found, key=lambda f: f[0])]


def mana_replacement_applies(game, spec: dict[str, Any], controller: str, effect_source_id: int, source,
                             source_chars, player: str, tapped_for_mana: bool) -> bool:
    """Rule 106.12b: 'if a [filter] is tapped for mana' applies only to mana abilities with {T}
    of matching permanents; 'if you tap' only when the effect's controller is the one tapping."""
    if spec.get("tapped_for_mana") and not tapped_for_mana:
        return False
    if spec.get("player") == "you" and player != controller:
        return False
    if "source" in spec:
        return matches(game.state, source, spec["source"], FilterContext(controller, effect_source_id), chars=source_chars)
    return True


def _apply_one(spec: dict[str, Any], produced: Counter[str]) -> Counter[str]:
    if not produced:
        return produced
    if sum(produced.values()) < spec.get("min_amount", 0):  # 'if a land is tapped for two or more mana'
        return produced
    if "produce" in spec:  # '... produces {B} instead of any other type and amount'
        return Counter({spec["produce"]: 1})
    if "multiply" in spec:  # '... produces twice as much of that mana instead'
        return Counter({k: v * spec["multiply"] for k, v in produced.items()})
    raise KeyError(f"unknown mana replacement {spec}")


def replace_production(specs: list[dict[str, Any]], produced: Counter[str]) -> Counter[str]:
    """The mana actually produced. With two or more applicable effects, the affected player would
    choose their order (rule 616.1); that choice is not modelled unless every order agrees."""
    if len(specs) <= 1:
        return _apply_one(specs[0], produced) if specs else produced
    outcomes = {tuple(sorted(_apply_all(order, produced).items())) for order in permutations(specs)}
    if len(outcomes) > 1:
        raise EngineLimit("several replacement effects apply to one mana event and their order matters; "
                          "the reference engine does not ask for that order yet")
    return _apply_all(specs, produced)


def _apply_all(specs, produced: Counter[str]) -> Counter[str]:
    for spec in specs:
        produced = _apply_one(spec, produced)
    return produced


def possible_types(specs: list[dict[str, Any]], types: set[str]) -> set[str]:
    """Types a production of any of `types` could end up as, in any order of the effects (rule 106.7)."""
    result: set[str] = set()
    for mana_type in types:
        for order in permutations(specs) if specs else [()]:
            result |= set(_apply_all(list(order), Counter({mana_type: 1})))
    return result
