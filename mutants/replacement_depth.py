"""Mutants for the depth of replacement and prevention effects (rules 614, 615, 616: issue 21), each
named for the rule it breaks."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mutants.patching import Patcher, mutant


@mutant("entry-choice-before-token-doubling", "the 'as enters' choice of a token copy is made once, before the "
        "token-doubling effect, and every token made shares it (the contained event applied first)", ["616.1g"])
def _entry_choice_before_doubling(p: Patcher) -> None:
    from reference_engine import copy_effects, ops
    from reference_engine.effects import EFFECTS
    from reference_engine.model import Zone
    from reference_engine.replacement import entry_replacements

    def create_token_copy(game, ctx, params: dict[str, Any]):
        extra = tuple(params.get("abilities", ()))
        made = []
        for card, face in copy_effects._copies(game, ctx, params["of"], extra):
            entry = ops.Entry(face=face, tapped=params.get("tapped", False))
            yield from entry_replacements(game, card, ctx.controller, entry, None)
            for _ in range(ops.effect_amounts(game, ctx.controller, "tokens_multiply", 1)):
                new = game.state.add_object(card, ctx.controller, Zone.BATTLEFIELD, is_token=True, face=entry.face)
                new.copy_token = True
                ops._arrive(game, new, replace(entry))
                ops._entered(game, new)
                made.append(new.id)
        ctx.memory["it"] = made
    p.set_item(EFFECTS, "create_token_copy", create_token_copy)
