"""Objects leaving the battlefield together, and the abilities that look back on it (603.10a, 704.3)."""

from __future__ import annotations

from mutants.patching import Patcher, mutant


@mutant("destroy-all-one-at-a-time", "'destroy all' destroys the permanents one at a time, each in an event of its own, "
        "so those already gone don't see the others die", ["603.10a"])
def _destroy_all_one_at_a_time(p: Patcher) -> None:
    def wrapper(original):
        def destroy_together(game, objs, **kwargs):
            moved = []
            for obj in list(objs):
                moved.extend(original(game, [obj], **kwargs))
            return moved
        return destroy_together
    p.wrap("ops", "destroy_together", wrapper)


@mutant("sba-deaths-one-at-a-time", "state-based actions put creatures into the graveyard one at a time, not as one "
        "event", ["704.3"])
def _sba_deaths_one_at_a_time(p: Patcher) -> None:
    from reference_engine import ops
    from reference_engine.model import Zone

    def put_into_graveyards(game, dying, known, sacrificed=None, orders=None):
        for obj in dying:  # each as it was known before the state-based actions (704.8), but one event apiece
            ops.move_together(game, [obj], Zone.GRAVEYARD, last_known={obj.id: known[obj.id]} if obj.id in known else None,
                              sacrificed={obj.id} & (sacrificed or set()), orders=orders)
    p.replace("sba", "put_into_graveyards", put_into_graveyards)


@mutant("leaves-abilities-dont-look-back", "leaves-the-battlefield abilities are checked after the event, so a permanent "
        "leaving doesn't see itself or the others leave with it", ["603.10a", "603.6c"])
def _leaves_abilities_dont_look_back(p: Patcher) -> None:
    p.replace("triggers", "lookback_sources", lambda game, leaving=None: None)
