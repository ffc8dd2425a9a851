"""Mutants for what a permission to cast a spell gives the spell cast with it (rule 611.3d): each breaks
the rule the way a real engine might."""

from __future__ import annotations

from mutants.patching import Patcher, mutant


def _retimed(duration: str, *, to_permission_source: bool):
    """as_it_enters_cast_this_way, with the effects it creates given `duration` instead of the one the
    permission states (and, to_permission_source, lasting only while the permission's source does)."""
    def wrapper(original):
        def as_it_enters(game, item, name, new):
            state = game.state
            before = len(state.effects)
            yield from original(game, item, name, new)
            for effect in state.effects[before:]:
                effect.duration = duration
                if to_permission_source:
                    effect.source_id = item.permission_source_id
            state.touch()
        return as_it_enters
    return wrapper


@mutant("cast-permission-grant-ends-with-its-source", "an ability a static ability's cast permission gives the "
        "spell cast with it lasts only while the permission's source is on the battlefield, not as long as "
        "stated", ["611.3d"])
def _grant_ends_with_source(p: Patcher) -> None:
    p.wrap("library_casting", "as_it_enters_cast_this_way",
           _retimed("while_you_control_source", to_permission_source=True))


@mutant("cast-permission-grant-lasts-the-game", "an ability a static ability's cast permission gives the spell "
        "cast with it lasts until the end of the game, though the permission states a duration", ["611.3d"])
def _grant_lasts_the_game(p: Patcher) -> None:
    p.wrap("library_casting", "as_it_enters_cast_this_way", _retimed("permanent", to_permission_source=False))
