"""Characteristics after continuous effects, applied in layers and timestamp order (rule 613).

Objects off the battlefield have their printed characteristics (the front face, rule 712.8a),
with characteristic-defining abilities such as changeling. Objects on the battlefield go through
the layers: 1 copy effects, 2 control, 4 types, 5 colors, 6 abilities, 7a-7d power/toughness.
Results are cached until the state's version changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any, Callable, Iterable

from reference_engine.mana import ManaCost
from reference_engine.model import Ability, CardDef, ContinuousEffect, Face, GameObject, Layer, Zone
from reference_engine.state import GameState

BASIC_LAND_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
COLOR_ORDER = "WUBRG"


@lru_cache(maxsize=None)
def all_creature_types() -> frozenset[str]:
    text = resources.files("reference_engine").joinpath("data/creature_types.txt").read_text(encoding="utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


@lru_cache(maxsize=None)
def intrinsic_mana_ability(land_type: str) -> Ability:
    """Rule 305.6: each basic land type has '{T}: Add [mana]'."""
    from reference_engine.costs import Cost

    return Ability("mana", {"cost": "{T}", "add": f"{{{BASIC_LAND_MANA[land_type]}}}", "intrinsic": True},
                   cost=Cost.parse("{T}"))


@dataclass
class Characteristics:
    """An object's characteristics as the game sees them now."""

    name: str
    mana_cost: ManaCost | None
    colors: set[str]
    supertypes: list[str]
    types: list[str]
    subtypes: list[str]
    abilities: list[Ability]
    power: int | None
    toughness: int | None
    loyalty: int | None
    controller: str
    mana_value: int
    copiable: Face
    card: CardDef
    all_creature_types: bool = False

    def has_type(self, name: str) -> bool:
        return name in self.types

    def has_subtype(self, name: str) -> bool:
        if name in self.subtypes:
            return True
        return self.all_creature_types and "Creature" in self.types and name in all_creature_types()

    def keywords(self) -> list[str]:
        out: list[str] = []
        for ability in self.abilities:
            if ability.kind == "keyword" and ability.keyword is not None and ability.keyword not in out:
                out.append(ability.keyword)
        return out

    def has_keyword(self, name: str) -> bool:
        return any(a.kind == "keyword" and a.keyword == name for a in self.abilities)

    def activated_abilities(self) -> list[Ability]:
        return [a for a in self.abilities if a.is_activated]

    def subtype_list(self) -> list[str]:
        if self.all_creature_types and "Creature" in self.types:
            extra = sorted(all_creature_types() - set(self.subtypes))
            return list(self.subtypes) + extra
        return list(self.subtypes)


def _int_or_none(value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        return 0  # '*' before a characteristic-defining ability sets it (rule 208.2)


def printed(face: Face, card: CardDef, controller: str, *, mana_value_face: Face | None = None,
            x: int = 0) -> Characteristics:
    """Characteristics straight from a face. Mana value comes from `mana_value_face` (rule 712.8e)."""
    cost = (mana_value_face or face).mana_cost
    return Characteristics(
        face.name, face.mana_cost, set(face.colors), list(face.supertypes), list(face.types), list(face.subtypes),
        list(face.abilities), _int_or_none(face.power), _int_or_none(face.toughness), _int_or_none(face.loyalty),
        controller, cost.mana_value(x) if cost else 0, face, card,
        # Changeling: a characteristic-defining ability that works in every zone (702.73a).
        any(a.keyword == "Changeling" and a.kind == "keyword" for a in face.abilities))


def characteristics(state: GameState, obj: GameObject) -> Characteristics:
    if obj.zone is not Zone.BATTLEFIELD:
        # Off the battlefield only the card counts (no continuous effect applies there), so the result
        # is shared by every object of that card with that face, X and controller. Callers only read it.
        x = obj.x or 0 if obj.zone is Zone.STACK else 0
        key = (obj.face, x, obj.controller)
        found = obj.card.printed_cache.get(key)
        if found is None:
            found = printed(obj.card.faces[obj.face], obj.card, obj.controller, mana_value_face=obj.card.faces[0], x=x)
            obj.card.printed_cache[key] = found
        return found
    derived = state.now()
    if derived.characteristics is None:
        derived.characteristics = _compute_battlefield(state)
    return derived.characteristics[obj.id]


# --- layer 1 ---------------------------------------------------------------------------------
def copiable_values(state: GameState, obj: GameObject) -> tuple[Face, CardDef]:
    """The face an object has after copy effects (layer 1, rule 707.2), and the card it belongs to."""
    face, card = obj.card.faces[obj.face], obj.card
    for effect in sorted(_effects_on(state, obj, "1"), key=lambda e: e.timestamp):
        face, card = effect.params["face"], effect.params["card"]
    return face, card


def _effects_on(state: GameState, obj: GameObject, layer: str) -> Iterable[ContinuousEffect]:
    return (e for e in state.effects if e.layer == layer and obj.id in e.affected)


# --- modifiers: what an effect does to characteristics, by name ------------------------------
Modifier = Callable[[Characteristics, dict[str, Any]], None]
MODIFIERS: dict[str, tuple[str, Modifier]] = {}


def modifier(name: str, layer: Layer | str) -> Callable[[Modifier], Modifier]:
    def register(fn: Modifier) -> Modifier:
        MODIFIERS[name] = (Layer(layer), fn)
        return fn
    return register


@modifier("become_creature_type", "4")
def _become_creature_type(chars: Characteristics, params: dict[str, Any]) -> None:
    """'becomes a [type]': the new creature types replace the old ones (rule 205.1b)."""
    chars.subtypes = [s for s in chars.subtypes if s not in all_creature_types()] + list(params["subtypes"])
    chars.all_creature_types = False
    for card_type in params.get("add_types", []):
        if card_type not in chars.types:
            chars.types.append(card_type)


@modifier("add_subtypes", "4")
def _add_subtypes(chars: Characteristics, params: dict[str, Any]) -> None:
    """'... are Bears in addition to their other types' (rule 205.1b)."""
    chars.subtypes = chars.subtypes + [s for s in params["subtypes"] if s not in chars.subtypes]


@modifier("gain_all_creature_types", "4")
def _gain_all_creature_types(chars: Characteristics, params: dict[str, Any]) -> None:
    chars.all_creature_types = True


@modifier("set_colors", "5")
def _set_colors(chars: Characteristics, params: dict[str, Any]) -> None:
    chars.colors = set(params["colors"])


@modifier("grant", "6")
def _grant(chars: Characteristics, params: dict[str, Any]) -> None:
    for ability in params["abilities"]:
        chars.abilities.append(ability)


@modifier("lose_all_abilities", "6")
def _lose_all_abilities(chars: Characteristics, params: dict[str, Any]) -> None:
    chars.abilities = []


@modifier("set_pt", "7b")
def _set_pt(chars: Characteristics, params: dict[str, Any]) -> None:
    chars.power, chars.toughness = params["power"], params["toughness"]


@modifier("modify_pt", "7c")
def _modify_pt(chars: Characteristics, params: dict[str, Any]) -> None:
    if chars.power is not None:
        chars.power += params.get("power", 0)
    if chars.toughness is not None:
        chars.toughness += params.get("toughness", 0)


@modifier("switch_pt", "7d")
def _switch_pt(chars: Characteristics, params: dict[str, Any]) -> None:
    chars.power, chars.toughness = chars.toughness, chars.power


LAYER_ORDER = tuple(layer for layer in Layer if layer is not Layer.COPY)  # copy effects: _copied_face


@dataclass
class _Application:
    """One static-ability part or resolved effect waiting to be applied in its layer."""

    layer: str
    timestamp: int
    modifier: str
    params: dict[str, Any]
    affected: Callable[[dict[int, Characteristics]], Iterable[int]]
    key: tuple | None = None  # identifies a static ability instance (rule 613.6)
    source_id: int | None = None
    ability: Ability | None = None
    is_cda: bool = False
    condition: Callable[[], bool] | None = None
    order: int = field(default=0)


def _compute_battlefield(state: GameState) -> dict[int, Characteristics]:
    from reference_engine.statics import static_applications  # static abilities -> applications

    objects = state.battlefield()
    chars: dict[int, Characteristics] = {}
    for obj in objects:
        face, card = copiable_values(state, obj)
        # A back face's mana value is its front face's (rule 712.8e).
        mana_value_face = card.faces[0] if face in card.faces else face
        chars[obj.id] = printed(face, card, obj.controller, mana_value_face=mana_value_face)
        if obj.copy_token and face is not card.faces[0]:
            chars[obj.id].mana_value = 0  # a copy of a back face has mana value 0 (202.3b)

    resolved = [
        _Application(e.layer, e.timestamp, e.modifier, e.params,
                     (lambda c, ids=e.affected: [i for i in ids if i in c]))  # type: ignore[misc]
        for e in state.effects if e.layer != "1"
    ]
    started: set[tuple] = set()
    statics = static_applications(state, objects, chars)
    for layer in LAYER_ORDER:
        if layer == "6":
            _add_intrinsic_mana_abilities(chars)
        if layer == "7a":
            # From here on, static abilities apply if they exist after layer 6, or began applying earlier.
            statics = [s for s in statics if s.key in started] + [
                s for s in static_applications(state, objects, chars) if s.key not in started]
        batch = [a for a in statics + resolved if a.layer == layer]
        if layer == "7c":
            batch += _counter_applications(objects)
        batch.sort(key=lambda a: (not a.is_cda, a.timestamp, a.order))
        for application in batch:
            if application.key is not None and application.key not in started:
                source = chars.get(application.source_id)
                if source is not None and application.ability is not None and application.ability not in source.abilities:
                    continue  # the ability was removed before its effect began (rule 613.6)
            if application.condition is not None and not application.condition():
                continue
            _, fn = MODIFIERS[application.modifier]
            for target_id in list(application.affected(chars)):
                fn(chars[target_id], application.params)
            if application.key is not None:
                started.add(application.key)
    return chars


def _add_intrinsic_mana_abilities(chars: dict[int, Characteristics]) -> None:
    for c in chars.values():
        if "Land" in c.types:
            intrinsic = [intrinsic_mana_ability(t) for t in c.subtypes if t in BASIC_LAND_MANA]
            c.abilities = intrinsic + [a for a in c.abilities if a not in intrinsic]


def _counter_applications(objects: list[GameObject]) -> list[_Application]:
    """+1/+1 and -1/-1 counters modify power and toughness in layer 7c (rule 613.4c)."""
    out = []
    for obj in objects:
        plus, minus = obj.counters.get("+1/+1", 0), obj.counters.get("-1/-1", 0)
        if plus or minus:
            delta = plus - minus
            out.append(_Application("7c", obj.timestamp, "modify_pt", {"power": delta, "toughness": delta},
                                    (lambda c, i=obj.id: [i])))  # type: ignore[misc]
    return out


@lru_cache(maxsize=1024)
def color_identity(card: CardDef) -> frozenset[str]:
    """Rule 903.4: mana symbols in costs and rules text of every face, and color indicators.
    A card's is fixed (903.4a), so it is computed once per card definition."""
    from reference_engine.mana import mana_symbols_in

    found: set[str] = set()
    for face in card.faces:
        found |= {BASIC_LAND_MANA[t] for t in face.subtypes if t in BASIC_LAND_MANA}
        if face.mana_cost:
            found |= face.mana_cost.colors()
        if face.color_indicator:
            found |= face.color_indicator
        found |= mana_symbols_in(_strip_reminder(face.text))
    return frozenset(found)


def _strip_reminder(text: str) -> str:
    import re

    return re.sub(r"\([^)]*\)", "", text)
