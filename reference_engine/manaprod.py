"""Mana abilities (rule 605): what they can produce, activating them, and their triggered mana abilities.

A mana ability's `add` is one of:
  "{G}"                                      fixed mana
  {any_color: 1}                             one mana of any color
  {could_produce: {filter}}                  one mana of any type a matching permanent could produce
  {could_produce_color: {filter}}            one mana of any color a matching permanent could produce
  {chosen_color: 1}                          one mana of the color chosen as the permanent entered
Filters are relative to the ability's controller ('you', 'opponent').
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from reference_engine.filters import FilterContext, matches
from reference_engine.layers import characteristics
from reference_engine.mana import COLORS, MANA_TYPES, parse_mana
from reference_engine.model import Ability, GameObject
from reference_engine.moves import Illegal, Procedure
from reference_engine.replacement import (mana_replacement_effects, mana_replacements, order_mana_replacements,
                                          possible_types, replace_production)
from reference_engine.triggers import Event, check

if TYPE_CHECKING:
    from reference_engine.game import Game


def is_tapping_for_mana(ability: Ability) -> bool:
    """Rule 106.12: to tap a permanent for mana is to activate a mana ability with {T} in its cost."""
    return ability.kind == "mana" and ability.cost.tap


def is_triggered_mana_ability(ability: Ability) -> bool:
    """Rule 605.1b: a triggered ability that triggers from a mana ability and could add mana."""
    return ability.kind == "triggered" and bool(ability.data.get("mana_ability"))


def base_options(game: Game, obj: GameObject, ability: Ability, controller: str,
                 visiting: frozenset[int] = frozenset()) -> tuple[set[str], int] | Counter[str]:
    """Before replacement effects: a fixed Counter, or (types to choose from, amount)."""
    spec = ability.data["add"]
    if isinstance(spec, str):
        return parse_mana(spec)
    ((kind, value),) = spec.items()
    if kind == "any_color":
        return set(COLORS), int(value)
    if kind == "chosen_color":  # no color was chosen (e.g. it never entered): no mana (rule 106.5)
        chosen = obj.chosen.get("color")
        return ({chosen} if chosen else set()), int(value)
    if kind in ("could_produce", "could_produce_color"):
        types: set[str] = set()
        ctx = FilterContext(controller, obj.id)
        for other in game.state.battlefield():
            if other.id not in visiting and matches(game.state, other, value, ctx):
                types |= could_produce(game, other, visiting | {obj.id})
        if kind == "could_produce_color":
            types &= set(COLORS)
        return types, 1
    raise KeyError(f"unknown mana production {spec}")


def could_produce(game: Game, obj: GameObject, visiting: frozenset[int] = frozenset()) -> set[str]:
    """Rule 106.7: types any mana ability of `obj` would produce if it resolved now, replacement
    effects applied in any order, costs ignored. Loops (two Reflecting Pools) define nothing."""
    chars = characteristics(game.state, obj)
    found: set[str] = set()
    for ability in chars.abilities:
        if ability.kind != "mana":
            continue
        options = base_options(game, obj, ability, chars.controller, visiting | {obj.id})
        types = set(options) if isinstance(options, Counter) else options[0]
        specs = mana_replacements(game, obj, chars, chars.controller, is_tapping_for_mana(ability))
        found |= possible_types(specs, types)
    return found


def production(game: Game, obj: GameObject, ability: Ability, controller: str, chosen: str | None) -> Counter[str]:
    """What the ability adds before replacement effects; Illegal if a needed choice is missing or wrong.
    An undefined type produces no mana (rule 106.5)."""
    options = base_options(game, obj, ability, controller)
    if isinstance(options, Counter):
        return options
    types, amount = options
    if not types:
        return Counter()
    if chosen is None:
        if len(types) == 1:
            return Counter({next(iter(types)): amount})
        raise Illegal(f"choose a type of mana: {', '.join(t for t in MANA_TYPES if t in types)}")
    if chosen not in types:
        allowed = ", ".join(t for t in MANA_TYPES if t in types)
        raise Illegal(f"{{{chosen}}} is not a type this ability can produce now (it can produce: {allowed})")
    return Counter({chosen: amount})


def resolve_mana_ability(game: Game, obj: GameObject, ability: Ability, controller: str, produced: Counter[str],
                         snap: Any) -> Procedure:
    """The mana ability resolves (605.3b): replacement effects modify what it produces (106.12b), in
    the order its controller chooses when that matters (616.1), the mana is added, then triggered mana
    abilities resolve at once (605.4a).
    `snap` is the source as it was when activated (it may have been sacrificed to pay the cost)."""
    tapped_for_mana = is_tapping_for_mana(ability)
    effects = mana_replacement_effects(game, obj, snap, controller, tapped_for_mana)
    specs = yield from order_mana_replacements(game, controller, effects, produced)
    produced = replace_production(specs, produced)
    game.state.players[controller].pool.update(produced)
    if "Snow" in snap.supertypes:  # 107.4h: mana from a snow source can pay {S}
        game.state.players[controller].snow.update(produced)
    if "spend_only" in ability.data:  # 106.6a: the restriction applies to all the mana produced
        game.state.players[controller].restricted.extend(
            (mana, ability.data["spend_only"]) for mana in sorted(produced.elements()))
    event = Event("mana_ability_resolved", {
        "source_id": obj.id, "source_object": obj, "player": controller, "tapped_for_mana": tapped_for_mana,
        "produced": +produced, "source_snapshot": snap})
    for trigger in check(game, event):
        if is_triggered_mana_ability(trigger.ability):
            _resolve_triggered_mana_ability(game, trigger)
        else:
            game.state.pending_triggers.append(trigger)


def _resolve_triggered_mana_ability(game: Game, trigger: Any) -> None:
    """'That player adds one mana of any type that land produced' / 'add an additional {C}'."""
    spec = trigger.ability.data["effect_mana"]
    player = trigger.event["player"] if spec.get("to") == "that_player" else trigger.controller
    if "add" in spec:
        game.state.players[player].pool.update(parse_mana(spec["add"]))
    elif spec.get("type_produced"):
        produced = trigger.event["produced"]
        if len(produced) > 1:
            from reference_engine.limits import EngineLimit

            raise EngineLimit("a land that produced several types of mana at once: the choice of type "
                              "for the additional mana is not modelled")
        game.state.players[player].pool.update({next(iter(produced)): 1})
