"""Playing lands (305), casting spells (601), activating abilities (602, 605, 606), paying costs.

Each function checks what the rules require and raises Illegal if the move isn't allowed; the
priority loop restores the state from before the move in that case (rule 733 'handling illegal
actions'), so checks may happen after earlier steps changed the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from collections import Counter

from reference_engine import next_spell, ops, restrictions
from reference_engine.costs import Cost
from reference_engine.filters import FilterContext, matches
from reference_engine.layers import MODAL_DFC, Characteristics, abilities_on_battlefield, characteristics, printed
from reference_engine.library_casting import library_permission
from reference_engine.limits import EngineLimit
from reference_engine.mana import NO_MANA, ManaCost, format_pool, pay, positive
from reference_engine.manaprod import production, resolve_mana_ability
from reference_engine.model import Ability, GameObject, StackItem, Step, Zone
from reference_engine.moves import Activate, Cast, Decision, Illegal, ManaActivation, PlayLand, Procedure
from reference_engine.modal_spells import check_modes, with_modes
from reference_engine.targets import check_targets

if TYPE_CHECKING:
    from reference_engine.game import Game

PERMANENT_TYPES = frozenset({"Artifact", "Creature", "Enchantment", "Land", "Planeswalker", "Battle"})
#: What a keyword ability with a cost does when activated (rule 702): level up puts a level counter,
#: equip attaches the Equipment.
KEYWORD_ACTIVATIONS = {
    "Level up": {"effect": [{"add_counters": {"what": "self", "kind": "level", "amount": 1}}], "timing": "sorcery"},
    # Equip: attach to target creature you control; only as a sorcery (rule 702.6a).
    "Equip": {"targets": [{"what": "creature", "filter": {"controller": "you"}}],
              "effect": [{"attach": {"what": "self", "to": "target.0"}}], "timing": "sorcery"},
}


def describe(game: Game, obj: GameObject) -> str:
    return characteristics(game.state, obj).name


def _land_to_play(game: Game, move: PlayLand) -> GameObject:
    """A land card from the player's hand, or the top card of their library while they control a
    permanent with `rule: {play_lands_from_top_of_library: true}` ('you may play lands from the top of
    your library')."""
    state = game.state
    obj = state.objects.get(move.object_id)
    library = state.zone_ids(Zone.LIBRARY, move.player)
    if obj is not None and obj.zone is Zone.LIBRARY and library and library[0] == obj.id and any(
            controller == move.player and bool(v)
            for _, controller, v in restrictions.rule_abilities(state, "play_lands_from_top_of_library")):
        return obj
    return _own_object(game, move.player, move.object_id, Zone.HAND, "card")


def _own_object(game: Game, player: str, object_id: int, zone: Zone, what: str) -> GameObject:
    obj = game.state.objects.get(object_id)
    if obj is None or obj.zone is not zone:
        raise Illegal(f"that {what} is not in {'a ' if zone is Zone.HAND else 'the '}{zone.value}")
    controller = obj.owner if zone is not Zone.BATTLEFIELD else characteristics(game.state, obj).controller
    if controller != player:
        raise Illegal(f"{describe(game, obj)} is not {player}'s to use")
    return obj


def instant_speed(chars: Characteristics) -> bool:
    """Rules 304.1 / 702.8a: instants, and spells with flash, can be cast any time you have priority."""
    return "Instant" in chars.types or any(a.kind == "keyword" and a.keyword == "Flash"
                                           and not {"if_you_control", "if_x_at_most"} & set(a.data)
                                           and a.extra_cost is None for a in chars.abilities)


def conditional_flash(game: Game, player: str, chars: Characteristics) -> bool:
    """'This spell has flash as long as you control a Merfolk' (601.3d): a Flash keyword with `if_you_control`,
    which lets its controller begin to cast it as though it had flash while the condition holds."""
    return any(a.kind == "keyword" and a.keyword == "Flash" and "if_you_control" in a.data
               and _controls(game, player, a.data["if_you_control"]) for a in chars.abilities)


def flash_by_proposal_choices(chars: Characteristics, x: int | None) -> bool:
    """'You may cast this spell as though it had flash if X is 3 or less' (a Flash keyword with
    `if_x_at_most`): rule 601.3b lets the caster consider the choices of its proposal (the X they
    announce) in deciding whether they may begin to cast it as though it had flash."""
    return x is not None and any(a.kind == "keyword" and a.keyword == "Flash" and "if_x_at_most" in a.data
                                 and x <= a.data["if_x_at_most"] for a in chars.abilities)


def flash_for_a_cost(chars: Characteristics) -> ManaCost | None:
    """'You may cast this spell as though it had flash if you pay {2} more to cast it' (601.3c): the
    extra cost, from a Flash keyword with `extra_cost`."""
    return next((a.extra_cost for a in chars.abilities
                 if a.kind == "keyword" and a.keyword == "Flash" and a.extra_cost is not None), None)


def _controls(game: Game, player: str, filt) -> bool:
    state = game.state
    return any(characteristics(state, o).controller == player and matches(state, o, filt, FilterContext(player))
               for o in state.battlefield())


def sorcery_timing(game: Game, player: str) -> str | None:
    """Why `player` can't act at sorcery speed now (rule 307.1), or None if they can."""
    state = game.state
    if player != state.active:
        return "only during your own turn"
    if state.step not in (Step.PRECOMBAT_MAIN, Step.POSTCOMBAT_MAIN):
        return "only during a main phase"
    if state.stack:
        return "only while the stack is empty"
    return None


# --- lands ----------------------------------------------------------------------------------
def chosen_face(game: Game, obj: GameObject, face: int, verb: str) -> Characteristics:
    """The characteristics of the face a player casts or plays a card with. Only a modal double-faced
    card lets its player choose its back face (712.11b, 712.12); only that face is evaluated (712.11c).
    A nonmodal double-faced card is cast front face up unless an effect allows it transformed (712.11)."""
    if face == 0:
        return characteristics(game.state, obj)
    if obj.card.layout != MODAL_DFC:
        raise Illegal(f"{describe(game, obj)} is not a modal double-faced card: it is {verb} with its front "
                      f"face up (rule 712.11)")
    back = obj.card.faces[1]
    return printed(back, obj.card, obj.owner, mana_value_face=back)


def play_land(game: Game, move: PlayLand) -> Procedure:
    obj = _land_to_play(game, move)
    if "Land" not in chosen_face(game, obj, move.face, "played").types:
        raise Illegal(f"{describe(game, obj)}{' (back face)' if move.face else ''} is not a land: a modal "
                      f"double-faced card is played as a land with a face that is a land (rule 712.12)"
                      if obj.card.layout == MODAL_DFC else f"{describe(game, obj)} is not a land")
    reason = sorcery_timing(game, move.player)
    if reason:
        raise Illegal(f"a land can be played {reason} (rule 505.6b)")
    prohibited = restrictions.land_play_prohibition(game, move.player)
    if prohibited:
        raise Illegal(prohibited)
    player = game.state.players[move.player]
    if player.lands_played >= 1:
        raise Illegal("a land was already played this turn (rule 305.2)")
    player.lands_played += 1
    yield from ops.enter_battlefield(game, obj, move.player, transformed=move.face == 1)


# --- costs ------------------------------------------------------------------------------------
def check_tap_untap(game: Game, obj: GameObject, chars: Characteristics, cost: Cost) -> None:
    """{T} and {Q} (rules 107.5, 107.6) and summoning sickness (302.6)."""
    name = chars.name
    if cost.tap and obj.tapped:
        raise Illegal(f"{name} is already tapped, so {{T}} can't be paid")
    if cost.untap and not obj.tapped:
        raise Illegal(f"{name} is already untapped, so {{Q}} can't be paid")
    if cost.remove_counter and not obj.counters.get(cost.remove_counter):
        raise Illegal(f"{name} has no {cost.remove_counter} counter to remove")
    if (cost.tap or cost.untap) and "Creature" in chars.types and obj.summoning_sick \
            and not chars.has_keyword("Haste"):
        raise Illegal(f"{name} has not been under its controller's control continuously since their "
                      f"most recent turn began (rule 302.6)")


def pay_tap_untap(game: Game, obj: GameObject, cost: Cost) -> None:
    """Pay {T} and {Q} (601.2h). Mana abilities were activated before (601.2g), so the permanent must
    still be untapped (or tapped) now: if one of its own mana abilities tapped it, {T} can't be paid,
    and a cost that can't be paid fully isn't paid at all (118.3)."""
    if not (cost.tap or cost.untap):
        return
    if obj.zone is not Zone.BATTLEFIELD or obj.id not in game.state.objects:
        raise Illegal("the permanent left the battlefield while paying, so {T} or {Q} can't be paid")
    check_tap_untap(game, obj, characteristics(game.state, obj), cost)
    if cost.tap:
        ops.tap(game, obj)
    if cost.untap:
        ops.untap(game, obj)


def activate_mana(game: Game, player: str, activation: ManaActivation) -> Procedure:
    """Activate a mana ability; it resolves at once without using the stack (605.3b)."""
    obj = _own_object(game, player, activation.object_id, Zone.BATTLEFIELD, "permanent")
    chars = characteristics(game.state, obj)
    ability = _activated(chars, activation.ability_index)
    check_not_prohibited(game, obj, ability.kind == "mana")
    if ability.kind != "mana":
        raise Illegal(f"ability {activation.ability_index} of {chars.name} is not a mana ability")
    yield from _mana_ability(game, player, obj, chars, ability, activation.mana)


def _mana_ability(game: Game, player: str, obj: GameObject, chars: Characteristics, ability: Ability,
                  chosen: str | None) -> Procedure:
    cost: Cost = ability.cost
    check_tap_untap(game, obj, chars, cost)
    check_timing_instruction(game, player, ability.data)
    if ability.data.get("spend_only_on"):
        raise EngineLimit(f"mana that can be spent only on {ability.data['spend_only_on']} is not modelled")
    produced = production(game, obj, ability, player, chosen)
    snap = ops.snapshot(game, obj)
    if cost.mana:
        yield from pay_mana(game, player, cost.mana, 0, ())
    if cost.tap:
        ops.tap(game, obj)
    if cost.untap:
        ops.untap(game, obj)
    if cost.remove_counter:
        ops.remove_counters(game, obj, cost.remove_counter, 1)
    if cost.discard_hand:
        discard_hand(game, player)
    if cost.sacrifice_self:
        ops.sacrifice(game, obj)
    yield from resolve_mana_ability(game, obj, ability, player, produced, snap)


def discard_hand(game: Game, player: str) -> None:
    """'Discard your hand' as a cost: every card in that player's hand goes to the graveyard."""
    state = game.state
    for object_id in list(state.zone_ids(Zone.HAND, player)):
        ops.move(game, state.objects[object_id], Zone.GRAVEYARD)


def check_timing_instruction(game: Game, player: str, data) -> None:
    """Activation instructions 'Activate only as a sorcery' / 'as an instant' (602.5d-e): the timing
    rules for casting a sorcery, or an instant (any time its controller could cast one)."""
    if data.get("timing") == "sorcery":
        reason = sorcery_timing(game, player)
        if reason:
            raise Illegal(f"this ability can be activated {reason} (rule 602.5d)")


def pay_mana(game: Game, player: str, cost, x: int, payments: tuple[ManaActivation, ...], *,
             spell: GameObject | None = None, mana_cost: bool = False) -> Procedure:
    """Rule 601.2g-h: activate the listed mana abilities, then pay the whole cost from the pool.
    Mana that can be spent only on certain spells (106.6) pays only for a `spell` it allows; of a
    type both restricted and unrestricted mana could pay, the restricted mana is spent first.
    A generator: a mana ability may ask the order of replacement effects on its mana (616.1)."""
    for activation in payments:
        yield from activate_mana(game, player, activation)
    owner = game.state.players[player]
    pool = owner.pool
    usable = [entry for entry in owner.restricted if spell is not None and spendable_on(game, entry, spell)]
    held_back = Counter(entry[0] for entry in owner.restricted if entry not in usable) if owner.restricted else NO_MANA
    cost, snow_spent = pay_snow(owner, cost.with_x(x), held_back)
    # (Counter's arithmetic is Python code: most payments have no mana held back and no snow mana spent)
    available = pool - held_back - snow_spent if held_back or snow_spent else positive(pool)
    left = pay(available, cost)
    if left is None and mana_cost and spend_as_any_type(game, player):
        left = pay(available, as_any_type(cost))
        if left is not None:
            use_any_type_permission(game, player)
    if left is None:
        raise Illegal(f"the cost {cost.with_x(x)} can't be paid with the mana available ({format_pool(pool) or 'none'}"
                      + (f", of which {format_pool(held_back)} can't be spent on this)" if held_back else ")"))
    if usable:
        spent = (pool - held_back) - left
        for entry in list(usable):
            if spent[entry[0]] > 0:
                spent[entry[0]] -= 1
                owner.restricted.remove(entry)
    pool.clear()
    pool.update(left + held_back if held_back else left)
    # What is left of the snow mana: {S} took its share; other symbols spent non-snow mana first.
    if owner.snow:
        owner.snow = Counter({m: min(n, pool[m]) for m, n in (owner.snow - snow_spent).items() if pool[m] > 0})


ANY_TYPE = "spend_as_any_type:"


def spend_as_any_type(game: Game, player: str) -> bool:
    """'For one spell this turn, you may spend mana as though it were mana of any type to pay that spell's
    mana cost' (North Star; 118.14): a permission `player` has this turn and hasn't used yet."""
    return any(key.startswith(ANY_TYPE + player + ":") for key in game.state.this_turn)


def use_any_type_permission(game: Game, player: str) -> None:
    """The permission is used by the spell whose mana cost needed it; one that could be paid anyway leaves it
    for a later spell (using it then would gain the player nothing and lose it)."""
    key = min(k for k in game.state.this_turn if k.startswith(ANY_TYPE + player + ":"))
    game.state.this_turn.discard(key)


def as_any_type(cost: ManaCost) -> ManaCost:
    """The cost when any mana may be spent as though it were mana of any type: each colored, colorless or
    hybrid symbol is paid by one mana of any type ({2/W} by one spent as white), generic mana as before."""
    generic = sum(int(s) if s.isdigit() else 1 for s in cost.symbols if s != "S")
    return ManaCost(tuple(s for s in cost.symbols if s == "S") + ((str(generic),) if generic else ()))


def pay_snow(owner, cost, held_back: Counter) -> tuple:
    """Rule 107.4h: each {S} is paid with one mana produced by a snow source, colorless first, then
    colors in WUBRG order. Returns the rest of the cost and the snow mana spent; Illegal if short."""
    count = cost.symbols.count("S")
    if not count:
        return cost, NO_MANA
    available = owner.snow - held_back
    spent: Counter = Counter()
    for mana in ("C", "W", "U", "B", "R", "G"):
        take = min(available[mana], count)
        spent[mana] += take
        count -= take
    if count:
        raise Illegal("{S} can be paid only with mana from a snow source (rule 107.4h), and there is too little")
    return ManaCost(tuple(s for s in cost.symbols if s != "S")), +spent


def spendable_on(game: Game, entry, spell: GameObject) -> bool:
    """Whether restricted mana (type, filter on the spell) may be spent to cast `spell` (106.6)."""
    return matches(game.state, spell, entry[1], FilterContext(spell.controller))


def _activated(chars: Characteristics, index: int) -> Ability:
    abilities = chars.activated_abilities()
    if not 0 <= index < len(abilities):
        if not abilities:
            raise Illegal(f"{chars.name} has no activated ability now (printed or granted by an effect), "
                          f"so there is no ability {index}")
        printed = sum(1 for a in abilities if a in chars.copiable.abilities or a.data.get("intrinsic"))
        raise Illegal(f"{chars.name} has no activated ability {index}: it has {len(abilities)} now, "
                      f"{printed} printed then {len(abilities) - printed} granted, counted from 0")
    return abilities[index]


# --- spells --------------------------------------------------------------------------------------
def spell_ability(chars: Characteristics) -> Ability | None:
    for ability in chars.abilities:
        if ability.kind == "spell":
            return ability
    return None


def spell_targets(chars: Characteristics, modes: tuple[int, ...] = ()) -> list:
    """The targets a spell requires: its spell ability's (those of the modes chosen, if it is modal:
    700.2c), or an Aura spell's, named by its enchant keyword (rule 303.4a)."""
    ability = spell_ability(chars)
    if ability is not None:
        return with_modes(ability.data, modes).get("targets", [])
    enchant = next((a for a in chars.abilities if a.kind == "keyword" and a.keyword == "Enchant"), None)
    if enchant is not None and chars.has_subtype("Aura"):
        return [{"what": enchant.data["what"]}]
    return []


def cast_permission(game: Game, move: Cast) -> tuple[GameObject, int, ManaCost | None]:
    """The card, the face it is cast with and the cost to pay instead of its mana cost (None: its mana
    cost). From a hand: front face up (712.11). From a graveyard, only with an ability that allows it:
    disturb casts it transformed, back face up, for its disturb cost (702.146a, 712.11a)."""
    obj = game.state.objects.get(move.object_id)
    if obj is not None and obj.zone is Zone.GRAVEYARD and obj.owner == move.player:
        chars = characteristics(game.state, obj)
        disturb = next((a for a in permission_abilities(game, obj) if a.kind == "keyword" and a.keyword == "Disturb"), None)
        if disturb is None or not obj.card.double_faced:
            raise Illegal(f"{chars.name} can't be cast from a graveyard: nothing allows it")
        return obj, 1, disturb.cast_cost
    if obj is not None and obj.zone is Zone.LIBRARY:
        if library_permission(game, move.player, obj) is None:
            raise Illegal(f"{characteristics(game.state, obj).name} can't be cast from a library: nothing allows "
                          "it, or it is not the top card of its caster's library")
        return obj, 0, None
    return _own_object(game, move.player, move.object_id, Zone.HAND, "card"), 0, None


def permission_abilities(game: Game, obj: GameObject) -> list:
    """Rule 712.11d: an ability of a double-faced card's front face that allows it to be cast transformed
    is considered in deciding whether it can be cast, though the spell is its back face (712.11c): the
    card's abilities where it is, front face up."""
    return list(characteristics(game.state, obj).abilities)


def cast(game: Game, move: Cast) -> Procedure:
    """Cast a spell paying its mana cost (601.2a-i)."""
    on_stack, cost = propose(game, move)
    yield from pay_and_become_cast(game, move, on_stack, cost)


def propose(game: Game, move: Cast):
    """601.2a-e: the spell moves to the stack with its choices announced; the cost still to pay is its
    mana cost with X chosen. Returns (the spell, that cost)."""
    state = game.state
    obj, face, cast_cost = cast_permission(game, move)
    obj.face = face  # only the face that will be up on the stack is evaluated (712.11c)
    # A modal double-faced card's player chooses the face it is cast with (712.11b).
    chars = chosen_face(game, obj, move.face, "cast") if move.face else characteristics(state, obj)
    face = move.face or face
    if "Land" in chars.types:
        raise Illegal(f"{chars.name} is a land: lands are played, not cast")
    flash_cost = None
    if not (instant_speed(chars) or conditional_flash(game, move.player, chars)
            or flash_by_proposal_choices(chars, move.x)):
        reason = sorcery_timing(game, move.player)
        flash_cost = flash_for_a_cost(chars) if reason else None
        if reason and flash_cost is None:
            raise Illegal(f"{chars.name} can be cast {reason} (rule 307.1)")
    cost = cast_cost or chars.mana_cost
    if cost is None and not alternatives(game, move.player, chars):
        raise Illegal(f"{chars.name} has no mana cost, so it can't be cast (rules 202.1b, 118.6)")
    if cost is not None and cost.x_count and move.x is None:
        raise Illegal(f"choose a value for X to cast {chars.name}")
    x = move.x or 0
    ability = spell_ability(chars)
    check_modes(game, chars.name, ability.data if ability else None, move.modes, move.player)  # 601.2b
    specs = spell_targets(chars, move.modes)
    targets_wait = targets_wait_for_costs(game, specs, move)
    permission = library_permission(game, move.player, obj) if obj.zone is Zone.LIBRARY else None
    # 601.2a: the card moves to the stack; then costs are paid (601.2g-h).
    on_stack = state.move(obj, Zone.STACK, face=face)
    on_stack.controller = move.player
    on_stack.x = x if cost is not None and cost.x_count else None
    on_stack.targets = move.targets
    on_stack.modes = move.modes
    state.stack.append(StackItem(id=state.new_id(), controller=move.player, object_id=on_stack.id,
                                 targets=move.targets, x=on_stack.x, source_name=chars.name,
                                 targets_wait_for_costs=targets_wait,
                                 division=announced_division(chars, move.targets)))
    if permission is not None:  # what casting it 'this way' gives it (611.3d)
        state.stack[-1].permission_on_enter = tuple(permission[1].get("on_enter", ()))
        state.stack[-1].permission_source_id = permission[0].id
    next_spell.modify(game, move.player, on_stack)  # effects on 'the next spell you cast' begin (611.2f)
    # 601.6: a spell that may no longer be cast once proposed (its X chosen) can't be cast (601.3, 601.3a).
    prohibited = restrictions.cast_prohibition(game, move.player, on_stack)
    if prohibited:
        raise Illegal(prohibited)
    to_pay = cost.with_x(x) if cost is not None else None
    if flash_cost is not None and to_pay is not None:  # 601.3c: cast as though it had flash, paying more
        to_pay = ManaCost(to_pay.symbols + flash_cost.symbols)
    return on_stack, to_pay


def announced_division(chars: Characteristics, targets) -> tuple[int, ...]:
    """Rule 601.2d: a spell that divides damage among its targets ('2 damage divided as you choose among one
    or two targets', a spell ability with `divide: N`) has the division announced as it is cast, each
    target receiving at least one. The format has no way to announce a division, so only a division the
    rules force is played: one target gets it all, or each of N targets gets one."""
    ability = spell_ability(chars)
    total = ability.data.get("divide") if ability is not None else None
    if total is None or not targets:
        return ()
    if len(targets) > total:
        raise Illegal(f"{total} divided among {len(targets)} targets: each target must get at least one (rule 601.2d)")
    if len(targets) == 1:
        return (total,)
    if len(targets) == total:
        return (1,) * total
    raise EngineLimit(f"dividing {total} among {len(targets)} targets needs a division the case can't announce")


def targets_wait_for_costs(game: Game, specs, move: Cast) -> bool:
    """Rule 601.2c with 601.5: targets that are illegal as they are announced may still be chosen if
    choices made later in casting (the objects that pay its costs: tapping a creature for mana) make
    them legal. Returns whether their legality must be checked again once the costs are paid."""
    try:
        check_targets(game, specs, move.targets, move.player, None, game.describe_target)
    except Illegal:
        return True
    return False


def pay_and_become_cast(game: Game, move: Cast, on_stack: GameObject, cost) -> Procedure:
    """601.2f-i: the total cost (reductions applied) is paid, then the spell becomes cast."""
    state = game.state
    if cost is None:
        raise Illegal(f"{characteristics(state, on_stack).name} has no mana cost: an unpayable cost (rule 118.6)")
    total = restrictions.total_cost(game, move.player, on_stack, with_cost_increases(game, move.player, cost))
    yield from pay_mana(game, move.player, total, 0, move.payments, spell=on_stack, mana_cost=True)
    item = next(i for i in state.stack if i.object_id == on_stack.id)
    if item.targets_wait_for_costs:  # 601.5: the objects that paid its costs may have made them legal
        check_targets(game, spell_targets(characteristics(state, on_stack), on_stack.modes), item.targets, move.player,
                      on_stack.id,
                      game.describe_target)
        item.targets_wait_for_costs = False
    state.spells_cast[move.player] += 1  # 601.2i: it becomes cast
    ops.emit(game, "cast", player=move.player, object_id=on_stack.id)


def alternative_cost(chars: Characteristics):
    """'You may pay [cost] rather than pay this spell's mana cost' (118.9): a `rule` ability of the card."""
    return next((a.alternative_cost for a in chars.abilities
                 if a.kind == "rule" and a.alternative_cost is not None), None)


#: The alternative cost of 'cast ... without paying its mana cost': nothing to pay (118.9).
WITHOUT_PAYING = ManaCost(())


def alternatives(game: Game, player: str, chars: Characteristics) -> list[ManaCost]:
    """The alternative costs `player` may pay for this spell from their hand: its own, and 'without paying
    its mana cost' from a permanent such as Omniscience (`rule: {cast_without_paying: {player: you}}`)."""
    found = [cost for cost in (alternative_cost(chars),) if cost is not None]
    if any(spec.get("player", "you") == "each" or controller == player
           for _, controller, spec in restrictions.rule_abilities(game.state, "cast_without_paying")):
        found.append(WITHOUT_PAYING)
    return found


def phyrexian_symbols(cost: ManaCost | None) -> list[str]:
    return [s for s in cost.symbols if s.endswith("/P")] if cost is not None else []


def with_cost_increases(game: Game, player: str, cost: ManaCost) -> ManaCost:
    """Rule 601.2f: the total cost is the mana cost plus cost increases, e.g. 'each spell a player casts
    costs {1} more to cast for each other spell that player has cast this turn' (a `rule` ability
    {spell_cost_increase_per_other_spell: 1})."""
    state = game.state
    extra = sum(ability.data["spell_cost_increase_per_other_spell"] * state.spells_cast[player]
                for _, _, ability in abilities_on_battlefield(state, "rule")
                if "spell_cost_increase_per_other_spell" in ability.data)
    return ManaCost(cost.symbols + (str(extra),)) if extra else cost


def cast_with_optional_costs(game: Game, move: Cast) -> Procedure:
    """Cast a spell, then ask whether each optional additional cost it has (buyback, 702.27a) is paid.
    The rules announce it in 601.2b and pay it with the rest in 601.2h; asking once the spell's own
    cost is paid gives the same result, since colored costs are paid first either way. An answer
    that can't be carried out is rejected, the state unchanged, and the question asked again.
    A spell with an alternative cost (118.9) or Phyrexian mana (107.4f) is proposed first; then its
    controller says whether they pay the alternative cost rather than its mana cost, and whether they
    pay 2 life for each Phyrexian symbol (601.2b), and the total cost is paid."""
    state = game.state
    obj = state.objects.get(move.object_id)
    chars = characteristics(state, obj) if obj is not None and obj.zone is Zone.HAND else None
    options = alternatives(game, move.player, chars) if chars is not None else []
    if not options and not phyrexian_symbols(chars.mana_cost if chars else None):
        yield from cast(game, move)
    else:
        yield from _cast_with_announcements(game, move, options)
    chars = characteristics(state, state.objects[state.stack[-1].spell_id])
    for ability in chars.abilities:
        extra = ability.additional_cost if ability.kind == "keyword" else None
        if extra is not None:
            yield from _ask_optional_cost(game, move.player, ability.keyword, extra, chars.name)  # type: ignore[arg-type]
    for ability in chars.abilities:
        if ability.kind == "rule" and "additional_sacrifice" in ability.data:
            yield from _sacrifice_as_additional_cost(game, move.player, ability.data["additional_sacrifice"], chars.name)


def _sacrifice_as_additional_cost(game: Game, player: str, filt, name: str) -> Procedure:
    """'As an additional cost to cast this spell, sacrifice a creature' (601.2b, 601.2h): a mandatory
    cost, so with nothing to sacrifice the spell can't be cast. Its caster chooses the permanent."""
    state = game.state
    candidates = [o.id for o in state.battlefield()
                  if characteristics(state, o).controller == player and matches(state, o, filt, FilterContext(player, None))]
    if not candidates:
        raise Illegal(f"{name} needs a permanent to sacrifice as an additional cost, and there is none (rule 601.2h)")
    decision = Decision(player, "objects", f"choose the permanent to sacrifice to cast {name}",
                        {"candidates": candidates, "min": 1, "max": 1})
    while True:
        answer = yield decision
        if answer.objects is not None and len(answer.objects) == 1 and answer.objects[0] in candidates:
            break
        state.rejection = f"choose one permanent to sacrifice for {name}'s additional cost"
    ops.sacrifice(game, state.objects[answer.objects[0]])


def _ask_yes_no(game: Game, player: str, prompt: str, cost) -> Procedure:
    decision = Decision(player, "may", prompt, {"cost": str(cost)})
    while True:
        answer = yield decision
        if answer.yes is not None:
            return answer.yes
        game.state.rejection = f"answer yes or no: {prompt}"


def _cast_with_announcements(game: Game, move: Cast, options: list[ManaCost]) -> Procedure:
    state = game.state
    on_stack, cost = propose(game, move)
    name = characteristics(state, on_stack).name
    while True:
        chosen = cost
        for option in options:  # one question each, until one is accepted: only one applies (118.9a)
            what = "cast it without paying its mana cost" if option is WITHOUT_PAYING else f"pay {option}"
            if (yield from _ask_yes_no(game, move.player, f"{what} rather than pay the mana cost of {name}?",
                                       option)):
                chosen = option
                break
        picked = chosen  # the alternative cost chosen, if any (recorded on the spell once it is cast)
        free = chosen is WITHOUT_PAYING
        life = 0
        symbols = list(chosen.symbols) if chosen is not None else []
        for index, symbol in enumerate(list(symbols)):
            if symbol.endswith("/P"):
                pay_life = yield from _ask_yes_no(game, move.player, f"pay 2 life rather than {{{symbol}}} for {name}?",
                                                  symbol)
                symbols[index] = "" if pay_life else symbol[:-2]
                life += 2 if pay_life else 0
        if chosen is not None:
            chosen = ManaCost(tuple(s for s in symbols if s))
        saved = state.save()
        try:
            if free and move.x:
                raise Illegal("cast without paying its mana cost, the only legal value for X is 0 (rule 107.3b)")
            check_life_payment(game, move.player, life)
            yield from pay_and_become_cast(game, move, on_stack, chosen)
            ops.pay_life(game, move.player, life)
            if picked is not cost:
                item = next(i for i in state.stack if i.object_id == on_stack.id)
                item.alternative_cost_paid = str(picked)
            return
        except Illegal as exc:
            state.restore(saved)
            on_stack = state.objects[on_stack.id]
            state.rejection = f"{exc}; answer again, from the first question"


def _ask_optional_cost(game: Game, player: str, keyword: str, cost, name: str) -> Procedure:
    state = game.state
    decision = Decision(player, "may", f"pay {keyword} {cost} for {name}?", {"cost": str(cost)})
    while True:
        answer = yield decision
        if answer.yes is None or (answer.payments and not answer.yes):
            state.rejection = f"answer yes (with any mana abilities to activate) or no: pay {keyword} {cost}?"
            continue
        if not answer.yes:
            return
        saved = state.save()
        try:
            yield from pay_mana(game, player, cost, 0, answer.payments, spell=state.objects[state.stack[-1].spell_id])
        except Illegal as exc:
            state.restore(saved)
            state.rejection = str(exc)
            continue
        item = state.stack[-1]
        item.optional_costs_paid += (keyword,)
        return


# --- activated abilities ---------------------------------------------------------------------
def activate(game: Game, move: Activate) -> Procedure:
    state = game.state
    obj = _own_object(game, move.player, move.object_id, Zone.BATTLEFIELD, "permanent")
    chars = characteristics(state, obj)
    ability = _activated(chars, move.ability_index)
    check_not_prohibited(game, obj, ability.kind == "mana")
    if ability.kind == "mana":
        if move.targets:
            raise Illegal("mana abilities have no targets")
        if move.payments:
            raise Illegal("a mana ability's own cost is paid from the mana pool")
        yield from _mana_ability(game, move.player, obj, chars, ability, move.mana)
        return
    data = dict(KEYWORD_ACTIVATIONS.get(ability.keyword, {}), **ability.data) if ability.kind == "keyword" else ability.data  # type: ignore[arg-type, call-overload]
    cost: Cost = ability.cost
    if ability.kind == "loyalty":
        from reference_engine.rule_effects import loyalty_cost

        cost = loyalty_cost(game, move.player, cost)  # additional costs combined into one (606.5)
        _check_loyalty(game, move.player, obj, chars, cost)
    if "becomes_level" in data and obj.class_level != data["becomes_level"] - 1:  # a Class's 'Level N'
        raise Illegal(f"{chars.name} is level {obj.class_level}: it can become level {data['becomes_level']} "
                      f"only from level {data['becomes_level'] - 1} (rule 716.2a)")
    if data.get("timing") == "sorcery" and ability.kind != "loyalty":
        reason = sorcery_timing(game, move.player)
        if reason:
            raise Illegal(f"this ability can be activated {reason}")
    check_tap_untap(game, obj, chars, cost)
    _check_once_each_turn(game, obj, move.ability_index, data)
    check_life_payment(game, move.player, cost.life)
    if cost.discard:
        raise EngineLimit("a cost that discards a card: choosing the card is not modelled")
    if cost.has_x and move.x is None:
        raise Illegal("choose a value for X")
    x = move.x or 0
    specs = data.get("targets", [])
    check_targets(game, specs, move.targets, move.player, obj.id, game.describe_target)
    snap = ops.snapshot(game, obj)
    item = StackItem(id=state.new_id(), controller=move.player, ability=_with_data(ability, data),
                     source_id=obj.id, source_uid=obj.uid, source_name=chars.name, targets=move.targets,
                     x=x, source_transform_count=obj.transform_count, source_snapshot=snap)
    state.stack.append(item)
    # Costs (602.2b, 601.2g-h).
    if cost.mana:
        yield from pay_mana(game, move.player, cost.mana, x, move.payments)
    elif move.payments:
        for activation in move.payments:
            yield from activate_mana(game, move.player, activation)
    pay_tap_untap(game, obj, cost)
    if cost.remove_counter:
        ops.remove_counters(game, obj, cost.remove_counter, 1)
    if cost.loyalty is not None:
        if cost.loyalty >= 0:
            yield from ops.add_counters(game, obj, "loyalty", cost.loyalty, by=move.player)
        else:
            ops.remove_counters(game, obj, "loyalty", -cost.loyalty)
        obj.loyalty_turn = state.turn
    if cost.life:
        ops.pay_life(game, move.player, cost.life)
    if cost.discard_hand:
        discard_hand(game, move.player)
    if cost.sacrifice_self:
        ops.sacrifice(game, obj)
    if cost.exile_self:
        ops.move(game, obj, Zone.EXILE)
    if cost.sacrifice is not None:
        _sacrifice_cost(game, move, obj, cost)


def check_life_payment(game: Game, player: str, amount: int) -> None:
    """Rules 118.3, 119.4: a player can pay life only if their life total is at least that much; and
    not at all (more than 0) if losing life can't happen to them (614.17b)."""
    from reference_engine.rule_effects import life_total_cant_change

    if amount > 0 and life_total_cant_change(game, player):
        raise Illegal(f"{player}'s life total can't change, so {amount} life can't be paid (rule 614.17b)")
    if amount > game.state.players[player].life:
        raise Illegal(f"paying {amount} life needs a life total of at least {amount} (rules 118.3, 119.4)")


def check_not_prohibited(game: Game, obj: GameObject, mana_ability: bool = False) -> None:
    """Rule 602.5: a player can't begin to activate an ability that's prohibited from being activated."""
    reason = restrictions.activation_prohibition(game, obj, mana_ability)
    if reason:
        raise Illegal(reason)


def _check_once_each_turn(game: Game, obj: GameObject, index: int, data) -> None:
    """'Activate only once each turn', 'Activate only once' (602.1b): an instruction that functions at
    all times. It is kept for the object by the ability's index, so an identically worded ability the
    object acquired from another object (the next index) has its own (602.5c)."""
    limit = data.get("limit")
    if limit not in ("once_each_turn", "once"):
        return
    turn = game.state.turn
    if limit == "once" and index in obj.activated_turns:
        raise Illegal("this ability can be activated only once (rule 602.1b)")
    if obj.activated_turns.get(index) == turn:
        raise Illegal("this ability can be activated only once each turn (rule 602.1b)")
    obj.activated_turns[index] = turn


def _with_data(ability: Ability, data) -> Ability:
    return ability if data is ability.data else Ability(ability.kind, data, ability.keyword)


def _check_loyalty(game: Game, player: str, obj: GameObject, chars: Characteristics, cost: Cost) -> None:
    """Rule 606.3: main phase, own turn, empty stack, once per turn per permanent; 606.6 for minus costs."""
    reason = sorcery_timing(game, player)
    if reason:
        raise Illegal(f"loyalty abilities can be activated {reason} (rule 606.3)")
    if obj.loyalty_turn == game.state.turn:
        raise Illegal(f"a loyalty ability of {chars.name} was already activated this turn (rule 606.3)")
    if cost.loyalty is not None and cost.loyalty < 0 and obj.counters.get("loyalty", 0) < -cost.loyalty:
        raise Illegal(f"{chars.name} has too few loyalty counters to pay {cost.loyalty} (rule 606.6)")


def _sacrifice_cost(game: Game, move: Activate, obj: GameObject, cost: Cost) -> None:
    check_sacrifice_count(move.sacrifice, cost.sacrifice_count)
    victims = []
    for chosen in move.sacrifice:
        victim = _own_object(game, move.player, chosen, Zone.BATTLEFIELD, "permanent")
        chars = characteristics(game.state, victim)
        if cost.sacrifice_other and victim.id == obj.id:
            raise Illegal("this cost needs another permanent")
        check_sacrificed_kind(chars, cost.sacrifice)  # type: ignore[arg-type]
        victims.append(victim)
    ops.sacrifice_together(game, victims)  # one event: they are sacrificed together (701.21a)


def check_sacrifice_count(chosen: tuple[int, ...], count: int) -> None:
    """Rules 601.2h, 602.2b: a cost is paid in full: as many different permanents as it names."""
    if len(chosen) != count or len(set(chosen)) != count:
        raise Illegal(f"choose exactly {'one permanent' if count == 1 else f'{count} different permanents'} to "
                      "sacrifice for this cost")


def check_sacrificed_kind(chars: Characteristics, wanted: tuple[str, ...]) -> None:
    """Rule 118.3: what is sacrificed is what the cost names ('Sacrifice two Saprolings')."""
    if not any(w in chars.types or chars.has_subtype(w) for w in (s.capitalize() for s in wanted)):
        raise Illegal(f"{chars.name} is not {' or '.join(wanted)}")
