"""Playing lands (305), casting spells (601), activating abilities (602, 605, 606), paying costs.

Each function checks what the rules require and raises Illegal if the move isn't allowed; the
priority loop restores the state from before the move in that case (rule 733 'handling illegal
actions'), so checks may happen after earlier steps changed the state.
"""

from __future__ import annotations


from reference_engine import ops
from reference_engine.costs import Cost
from reference_engine.layers import Characteristics, characteristics
from reference_engine.mana import ManaCost, format_pool, pay
from reference_engine.manaprod import production, resolve_mana_ability
from reference_engine.model import Ability, GameObject, StackItem, Step, Zone
from reference_engine.moves import Activate, Cast, Decision, Illegal, ManaActivation, PlayLand, Procedure
from reference_engine.targets import check_targets

PERMANENT_TYPES = ("Artifact", "Creature", "Enchantment", "Land", "Planeswalker", "Battle")
#: What a keyword ability with a cost does when activated (rule 702): level up puts a level counter,
#: equip attaches the Equipment.
KEYWORD_ACTIVATIONS = {
    "Level up": {"effect": [{"add_counters": {"what": "self", "kind": "level", "amount": 1}}], "timing": "sorcery"},
    # Equip: attach to target creature you control; only as a sorcery (rule 702.6a).
    "Equip": {"targets": [{"what": "creature", "filter": {"controller": "you"}}],
              "effect": [{"attach": {"what": "self", "to": "target.0"}}], "timing": "sorcery"},
}


def describe(game, obj: GameObject) -> str:
    return characteristics(game.state, obj).name


def _own_object(game, player: str, object_id: int, zone: Zone, what: str) -> GameObject:
    obj = game.state.objects.get(object_id)
    if obj is None or obj.zone is not zone:
        raise Illegal(f"that {what} is not in {'a ' if zone is Zone.HAND else 'the '}{zone.value}")
    controller = obj.owner if zone is not Zone.BATTLEFIELD else characteristics(game.state, obj).controller
    if controller != player:
        raise Illegal(f"{describe(game, obj)} is not {player}'s to use")
    return obj


def instant_speed(chars: Characteristics) -> bool:
    """Rules 304.1 / 702.8a: instants, and spells with flash, can be cast any time you have priority."""
    return "Instant" in chars.types or chars.has_keyword("Flash")


def sorcery_timing(game, player: str) -> str | None:
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
def play_land(game, move: PlayLand) -> Procedure:
    obj = _own_object(game, move.player, move.object_id, Zone.HAND, "card")
    if "Land" not in characteristics(game.state, obj).types:
        raise Illegal(f"{describe(game, obj)} is not a land")
    reason = sorcery_timing(game, move.player)
    if reason:
        raise Illegal(f"a land can be played {reason} (rule 505.6b)")
    player = game.state.players[move.player]
    if player.lands_played >= 1:
        raise Illegal("a land was already played this turn (rule 305.2)")
    player.lands_played += 1
    yield from ops.enter_battlefield(game, obj, move.player)


# --- costs ------------------------------------------------------------------------------------
def check_tap_untap(game, obj: GameObject, chars: Characteristics, cost: Cost) -> None:
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


def pay_tap_untap(game, obj: GameObject, cost: Cost) -> None:
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


def activate_mana(game, player: str, activation: ManaActivation) -> None:
    """Activate a mana ability; it resolves at once without using the stack (605.3b)."""
    obj = _own_object(game, player, activation.object_id, Zone.BATTLEFIELD, "permanent")
    chars = characteristics(game.state, obj)
    ability = _activated(chars, activation.ability_index)
    if ability.kind != "mana":
        raise Illegal(f"ability {activation.ability_index} of {chars.name} is not a mana ability")
    _mana_ability(game, player, obj, chars, ability, activation.mana)


def _mana_ability(game, player: str, obj: GameObject, chars: Characteristics, ability: Ability,
                  chosen: str | None) -> None:
    cost: Cost = ability.cost
    check_tap_untap(game, obj, chars, cost)
    produced = production(game, obj, ability, player, chosen)
    snap = ops.snapshot(game, obj)
    if cost.mana:
        pay_mana(game, player, cost.mana, 0, ())
    if cost.tap:
        ops.tap(game, obj)
    if cost.untap:
        ops.untap(game, obj)
    if cost.remove_counter:
        ops.remove_counters(game, obj, cost.remove_counter, 1)
    if cost.sacrifice_self:
        ops.sacrifice(game, obj)
    resolve_mana_ability(game, obj, ability, player, produced, snap)


def pay_mana(game, player: str, cost, x: int, payments: tuple[ManaActivation, ...]) -> None:
    """Rule 601.2g-h: activate the listed mana abilities, then pay the whole cost from the pool."""
    for activation in payments:
        activate_mana(game, player, activation)
    pool = game.state.players[player].pool
    left = pay(pool, cost.with_x(x))
    if left is None:
        raise Illegal(f"the cost {cost.with_x(x)} can't be paid with the mana available ({format_pool(pool) or 'none'})")
    pool.clear()
    pool.update(left)


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
    return next((a for a in chars.abilities if a.kind == "spell"), None)


def cast_permission(game, move: Cast) -> tuple[GameObject, int, ManaCost | None]:
    """The card, the face it is cast with and the cost to pay instead of its mana cost (None: its mana
    cost). From a hand: front face up (712.11). From a graveyard, only with an ability that allows it:
    disturb casts it transformed, back face up, for its disturb cost (702.146a, 712.11a)."""
    obj = game.state.objects.get(move.object_id)
    if obj is not None and obj.zone is Zone.GRAVEYARD and obj.owner == move.player:
        chars = characteristics(game.state, obj)
        disturb = next((a for a in chars.abilities if a.kind == "keyword" and a.keyword == "Disturb"), None)
        if disturb is None or not obj.card.double_faced:
            raise Illegal(f"{chars.name} can't be cast from a graveyard: nothing allows it")
        return obj, 1, disturb.cast_cost
    return _own_object(game, move.player, move.object_id, Zone.HAND, "card"), 0, None


def cast(game, move: Cast) -> None:
    state = game.state
    obj, face, alternative_cost = cast_permission(game, move)
    obj.face = face  # only the face that will be up on the stack is evaluated (712.11c)
    chars = characteristics(state, obj)
    if "Land" in chars.types:
        raise Illegal(f"{chars.name} is a land: lands are played, not cast")
    if not instant_speed(chars):
        reason = sorcery_timing(game, move.player)
        if reason:
            raise Illegal(f"{chars.name} can be cast {reason} (rule 307.1)")
    cost = alternative_cost or chars.mana_cost
    if cost is None:
        raise Illegal(f"{chars.name} has no mana cost, so it can't be cast (rule 202.1b)")
    if cost.x_count and move.x is None:
        raise Illegal(f"choose a value for X to cast {chars.name}")
    x = move.x or 0
    ability = spell_ability(chars)
    specs = ability.data.get("targets", []) if ability else []
    check_targets(game, specs, move.targets, move.player, None, game.describe_target)
    # 601.2a: the card moves to the stack; then costs are paid (601.2g-h).
    on_stack = state.move(obj, Zone.STACK, face=face)
    on_stack.controller = move.player
    on_stack.x = x if cost.x_count else None
    on_stack.targets = move.targets
    state.stack.append(StackItem(id=state.new_id(), controller=move.player, object_id=on_stack.id,
                                 targets=move.targets, x=on_stack.x, source_name=chars.name))
    pay_mana(game, move.player, with_cost_increases(game, move.player, cost), x, move.payments)
    state.spells_cast[move.player] += 1  # 601.2i: it becomes cast
    ops.emit(game, "cast", player=move.player, object_id=on_stack.id)


def with_cost_increases(game, player: str, cost: ManaCost) -> ManaCost:
    """Rule 601.2f: the total cost is the mana cost plus cost increases, e.g. 'each spell a player casts
    costs {1} more to cast for each other spell that player has cast this turn' (a `rule` ability
    {spell_cost_increase_per_other_spell: 1})."""
    state = game.state
    extra = sum(ability.data["spell_cost_increase_per_other_spell"] * state.spells_cast[player]
                for obj in state.battlefield() for ability in characteristics(state, obj).abilities
                if ability.kind == "rule" and "spell_cost_increase_per_other_spell" in ability.data)
    return ManaCost(cost.symbols + (str(extra),)) if extra else cost


def cast_with_optional_costs(game, move: Cast) -> Procedure:
    """Cast a spell, then ask whether each optional additional cost it has (buyback, 702.27a) is paid.
    The rules announce it in 601.2b and pay it with the rest in 601.2h; asking once the spell's own
    cost is paid gives the same result, since colored costs are paid first either way. An answer
    that can't be carried out is rejected, the state unchanged, and the question asked again."""
    cast(game, move)
    state = game.state
    chars = characteristics(state, state.objects[state.stack[-1].object_id])
    for ability in chars.abilities:
        extra = ability.additional_cost if ability.kind == "keyword" else None
        if extra is not None:
            yield from _ask_optional_cost(game, move.player, ability.keyword, extra, chars.name)  # type: ignore[arg-type]


def _ask_optional_cost(game, player: str, keyword: str, cost, name: str) -> Procedure:
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
            pay_mana(game, player, cost, 0, answer.payments)
        except Illegal as exc:
            state.restore(saved)
            state.rejection = str(exc)
            continue
        item = state.stack[-1]
        item.optional_costs_paid += (keyword,)
        return


# --- activated abilities ---------------------------------------------------------------------
def activate(game, move: Activate) -> None:
    state = game.state
    obj = _own_object(game, move.player, move.object_id, Zone.BATTLEFIELD, "permanent")
    chars = characteristics(state, obj)
    ability = _activated(chars, move.ability_index)
    if ability.kind == "mana":
        if move.targets:
            raise Illegal("mana abilities have no targets")
        if move.payments:
            raise Illegal("a mana ability's own cost is paid from the mana pool")
        _mana_ability(game, move.player, obj, chars, ability, move.mana)
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
        pay_mana(game, move.player, cost.mana, x, move.payments)
    elif move.payments:
        for activation in move.payments:
            activate_mana(game, move.player, activation)
    pay_tap_untap(game, obj, cost)
    if cost.remove_counter:
        ops.remove_counters(game, obj, cost.remove_counter, 1)
    if cost.loyalty is not None:
        if cost.loyalty >= 0:
            ops.add_counters(game, obj, "loyalty", cost.loyalty, by=move.player)
        else:
            ops.remove_counters(game, obj, "loyalty", -cost.loyalty)
        obj.loyalty_turn = state.turn
    if cost.life:
        ops.lose_life(game, move.player, cost.life)
    if cost.sacrifice_self:
        ops.sacrifice(game, obj)
    if cost.sacrifice is not None:
        _sacrifice_cost(game, move, obj, cost)


def _with_data(ability: Ability, data) -> Ability:
    return ability if data is ability.data else Ability(ability.kind, data, ability.keyword)


def _check_loyalty(game, player: str, obj: GameObject, chars: Characteristics, cost: Cost) -> None:
    """Rule 606.3: main phase, own turn, empty stack, once per turn per permanent; 606.6 for minus costs."""
    reason = sorcery_timing(game, player)
    if reason:
        raise Illegal(f"loyalty abilities can be activated {reason} (rule 606.3)")
    if obj.loyalty_turn == game.state.turn:
        raise Illegal(f"a loyalty ability of {chars.name} was already activated this turn (rule 606.3)")
    if cost.loyalty is not None and cost.loyalty < 0 and obj.counters.get("loyalty", 0) < -cost.loyalty:
        raise Illegal(f"{chars.name} has too few loyalty counters to pay {cost.loyalty} (rule 606.6)")


def _sacrifice_cost(game, move: Activate, obj: GameObject, cost: Cost) -> None:
    if len(move.sacrifice) != 1:
        raise Illegal("choose exactly one permanent to sacrifice for this cost")
    victim = _own_object(game, move.player, move.sacrifice[0], Zone.BATTLEFIELD, "permanent")
    chars = characteristics(game.state, victim)
    if cost.sacrifice_other and victim.id == obj.id:
        raise Illegal("this cost needs another permanent")
    wanted = cost.sacrifice
    if not any(w in chars.types or chars.has_subtype(w) for w in (s.capitalize() for s in wanted)):  # type: ignore[union-attr]
        raise Illegal(f"{chars.name} is not {' or '.join(wanted)}")  # type: ignore[arg-type]
    ops.sacrifice(game, victim)
