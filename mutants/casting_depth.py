"""Mutants of the deeper rules of costs, casting, activating and resolving (issue 18: rules 107.3,
118, 601, 602, 605, 608): each breaks one rule the way an engine might, named for what it gets wrong."""

from __future__ import annotations

from mutants.patching import Patcher, mutant


@mutant("replaced-sacrifice-is-unpaid", "a sacrifice cost whose permanent a replacement effect sends elsewhere than "
        "the graveyard counts as not paid, so the activation is undone", ["118.11"])
def _replaced_sacrifice_is_unpaid(p: Patcher) -> None:
    from reference_engine import casting
    from reference_engine.model import Zone
    from reference_engine.moves import Illegal

    original = casting._sacrifice_cost

    def sacrifice_cost(game, move, obj, cost):
        victim = game.state.objects.get(move.sacrifice[0])
        original(game, move, obj, cost)
        uid = victim.uid if victim is not None else None
        if not any(o.uid == uid and o.zone == Zone.GRAVEYARD for o in game.state.objects.values()):
            raise Illegal("the sacrificed permanent didn't reach a graveyard")
    p.replace("casting", "_sacrifice_cost", sacrifice_cost)
