"""Combat damage of blocked creatures: blockers gone, several blockers, trample (rules 506.4, 509.1h, 510.1c, 702.19)."""

from __future__ import annotations

from mutants.patching import Patcher, mutant


def _wrap_assign(p: Patcher, change) -> None:
    """Replace assign_blocked(game, source, blockers, defender, power, trample) by change(original, ...)."""
    def wrapper(original):
        def assign_blocked(game, source, blockers, defender, power, trample):
            return change(original, game, source, blockers, defender, power, trample)
        return assign_blocked
    p.wrap("combat", "assign_blocked", wrapper)


@mutant("trampler-without-blockers-deals-nothing", "a blocked creature with trample whose blockers are all gone "
        "assigns no combat damage, as if it had no trample", ["702.19d"])
def _trampler_without_blockers(p: Patcher) -> None:
    _wrap_assign(p, lambda original, game, source, blockers, defender, power, trample:
                 original(game, source, blockers, defender, power, trample) if blockers else [])


@mutant("blocked-creature-without-blockers-is-unblocked", "a blocked creature whose blockers are all gone deals its "
        "combat damage to the player, as if it were unblocked", ["509.1h", "510.1c"])
def _blocked_without_blockers(p: Patcher) -> None:
    _wrap_assign(p, lambda original, game, source, blockers, defender, power, trample:
                 original(game, source, blockers, defender, power, trample) if blockers else [(source, defender, power)])


@mutant("trample-ignores-marked-damage", "trample's lethal damage ignores damage already marked on the blocker",
        ["702.19b"])
def _trample_ignores_marked(p: Patcher) -> None:
    from reference_engine.layers import characteristics

    def lethal_damage(source, blocker, state):
        return characteristics(state, blocker).toughness or 0
    p.replace("combat", "lethal_damage", lethal_damage)


@mutant("trample-ignored-when-blocked", "a blocked creature with trample assigns all its damage to its blockers",
        ["702.19b"])
def _trample_ignored(p: Patcher) -> None:
    _wrap_assign(p, lambda original, game, source, blockers, defender, power, trample:
                 original(game, source, blockers, defender, power, False) if blockers else
                 original(game, source, blockers, defender, power, trample))


@mutant("several-blockers-all-to-the-first", "a creature blocked by several creatures assigns all its damage to "
        "the first of them", ["510.1c"])
def _all_to_first(p: Patcher) -> None:
    from reference_engine.model import Target

    def change(original, game, source, blockers, defender, power, trample):
        if len(blockers) > 1 and not trample:
            return [(source, Target("object", blockers[0]), power)]
        return original(game, source, blockers, defender, power, trample)
    _wrap_assign(p, change)


@mutant("removed-blocker-still-blocks", "a blocker that left the battlefield still counts as blocking, so a trampler "
        "must still assign it its toughness in damage before the player", ["506.4", "702.19b"])
def _removed_blocker_still_blocks(p: Patcher) -> None:
    def remember(original):
        def move_together(game, objs, to, **kwargs):
            combat = game.state.combat
            if combat is not None:
                removed = combat.__dict__.setdefault("_removed", {})
                for obj in objs:
                    for attacker_id in combat.blockers.get(obj.id, ()):
                        removed.setdefault(attacker_id, []).append(_lethal_as_it_is(game, obj))
            return original(game, objs, to, **kwargs)
        return move_together

    def reserve(original):
        def assign_blocked(game, source, blockers, defender, power, trample):
            removed = game.state.combat.__dict__.get("_removed", {}).get(source.object_id, [])
            if not trample or not removed:
                return original(game, source, blockers, defender, power, trample)
            return original(game, source, blockers, defender, max(0, power - sum(removed)), trample) if blockers \
                else ([(source, defender, power - sum(removed))] if power > sum(removed) else [])
        return assign_blocked
    p.wrap("ops", "move_together", remember)
    p.wrap("combat", "assign_blocked", reserve)


def _lethal_as_it_is(game, obj) -> int:
    from reference_engine.layers import characteristics

    return max(0, characteristics(game.state, obj).toughness or 0)
