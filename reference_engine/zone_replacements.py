"""Replacement effects on where an object goes when it changes zones (614.1a), and the choice among
several of them (616.1).

The effects that modify an object going to a graveyard:
- a finality counter on a permanent: exiled instead of going to a graveyard from the battlefield (122.1h);
- its own `replacement: {graveyard_to_exile: true}`: 'if this would be put into a graveyard from
  anywhere, exile it instead', judged as it is before it moves;
- its own or another permanent's `replacement: {graveyard_instead: {...}}`:
  - `self: true`: only this object ('if Progenitus would be put into a graveyard from anywhere');
    otherwise an ability of a permanent on the battlefield, about other objects;
  - `owner: opponent | you | enchanted_player`: only into the graveyard of an opponent of that
    permanent's controller, of its controller, or of the player the Aura enchants: 'if a card would be
    put into an opponent's graveyard' (Leyline of the Void), '... into enchanted player's graveyard'
    (Wheel of Sun and Moon);
  - `cards: true`: only a card, not a token or a copy of a spell ('if a card would be put ...');
  - `instead`: `exile`, `library_bottom` ('put on the bottom of that player's library') or
    `shuffle_into_library` ('reveal it and shuffle it into its owner's library'), always its owner's;
- another permanent's 'if a creature an opponent controls would die, exile it instead' (die_replacements.py).

When two or more apply, the affected object's controller (its owner if it has none) chooses one to
apply, then another among those still applicable, and so on (616.1, 616.1e-f): once one has sent it
elsewhere than a graveyard, the others no longer apply. The choice is asked where a procedure moves
the object (`choose_orders`: the destroy effect, state-based actions, a resolved instant or sorcery
going to its owner's graveyard) and handed to `ops.move_together`; elsewhere (sacrifice, discard, mill,
a countered spell), an order that would change the result is an EngineLimit.
"""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING, Any, Sequence

from engine_kit.values import value_class
from reference_engine.filters import FilterContext, matches
from reference_engine.layers import abilities_on_battlefield, characteristics
from reference_engine.limits import EngineLimit
from reference_engine.model import GameObject, Zone
from reference_engine.moves import Procedure
from reference_engine.replacement import Applicable, choose_order

if TYPE_CHECKING:
    from reference_engine.game import Game

FINALITY: dict[str, Any] = {"instead": "exile", "from_battlefield": True}  # 122.1h
OWN_EXILE: dict[str, Any] = {"instead": "exile"}  # {graveyard_to_exile: true}


@value_class
class Route:
    """Where a moving object ends up: a zone, and for a library whether at the bottom (`replaced`: an
    effect changed where it goes, so the mover's own placement no longer counts)."""

    zone: Zone
    replaced: bool = False


def applicable(game: Game, obj: GameObject, to: Zone) -> list[Applicable]:
    """The replacement effects that would modify `obj` being put into `to`, in timestamp order."""
    if to is not Zone.GRAVEYARD:
        return []
    state = game.state
    found: list[Applicable] = []
    chars = characteristics(state, obj)
    if obj.zone is Zone.BATTLEFIELD and obj.counters.get("finality"):
        found.append(Applicable(obj.uid, chars.name, obj.timestamp, FINALITY))
    for ability in chars.abilities:
        if ability.kind != "replacement":
            continue
        if ability.data.get("graveyard_to_exile"):
            found.append(Applicable(obj.uid, chars.name, obj.timestamp, OWN_EXILE))
        spec = ability.data.get("graveyard_instead")
        if spec and spec.get("self"):
            found.append(Applicable(obj.uid, chars.name, obj.timestamp, spec))
    for source, source_chars, ability in abilities_on_battlefield(state, "replacement"):
        spec = ability.data.get("graveyard_instead")
        if spec and not spec.get("self") and _about(game, spec, obj, source_chars.controller, source):
            found.append(Applicable(source.uid, source_chars.name, source.timestamp, spec))
    if obj.zone is Zone.BATTLEFIELD and "Creature" in chars.types:
        from reference_engine.die_replacements import dies_replacements

        for source, controller, spec in dies_replacements(game, obj):
            found.append(Applicable(source.uid, characteristics(state, source).name, source.timestamp,
                                    {"instead": "exile", "from_battlefield": True, "dies": spec,
                                     "source_id": source.id, "controller": controller}))
    return sorted(found, key=lambda e: e.timestamp)


def _about(game: Game, spec: dict[str, Any], obj: GameObject, controller: str, source: GameObject) -> bool:
    """Whether another permanent's effect is about `obj` going to its owner's graveyard."""
    if spec.get("cards") and (obj.is_token or obj.spell_copy):
        return False  # 'a card': not a token (111.1) nor a copy of a spell (707.10)
    owner = spec.get("owner")
    if owner == "opponent" and obj.owner == controller:
        return False
    if owner == "you" and obj.owner != controller:
        return False
    if owner == "enchanted_player" and obj.owner != source.attached_player:
        return False
    return "filter" not in spec or matches(game.state, obj, spec["filter"], FilterContext(controller, source.id, source.uid))


def _applies(spec: dict[str, Any], origin: Zone, route: Route) -> bool:
    """616.1f: an effect applies only while the object is still headed for a graveyard (from the
    battlefield, for those about dying)."""
    return route.zone is Zone.GRAVEYARD and (not spec.get("from_battlefield") or origin is Zone.BATTLEFIELD)


INSTEAD = {"exile": Zone.EXILE, "library_bottom": Zone.LIBRARY, "shuffle_into_library": Zone.LIBRARY}


def outcome(effects: Sequence[Applicable], origin: Zone, to: Zone) -> tuple[Route, tuple[Applicable, ...]]:
    """Where the object goes once `effects` are applied in this order, each while it still applies, and
    the effects that were applied."""
    route, applied = Route(to), []
    for effect in effects:
        if _applies(effect.spec, origin, route):
            route = Route(INSTEAD[effect.spec["instead"]], replaced=True)
            applied.append(effect)
    return route, tuple(applied)


def _key(effect: Applicable) -> tuple[int | None, int]:
    """The same effect, found again: its source and its ability."""
    return effect.source_uid, id(effect.spec.get("dies", effect.spec))


def _result(effects: Sequence[Applicable], origin: Zone, to: Zone) -> tuple[Zone, tuple[tuple[int | None, int], ...]]:
    """What an order changes: the zone, and which effects that do more than move it were applied."""
    route, applied = outcome(effects, origin, to)
    return route.zone, tuple(_key(e) for e in applied if "dies" in e.spec)


def affected_player(game: Game, obj: GameObject) -> str:
    """616.1: the affected object's controller, or its owner if it has no controller (a card in a hand,
    library or graveyard, 108.4a)."""
    if obj.zone in (Zone.BATTLEFIELD, Zone.STACK):
        return characteristics(game.state, obj).controller
    return obj.owner


def order_matters(effects: Sequence[Applicable], origin: Zone, to: Zone) -> bool:
    return len(effects) > 1 and len({_result(list(p), origin, to) for p in permutations(effects)}) > 1


def choose_orders(game: Game, objs: Sequence[GameObject], to: Zone) -> Procedure:
    """Ask, for each object about to be put into `to` whose destination depends on the order of the
    effects that apply, its affected player to choose that order (616.1); players choose in APNAP
    order (101.4). Returns {object id: order} for `ops.move_together(orders=...)`."""
    state = game.state
    orders: dict[int, list[Applicable]] = {}
    asked = [(obj, affected_player(game, obj)) for obj in objs]
    rank = {player: i for i, player in enumerate(state.apnap())}
    for obj, player in sorted(asked, key=lambda pair: rank.get(pair[1], 0)):
        effects = applicable(game, obj, to)
        if not order_matters(effects, obj.zone, to):
            continue
        name = characteristics(state, obj).name

        def result(order: list[Applicable], origin: Zone = obj.zone) -> Any:
            return _result(order, origin, to)
        orders[obj.id] = yield from choose_order(game, player, effects, result, f"{name} being put into a graveyard")
    return orders


def destination(game: Game, obj: GameObject, to: Zone, order: Sequence[Applicable] | None = None) -> Route:
    """Apply the replacement effects on `obj` being put into `to`: in the order chosen (the effects of
    that order still applicable first, matched by source and ability), else in timestamp order when
    the order can't change the result. Effects that create an ability as they apply do so now."""
    effects = applicable(game, obj, to)
    if order is not None:
        now = {_key(e): e for e in effects}
        chosen = [now[_key(e)] for e in order if _key(e) in now]
        picked = {_key(e) for e in chosen}
        effects = chosen + [e for e in effects if _key(e) not in picked]
    elif order_matters(effects, obj.zone, to):
        raise EngineLimit(f"several replacement effects apply to {characteristics(game.state, obj).name} being put "
                          "into a graveyard and their order (616.1) matters, but it moves where no choice can be asked")
    route, applied = outcome(effects, obj.zone, to)
    for effect in applied:
        if "dies" in effect.spec and effect.spec["dies"].get("when_you_do"):
            from reference_engine.die_replacements import create_delayed_trigger

            source = game.state.objects.get(effect.spec["source_id"])
            if source is not None:
                create_delayed_trigger(game, source, effect.spec["controller"], effect.spec["dies"]["when_you_do"])
    return route
