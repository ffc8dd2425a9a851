"""Game actions that change the state: moving, entering, tapping, damage, counters, life, transforming.

Each one records what happened as an Event so triggered abilities can see it. Operations that may
need a player's choice (entering the battlefield as a copy, ...) are generators yielding Decisions.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from reference_engine.layers import Characteristics, characteristics
from reference_engine.model import CardDef, ContinuousEffect, GameObject, Target, Zone
from reference_engine.moves import Procedure
from reference_engine.prevention import prevents
from reference_engine.triggers import Event, check


def emit(game, kind: str, **data: Any) -> None:
    """Record an event; abilities that trigger on it wait to be put on the stack (rule 603.3)."""
    game.state.pending_triggers.extend(check(game, Event(kind, data)))


def snapshot(game, obj: GameObject) -> Characteristics:
    """Last known information of an object (rule 113.7a): its characteristics as it last existed."""
    return copy.copy(characteristics(game.state, obj))


# --- zones -----------------------------------------------------------------------------------
def move(game, obj: GameObject, to: Zone, *, position: int | None = None) -> GameObject:
    """Put an object into another zone (not onto the battlefield: see enter_battlefield)."""
    state = game.state
    origin = obj.zone
    snap = snapshot(game, obj) if origin == Zone.BATTLEFIELD else None
    if snap is not None:
        state.lki[obj.id] = _Lki(snap, obj.counters.copy(), obj.damage, obj.tapped)
        if state.combat:
            state.combat.attackers.pop(obj.id, None)
            state.combat.blockers.pop(obj.id, None)
    new = state.move(obj, to, position=position)
    emit(game, "leaves", object_id=obj.id, uid=obj.uid, new_id=new.id, **{"from": origin, "to": to},
         snapshot=snap)
    return new


@dataclass(frozen=True)
class _Lki:
    chars: Characteristics
    counters: Any
    damage: int
    tapped: bool


def last_known(game, object_id: int) -> Characteristics | None:
    lki = game.state.lki.get(object_id)
    return lki.chars if lki else None


@dataclass
class Entry:
    """How a permanent enters (rules 614.1c-e, 614.12): face, counters, copy, tapped, attacking."""

    face: int = 0
    tapped: bool = False
    counters: dict[str, int] | None = None
    copy_of: tuple[Any, CardDef] | None = None  # (face, card) copiable values chosen as it enters
    attacking: Target | None = None
    choices: dict[str, Any] | None = None  # 'as this enters, choose a color' answers (614.12a)


def enter_battlefield(game, obj: GameObject, controller: str, *, transformed: bool = False,
                      spell_x: int | None = None, tapped: bool = False,
                      attacking: Target | None = None) -> Procedure:
    """Put `obj` onto the battlefield; returns the new permanent, or None if it can't enter.

    A card that isn't double-faced put onto the battlefield transformed doesn't enter: it stays where it
    is (rule 712.14a); a daybound card enters transformed at night (702.145b).
    """
    from reference_engine.replacement import entry_replacements

    if transformed and not obj.card.double_faced:
        return None
    entry = Entry(face=1 if transformed else 0, tapped=tapped, attacking=attacking)
    yield from entry_replacements(game, obj.card, controller, entry, spell_x)
    state = game.state
    origin = obj.zone
    new = state.move(obj, Zone.BATTLEFIELD, controller=controller, face=entry.face)
    new.spell_x = spell_x
    _arrive(game, new, entry)
    emit(game, "leaves", object_id=obj.id, uid=obj.uid, new_id=new.id, **{"from": origin, "to": Zone.BATTLEFIELD},
         snapshot=None)
    _entered(game, new)
    return new


def create_token(game, card: CardDef, controller: str, *, tapped: bool = False, face: int = 0,
                 attacking: Target | None = None, copy_token: bool = False) -> Procedure:
    """Create a token (rule 111.2); it enters the battlefield like any permanent."""
    from reference_engine.replacement import entry_replacements

    state = game.state
    entry = Entry(face=face, tapped=tapped, attacking=attacking)
    yield from entry_replacements(game, card, controller, entry, None)
    new = state.add_object(card, controller, Zone.BATTLEFIELD, is_token=True, face=entry.face)
    new.copy_token = copy_token
    _arrive(game, new, entry)
    _entered(game, new)
    return new


def _entered(game, new: GameObject) -> None:
    """The permanent has entered: abilities that trigger on it see it as it entered (603.6a); then
    daybound and nightbound apply at once (702.145c/d/f/g), as they do at any time."""
    from reference_engine.daynight import enforce

    emit(game, "enters", object_id=new.id, uid=new.uid)
    enforce(game)


def _arrive(game, new: GameObject, entry: Entry) -> None:
    """What happens as a permanent arrives: it is summoning sick, and how it enters applies."""
    state = game.state
    new.summoning_sick = True
    new.tapped = entry.tapped
    if entry.copy_of is not None:
        face, card = entry.copy_of
        state.effects.append(ContinuousEffect("1", state.new_timestamp(), "copy", {"face": face, "card": card},
                                              frozenset({new.id}), new.controller, duration="permanent"))
    if entry.counters:
        for kind, amount in entry.counters.items():
            if amount > 0:
                new.counters[kind] += amount
    if entry.attacking is not None and state.combat is not None:
        state.combat.attackers[new.id] = entry.attacking
    if entry.choices:
        new.chosen.update(entry.choices)
    state.touch()


# --- permanents ----------------------------------------------------------------------------------
def tap(game, obj: GameObject) -> None:
    obj.tapped = True


def untap(game, obj: GameObject) -> None:
    obj.tapped = False


def destroy(game, obj: GameObject) -> GameObject | None:
    """Rule 701.8: move to its owner's graveyard, unless it has indestructible (702.12b)."""
    if characteristics(game.state, obj).has_keyword("Indestructible"):
        return None
    return move(game, obj, Zone.GRAVEYARD)


def sacrifice(game, obj: GameObject) -> GameObject:
    """Rule 701.21: indestructible doesn't stop it."""
    return move(game, obj, Zone.GRAVEYARD)


def add_counters(game, obj: GameObject, kind: str, amount: int) -> None:
    if amount > 0:
        obj.counters[kind] += amount
        game.state.touch()


def remove_counters(game, obj: GameObject, kind: str, amount: int) -> int:
    removed = min(amount, obj.counters.get(kind, 0))
    if removed:
        obj.counters[kind] -= removed
        if obj.counters[kind] <= 0:
            del obj.counters[kind]
        game.state.touch()
    return removed


# --- players ----------------------------------------------------------------------------------
def gain_life(game, player: str, amount: int) -> None:
    if amount > 0:
        game.state.players[player].life += amount


def lose_life(game, player: str, amount: int) -> None:
    if amount > 0:
        game.state.players[player].life -= amount


def draw(game, player: str, count: int = 1) -> None:
    state = game.state
    for _ in range(count):
        library = state.zone_ids(Zone.LIBRARY, player)
        if not library:
            state.players[player].drew_from_empty_library = True  # rule 704.5b
            continue
        move(game, state.objects[library[0]], Zone.HAND)


# --- damage --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class DamageSource:
    """What deals damage: an object's identity and its characteristics (current or last known)."""

    object_id: int | None
    uid: int | None
    chars: Characteristics

    @classmethod
    def of(cls, game, obj: GameObject) -> "DamageSource":
        return cls(obj.id, obj.uid, characteristics(game.state, obj))


def deal_damage(game, source: DamageSource, target: Target, amount: int, *, combat: bool = False) -> int:
    """Rule 120.3: damage to a player causes life loss, to a planeswalker removes loyalty counters,
    to a creature is marked on it. Lifelink makes the source's controller gain that much life."""
    if amount <= 0:
        return 0
    if prevents(game, source, target, amount, combat=combat):
        return 0  # 615: prevented damage isn't dealt, and triggers nothing (603.2g)
    state = game.state
    if target.kind == "player":
        lose_life(game, target.value, amount)  # type: ignore[arg-type]
        if combat:
            emit(game, "combat_damage_to_player", source_id=source.object_id, source_uid=source.uid,
                 player=target.value, amount=amount)
    else:
        obj = state.objects.get(target.value)
        if obj is None or obj.zone is not Zone.BATTLEFIELD:
            return 0
        chars = characteristics(state, obj)
        if "Planeswalker" in chars.types:
            remove_counters(game, obj, "loyalty", amount)
        if "Creature" in chars.types:
            obj.damage += amount
            if source.chars.has_keyword("Deathtouch"):
                obj.deathtouch_damage = True
    if source.chars.has_keyword("Lifelink"):
        gain_life(game, source.chars.controller, amount)
    emit(game, "damage", source_id=source.object_id, target=target, amount=amount, combat=combat)
    return amount


# --- transforming --------------------------------------------------------------------------------
def transform(game, obj: GameObject, *, by_day_night: bool = False, own_ability_since: int | None = None) -> bool:
    """Rule 701.27: turn a double-faced permanent over. Returns whether it transformed.

    Permanents with daybound or nightbound transform only through those abilities (702.145b/e);
    an ability of the permanent itself does nothing if it transformed since the ability was put on
    the stack (701.27f): pass that ability's recorded transform count as `own_ability_since`.
    """
    if obj.zone is not Zone.BATTLEFIELD or not obj.card.double_faced:
        return False
    chars = characteristics(game.state, obj)
    if not by_day_night and (chars.has_keyword("Daybound") or chars.has_keyword("Nightbound")):
        return False
    if own_ability_since is not None and obj.transform_count != own_ability_since:
        return False
    obj.face = 1 - obj.face
    obj.transform_count += 1
    obj.timestamp = game.state.new_timestamp()  # rule 613.7g
    game.state.touch()
    emit(game, "transformed", object_id=obj.id, uid=obj.uid, into=obj.face_def.name)
    return True
