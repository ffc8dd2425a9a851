"""Combat (rules 506-511): declaring attackers and blockers, and combat damage."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dataclasses import dataclass

from reference_engine import ops
from reference_engine.layers import characteristics
from reference_engine.model import DecisionKind, GameObject, Target, Zone
from reference_engine.moves import Decision, DeclareAttackers, DeclareBlockers, Illegal, Procedure
from reference_engine.state import Combat

if TYPE_CHECKING:
    from reference_engine.game import Game


def _why_cant_attack(game: Game, obj: GameObject) -> str | None:
    chars = characteristics(game.state, obj)
    if "Creature" not in chars.types:
        return "is not a creature"
    if chars.controller != game.state.active:
        return "is not controlled by the active player"
    if obj.tapped:
        return "is tapped"
    if obj.summoning_sick and not chars.has_keyword("Haste"):
        return "has not been under its controller's control continuously since their most recent turn began (rule 302.6)"
    if chars.has_keyword("Defender"):
        return "has defender"
    from reference_engine.filters import FilterContext, matches
    from reference_engine.rule_effects import rule_effects

    for controller, source_id, filt in rule_effects(game, "cant_attack"):  # 'creatures without flying can't attack'
        if matches(game.state, obj, filt, FilterContext(controller, source_id), chars=chars):
            return "can't attack (a rule effect)"
    return None


def declare_attackers(game: Game) -> Procedure:
    """Rule 508.1. Asked only if some creature could attack. Returns whether any creature attacks."""
    state = game.state
    state.combat = state.combat or Combat()
    candidates = [o.id for o in state.battlefield() if _why_cant_attack(game, o) is None]
    if not candidates:
        return False
    decision = Decision(state.active, DecisionKind.ATTACKERS, "declare attackers", {"candidates": candidates})
    while True:
        move = yield decision
        try:
            _apply_attackers(game, move)
            return bool(state.combat.attackers)
        except Illegal as exc:
            state.rejection = str(exc)


def _apply_attackers(game: Game, move: DeclareAttackers) -> None:
    state = game.state
    seen: set[int] = set()
    for attacker_id, defender in move.attacks:
        obj = state.objects.get(attacker_id)
        if obj is None or obj.zone is not Zone.BATTLEFIELD:
            raise Illegal("an attacker must be a creature on the battlefield")
        reason = _why_cant_attack(game, obj)
        name = characteristics(state, obj).name
        if reason:
            raise Illegal(f"{name} can't attack: it {reason}")
        if attacker_id in seen:
            raise Illegal(f"{name} is declared as an attacker twice")
        seen.add(attacker_id)
        _check_defender(game, defender)
    for attacker_id, defender in move.attacks:  # 508.1f: attacking creatures become tapped
        obj = state.objects[attacker_id]
        if not characteristics(state, obj).has_keyword("Vigilance"):
            ops.tap(game, obj)
        state.combat_now.attackers[attacker_id] = defender
    for attacker_id, defender in move.attacks:
        ops.emit(game, "attacks", object_id=attacker_id, uid=state.objects[attacker_id].uid, defender=defender)


def _check_defender(game: Game, defender: Target) -> None:
    state = game.state
    if defender.kind == "player":
        if defender.value == state.active or defender.value not in state.players:
            raise Illegal(f"{defender.value} is not an opponent who can be attacked")
        return
    obj = state.objects.get(defender.object_id)
    chars = characteristics(state, obj) if obj else None
    if obj is None or chars is None or obj.zone is not Zone.BATTLEFIELD or "Planeswalker" not in chars.types \
            or chars.controller == state.active:
        raise Illegal("only an opponent or a planeswalker an opponent controls can be attacked")


def declare_blockers(game: Game) -> Procedure:
    """Rule 509.1: the defending player declares blockers, if they have a creature that could block."""
    state = game.state
    defender = next(p for p in state.turn_order if p != state.active)
    candidates = [o.id for o in state.battlefield()
                  if not o.tapped and characteristics(state, o).controller == defender
                  and "Creature" in characteristics(state, o).types]
    if not candidates or not state.combat or not state.combat.attackers:
        return
    decision = Decision(defender, DecisionKind.BLOCKERS, "declare blockers", {"candidates": candidates})
    while True:
        move = yield decision
        try:
            _apply_blockers(game, move, candidates)
            return
        except Illegal as exc:
            state.rejection = str(exc)


def _apply_blockers(game: Game, move: DeclareBlockers, candidates: list[int]) -> None:
    state = game.state
    combat = state.combat_now
    blocks: dict[int, list[int]] = {}
    for blocker_id, attacker_id in move.blocks:
        if blocker_id not in candidates:
            raise Illegal("a blocker must be an untapped creature the defending player controls")
        if attacker_id not in combat.attackers:
            raise Illegal("a creature can only block an attacking creature")
        if blocker_id in blocks:
            raise Illegal("each creature can block only one attacker")
        attacker = characteristics(state, state.objects[attacker_id])
        blocker = characteristics(state, state.objects[blocker_id])
        if attacker.has_keyword("Flying") and not (blocker.has_keyword("Flying") or blocker.has_keyword("Reach")):
            raise Illegal(f"{blocker.name} can't block {attacker.name}, which has flying (rule 702.9b)")
        from reference_engine.restrictions import block_prohibition

        prohibited = block_prohibition(game, state.objects[blocker_id])
        if prohibited:
            raise Illegal(prohibited)
        blocks[blocker_id] = [attacker_id]
    for attacker_id in combat.attackers:
        count = sum(1 for ids in blocks.values() if attacker_id in ids)
        chars = characteristics(state, state.objects[attacker_id])
        if count == 1 and chars.has_keyword("Menace"):
            raise Illegal(f"{chars.name} has menace: it can't be blocked except by two or more creatures (702.111b)")
    combat.blockers = blocks
    combat.blocked = {a for ids in blocks.values() for a in ids}


def has_first_strike_step(game: Game) -> bool:
    state = game.state
    if not state.combat:
        return False
    fighters = list(state.combat.attackers) + list(state.combat.blockers)
    return any(_strikes(game, i, first=True) for i in fighters if i in state.objects)


def _strikes(game: Game, object_id: int, *, first: bool) -> bool:
    chars = characteristics(game.state, game.state.objects[object_id])
    double = chars.has_keyword("Double strike")
    if first:
        return chars.has_keyword("First strike") or double
    return double or not chars.has_keyword("First strike") or object_id not in game.state.combat_now.first_strike_dealt


@dataclass
class _Dealer:
    """A creature about to assign combat damage: to whom it may, and the default (docs/case-format.md)."""

    object_id: int
    source: ops.DamageSource
    power: int
    blockers: list[int]  # the creatures it may divide its damage among (blocking it, or blocked by it)
    excess_to: Target | None  # with trample, where damage beyond lethal may go (702.19b)
    default: list[tuple[Target, int]]

    @property
    def chooses(self) -> bool:
        """A real choice: several creatures to divide among, or trample past a blocker (510.1c-d)."""
        return len(self.blockers) > 1 or (self.excess_to is not None and bool(self.blockers))


def combat_damage(game: Game, *, first_strike: bool, split_steps: bool) -> Procedure:
    """Rule 510: the active player announces how each attacking creature assigns its combat damage,
    then the defending player for each blocking creature (510.1); then all of it is dealt at once (510.2)."""
    state = game.state
    combat = state.combat
    if combat is None:
        return
    attackers, blockers = [], []
    for attacker_id, defender in list(combat.attackers.items()):
        obj = state.objects.get(attacker_id)
        if obj is None or not _in_combat(state, obj) or (split_steps and not _deals_now(game, attacker_id, first_strike)):
            continue
        chars = characteristics(state, obj)
        power = chars.power or 0
        if power <= 0:  # 510.1a
            continue
        source = ops.DamageSource.of(game, obj)
        if attacker_id in combat.blocked:  # blocked, even if no creature is blocking it any more (509.1h)
            trample = chars.has_keyword("Trample")
            now = blocking(game, attacker_id)
            default = [(to, amount) for _, to, amount in assign_blocked(game, source, now, defender, power, trample)]
            attackers.append(_Dealer(attacker_id, source, power, now, defender if trample else None, default))
        else:  # 510.1b
            attackers.append(_Dealer(attacker_id, source, power, [], None, [(defender, power)]))
    for blocker_id, attacker_ids in combat.blockers.items():
        obj = state.objects.get(blocker_id)
        if obj is None or not _in_combat(state, obj) or (split_steps and not _deals_now(game, blocker_id, first_strike)):
            continue
        power = characteristics(state, obj).power or 0
        targets = [a for a in attacker_ids if _in_combat(state, state.objects.get(a))]  # 510.1d
        if power > 0 and targets:
            blockers.append(_Dealer(blocker_id, ops.DamageSource.of(game, obj), power, targets, None,
                                    [(Target("object", targets[0]), power)]))
    assignments: list[tuple[ops.DamageSource, Target, int]] = []
    for player, dealers in ((state.active, attackers), (_defending_player(game), blockers)):
        chosen = yield from _announce(game, player, dealers)
        for dealer in dealers:
            assignments.extend((dealer.source, to, amount) for to, amount in chosen[dealer.object_id] if amount > 0)
    if first_strike:
        combat.first_strike_dealt |= {s.object_id for s, _, _ in assignments if s.object_id is not None}
    for source, target, amount in assignments:
        yield from ops.damage(game, source, target, amount, combat=True)


def _defending_player(game: Game) -> str:
    return next(p for p in game.state.players if p != game.state.active)


def _announce(game: Game, player: str, dealers: list[_Dealer]) -> Procedure:
    """`player`'s damage assignment for `dealers`: asked when one of them has a real choice, and
    checked as a whole (510.1e); an illegal one is rejected and asked again. Returns object id ->
    [(recipient, amount)]."""
    out = {d.object_id: d.default for d in dealers}
    choosing = [d for d in dealers if d.chooses]
    if not choosing:
        return out
    names = ", ".join(characteristics(game.state, game.state.objects[d.object_id]).name for d in choosing)
    decision = Decision(player, DecisionKind.DAMAGE, f"assign the combat damage of {names} (rule 510.1)",
                        {"creatures": [d.object_id for d in choosing]})
    while True:
        move = yield decision
        given = {creature: list(split) for creature, split in move.assignments or ()}
        problem = _assignment_problem(game, choosing, given)
        if problem is None:
            out.update(given)
            return out
        game.state.rejection = f"{problem}; assign again (rule 510.1e)"


def _assignment_problem(game: Game, choosing: list[_Dealer], given: dict[int, list[tuple[Target, int]]]) -> str | None:
    """Why a damage assignment breaks 510.1c-d or 702.19b, or None."""
    state = game.state
    by_id = {d.object_id: d for d in choosing}
    for creature in given:
        if creature not in by_id:
            return f"{_name(game, creature)} has no combat damage to divide"
    planned = {**{d.object_id: d.default for d in choosing}, **given}
    received: dict[int, int] = {}  # damage assigned to each creature in this announcement (702.19b)
    for split in planned.values():
        for to, amount in split:
            if to.kind == "object" and isinstance(to.value, int):
                received[to.value] = received.get(to.value, 0) + amount
    for creature, split in given.items():
        dealer = by_id[creature]
        name = _name(game, creature)
        if any(amount < 0 for _, amount in split):
            return f"{name} can't assign a negative amount of damage"
        if sum(amount for _, amount in split) != dealer.power:
            return f"{name} assigns all of its {dealer.power} combat damage (rule 510.1a), not {sum(a for _, a in split)}"
        allowed = [Target("object", b) for b in dealer.blockers] + ([dealer.excess_to] if dealer.excess_to else [])
        for to, amount in split:
            if to not in allowed and amount:
                return f"{name} can't assign combat damage to {game.describe_target(to)} (rules 510.1c-d, 702.19b)"
        beyond = sum(amount for to, amount in split if to == dealer.excess_to)
        if beyond and dealer.excess_to is not None:
            short = [b for b in dealer.blockers
                     if received.get(b, 0) < lethal_damage(dealer.source, state.objects[b], state)]
            if short:
                return (f"{name} assigns damage to {game.describe_target(dealer.excess_to)} only once each creature "
                        f"blocking it is assigned lethal damage, and {_name(game, short[0])} isn't (rule 702.19b)")
    return None


def _name(game: Game, object_id: int) -> str:
    obj = game.state.objects.get(object_id)
    return characteristics(game.state, obj).name if obj is not None else f"object {object_id}"


def _deals_now(game: Game, object_id: int, first_strike: bool) -> bool:
    chars = characteristics(game.state, game.state.objects[object_id])
    has_first = chars.has_keyword("First strike") or chars.has_keyword("Double strike")
    if first_strike:
        return has_first
    return chars.has_keyword("Double strike") or object_id not in game.state.combat_now.first_strike_dealt


def _in_combat(state, obj: GameObject | None) -> bool:
    """A creature that left the battlefield or stopped being a creature is removed from combat (506.4)."""
    return obj is not None and obj.zone is Zone.BATTLEFIELD and "Creature" in characteristics(state, obj).types


def blocking(game: Game, attacker_id: int) -> list[int]:
    """The creatures blocking an attacker now, in the order they were declared as blockers."""
    state = game.state
    return [b for b, ids in state.combat_now.blockers.items()
            if attacker_id in ids and _in_combat(state, state.objects.get(b))]


def assign_blocked(game: Game, source, blockers: list[int], defender: Target, power: int, trample: bool):
    """A blocked creature's combat damage (510.1c, 702.19b-d). With no creature blocking it any more it
    assigns none, unless it has trample: then all of it goes to the player or planeswalker it attacks.
    Blocked by one creature without trample: all to that creature. Otherwise the case format's default
    assignment, used unless the case gives one (`assign`, docs/case-format.md): lethal damage to each blocker in
    the order they were declared, counting damage already marked on it and any damage from a source
    with deathtouch as lethal (702.2c), then the rest to the player or planeswalker attacked with
    trample, or to the last blocker without."""
    if not blockers:
        return [(source, defender, power)] if trample else []
    if len(blockers) == 1 and not trample:
        return [(source, Target("object", blockers[0]), power)]
    state = game.state
    amounts: dict[int, int] = {}
    left = power
    for blocker_id in blockers:
        amounts[blocker_id] = min(left, lethal_damage(source, state.objects[blocker_id], state))
        left -= amounts[blocker_id]
    if left and not trample:
        amounts[blockers[-1]] += left
    out: list[tuple[ops.DamageSource, Target, int]] = [
        (source, Target("object", b), amount) for b, amount in amounts.items() if amount > 0]
    if left and trample:
        out.append((source, defender, left))
    return out


def lethal_damage(source, blocker: GameObject, state) -> int:
    """Rule 702.19b: lethal damage, taking into account damage already marked on the creature; any
    nonzero amount from a source with deathtouch is lethal (702.2c)."""
    if source.chars.has_keyword("Deathtouch"):
        return 1
    return max(0, (characteristics(state, blocker).toughness or 0) - blocker.damage)


def end_combat(game: Game) -> None:
    """Rule 511.3: at the end of combat, all creatures are removed from combat."""
    game.state.combat = None
