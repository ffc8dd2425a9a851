"""Mutants for an X that no cost defines (rule 107.3f), breaking it the way a real engine might."""

from __future__ import annotations

from mutants.patching import Patcher, mutant


@mutant("undefined-x-is-the-sources-x", "an X that appears in no cost of an ability ('you may pay {X}. If you do, "
        "you gain X life') is not the value its controller chose as it resolved but the X its source has (0)",
        ["107.3f"])
def _undefined_x_from_source(p: Patcher) -> None:
    def wrapper(original):
        def chosen_x(ctx, x):
            return ctx
        return chosen_x
    p.wrap("chosen_x", "chosen_x", wrapper)
