"""State-based actions (rule 704): checked whenever a player would receive priority, never mid-resolution."""

from __future__ import annotations

from typing import TYPE_CHECKING

from collections import defaultdict

from reference_engine import ops
from reference_engine.daynight import enforce
from reference_engine.layers import characteristics, keywords_on_battlefield
from reference_engine.model import GameObject, Zone
from reference_engine.moves import Procedure, choose_one
from reference_engine.sagas import must_be_sacrificed
from reference_engine.triggers import put_on_stack, state_triggers

if TYPE_CHECKING:
    from reference_engine.game import Game


def has_no_toughness(chars) -> bool:
    """Rule 704.5f: a creature with toughness 0 or less is put into its owner's graveyard."""
    return (chars.toughness or 0) <= 0


def has_lethal_damage(obj: GameObject, chars) -> bool:
    """Rules 704.5g-h: toughness greater than 0 and damage at least equal to it, or any damage from a
    deathtouch source."""
    toughness = chars.toughness or 0
    return (toughness > 0 and obj.damage >= toughness) or (obj.deathtouch_damage and obj.damage > 0)


def loss_reason(player) -> str | None:
    """Rules 704.5a-b: why a player loses the game now, if they do."""
    if player.life <= 0:
        return f"{player.name} has {player.life} life (704.5a)"
    if player.drew_from_empty_library:
        return f"{player.name} drew from an empty library (704.5b)"
    if player.poison >= 10:
        return f"{player.name} has {player.poison} poison counters (704.5c)"
    return None


def replace_loss(game: Game, player: str) -> Procedure:
    """'If you would lose the game, instead ...' (Lich's Mirror): one replacement effect replaces the
    loss however many state-based actions would make that player lose at once (704.7). Returns
    whether one did."""
    from reference_engine.effects import Ctx, run
    from reference_engine.rule_effects import rule_effects

    for controller, source_id, steps in rule_effects(game, "instead_of_losing"):
        if controller == player and source_id is not None:
            source = game.state.objects[source_id]
            name = characteristics(game.state, source).name
            game.state.players[player].drew_from_empty_library = False  # that loss has been replaced
            yield from run(game, Ctx(player, source_id, source.uid, name), steps)
            return True
    return False


def annihilated(obj: GameObject) -> int:
    """Rule 704.5q: how many +1/+1 and -1/-1 counters (of each) are removed from a permanent."""
    return min(obj.counters.get("+1/+1", 0), obj.counters.get("-1/-1", 0))


def counter_limits(chars) -> list[tuple[str, int]]:
    """Rule 704.5r: the (kind, N) of each 'can't have more than N [kind] counters on it' it has."""
    return [(a.data["max_counters"]["kind"], a.data["max_counters"]["max"])
            for a in chars.abilities if a.kind == "rule" and "max_counters" in a.data]


def surplus_roles(state, roles: list[tuple[GameObject, str]]) -> list[GameObject]:
    """Rule 704.5z: each Role but the one with the newest timestamp, per permanent and controller."""
    groups: dict[tuple[int, str], list[GameObject]] = defaultdict(list)
    for obj, controller in roles:
        groups[(obj.attached_to, controller)].append(obj)  # type: ignore[index]
    return [o for group in groups.values() if len(group) > 1
            for o in group if o is not max(group, key=lambda r: r.timestamp)]


def world_rule_losers(worlds: list[GameObject]) -> list[GameObject]:
    """Rule 704.5k: all but the permanent that has had the world supertype for the shortest time
    (the newest timestamp); on a tie, all of them."""
    if len(worlds) < 2:
        return []
    newest = max(o.timestamp for o in worlds)
    keep = [o for o in worlds if o.timestamp == newest]
    return [o for o in worlds if len(keep) > 1 or o is not keep[0]]


def players_getting_speed(state) -> list[str]:
    """Rule 704.5aa (702.179a): players with no speed who control a permanent with start your engines!.
    None once every player has a speed, or no permanent has it: it runs on every check."""
    if "Start your engines!" not in keywords_on_battlefield(state):
        return []
    waiting = [name for name, player in state.players.items() if player.speed is None]
    if not waiting:
        return []
    controllers = {chars.controller for chars in (characteristics(state, o) for o in state.battlefield())
                   if chars.has_keyword("Start your engines!")}
    return [name for name in waiting if name in controllers]


def ceases_to_exist(obj: GameObject) -> bool:
    """Rule 704.5d: a token in a zone other than the battlefield (after the stack, 111.7); rule 704.5e:
    a copy of a spell in a zone other than the stack."""
    if obj.spell_copy:
        return obj.zone is not Zone.STACK  # 704.5e: a copy of a spell off the stack
    return obj.is_token and obj.zone not in (Zone.BATTLEFIELD, Zone.STACK)


def check(game: Game) -> Procedure:
    """Perform every applicable state-based action simultaneously; returns whether any was performed."""
    state = game.state
    to_graveyard: list[GameObject] = []
    performed = False

    # 704.5a / 704.5b: a player with 0 or less life, or who drew from an empty library, loses.
    for player in state.players.values():
        if player.lost:
            continue
        reason = loss_reason(player)
        if reason and (yield from replace_loss(game, player.name)):
            performed = True
            continue
        if reason:
            player.lost, player.loss_reason = True, reason
        performed = performed or player.lost
    if performed and sum(1 for p in state.players.values() if not p.lost) <= 1:
        state.over = True
        return True

    legends: dict[tuple[str, str], list[GameObject]] = {}
    unattached: list[GameObject] = []
    annihilating: list[tuple[GameObject, int]] = []
    worlds: list[GameObject] = []
    sacrificed: list[GameObject] = []
    roles: list[tuple[GameObject, str]] = []
    excess: list[tuple[GameObject, str, int]] = []
    for obj in state.battlefield():  # one look at each permanent; the actions follow, all at once
        chars = characteristics(state, obj)
        if "Aura" in chars.subtypes and not aura_legally_attached(state, obj, chars):
            to_graveyard.append(obj)  # 704.5m
        if obj.attached_to is not None and not stays_attached(state, obj, chars):
            unattached.append(obj)
        if obj.counters:  # 704.5q and 704.5r are about counters only
            for kind, limit in counter_limits(chars):  # 704.5r
                if obj.counters.get(kind, 0) > limit:
                    excess.append((obj, kind, obj.counters[kind] - limit))
            pairs = annihilated(obj)
            if pairs:
                annihilating.append((obj, pairs))
        if "Role" in chars.subtypes and obj.attached_to is not None:
            roles.append((obj, chars.controller))
        if "Saga" in chars.subtypes and must_be_sacrificed(game, obj, chars):
            sacrificed.append(obj)  # 704.5s
        if "World" in chars.supertypes:
            worlds.append(obj)
        if "Legendary" in chars.supertypes:  # even one dying to another SBA may be the one kept (704.3)
            legends.setdefault((chars.controller, chars.name), []).append(obj)
        if "Creature" in chars.types:
            if has_no_toughness(chars):  # 704.5f
                to_graveyard.append(obj)
                continue
            if obj.damage > 0 and has_lethal_damage(obj, chars) and not chars.has_keyword("Indestructible"):  # 704.5g-h; 702.12b
                if ops.regenerates(game, obj):  # destroyed, so regeneration replaces it (614.8)
                    performed = True
                    continue
                to_graveyard.append(obj)
                continue
        if "Planeswalker" in chars.types and obj.counters.get("loyalty", 0) <= 0:  # 704.5i
            to_graveyard.append(obj)

    # 704.5j: the legend rule; the controller chooses which one to keep.
    for (controller, name), group in legends.items():
        if len(group) > 1:
            keep = yield from _choose_legend(game, controller, name, [o.id for o in group])
            to_graveyard.extend(o for o in group if o.id != keep)

    # 704.5z: of the Roles one player controls on one permanent, only the newest stays.
    if roles:
        to_graveyard.extend(surplus_roles(state, roles))

    # 704.5k: the world rule. The one that has had the world supertype for the shortest time stays
    # (the newest timestamp); on a tie, none does.
    if worlds:
        to_graveyard.extend(world_rule_losers(worlds))

    # 704.8: what leaves is known as it was before any of these actions (counters not yet cancelled).
    known = {obj.id: ops.last_known_record(game, obj) for obj in to_graveyard} if to_graveyard else {}

    # 704.5aa: a player who controls a permanent with start your engines! and has no speed gets speed 1.
    for name in players_getting_speed(state):
        state.players[name].speed = 1
        performed = True

    # 704.5n / 704.5p: an Equipment attached to something that is no longer a creature on the
    # battlefield, or a creature that is attached to something, becomes unattached (it stays on the
    # battlefield).
    for obj in unattached:
        host, obj.attached_to = obj.attached_to, None
        state.touch()
        performed = True
        ops.emit(game, "unattached", object_id=obj.id, uid=obj.uid, host_id=host)

    # 704.5r: 'can't have more than N [kind] counters on it': all but N are removed.
    for obj, kind, n in excess:
        ops.remove_counters(game, obj, kind, n)
        performed = True

    # 704.5q: +1/+1 and -1/-1 counters cancel out.
    for obj, n in annihilating:
        ops.remove_counters(game, obj, "+1/+1", n)
        ops.remove_counters(game, obj, "-1/-1", n)
        performed = True

    # 704.5s: a Saga past its last chapter is sacrificed by its controller.
    if sacrificed:
        to_graveyard.extend(sacrificed)
        known.update({obj.id: ops.last_known_record(game, obj) for obj in sacrificed if obj.id not in known})

    # All of them are put into graveyards in one event (704.3), which leaves-the-battlefield abilities
    # look back on (603.10a), each as it was before any state-based action was performed (704.8).
    dying = list({obj.id: obj for obj in to_graveyard if obj.zone is Zone.BATTLEFIELD}.values()) if to_graveyard else None
    if dying:
        from reference_engine.zone_replacements import choose_orders

        orders = yield from choose_orders(game, dying, Zone.GRAVEYARD)  # several effects on where one goes (616.1)
        put_into_graveyards(game, dying, known, {obj.id for obj in sacrificed}, orders=orders)
        performed = True

    # 704.5d: a token in a zone other than the battlefield ceases to exist (after the stack, 111.7);
    # 704.5e: so does a copy of a spell in a zone other than the stack (707.10a).
    for obj in [o for o in state.objects.values() if o.is_token or o.spell_copy]:  # only these can (704.5d-e)
        if ceases_to_exist(obj):
            state.remove_object(obj)
            performed = True
    return performed


def put_into_graveyards(game: Game, dying: list[GameObject], known: dict, sacrificed: set[int] | None = None,
                        orders: dict | None = None) -> None:
    """The permanents state-based actions put into their owners' graveyards, in one event (704.3);
    `sacrificed`: those its controller sacrifices (a Saga after its last chapter, 704.5s); `orders`: the
    order of the replacement effects on where each goes, as its controller chose (616.1)."""
    ops.move_together(game, dying, Zone.GRAVEYARD, last_known=known, sacrificed=sacrificed or set(), orders=orders)


def aura_legally_attached(state, obj: GameObject, chars) -> bool:
    """Rule 704.5m: an Aura must be attached to an object its enchant ability allows (the target its
    spell needs, rule 303.4a), on the battlefield."""
    from reference_engine.casting import spell_ability
    from reference_engine.targets import KINDS

    ability = spell_ability(chars)
    specs = ability.data.get("targets", []) if ability else []
    if obj.attached_player is not None:  # 'enchant player': a player still in the game
        player = state.players.get(obj.attached_player)
        return bool(specs) and specs[0]["what"] == "player" and player is not None and not player.lost
    host = state.objects.get(obj.attached_to) if obj.attached_to is not None else None
    if host is None or host.zone is not Zone.BATTLEFIELD:
        return False
    if not specs:
        return True
    _, base = KINDS[specs[0]["what"]]
    host_chars = characteristics(state, host)
    return all(t in host_chars.types for t in base.get("types", ()))


def stays_attached(state, obj: GameObject, chars) -> bool:
    """Rules 704.5n and 704.5p: an Equipment stays attached only to a creature on the battlefield; a
    permanent that is a creature, or that is no Aura, Equipment or Fortification, doesn't stay attached."""
    if "Creature" in chars.types or "Battle" in chars.types:
        return False  # 704.5p
    if "Equipment" not in chars.subtypes:
        return "Aura" in chars.subtypes or "Fortification" in chars.subtypes  # 704.5p (Auras: 704.5m)
    host = state.objects.get(obj.attached_to)
    return host is not None and host.zone is Zone.BATTLEFIELD and "Creature" in characteristics(state, host).types


def _choose_legend(game: Game, player: str, name: str, ids: list[int]) -> Procedure:
    return (yield from choose_one(game.state, player, f"choose the {name} to keep (legend rule, 704.5j)", ids,
                                  f"choose exactly one of the permanents named {name} to keep"))


def control_changes(game: Game) -> None:
    """A 'control_changed' event for each permanent whose controller differs from the one it had when
    last looked at (layer 2 effects beginning or ending, 613.1b). Triggers are put on the stack only
    the next time a player would receive priority (603.3), so noticing the change here, before that,
    loses none; a permanent new to the battlefield is only recorded."""
    state = game.state
    derived = state.now()
    if derived.controllers_looked_at:  # controllers are characteristics: the same until the version changes
        return
    seen = state.controllers_seen
    present = set()
    for obj in state.battlefield():
        present.add(obj.id)
        now = characteristics(state, obj).controller
        before = seen.get(obj.id)
        seen[obj.id] = now
        if before is not None and before != now:
            ops.emit(game, "control_changed", object_id=obj.id, uid=obj.uid, **{"from": before, "to": now})
    if len(seen) > len(present):  # permanents that left
        for object_id in [i for i in seen if i not in present]:
            del seen[object_id]
    derived.controllers_looked_at = True


def before_priority(game: Game) -> Procedure:
    """Rule 704.3 / 117.5: state-based actions until none apply, then waiting triggers onto the stack."""
    while not game.state.over:
        enforce(game)  # daybound/nightbound apply at any time, not as state-based actions (702.145c)
        performed = yield from check(game)
        if performed:
            continue
        control_changes(game)  # 603.10d: abilities that trigger on a change of control
        state_triggers(game)  # 704.1a: abilities that watch for a game state are triggered abilities
        if game.state.pending_triggers:
            yield from put_on_stack(game)
            continue
        return
