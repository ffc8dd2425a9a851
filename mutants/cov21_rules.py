"""Mutants for the last rules of issues 21 and 19 the corpus tested (615.12a, ...), each named for the
rule it breaks."""

from __future__ import annotations

from mutants.patching import Patcher, mutant


@mutant("unpreventable-damage-reinvokes-prevention", "a prevention effect applied to damage that can't be "
        "prevented invokes itself again, trying once more to prevent that damage: its additional effect "
        "happens twice", ["615.12a"])
def _unpreventable_reinvokes(p: Patcher) -> None:
    def wrapper(original):
        def additional_effects(game, target, applied):
            original(game, target, applied)
            again = [e for e in applied if e.spec[0] == "unpreventable"]
            if again:
                original(game, target, again)
        return additional_effects
    p.wrap("damage", "additional_effects", wrapper)


@mutant("unpreventable-damage-skips-additional-effects", "a prevention effect meeting damage that can't be "
        "prevented isn't applied at all, so its additional effect doesn't happen", ["615.12"])
def _unpreventable_skips_additional(p: Patcher) -> None:
    def wrapper(original):
        def applicable(game, source, target, *, combat):
            return [e for e in original(game, source, target, combat=combat) if e.spec[0] != "unpreventable"]
        return applicable
    p.wrap("damage", "applicable", wrapper)


@mutant("static-prevention-additional-effect-skipped", "a static ability's 'prevent that damage and remove a "
        "+1/+1 counter from it' prevents the damage but its additional effect never happens", ["615.5"])
def _static_prevention_additional_skipped(p: Patcher) -> None:
    def wrapper(original):
        def additional_effects(game, target, applied):
            original(game, target, [e for e in applied if e.spec[0] != "prevent_n"])
        return additional_effects
    p.wrap("damage", "additional_effects", wrapper)


@mutant("as-transforms-ability-looked-up-before-transforming", "'As this creature transforms into [back face], "
        "...' is looked for on the permanent as it was before it transformed, which doesn't have it, so it is "
        "never applied", ["712.20"])
def _as_transforms_before(p: Patcher) -> None:
    def apply_as_transforms(game, obj):
        from reference_engine.transforming import apply_steps, as_transforms_abilities

        obj.face = 1 - obj.face  # the permanent as it was before it transformed
        game.state.touch()
        try:
            found = as_transforms_abilities(game, obj)
        finally:
            obj.face = 1 - obj.face
            game.state.touch()
        apply_steps(game, obj, found)
    p.replace("transforming", "apply_as_transforms", apply_as_transforms)


@mutant("named-copy-needs-a-card-in-the-game", "'create a copy of the card with the chosen name' copies a card "
        "of that name in the game, and creates nothing when there is none, instead of using the Oracle card "
        "reference", ["707.13"])
def _named_copy_in_game(p: Patcher) -> None:
    def wrapper(original):
        def cast_paying_costs(game, player, card):
            if not any(o.card.name == card.name for o in game.state.objects.values()):
                return
            yield from original(game, player, card)
        return cast_paying_costs
    p.wrap("named_copies", "cast_paying_costs", wrapper)


@mutant("named-copy-created-in-hand", "a copy of a card defined by name is created in its controller's hand, "
        "not outside the game, so one that isn't cast stays there", ["707.13"])
def _named_copy_in_hand(p: Patcher) -> None:
    from reference_engine.model import Zone

    def wrapper(original):
        def cast_paying_costs(game, player, card):
            before = set(game.state.objects)
            yield from original(game, player, card)
            if not any(game.state.objects[i].card is card for i in set(game.state.objects) - before):
                game.state.add_object(card, player, Zone.HAND)
                game.state.touch()
        return cast_paying_costs
    p.wrap("named_copies", "cast_paying_costs", wrapper)


@mutant("linked-copy-trigger-survives-a-later-copy", "the triggered ability linked to an 'enter as a copy' "
        "effect still triggers after another copy effect is applied to the permanent", ["707.9g"])
def _linked_trigger_survives(p: Patcher) -> None:
    def wrapper(original):
        def note_linked_trigger(entry, spec, copied):
            if spec.get("when_you_do"):
                original(entry, spec, copied)
        return note_linked_trigger
    p.wrap("linked_copy", "note_linked_trigger", wrapper)


@mutant("linked-copy-trigger-never-triggers", "the 'When you do' ability linked to an 'enter as a copy' effect "
        "never triggers: the permanent, now a copy, doesn't have it", ["707.9g"])
def _linked_trigger_never(p: Patcher) -> None:
    def linked_trigger_triggers(game, new):
        from reference_engine.linked_copy import KEY

        new.chosen.pop(KEY, None)
    p.replace("linked_copy", "linked_trigger_triggers", linked_trigger_triggers)


@mutant("replacement-delayed-trigger-follows-source-controller", "a delayed triggered ability created by a static "
        "ability's replacement effect ('exile it instead. When you do, ...') is controlled by whoever controls "
        "the source as it resolves, not by its controller when the replacement effect was applied", ["603.7f"])
def _replacement_trigger_follows_source(p: Patcher) -> None:
    from dataclasses import replace

    def wrapper(original):
        def resolve_ability(game, item):
            source = game.state.objects.get(item.source_id) if item.source_id is not None else None
            if item.event.get("from_replacement") and source is not None:
                from reference_engine.layers import characteristics

                now = characteristics(game.state, source).controller
                if now != item.controller:
                    stack = game.state.stack
                    index = stack.index(item)
                    item = replace(item, controller=now)
                    stack[index] = item
            yield from original(game, item)
        return resolve_ability
    p.wrap("resolve", "_resolve_ability", wrapper)


@mutant("trigger-target-instruction-ignored", "a triggered ability's instruction limiting its targets ('Each mode "
        "must target a different player') is treated as part of its effect, so it doesn't apply as the ability "
        "is put on the stack", ["603.1a"])
def _trigger_target_instruction_ignored(p: Patcher) -> None:
    p.replace("modal_triggers", "_players_possible", lambda game, specs, controller, source_id: True)
    p.replace("modal_triggers", "check_different_players", lambda data, targets: None)
