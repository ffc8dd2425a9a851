"""State-based actions (rule 704): checked whenever a player would receive priority, never mid-resolution."""

from __future__ import annotations

from collections import defaultdict

from reference_engine import ops
from reference_engine.layers import characteristics
from reference_engine.model import GameObject, Zone
from reference_engine.moves import Decision, Procedure


def has_no_toughness(chars) -> bool:
    """Rule 704.5f: a creature with toughness 0 or less is put into its owner's graveyard."""
    return (chars.toughness or 0) <= 0


def has_lethal_damage(obj: GameObject, chars) -> bool:
    """Rules 704.5g-h: toughness greater than 0 and damage at least equal to it, or any damage from a
    deathtouch source."""
    toughness = chars.toughness or 0
    return (toughness > 0 and obj.damage >= toughness) or (obj.deathtouch_damage and obj.damage > 0)


def check(game) -> Procedure:
    """Perform every applicable state-based action simultaneously; returns whether any was performed."""
    state = game.state
    to_graveyard: list[GameObject] = []
    performed = False

    # 704.5a / 704.5b: a player with 0 or less life, or who drew from an empty library, loses.
    for player in state.players.values():
        if player.lost:
            continue
        if player.life <= 0:
            player.lost, player.loss_reason = True, f"{player.name} has {player.life} life (704.5a)"
        elif player.drew_from_empty_library:
            player.lost, player.loss_reason = True, f"{player.name} drew from an empty library (704.5b)"
        performed = performed or player.lost
    if performed and sum(1 for p in state.players.values() if not p.lost) <= 1:
        state.over = True
        return True

    legends: dict[tuple[str, str], list[GameObject]] = defaultdict(list)
    unattached: list[GameObject] = []
    annihilating: list[tuple[GameObject, int]] = []
    for obj in state.battlefield():  # one look at each permanent; the actions follow, all at once
        chars = characteristics(state, obj)
        if obj.attached_to is not None and not _attachable(state, obj.attached_to):
            unattached.append(obj)
        plus, minus = obj.counters.get("+1/+1", 0), obj.counters.get("-1/-1", 0)
        if plus and minus:
            annihilating.append((obj, min(plus, minus)))
        if "Legendary" in chars.supertypes:  # even one dying to another SBA may be the one kept (704.3)
            legends[(chars.controller, chars.name)].append(obj)
        if "Creature" in chars.types:
            if has_no_toughness(chars):  # 704.5f
                to_graveyard.append(obj)
                continue
            if has_lethal_damage(obj, chars) and not chars.has_keyword("Indestructible"):  # 704.5g-h; 702.12b
                to_graveyard.append(obj)
                continue
        if "Planeswalker" in chars.types and obj.counters.get("loyalty", 0) <= 0:  # 704.5i
            to_graveyard.append(obj)

    # 704.5j: the legend rule; the controller chooses which one to keep.
    for (controller, name), group in legends.items():
        if len(group) > 1:
            keep = yield from _choose_legend(game, controller, name, [o.id for o in group])
            to_graveyard.extend(o for o in group if o.id != keep)

    # 704.5n: an Equipment attached to something that is no longer a creature on the battlefield
    # becomes unattached (it stays on the battlefield).
    for obj in unattached:
        obj.attached_to = None
        state.touch()
        performed = True

    # 704.5q: +1/+1 and -1/-1 counters cancel out.
    for obj, n in annihilating:
        ops.remove_counters(game, obj, "+1/+1", n)
        ops.remove_counters(game, obj, "-1/-1", n)
        performed = True

    state.leaving = {obj.id: (obj.uid, ops.snapshot(game, obj)) for obj in to_graveyard}
    for obj in to_graveyard:
        if obj.id in state.objects and obj.zone is Zone.BATTLEFIELD:
            ops.move(game, obj, Zone.GRAVEYARD)
            performed = True
    state.leaving = {}

    # 704.5d: a token in a zone other than the battlefield ceases to exist (after the stack, 111.7).
    for obj in list(state.objects.values()):
        if obj.is_token and obj.zone not in (Zone.BATTLEFIELD, Zone.STACK):
            state.remove_object(obj)
            performed = True
    return performed


def _attachable(state, host_id: int) -> bool:
    """Whether an Equipment can stay attached to this object: a creature on the battlefield."""
    host = state.objects.get(host_id)
    return host is not None and host.zone is Zone.BATTLEFIELD and "Creature" in characteristics(state, host).types


def _choose_legend(game, player: str, name: str, ids: list[int]) -> Procedure:
    decision = Decision(player, "objects", f"choose the {name} to keep (legend rule, 704.5j)",
                        {"candidates": ids, "min": 1, "max": 1})
    while True:
        move = yield decision
        if move.objects is not None and len(move.objects) == 1 and move.objects[0] in ids:
            return move.objects[0]
        game.state.rejection = f"choose exactly one of the permanents named {name} to keep"


def before_priority(game) -> Procedure:
    """Rule 704.3 / 117.5: state-based actions until none apply, then waiting triggers onto the stack."""
    from reference_engine.daynight import enforce
    from reference_engine.triggers import put_on_stack

    while not game.state.over:
        enforce(game)  # daybound/nightbound apply at any time, not as state-based actions (702.145c)
        performed = yield from check(game)
        if performed:
            continue
        if game.state.pending_triggers:
            yield from put_on_stack(game)
            continue
        return
