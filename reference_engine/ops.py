"""Game actions that change the state: moving, entering, tapping, damage, counters, life, transforming.

Each one records what happened as an Event so triggered abilities can see it. Operations that may
need a player's choice (entering the battlefield as a copy, ...) are generators yielding Decisions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from reference_engine.layers import MODIFIERS, Characteristics, abilities_on_battlefield, characteristics
from reference_engine.limits import EngineLimit
from reference_engine.model import CardDef, ContinuousEffect, GameObject, Step, Target, Zone
from reference_engine.moves import Procedure
from reference_engine.triggers import Event, check, lookback_sources

if TYPE_CHECKING:
    from reference_engine.game import Game


def emit(game: Game, kind: str, **data: Any) -> None:
    """Record an event; abilities that trigger on it wait to be put on the stack (rule 603.3)."""
    game.state.pending_triggers.extend(check(game, Event(kind, data)))


def snapshot(game: Game, obj: GameObject) -> Characteristics:
    """Last known information of an object (rule 113.7a): its characteristics as it last existed."""
    return characteristics(game.state, obj).copy()


# --- zones -----------------------------------------------------------------------------------
def move(game: Game, obj: GameObject, to: Zone, *, position: int | None = None, last_known: "_Lki | None" = None,
         arranged: bool = False, orders: "dict[int, list[Any]] | None" = None) -> GameObject:
    """Put an object into another zone (not onto the battlefield: see enter_battlefield). A permanent's
    last known information is taken now, unless the caller took it earlier (`last_known`, rule 704.8).
    A token that has left the battlefield stays where it is (111.8). `arranged`: the caller lets the
    owner arrange a melded permanent's two cards put into a library (meld.arrange_in_library). `orders`:
    see move_together."""
    if stays_put(obj):
        return obj
    known = {obj.id: last_known} if last_known is not None else None
    if arranged:
        return move_together(game, [obj], to, position=position, last_known=known, arranged=True, orders=orders)[0]
    return move_together(game, [obj], to, position=position, last_known=known, orders=orders)[0]


def move_together(game: Game, objs: list[GameObject], to: Zone, *, position: int | None = None,
                  last_known: "dict[int, _Lki] | None" = None,
                  sacrificed: "frozenset[int] | set[int]" = frozenset(), arranged: bool = False,
                  orders: "dict[int, list[Any]] | None" = None) -> list[GameObject]:
    """Put objects into another zone in one event ('destroy all creatures', state-based actions: 704.3).

    Leaves-the-battlefield abilities look back in time (603.10a): whether they trigger is judged by the
    permanents and abilities that existed immediately before the event, and each object leaving is seen
    as it was then (or as `last_known` recorded it, rule 704.8). So creatures leaving together see each
    other leave, whichever is moved first. Returns the new objects (400.7), in the order given."""
    state = game.state
    records: dict[int, _Lki] = {}
    for obj in objs:
        if obj.zone == Zone.BATTLEFIELD:
            records[obj.id] = (last_known or {}).get(obj.id) or last_known_record(game, obj)
    before = lookback_sources(game, {i: r.chars for i, r in records.items()}) if records else None
    routes = [(obj, obj.zone, _destination(game, obj, to, (orders or {}).get(obj.id))) for obj in objs]
    leaving = [(obj, origin, route.zone) for obj, origin, route in routes]
    moved = []
    for (obj, origin, destination), (_, _, route) in zip(leaving, routes):
        # an effect that sent it elsewhere decides where it goes: the mover's placement no longer counts
        place, arranging = (None, arranged) if route.replaced else (position, arranged)
        if obj.id in records:
            state.lki[obj.id] = records[obj.id]
            if state.combat:  # 506.4: it is removed from combat
                state.combat.attackers.pop(obj.id, None)
                state.combat.blockers.pop(obj.id, None)
        moved.append(state.move(obj, destination, position=place))
        if obj.meld_partner is not None:
            from reference_engine.meld import put_partner_card

            # one permanent leaves, two cards arrive (712.21)
            other = put_partner_card(game, obj, destination, *((place, True) if arranging else ()))
            moved[-1].arrived_with = other.id if other is not None else None
    outer, state.lookback = state.lookback, before
    try:
        for (obj, origin, destination), new in zip(leaving, moved):
            snap = records[obj.id].chars if obj.id in records else None
            if origin is Zone.BATTLEFIELD and destination is Zone.GRAVEYARD and snap is not None and "Creature" in snap.types:
                state.died_this_turn[snap.controller] = state.died_this_turn.get(snap.controller, 0) + 1  # it died (700.4)
            emit(game, "leaves", object_id=obj.id, uid=obj.uid, new_id=new.id,
                 **{"from": origin, "to": destination}, snapshot=snap, sacrificed=obj.id in sacrificed)
            if origin is Zone.BATTLEFIELD and obj.attached_to is not None:
                # an Equipment or Aura leaving the battlefield becomes unattached; abilities that trigger
                # on that look back in time (603.10c), so its own ability sees it leave
                emit(game, "unattached", object_id=obj.id, uid=obj.uid, host_id=obj.attached_to, left=True)
    finally:
        state.lookback = outer
    return moved


def _destination(game: Game, obj: GameObject, to: Zone, order: "list[Any] | None" = None) -> "_zone_replacements.Route":
    """Replacement effects on where it goes (614.1a): a finality counter (122.1h), 'if this would be put
    into a graveyard from anywhere, exile it instead', 'if a card would be put into an opponent's
    graveyard, exile it instead', 'if a creature an opponent controls would die, exile it instead', each
    judged as the object is before it moves, in the order its controller chose (616.1,
    zone_replacements.py)."""
    return _zone_replacements.destination(game, obj, to, order)


def enters_as_permanent(card: CardDef, back_face_up: bool) -> bool:
    """Rule 712.14b: a modal double-faced card put onto the battlefield enters front face up; if that
    face isn't a permanent card's (an instant or sorcery face), the card stays in its current zone."""
    if card.layout != "modal_dfc" or back_face_up:
        return True
    from reference_engine.casting import PERMANENT_TYPES

    return any(t in PERMANENT_TYPES for t in card.faces[0].types)


def stays_put(obj: GameObject) -> bool:
    """Rule 111.8: a token that has left the battlefield can't move to another zone or come back onto
    the battlefield; it stays where it is until it ceases to exist (111.7)."""
    return obj.is_token and obj.zone not in (Zone.BATTLEFIELD, Zone.STACK)


@dataclass(frozen=True)
class _Lki:
    chars: Characteristics
    counters: Any
    damage: int
    tapped: bool


def last_known_record(game: Game, obj: GameObject) -> _Lki:
    """A permanent's last known information (rule 113.7a), as it is now."""
    return _Lki(snapshot(game, obj), obj.counters.copy(), obj.damage, obj.tapped)


def last_known(game: Game, object_id: int) -> Characteristics | None:
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
    controller: str | None = None  # under whose control it enters, once replacement effects changed it (616.1b)
    # 'That creature is a black Zombie in addition ...': effects of the spell putting it onto the
    # battlefield that apply as it enters (611.2e), as (modifier, params), and who controls them.
    is_effects: list[tuple[str, dict[str, Any]]] | None = None
    effect_controller: str | None = None
    # The objects entering the battlefield at the same time as this one, itself included (614.13a), and
    # the cards exiled as it enters, linked to the permanent it becomes (614.14).
    entering: frozenset[int] = frozenset()
    exiled: list[int] | None = None


def enter_battlefield(game: Game, obj: GameObject, controller: str, *, transformed: bool = False,
                      spell_x: int | None = None, tapped: bool = False,
                      attacking: Target | None = None, counters: dict[str, int] | None = None,
                      is_effects: list[tuple[str, dict[str, Any]]] | None = None,
                      effect_controller: str | None = None,
                      meld_partner: tuple[int, CardDef] | None = None) -> Procedure:
    """Put `obj` onto the battlefield; returns the new permanent, or None if it can't enter.
    With `meld_partner`, it enters melded with that other card, back face up (712.14c).

    A card that isn't double-faced put onto the battlefield transformed doesn't enter: it stays where it
    is (rule 712.14a); a daybound card enters transformed at night (702.145b). A token that has left
    the battlefield doesn't come back (111.8).
    """
    if transformed and not obj.card.double_faced:
        return None
    if stays_put(obj) or not enters_as_permanent(obj.card, transformed or meld_partner is not None):
        return None
    entry = Entry(face=1 if transformed else 0, tapped=tapped, attacking=attacking,
                  counters=dict(counters) if counters else None, is_effects=is_effects,
                  effect_controller=effect_controller, entering=game.state.entering_together | {obj.id})
    yield from _replacement.entry_replacements(game, obj.card, controller, entry, spell_x)
    if _restrictions.entry_prohibited(game, (entry.copy_of or (obj.card.faces[entry.face], obj.card))[0], obj.card, controller):
        return None  # 'lands can't enter the battlefield', judged on what it would enter as (a copy's too)
    state = game.state
    origin = obj.zone
    new = state.move(obj, Zone.BATTLEFIELD, controller=entry.controller or controller, face=entry.face)
    new.spell_x = spell_x
    new.meld_partner = meld_partner
    _arrive(game, new, entry)
    yield from put_entering_counters(game, new, entry.counters)
    emit(game, "leaves", object_id=obj.id, uid=obj.uid, new_id=new.id, **{"from": origin, "to": Zone.BATTLEFIELD},
         snapshot=None)
    _entered(game, new)
    return new


def create_token(game: Game, card: CardDef, controller: str, *, tapped: bool = False, face: int = 0,
                 attacking: Target | None = None, copy_token: bool = False,
                 counters: dict[str, int] | None = None) -> Procedure:
    """Create a token (rule 111.2); it enters the battlefield like any permanent (with `counters`:
    'an Incubator token that enters with N +1/+1 counters', 701.53a). Returns None if it can't enter,
    and then it isn't created (111.5)."""
    state = game.state
    entry = Entry(face=face, tapped=tapped, attacking=attacking, counters=dict(counters) if counters else None)
    yield from _replacement.entry_replacements(game, card, controller, entry, None)
    if _restrictions.entry_prohibited(game, (entry.copy_of or (card.faces[entry.face], card))[0], card, controller):
        return None  # 111.5: a token that can't enter the battlefield is not created
    new = state.add_object(card, entry.controller or controller, Zone.BATTLEFIELD, is_token=True, face=entry.face)
    new.copy_token = copy_token
    _arrive(game, new, entry)
    yield from put_entering_counters(game, new, entry.counters)
    _entered(game, new)
    return new


def put_entering_counters(game: Game, new: GameObject, counters: dict[str, int] | None) -> Procedure:
    """The counters a permanent enters with are put on it (122.6) by its controller (122.6a), as it is once
    it has arrived (a copy's values included): the effects that modify putting counters apply, in the
    order its controller chooses (616.1). 'Enters with' is a replacement effect (614.1c), a planeswalker's
    loyalty and a Saga's first lore counter included (306.5b, 714.3a): what modifies only the counters an
    effect puts applies to them too ('if an effect would put one or more counters ...').
    """
    for kind, amount in (counters or {}).items():
        amount = yield from counters_to_put(game, new, kind, amount, new.controller, by_effect=True)
        if amount > 0:
            before = new.counters.get(kind, 0)
            new.counters[kind] += amount
            emit(game, "counters_put", object_id=new.id, uid=new.uid, counter=kind, before=before,
                 after=new.counters[kind])
            game.state.touch()


def _entered(game: Game, new: GameObject) -> None:
    """The permanent has entered: abilities that trigger on it see it as it entered (603.6a); then
    daybound and nightbound apply at once (702.145c/d/f/g), as they do at any time."""
    emit(game, "enters", object_id=new.id, uid=new.uid, spell_x=new.spell_x)
    _linked_copy.linked_trigger_triggers(game, new)
    _daynight.enforce(game)


def _arrive(game: Game, new: GameObject, entry: Entry) -> None:
    """What happens as a permanent arrives: it is summoning sick, and how it enters applies (its
    counters are put on it next: put_entering_counters)."""
    state = game.state
    new.summoning_sick = True
    new.tapped = entry.tapped
    if entry.copy_of is not None:
        face, card = entry.copy_of
        state.effects.append(ContinuousEffect("1", state.new_timestamp(), "copy", {"face": face, "card": card},
                                              frozenset({new.id}), new.controller, duration="permanent"))
    if entry.exiled:
        state.linked.setdefault(new.id, []).extend(entry.exiled)
    if entry.attacking is not None and state.combat is not None:
        state.combat.attackers[new.id] = entry.attacking
    if entry.choices:
        new.chosen.update(entry.choices)
    if entry.is_effects:
        timestamp = state.new_timestamp()  # after the permanent's own (613.7n)
        for name, params in entry.is_effects:
            state.effects.append(ContinuousEffect(MODIFIERS[name][0], timestamp, name, params, frozenset({new.id}),
                                                  entry.effect_controller or new.controller, duration="permanent"))
    state.touch()


# --- permanents ----------------------------------------------------------------------------------
def tap(game: Game, obj: GameObject) -> None:
    """Tap a permanent; only an untapped one 'becomes tapped' (603.2e)."""
    if not obj.tapped:
        obj.tapped = True
        emit(game, "becomes_tapped", object_id=obj.id, uid=obj.uid)


def untap(game: Game, obj: GameObject) -> None:
    """A tapped permanent with a stun counter stays tapped, and loses a stun counter (rule 122.1d)."""
    if obj.tapped and obj.counters.get("stun"):
        remove_counters(game, obj, "stun", 1)
        return
    obj.tapped = False


def destroy(game: Game, obj: GameObject, *, can_regenerate: bool = True) -> GameObject | None:
    """Rule 701.8: an effect destroys a permanent: it moves to its owner's graveyard, unless it has
    indestructible (702.12b), a shield counter, which is removed instead (122.1c), or it regenerates
    (614.8; not if 'it can't be regenerated')."""
    moved = destroy_together(game, [obj], can_regenerate=can_regenerate)
    return moved[0] if moved else None


def would_be_destroyed(game: Game, obj: GameObject, can_regenerate: bool = True) -> bool:
    """Whether destroying it would put it into a graveyard: not indestructible, no shield counter, no
    regeneration shield it may use (as destroy_together judges it, without using anything)."""
    return not (characteristics(game.state, obj).has_keyword("Indestructible") or obj.counters.get("shield")
                or (can_regenerate and obj.id in game.state.regeneration))


def destroy_together(game: Game, objs: list[GameObject], *, can_regenerate: bool = True,
                     orders: "dict[int, list[Any]] | None" = None, arranged: bool = False) -> list[GameObject]:
    """Destroy several permanents in one event (one 'destroy all'): indestructible ones stay (702.12b),
    one with a shield counter loses that counter instead (122.1c), one with a regeneration shield
    regenerates instead (614.8). `orders`, `arranged`: see move_together."""
    doomed = []
    for obj in objs:
        if characteristics(game.state, obj).has_keyword("Indestructible"):
            continue
        if obj.counters.get("shield"):
            remove_counters(game, obj, "shield", 1)
            continue
        if can_regenerate and regenerates(game, obj):
            continue
        doomed.append(obj)
    return move_together(game, doomed, Zone.GRAVEYARD, orders=orders, arranged=arranged) if doomed else []


def regenerates(game: Game, obj: GameObject) -> bool:
    """Rule 614.8: 'the next time [it] would be destroyed this turn, instead remove all damage marked on it
    and its controller taps it; if it's attacking or blocking, remove it from combat.' Uses the shield."""
    state = game.state
    if obj.id not in state.regeneration:
        return False
    state.regeneration.remove(obj.id)
    obj.damage = 0
    obj.deathtouch_damage = False
    tap(game, obj)
    if state.combat:
        state.combat.attackers.pop(obj.id, None)
        state.combat.blockers.pop(obj.id, None)
    return True


def sacrifice(game: Game, obj: GameObject) -> GameObject | None:
    """Rule 701.21: indestructible doesn't stop it."""
    moved = sacrifice_together(game, [obj])
    return moved[0] if moved else None


def sacrifice_together(game: Game, objs: list[GameObject]) -> list[GameObject]:
    """Sacrifice several permanents in one event (rule 701.21a; 603.10a looks back on it)."""
    return move_together(game, objs, Zone.GRAVEYARD, sacrificed={obj.id for obj in objs})


def effect_amounts(game: Game, player: str, key: str, amount: int) -> int:
    """Rule 614.16: 'if an effect would create one or more tokens under your control', it creates twice
    that many instead (`replacement: {key: factor}` of a permanent `player` controls), whether a resolving
    spell or ability or another replacement or prevention effect creates them."""
    if amount <= 0:
        return amount
    for _, chars, ability in abilities_on_battlefield(game.state, "replacement"):
        if chars.controller == player and key in ability.data:
            amount *= int(ability.data[key])
    return amount


def add_counters_by_effect(game: Game, obj: GameObject, kind: str, amount: int, by: str | None = None) -> Procedure:
    """Counters an effect puts on a permanent (not a cost's): 'if an effect would put counters' applies
    too, whether a resolving spell or ability or a prevention effect puts them (614.16)."""
    yield from add_counters(game, obj, kind, amount, by, by_effect=True)


def counters_to_put(game: Game, obj: GameObject, kind: str, amount: int, by: str | None = None, *,
                    by_effect: bool = False) -> Procedure:
    """How many counters are put on `obj` when player `by` would put `amount` of `kind` on it, after
    the replacement effects that apply (614.1a), in the order its controller chooses (616.1). Who puts
    them is the player the effect names, or else the object's controller (122.6a)."""
    if amount <= 0:
        return amount
    if _restrictions.counters_prohibited(game, obj):
        return 0  # 'counters can't be put on ...' (614.17d for a permanent entering with them)
    by = by or characteristics(game.state, obj).controller
    return (yield from _counter_replacements.choose(game, obj, kind, amount, by, by_effect=by_effect))


def counters_to_put_unasked(game: Game, obj: GameObject, kind: str, amount: int, by: str | None = None, *,
                            by_effect: bool = False) -> int:
    """counters_to_put where no player can be asked (amid damage, a turn-based action): an engine
    limit if the order of the effects that apply changes the result."""
    if amount <= 0:
        return amount
    if _restrictions.counters_prohibited(game, obj):
        return 0
    by = by or characteristics(game.state, obj).controller
    return _counter_replacements.without_asking(game, obj, kind, amount, by, by_effect=by_effect)


def add_counters(game: Game, obj: GameObject, kind: str, amount: int, by: str | None = None, *,
                 by_effect: bool = False) -> Procedure:
    """Player `by` (default: the object's controller, 122.6a) puts counters on a permanent."""
    amount = yield from counters_to_put(game, obj, kind, amount, by, by_effect=by_effect)
    put_counters(game, obj, kind, amount)


def add_counters_unasked(game: Game, obj: GameObject, kind: str, amount: int, by: str | None = None, *,
                         by_effect: bool = False) -> None:
    """add_counters where no player can be asked (see counters_to_put_unasked)."""
    put_counters(game, obj, kind, counters_to_put_unasked(game, obj, kind, amount, by, by_effect=by_effect))


def put_counters(game: Game, obj: GameObject, kind: str, amount: int) -> None:
    """Put `amount` counters on a permanent, replacement effects already applied."""
    if amount > 0:
        before = obj.counters.get(kind, 0)
        obj.counters[kind] += amount
        obj.counter_times[kind] = game.state.new_timestamp()  # each counter of the kind (613.7c)
        game.state.touch()
        emit(game, "counters_put", object_id=obj.id, uid=obj.uid, counter=kind, before=before, after=obj.counters[kind])


def remove_counters(game: Game, obj: GameObject, kind: str, amount: int) -> int:
    removed = min(amount, obj.counters.get(kind, 0))
    if removed:
        obj.counters[kind] -= removed
        if obj.counters[kind] <= 0:
            del obj.counters[kind]
            obj.counter_times.pop(kind, None)
        game.state.touch()
    return removed


# --- players ----------------------------------------------------------------------------------
def gain_life(game: Game, player: str, amount: int) -> None:
    """One life gain event (rule 119.9): 'whenever you gain life' triggers once per event. 'Players can't
    gain life this turn' stops it; it can't undo life gained before (614.17a). An event that can't happen
    can't be replaced either (614.17c): 'if an opponent would gain life, that player loses that much
    life instead' (`replacement: {opponents_life_gain: lose}`) applies only to a gain that could happen."""
    if amount <= 0 or "players_cant_gain_life" in game.state.this_turn or _rule_effects.life_total_cant_change(game, player):
        return
    if _life_gain_replaced(game, player):
        lose_life(game, player, amount)
        return
    game.state.players[player].life += amount
    emit(game, "gains_life", player=player, amount=amount)


def _life_gain_replaced(game: Game, player: str) -> bool:
    return any(chars.controller != player and ability.data.get("opponents_life_gain") == "lose"
               for _, chars, ability in abilities_on_battlefield(game.state, "replacement"))


def pay_life(game: Game, player: str, amount: int, *, entering: frozenset[int] = frozenset()) -> None:
    """Paying life (119.4), or what replaces it: 'if you would pay life while your library has at least
    that many cards in it, exile that many cards from the top of your library instead' (`replacement:
    {pay_life_exiles_library: true}`). A card entering the battlefield from that library as the payment
    is made (`entering`) isn't among those cards, though it is still in the library (614.13c)."""
    state = game.state
    if amount > 0 and any(chars.controller == player and ability.data.get("pay_life_exiles_library")
                          for _, chars, ability in abilities_on_battlefield(state, "replacement")):
        cards = library_cards_not_entering(game, player, entering)
        if len(cards) >= amount:
            for card in cards[:amount]:
                move(game, card, Zone.EXILE)
            return
    lose_life(game, player, amount)


def library_cards_not_entering(game: Game, player: str, entering: frozenset[int]) -> list[GameObject]:
    """The cards of `player`'s library, top first, leaving out any entering the battlefield now (614.13c)."""
    state = game.state
    return [state.objects[i] for i in state.zone_ids(Zone.LIBRARY, player) if i not in entering]


def lose_life(game: Game, player: str, amount: int) -> None:
    """Losing life, by damage, an effect or a cost paid (119.3, 119.4); not while the player's life total
    can't change."""
    if amount > 0 and not _rule_effects.life_total_cant_change(game, player):
        game.state.players[player].life -= amount
        _speed_would_increase(game, player)


def _speed_would_increase(game: Game, player: str) -> None:
    """Rule 702.179d, not modelled: the active player's speed would increase when an opponent loses
    life during their turn. An engine error rather than a silently wrong game."""
    state = game.state
    active = state.players[state.active]
    if player != state.active and active.speed is not None and active.speed < 4:
        raise EngineLimit("speed increasing when an opponent loses life (702.179d) is not modelled")


def draw(game: Game, player: str, count: int = 1, *, depth: int = 0) -> list[GameObject]:
    """Draw `count` cards one at a time; each draw may be replaced (614.11), even from an empty library.
    Returns the cards `player` drew: not those a replacement effect had anyone draw instead, which an
    effect's additional action on 'that card' doesn't touch (614.11b)."""
    state = game.state
    drawn: list[GameObject] = []
    for _ in range(count):
        if state.over:
            break
        library = state.zone_ids(Zone.LIBRARY, player)
        if _draw_replaced(game, player, empty=not library) or draw_stolen(game, player, depth):
            continue
        if not library:
            state.players[player].drew_from_empty_library = True  # rule 704.5b
            continue
        if state.step == Step.DRAW and state.active == player:
            key = (state.turn, player)
            state.draw_step_draws[key] = state.draw_step_draws.get(key, 0) + 1
        drawn.append(move(game, state.objects[library[0]], Zone.HAND))
        emit(game, "draws", player=player)
    return drawn


def draw_stolen(game: Game, player: str, depth: int = 0) -> bool:
    """'If an opponent would draw a card except the first one they draw in each of their draw steps,
    instead that player skips that draw and you draw a card' (`replacement: {opponents_draws_instead:
    {except_first_in_draw_step: true}}`): the draw doesn't happen, and that permanent's controller draws."""
    state = game.state
    for _, chars, ability in abilities_on_battlefield(state, "replacement"):
        if chars.controller == player:
            continue
        spec = ability.data.get("opponents_draws_instead")
        if spec is None:
            continue
        if (spec.get("except_first_in_draw_step") and state.step == Step.DRAW and state.active == player
                and state.draw_step_draws.get((state.turn, player), 0) == 0):
            continue
        if depth > 20:
            raise EngineLimit("draws replaced back and forth between players without end")
        draw(game, chars.controller, depth=depth + 1)
        return True
    return False


def _draw_replaced(game: Game, player: str, *, empty: bool) -> bool:
    """'If you would draw a card while your library has no cards in it, you win the game instead'
    (`replacement: {draw_from_empty_library: win}`): the draw doesn't happen (614.6, 614.11)."""
    if not empty:
        return False
    for _, chars, ability in abilities_on_battlefield(game.state, "replacement"):
        if chars.controller == player and ability.data.get("draw_from_empty_library") == "win":
            win_game(game, player, f"{player} would have drawn from an empty library with {chars.name} (614.11)")
            return True
    return False


def win_game(game: Game, player: str, why: str) -> None:
    """Rule 104.2a: a player who wins makes every opponent lose; the game is over."""
    state = game.state
    for other in state.players.values():
        if other.name != player and not other.lost:
            other.lost, other.loss_reason = True, f"{other.name} lost: {why}"
    state.over = True


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


def damage(game: Game, source: DamageSource, target: Target, amount: int, *, combat: bool = False,
           self_replacements: tuple[Any, ...] = ()) -> Procedure:
    """Deal damage, first asking the affected player the order of the replacement and prevention
    effects that would modify it, when that order matters (616.1). Returns the damage dealt."""
    if amount <= 0:
        return 0  # 614.7a: a source that would deal 0 damage deals no damage: nothing to modify
    target = _prevention.redirected(game, target, combat=combat)
    order = yield from _damage.choose(game, source, target, amount, combat=combat, self_replacements=self_replacements)
    return deal_damage(game, source, target, amount, combat=combat, order=order)


def deal_damage(game: Game, source: DamageSource, target: Target, amount: int, *, combat: bool = False,
                order: tuple[Any, ...] | None = None) -> int:
    """Rule 120.3: damage to a player causes life loss, to a planeswalker removes loyalty counters,
    to a creature is marked on it. Lifelink makes the source's controller gain that much life.
    Replacement and prevention effects modify it first, in `order` (damage.py)."""
    if amount <= 0:
        return 0
    amount = _damage.modified_amount(game, source, target, amount, combat=combat, order=order)
    if amount <= 0:
        return 0  # 615: prevented damage isn't dealt, and triggers nothing (603.2g)
    state = game.state
    if target.kind == "object":
        shielded = state.objects.get(target.object_id)
        if shielded is not None and shielded.zone is Zone.BATTLEFIELD and shielded.counters.get("shield"):
            remove_counters(game, shielded, "shield", 1)  # prevented, and a shield counter removed (122.1c)
            return 0
    infect = source.chars.has_keyword("Infect")  # damage as poison and -1/-1 counters (702.90b)
    if target.kind == "player":
        if infect:
            if not _restrictions.players_cant_get_counters(game):
                state.players[target.player].poison += amount  # rule 122.1f
        else:
            lose_life(game, target.value, amount)  # type: ignore[arg-type]
        if combat:
            emit(game, "combat_damage_to_player", source_id=source.object_id, source_uid=source.uid,
                 player=target.value, amount=amount)
    else:
        obj = state.objects.get(target.object_id)
        if obj is None or obj.zone is not Zone.BATTLEFIELD:
            return 0
        chars = characteristics(state, obj)
        if "Planeswalker" in chars.types:
            remove_counters(game, obj, "loyalty", amount)
        if "Creature" in chars.types and infect:
            add_counters_unasked(game, obj, "-1/-1", amount)  # amid dealing damage: nothing can be asked
        elif "Creature" in chars.types:
            obj.damage += amount
            if source.chars.has_keyword("Deathtouch"):
                obj.deathtouch_damage = True
    if source.chars.has_keyword("Lifelink"):
        gain_life(game, source.chars.controller, amount)
    emit(game, "damage", source_id=source.object_id, target=target, amount=amount, combat=combat)
    return amount


# --- transforming --------------------------------------------------------------------------------
def can_transform_into(face) -> bool:
    """Rules 701.27d, 712.10: a permanent doesn't transform into an instant or sorcery face."""
    return "Instant" not in face.types and "Sorcery" not in face.types



MELD = "meld"  # the Oracle layout of meld cards (rule 712.4)


def can_be_transformed(card: CardDef) -> bool:
    """Rule 712.4c: unlike other double-faced cards, meld cards can't be transformed; an instruction to
    transform one is ignored."""
    return card.layout != MELD


def transform(game: Game, obj: GameObject, *, by_day_night: bool = False, own_ability_since: int | None = None) -> bool:
    """Rule 701.27: turn a double-faced permanent over. Returns whether it transformed.

    Permanents with daybound or nightbound transform only through those abilities (702.145b/e);
    an ability of the permanent itself does nothing if it transformed since the ability was put on
    the stack (701.27f): pass that ability's recorded transform count as `own_ability_since`.
    """
    if obj.zone is not Zone.BATTLEFIELD or not obj.card.double_faced or not can_be_transformed(obj.card):
        return False
    if obj.face_down:  # rule 712.15a: a face-down double-faced permanent can't transform
        return False
    chars = characteristics(game.state, obj)
    if not by_day_night and (chars.has_keyword("Daybound") or chars.has_keyword("Nightbound")):
        return False
    if own_ability_since is not None and obj.transform_count != own_ability_since:
        return False
    if not can_transform_into(obj.card.faces[1 - obj.face]):
        return False
    obj.face = 1 - obj.face
    obj.transform_count += 1
    obj.timestamp = game.state.new_timestamp()  # rule 613.7g
    game.state.touch()
    from reference_engine.transforming import apply_as_transforms

    apply_as_transforms(game, obj)  # 712.20: 'as this transforms into ...' applies while it transforms
    emit(game, "transformed", object_id=obj.id, uid=obj.uid, into=obj.face_def.name)
    return True


# The rules that build on these operations (replacement, prevention and damage modification, what can't
# happen, day and night): bound here, at the end, so that either side can be imported first; read when called.
from reference_engine import (counter_replacements as _counter_replacements, damage as _damage,  # noqa: E402
                              daynight as _daynight, linked_copy as _linked_copy, prevention as _prevention, replacement as _replacement,
                              restrictions as _restrictions, rule_effects as _rule_effects,
                              zone_replacements as _zone_replacements)
