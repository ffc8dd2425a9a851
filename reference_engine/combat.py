"""Combat (rules 506-511): declaring attackers and blockers, and combat damage."""

from __future__ import annotations


from reference_engine import ops
from reference_engine.layers import characteristics
from reference_engine.model import DecisionKind, GameObject, Target, Zone
from reference_engine.moves import Decision, DeclareAttackers, DeclareBlockers, Illegal, Procedure
from reference_engine.limits import EngineLimit
from reference_engine.state import Combat


def _why_cant_attack(game, obj: GameObject) -> str | None:
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
    return None


def declare_attackers(game) -> Procedure:
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


def _apply_attackers(game, move: DeclareAttackers) -> None:
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
        state.combat.attackers[attacker_id] = defender
    for attacker_id, defender in move.attacks:
        ops.emit(game, "attacks", object_id=attacker_id, uid=state.objects[attacker_id].uid, defender=defender)


def _check_defender(game, defender: Target) -> None:
    state = game.state
    if defender.kind == "player":
        if defender.value == state.active or defender.value not in state.players:
            raise Illegal(f"{defender.value} is not an opponent who can be attacked")
        return
    obj = state.objects.get(defender.value)
    chars = characteristics(state, obj) if obj else None
    if chars is None or obj.zone is not Zone.BATTLEFIELD or "Planeswalker" not in chars.types \
            or chars.controller == state.active:
        raise Illegal("only an opponent or a planeswalker an opponent controls can be attacked")


def declare_blockers(game) -> Procedure:
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


def _apply_blockers(game, move: DeclareBlockers, candidates: list[int]) -> None:
    state = game.state
    combat = state.combat
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
        blocks[blocker_id] = [attacker_id]
    for attacker_id in combat.attackers:
        count = sum(1 for ids in blocks.values() if attacker_id in ids)
        chars = characteristics(state, state.objects[attacker_id])
        if count == 1 and chars.has_keyword("Menace"):
            raise Illegal(f"{chars.name} has menace: it can't be blocked except by two or more creatures (702.111b)")
    combat.blockers = blocks
    combat.blocked = {a for ids in blocks.values() for a in ids}


def has_first_strike_step(game) -> bool:
    state = game.state
    if not state.combat:
        return False
    fighters = list(state.combat.attackers) + list(state.combat.blockers)
    return any(_strikes(game, i, first=True) for i in fighters if i in state.objects)


def _strikes(game, object_id: int, *, first: bool) -> bool:
    chars = characteristics(game.state, game.state.objects[object_id])
    double = chars.has_keyword("Double strike")
    if first:
        return chars.has_keyword("First strike") or double
    return double or not chars.has_keyword("First strike") or object_id not in game.state.combat.first_strike_dealt


def combat_damage(game, *, first_strike: bool, split_steps: bool) -> None:
    """Rule 510: assign and deal all combat damage of this step at once."""
    state = game.state
    combat = state.combat
    if combat is None:
        return
    assignments: list[tuple[ops.DamageSource, Target, int]] = []
    for attacker_id, defender in list(combat.attackers.items()):
        obj = state.objects.get(attacker_id)
        if obj is None or (split_steps and not _deals_now(game, attacker_id, first_strike)):
            continue
        chars = characteristics(state, obj)
        power = chars.power or 0
        if power <= 0:
            continue
        source = ops.DamageSource.of(game, obj)
        if attacker_id in combat.blocked:
            blockers = [b for b, ids in combat.blockers.items() if attacker_id in ids and b in state.objects]
            if not blockers:
                continue
            if len(blockers) > 1 or chars.has_keyword("Trample"):
                assignments.extend(_divide(game, source, blockers, defender, power, chars.has_keyword("Trample")))
            else:
                assignments.append((source, Target("object", blockers[0]), power))
        else:
            assignments.append((source, defender, power))
    for blocker_id, attacker_ids in combat.blockers.items():
        obj = state.objects.get(blocker_id)
        if obj is None or (split_steps and not _deals_now(game, blocker_id, first_strike)):
            continue
        power = characteristics(state, obj).power or 0
        targets = [a for a in attacker_ids if a in state.objects]
        if power > 0 and targets:
            assignments.append((ops.DamageSource.of(game, obj), Target("object", targets[0]), power))
    if first_strike:
        combat.first_strike_dealt |= {s.object_id for s, _, _ in assignments}
    for source, target, amount in assignments:
        ops.deal_damage(game, source, target, amount, combat=True)


def _deals_now(game, object_id: int, first_strike: bool) -> bool:
    chars = characteristics(game.state, game.state.objects[object_id])
    has_first = chars.has_keyword("First strike") or chars.has_keyword("Double strike")
    if first_strike:
        return has_first
    return chars.has_keyword("Double strike") or object_id not in game.state.combat.first_strike_dealt


def _divide(game, source, blockers: list[int], defender: Target, power: int, trample: bool):
    """Lethal damage to each blocker in declared order, the rest to the last blocker or, with trample,
    to the player or planeswalker attacked (rule 510.1c-d, 702.19b). The attacking player may divide
    damage otherwise; the reference engine does not ask that choice yet."""
    if len(blockers) > 1:
        raise EngineLimit("an attacker blocked by several creatures: dividing its damage is not modelled")
    state = game.state
    blocker = state.objects[blockers[0]]
    chars = characteristics(state, blocker)
    lethal = max(0, (chars.toughness or 0) - blocker.damage)
    to_blocker = min(power, lethal) if trample else power
    out = [(source, Target("object", blocker.id), to_blocker)] if to_blocker else []
    if trample and power > to_blocker:
        out.append((source, defender, power - to_blocker))
    return out


def end_combat(game) -> None:
    """Rule 511.3: at the end of combat, all creatures are removed from combat."""
    game.state.combat = None
