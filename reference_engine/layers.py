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
from typing import Any, Callable, Iterable, Iterator

from reference_engine.mana import ManaCost
from reference_engine.model import Ability, CardDef, ContinuousEffect, Face, GameObject, Layer, Zone
from reference_engine.state import GameState

BASIC_LAND_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
COLOR_ORDER = "WUBRG"
MODAL_DFC = "modal_dfc"  # the Oracle layout of modal double-faced cards (rule 712.3)
# Zones read in the hottest code as module constants: in Python 3.11 `Zone.BATTLEFIELD` takes the enum
# metaclass's slow attribute hook (EnumType.__getattr__), about 50 ns against 4 for a global.
_BATTLEFIELD, _STACK = Zone.BATTLEFIELD, Zone.STACK


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
    cant_have: set[str] = field(default_factory=set)  # keywords it can't have (613.1f)

    def copy(self) -> "Characteristics":
        """A shallow copy (what copy.copy makes, without its generic reduce protocol: last known
        information takes one for every object leaving the battlefield)."""
        clone = _new_characteristics(Characteristics)
        clone.__dict__.update(self.__dict__)
        return clone

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
        for ability in self.abilities:  # a loop, not any(...): asked very often, of few abilities
            if ability.keyword == name and ability.kind == "keyword":
                return True
        return False

    def activated_abilities(self) -> list[Ability]:
        return [a for a in self.abilities if a.is_activated]

    def subtype_list(self) -> list[str]:
        if self.all_creature_types and "Creature" in self.types:
            extra = sorted(all_creature_types() - set(self.subtypes))
            return list(self.subtypes) + extra
        return list(self.subtypes)


_new_characteristics = object.__new__


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
    value_face = mana_value_face or face
    key = (id(face), id(value_face), x)
    parts = card.printed_parts.get(key)
    if parts is None:  # faces never change: what they say is read once per card (they are kept alive with it)
        if len(card.printed_parts) >= _PRINTED_PARTS_KEPT:  # faces made on the fly (copies) mustn't pile up
            card.printed_parts.clear()
        cost = value_face.mana_cost
        parts = card.printed_parts[key] = _PrintedParts(
            face, value_face, frozenset(face.colors), tuple(face.supertypes), tuple(face.types),
            tuple(face.subtypes), tuple(face.abilities), _int_or_none(face.power), _int_or_none(face.toughness),
            _int_or_none(face.loyalty), cost.mana_value(x) if cost else 0,
            # Changeling: a characteristic-defining ability that works in every zone (702.73a).
            any(a.keyword == "Changeling" and a.kind == "keyword" for a in face.abilities))
    return Characteristics(
        face.name, face.mana_cost, set(parts.colors), list(parts.supertypes), list(parts.types),
        list(parts.subtypes), list(parts.abilities), parts.power, parts.toughness, parts.loyalty,
        controller, parts.mana_value, face, card, parts.changeling)


_PRINTED_PARTS_KEPT = 64  # per card: its faces, with each X it was cast with


@dataclass(frozen=True)
class _PrintedParts:
    """What a face says, as `printed` reads it (the faces are held so their ids stay theirs)."""

    face: Face
    value_face: Face
    colors: frozenset[str]
    supertypes: tuple[str, ...]
    types: tuple[str, ...]
    subtypes: tuple[str, ...]
    abilities: tuple[Ability, ...]
    power: int | None
    toughness: int | None
    loyalty: int | None
    mana_value: int
    changeling: bool


def melded_mana_value(obj: GameObject) -> int:
    """Rule 712.8g: a melded permanent's mana value is the sum of the mana values of its front faces."""
    assert obj.meld_partner is not None
    return sum(f.mana_cost.mana_value() if f.mana_cost else 0 for f in (obj.card.faces[0], obj.meld_partner[1].faces[0]))


def mana_value_face(card: CardDef, face: Face) -> Face:
    """The face whose mana cost gives the mana value: a nonmodal double-faced card's back face uses its
    front face's (rule 712.8e); a modal double-faced card's face that is up uses its own (712.8f)."""
    if card.layout == MODAL_DFC or face not in card.faces:
        return face
    return card.faces[0]
@lru_cache(maxsize=1)
def _face_down_face() -> Face:
    return Face(name="", mana_cost=None, color_indicator=frozenset(), supertypes=(), types=("Creature",),
                subtypes=(), power="2", toughness="2", loyalty=None, abilities=())


def face_down_characteristics(card: CardDef, controller: str) -> Characteristics:
    """Rule 708.2a: a face-down permanent is a 2/2 creature with no name, mana cost, color, subtypes
    or abilities."""
    return printed(_face_down_face(), card, controller, mana_value_face=_face_down_face())


def characteristics(state: GameState, obj: GameObject) -> Characteristics:
    if obj.zone is not _BATTLEFIELD or obj.phased_out:
        # Off the battlefield (or phased out, treated as though it doesn't exist: 702.26b) only the card
        # counts (no continuous effect applies there), so the result
        # is shared by every object of that card with that face, X and controller. Callers only read it.
        x = obj.x or 0 if obj.zone is _STACK else 0
        key = (obj.face, x, obj.controller)
        found = obj.card.printed_cache.get(key)
        if found is None:
            found = printed(obj.card.faces[obj.face], obj.card, obj.controller,
                            mana_value_face=mana_value_face(obj.card, obj.card.faces[obj.face]), x=x)
            obj.card.printed_cache[key] = found
        return found
    derived = state.derived  # state.now(), inlined: this is read tens of times per action
    if derived.version != state.version:
        derived = state.now()
    if derived.characteristics is None:
        derived.characteristics = _compute_battlefield(state)
    return derived.characteristics[obj.id]


def keywords_on_battlefield(state: GameState) -> dict[str, frozenset[str]]:
    """Each keyword a permanent has, with the players who control a permanent with it. Looked for
    before each priority (daybound, start your engines!), so found once per version of the state."""
    derived = state.now()
    if derived.keywords is None:
        found: dict[str, set[str]] = {}
        for obj in state.battlefield():
            chars = characteristics(state, obj)
            for ability in chars.abilities:
                if ability.kind == "keyword" and ability.keyword is not None:
                    found.setdefault(ability.keyword, set()).add(chars.controller)
        derived.keywords = {keyword: frozenset(players) for keyword, players in found.items()}
    return derived.keywords


def abilities_on_battlefield(state: GameState, kind: str) -> list[tuple[GameObject, Characteristics, Ability]] | tuple[()]:
    """(permanent, its characteristics, ability) for each ability of `kind` the permanents have now, in
    battlefield order: what the rules that look for rule, replacement or static abilities go through,
    found once per version of the state (most states have none of most kinds)."""
    derived = state.now()
    found = derived.abilities
    if found is None:
        found = derived.abilities = {}
        for obj in state.battlefield():
            chars = characteristics(state, obj)
            for ability in chars.abilities:
                found.setdefault(ability.kind, []).append((obj, chars, ability))
    return found.get(kind, ())


# --- layer 1 ---------------------------------------------------------------------------------
def copiable_values(state: GameState, obj: GameObject) -> tuple[Face, CardDef]:
    """The face an object has after copy effects (layer 1, rule 707.2), and the card it belongs to."""
    face, card = obj.card.faces[obj.face], obj.card
    statics = copy_statics.static_copy_effects(state, obj)
    if not state.effects and not statics:  # most objects of most states: nothing copies anything
        return face, card
    effects = [(e.timestamp, e.params["face"], e.params["card"]) for e in _effects_on(state, obj, "1")]
    applied = sorted(effects + statics, key=_first)
    if applied:  # the latest copy effect gives the values (613.2a, 707.2)
        _, face, card = applied[-1]
    return face, card


def _first(entry: tuple[int, Any, Any]) -> int:
    return entry[0]


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


@modifier("add_colors", "5")
def _add_colors(chars: Characteristics, params: dict[str, Any]) -> None:
    """'... is black in addition to its other colors'."""
    chars.colors = chars.colors | set(params["colors"])


@modifier("set_colors", "5")
def _set_colors(chars: Characteristics, params: dict[str, Any]) -> None:
    chars.colors = set(params["colors"])


@modifier("grant", "6")
def _grant(chars: Characteristics, params: dict[str, Any]) -> None:
    for ability in params["abilities"]:
        if not (ability.kind == "keyword" and ability.keyword in chars.cant_have):
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


@modifier("gain_control", "2")
def _gain_control(chars: Characteristics, params: dict[str, Any]) -> None:
    """'Gain control of target creature' (layer 2, rule 613.1b)."""
    chars.controller = params["controller"]


@modifier("add_types", "4")
def _add_types(chars: Characteristics, params: dict[str, Any]) -> None:
    """'... is a creature in addition to its other types' (rule 205.1b)."""
    chars.types = chars.types + [t for t in params["types"] if t not in chars.types]


@modifier("set_types", "4")
def _set_types(chars: Characteristics, params: dict[str, Any]) -> None:
    """'... is a land and loses all other card types': the new card types replace the old ones, and the
    subtypes of a card type it lost go too, unless a card type it still has has them (rule 205.1a).
    Land and creature types are known by name; any other subtype belongs to the other card types it had."""
    kept = list(params["types"])
    creature_types = all_creature_types()

    def still_has(subtype: str) -> bool:
        if subtype in LAND_TYPES:
            return "Land" in kept
        if subtype in creature_types:
            return "Creature" in kept or "Kindred" in kept
        return any(t in kept for t in chars.types if t not in ("Land", "Creature", "Kindred"))

    chars.subtypes = [s for s in chars.subtypes if still_has(s)]
    if "Creature" not in kept:
        chars.all_creature_types = False
    chars.types = kept


#: Land subtypes (rule 205.3i): the ones a land loses when an effect sets its land type.
LAND_TYPES = frozenset({"Plains", "Island", "Swamp", "Mountain", "Forest", "Cave", "Desert", "Gate", "Lair",
                        "Locus", "Mine", "Power-Plant", "Sphere", "Tower", "Town", "Urza's"})


@modifier("set_land_subtypes", "4")
def _set_land_subtypes(chars: Characteristics, params: dict[str, Any]) -> None:
    """'Nonbasic lands are Mountains': the land loses its other land types and the abilities from its
    rules text, and has the new types' intrinsic mana abilities (rule 305.7; those come in layer 6)."""
    chars.subtypes = [s for s in chars.subtypes if s not in LAND_TYPES] + list(params["subtypes"])
    chars.abilities = []


@modifier("lose_keywords", "6")
def _lose_keywords(chars: Characteristics, params: dict[str, Any]) -> None:
    """'... loses flying'."""
    lost = set(params["keywords"])
    chars.abilities = [a for a in chars.abilities if not (a.kind == "keyword" and a.keyword in lost)]


@modifier("cant_have", "6")
def _cant_have(chars: Characteristics, params: dict[str, Any]) -> None:
    """'... can't have or gain flying' (613.1f): it loses the keyword, and nothing applied after
    this in layer 6 gives it back."""
    _lose_keywords(chars, params)
    chars.cant_have |= set(params["keywords"])


@modifier("modify_pt_count", "7c")
def _modify_pt_count(chars: Characteristics, params: dict[str, Any]) -> None:
    """'... gets +1/+0 for each [permanent]' (counted as it applies). With `halve: {power: down,
    toughness: up}`: '+X/+Y, where X is half the number of [permanents], rounded down, and Y is half
    that number, rounded up' (Y follows the rules of X, 107.3p: each is defined by the text)."""
    if chars.power is not None:
        chars.power += counted_amount(params, "power")
    if chars.toughness is not None:
        chars.toughness += counted_amount(params, "toughness")


def counted_amount(params: dict[str, Any], key: str) -> int:
    amount = params.get(key, 0) * params["value"]
    rounding = params.get("halve", {}).get(key)
    if rounding == "down":
        return amount // 2
    if rounding == "up":
        return -(-amount // 2)
    return amount


@modifier("set_pt_count", "7b")
def _set_pt_count(chars: Characteristics, params: dict[str, Any]) -> None:
    """'Power and toughness are each equal to the number of [permanents]' (counted as it applies)."""
    chars.power = chars.toughness = params["value"]


@modifier("set_pt_exiled_total", "7b")
def _set_pt_exiled_total(chars: Characteristics, params: dict[str, Any]) -> None:
    """'Its power is equal to the total power of the exiled cards and its toughness is equal to their total
    toughness': the cards exiled with this object (614.14), totalled as it applies (statics.py)."""
    chars.power, chars.toughness = params["_totals"]()


@modifier("set_pt_to_mana_value", "7b")
def _set_pt_to_mana_value(chars: Characteristics, params: dict[str, Any]) -> None:
    """'... has base power and base toughness each equal to its mana value' (Opalescence)."""
    chars.power = chars.toughness = chars.mana_value


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
    objects = state.battlefield()
    chars: dict[int, Characteristics] = {}
    for obj in objects:
        face, card = copiable_values(state, obj)
        found = printed(face, card, obj.controller, mana_value_face=mana_value_face(card, face))
        if obj.copy_token and face is not card.faces[0]:
            found.mana_value = 0  # a copy of a back face has mana value 0 (202.3b)
        if obj.meld_partner is not None and face is obj.card.faces[1]:
            found.mana_value = melded_mana_value(obj)  # 712.8g
        if obj.face_down:
            found = face_down_characteristics(card, obj.controller)  # layer 1b (613.2b, 708.2a)
        else:
            for ability in found.abilities:
                if "anchor" in ability.data:
                    # '[Anchor word] — [ability]': it has the ability only if that word was chosen as it
                    # entered (614.12c)
                    chosen = obj.chosen.get("option")
                    found.abilities = [a for a in found.abilities if a.data.get("anchor", chosen) == chosen]
                    break
        chars[obj.id] = found

    resolved = [
        _Application(e.layer, e.timestamp, e.modifier, e.params,
                     (lambda c, ids=e.affected: [i for i in ids if i in c]))  # type: ignore[misc]
        for e in state.effects if e.layer != "1" and _lasts(state, e)
    ] if state.effects else []
    text_changed = any(a.layer == "3" for a in resolved)
    run = _LayerRun(chars)
    statics = static_abilities.static_applications(state, objects, chars)
    others = _by_layer(resolved + _keyword_counter_applications(objects) + _counter_applications(objects))
    by_layer = _by_layer(statics, others)
    # Until an application has been applied, the characteristics are the printed ones (with intrinsic
    # mana abilities, which are no static abilities): static abilities read again would be the same.
    applied_any = False
    for layer in LAYER_ORDER:
        if layer == "6":
            _add_intrinsic_mana_abilities(chars)
        if applied_any and (layer == "7a" or (layer == "4" and text_changed)):
            # From 7a on, static abilities apply if they exist after layer 6, or began applying earlier;
            # text changed in layer 3 changes what they do from layer 4 on (613.1c).
            statics = [s for s in statics if s.key in run.started] + [
                s for s in static_abilities.static_applications(state, objects, chars) if s.key not in run.started]
            by_layer = _by_layer(statics, others)
        batch = by_layer.get(layer)
        if not batch:  # most layers of most states: nothing applies in them
            continue
        applied_any = True
        batch.sort(key=_application_order)
        for application in in_dependency_order(batch, run):
            run.apply(application)
    return chars


def _by_layer(applications: list[_Application], others: dict[str, list[_Application]] | None = None,
              ) -> dict[str, list[_Application]]:
    """The applications of each layer (static abilities' first, then `others`, as listed)."""
    out: dict[str, list[_Application]] = {}
    for application in applications:
        out.setdefault(application.layer, []).append(application)
    for layer, listed in (others or {}).items():
        out[layer] = out.get(layer, []) + listed
    return out


def _application_order(application: _Application) -> tuple[bool, int, int]:
    return (not application.is_cda, application.timestamp, application.order)


def _lasts(state: GameState, effect: ContinuousEffect) -> bool:
    """'For as long as you control [it]': the effect applies only while that lasts (611.2b). The
    controller compared is the one the object was put under (control-changing effects on it aside)."""
    if effect.duration != "while_you_control_source":
        return True
    from reference_engine.effects import you_control_source

    return you_control_source(state, effect.source_id, effect.controller)


class _LayerRun:
    """What applying the layers has done so far: which static-ability effects have begun to apply,
    and to which objects (rule 613.6: an effect that began applying in one layer keeps applying to
    the same set of objects in later layers)."""

    def __init__(self, chars: dict[int, Characteristics]) -> None:
        self.chars = chars
        self.started: set[tuple] = set()
        self.locked: dict[tuple, list[int]] = {}

    def exists(self, application: _Application, chars: dict[int, Characteristics]) -> bool:
        """Whether the effect exists: a static ability's effect that hasn't begun to apply doesn't if
        its source no longer has the ability (rules 613.6, 613.8a), or its condition doesn't hold."""
        if application.key is not None and application.key not in self.started:
            source = chars.get(application.source_id)  # type: ignore[arg-type]
            if source is not None and application.ability is not None and application.ability not in source.abilities:
                return False
        return application.condition is None or application.condition()

    def targets(self, application: _Application, chars: dict[int, Characteristics]) -> list[int]:
        """The objects the effect applies to, judged on `chars` unless it is already locked in."""
        effect = application.key[:2] if application.key is not None else None
        if effect is not None and effect in self.locked:
            return [i for i in self.locked[effect] if i in chars]
        return list(application.affected(chars))

    def apply(self, application: _Application) -> None:
        if not self.exists(application, self.chars):
            return
        ids = self.targets(application, self.chars)
        _, fn = MODIFIERS[application.modifier]
        params = application.params
        if "_count" in params:  # counted on the characteristics as they are now
            params = dict(params, value=params["_count"](self.chars))
        for target_id in ids:
            fn(self.chars[target_id], params)
        if application.key is not None:
            self.started.add(application.key)
            self.locked.setdefault(application.key[:2], ids)

    def depends_on(self, dependent: _Application, other: _Application) -> bool:
        """Rule 613.8a(b): applying `other` would change the existence of `dependent`, or what it
        applies to. Only a static ability's effect that hasn't begun to apply can depend on anything:
        a resolved effect's set of objects is fixed as it begins (611.2c), and one that has begun
        applying keeps its set (613.6). What an effect does to its objects isn't compared: no
        modifier of the engine computes its change from characteristics another effect of the same
        layer changes."""
        if dependent.key is None or dependent.key in self.started:
            return False
        if other.key is not None and other.key[:2] == dependent.key[:2]:
            return False  # parts of one effect
        if not self.exists(other, self.chars):
            return False
        ids = self.targets(other, self.chars)
        if not ids:
            return False
        trial = dict(self.chars)
        _, fn = MODIFIERS[other.modifier]
        params = other.params
        if "_count" in params:
            params = dict(params, value=params["_count"](self.chars))
        for target_id in ids:
            trial[target_id] = _clone(self.chars[target_id])
            fn(trial[target_id], params)
        before, after = self.exists(dependent, self.chars), self.exists(dependent, trial)
        if before != after:
            return True
        return before and set(dependent.affected(self.chars)) != set(dependent.affected(trial))


def in_dependency_order(batch: list[_Application], run: _LayerRun) -> Iterator[_Application]:
    """Rules 613.3 and 613.8: characteristic-defining abilities first, then timestamp order, except
    that an effect depending on others waits until just after they have all been applied (613.8b).
    Effects in a dependency loop are applied in timestamp order. The order of what remains is
    worked out again after each effect is applied (613.8c). `batch` is sorted by CDA, timestamp."""
    remaining = list(batch)
    while remaining:
        group = [a for a in remaining if a.is_cda == remaining[0].is_cda]  # 613.8a(c)
        if len(group) < 2 or not any(a.key is not None and a.key not in run.started for a in group):
            chosen = remaining[0]
        else:
            chosen = _first_ready(group, run)
        remaining.remove(chosen)
        yield chosen


def _first_ready(group: list[_Application], run: _LayerRun) -> _Application:
    """The earliest effect all of whose dependencies (direct or not) are in a loop with it."""
    deps = {id(a): [b for b in group if b is not a and run.depends_on(a, b)] for a in group}

    def reach(start: _Application) -> set[int]:
        seen: set[int] = set()
        todo = list(deps[id(start)])
        while todo:
            b = todo.pop()
            if id(b) not in seen:
                seen.add(id(b))
                todo.extend(deps[id(b)])
        return seen

    reachable = {id(a): reach(a) for a in group}
    for a in group:
        if all(id(a) in reachable[b] for b in reachable[id(a)]):
            return a
    return group[0]  # unreachable: some effect always qualifies


def _clone(chars: Characteristics) -> Characteristics:
    out = chars.copy()
    out.colors, out.supertypes, out.types = set(chars.colors), list(chars.supertypes), list(chars.types)
    out.subtypes, out.abilities, out.cant_have = list(chars.subtypes), list(chars.abilities), set(chars.cant_have)
    return out


def _add_intrinsic_mana_abilities(chars: dict[int, Characteristics]) -> None:
    for c in chars.values():
        if "Land" in c.types:
            intrinsic = [intrinsic_mana_ability(t) for t in c.subtypes if t in BASIC_LAND_MANA]
            c.abilities = intrinsic + [a for a in c.abilities if a not in intrinsic]


def _counter_timestamp(obj: GameObject, kind: str) -> int:
    """Rule 613.7c: counters of a kind share the timestamp of the last one put on (or the object's, if
    it entered with them)."""
    return obj.counter_times.get(kind, obj.timestamp)


def _counter_applications(objects: list[GameObject]) -> list[_Application]:
    """+1/+1 and -1/-1 counters modify power and toughness in layer 7c (rules 122.1a, 613.4c)."""
    out = []
    for obj in objects:
        hone = obj.counters.get("hone", 0)
        if hone and obj.attached_to is not None:  # 'a hone counter on an Equipment gives +1/+0' (122.1j)
            out.append(_Application("7c", _counter_timestamp(obj, "hone"), "modify_pt", {"power": hone, "toughness": 0},
                                    (lambda c, i=obj.attached_to: [i] if i in c else [])))  # type: ignore[misc]
        for kind, sign in (("+1/+1", 1), ("-1/-1", -1)):
            n = obj.counters.get(kind, 0)
            if n:
                out.append(_Application("7c", _counter_timestamp(obj, kind), "modify_pt",
                                        {"power": sign * n, "toughness": sign * n}, (lambda c, i=obj.id: [i])))  # type: ignore[misc]
    return out


#: Rule 122.1b: the keywords a keyword counter can be, by counter name.
KEYWORD_COUNTERS = {
    "flying": "Flying", "first strike": "First strike", "double strike": "Double strike",
    "deathtouch": "Deathtouch", "haste": "Haste", "hexproof": "Hexproof", "indestructible": "Indestructible",
    "lifelink": "Lifelink", "menace": "Menace", "reach": "Reach", "trample": "Trample", "vigilance": "Vigilance",
}


def _keyword_counter_applications(objects: list[GameObject]) -> list[_Application]:
    """A keyword counter gives the permanent that keyword, in layer 6 (rules 122.1b, 613.1f)."""
    out = []
    for obj in objects:
        if not obj.counters:
            continue
        for kind, keyword in KEYWORD_COUNTERS.items():
            if obj.counters.get(kind, 0):
                out.append(_Application("6", _counter_timestamp(obj, kind), "grant",
                                        {"abilities": [_keyword(keyword)]}, (lambda c, i=obj.id: [i])))  # type: ignore[misc]
    return out


@lru_cache(maxsize=None)
def _keyword(name: str) -> Ability:
    return Ability("keyword", {}, keyword=name)


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


# Static abilities and copy effects build on this module and are applied in its layers: bound here, at
# the end, so that either can be imported first; read when called.
from reference_engine import copy_statics, statics as static_abilities  # noqa: E402
