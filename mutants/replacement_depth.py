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
                yield from ops.put_entering_counters(game, new, entry.counters)
                ops._entered(game, new)
                made.append(new.id)
        ctx.memory["it"] = made
    p.set_item(EFFECTS, "create_token_copy", create_token_copy)


@mutant("chosen-source-shield-not-rechecked", "'the next time a red source of your choice would deal damage' "
        "prevents that source's damage even after it is no longer red (the properties are checked only "
        "as the source is chosen)", ["615.9", "609.7b"])
def _chosen_source_not_rechecked(p: Patcher) -> None:
    from reference_engine.prevention import NextInstance

    def wrapper(original):
        def next_instances(game, source, target):
            kept = {}
            for effect in game.state.prevention:
                if isinstance(effect, NextInstance) and effect.source_filter is not None:
                    kept[id(effect)] = effect.source_filter
                    effect.source_filter = None
            try:
                return original(game, source, target)
            finally:
                for effect in game.state.prevention:
                    if id(effect) in kept:
                        effect.source_filter = kept[id(effect)]
        return next_instances
    p.wrap("prevention", "next_instances", wrapper)


@mutant("life-payable-when-life-cant-change", "a player whose life total can't change may still choose to pay a "
        "cost that includes paying life (an event that can't happen)", ["614.17b"])
def _life_payable(p: Patcher) -> None:
    from reference_engine.moves import Illegal

    def check_life_payment(game, player, amount):
        if amount > game.state.players[player].life:
            raise Illegal(f"paying {amount} life needs a life total of at least {amount}")
    p.replace("casting", "check_life_payment", check_life_payment)


@mutant("entering-control-applied-last", "the effect changing under whose control a permanent enters is applied "
        "after the other effects on how it enters, which still see its old controller", ["616.1b"])
def _entering_control_last(p: Patcher) -> None:
    def wrapper(original):
        def entering_control(game, face, card, controller, entry):
            original(game, face, card, controller, entry)  # the permanent still ends up under the new controller
            return controller
        return entering_control
    p.wrap("replacement", "entering_control", wrapper)


@mutant("anchor-word-abilities-all-present", "a permanent that entered with a choice of anchor word has every "
        "ability marked with an anchor word, not only the chosen one's", ["614.12c"])
def _anchor_words_ignored(p: Patcher) -> None:
    def wrapper(original):
        def compute(state):
            saved = {}
            for obj in state.battlefield():
                if "option" in obj.chosen:
                    saved[obj.id] = obj.chosen.pop("option")
            try:
                chars = original(state)
            finally:
                for obj in state.battlefield():
                    if obj.id in saved:
                        obj.chosen["option"] = saved[obj.id]
            for obj in state.battlefield():
                if obj.id in saved and obj.id in chars:
                    face = obj.card.faces[obj.face]
                    chars[obj.id].abilities = list(chars[obj.id].abilities) + [
                        a for a in face.abilities if "anchor" in a.data and a not in chars[obj.id].abilities]
            return chars
        return compute
    p.wrap("layers", "_compute_battlefield", wrapper)
