"""Mutants of the rules the case format's newer constructs make testable (issue 16): dividing combat
damage (510.1), trample's lethal damage first (702.19b), countering abilities on the stack (701.6a),
what 'target ability' allows (115.1), granted abilities other than keywords (613.1f), and what an
Aura or Equipment affects (301.5a, 303.4b)."""

from __future__ import annotations

from mutants.patching import Patcher, mutant


@mutant("damage-assignment-choice-ignored", "a creature's controller can't divide its combat damage as they choose: "
        "the default assignment is always used", ["510.1c", "510.1d"])
def _assignment_ignored(p: Patcher) -> None:
    def announce(game, player, dealers):
        return {dealer.object_id: dealer.default for dealer in dealers}
        yield  # a procedure that never asks: the default always applies
    p.replace("combat", "_announce", announce)


@mutant("trample-excess-before-lethal", "a trampler may assign damage to the player before each blocker is "
        "assigned lethal damage", ["702.19b"])
def _trample_excess_before_lethal(p: Patcher) -> None:
    def wrapper(original):
        def lethal_damage(source, blocker, state):
            return 0  # so every blocker counts as assigned lethal damage already
        return lethal_damage
    p.wrap("combat", "lethal_damage", wrapper)


@mutant("trample-excess-refused", "a blocked trampler's controller can't assign any of its damage to the player "
        "or planeswalker it attacks", ["702.19b"])
def _trample_excess_refused(p: Patcher) -> None:
    def wrapper(original):
        def problem(game, choosing, given):
            for dealer in choosing:
                if dealer.excess_to is not None and any(to == dealer.excess_to and amount
                                                        for to, amount in given.get(dealer.object_id, ())):
                    return "a blocked creature assigns its combat damage to the creatures blocking it"
            return original(game, choosing, given)
        return problem
    p.wrap("combat", "_assignment_problem", wrapper)


@mutant("partial-combat-damage-assignment", "a creature may assign less combat damage than its power", ["510.1a"])
def _partial_assignment(p: Patcher) -> None:
    def wrapper(original):
        def problem(game, choosing, given):
            found = original(game, choosing, given)
            return None if found is not None and "assigns all of its" in found else found
        return problem
    p.wrap("combat", "_assignment_problem", wrapper)


@mutant("countered-ability-still-resolves", "countering an activated or triggered ability leaves it on the stack, "
        "so it still resolves", ["701.6a"])
def _countered_ability_resolves(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS

    original = EFFECTS["counter"]

    def counter(game, ctx, params):
        from reference_engine.effects import targets_of

        if any(t.kind == "ability" for t in targets_of(game, ctx, params["what"])):
            return None
        return original(game, ctx, params)
    p.set_item(EFFECTS, "counter", counter)


@mutant("ability-target-accepts-spells", "'target activated or triggered ability' may also target a spell",
        ["115.1"])
def _ability_target_accepts_spells(p: Patcher) -> None:
    from reference_engine.model import Zone

    def wrapper(original):
        def object_ok(game, spec, obj, controller, source_id):
            if spec["what"] == "ability":
                return obj.zone is Zone.STACK
            return original(game, spec, obj, controller, source_id)
        return object_ok
    p.wrap("targets", "_object_ok", wrapper)


@mutant("granted-abilities-only-keywords", "an effect that grants abilities grants only the keywords among them, "
        "not quoted abilities", ["613.1f"])
def _granted_only_keywords(p: Patcher) -> None:
    from reference_engine.layers import MODIFIERS

    layer, original = MODIFIERS["grant"]

    def grant(chars, params):
        original(chars, {**params, "abilities": [a for a in params["abilities"] if a.kind == "keyword"]})
    p.set_item(MODIFIERS, "grant", (layer, grant))


@mutant("attached-permanent-unaffected", "an Aura's or Equipment's 'enchanted creature' / 'equipped creature' "
        "effects apply to no permanent", ["303.4b", "301.5a"])
def _attached_unaffected(p: Patcher) -> None:
    from reference_engine.filters import CONDITIONS

    p.set_item(CONDITIONS, "attached_to_source", lambda state, obj, value, ctx, chars: not value)


@mutant("equipment-goes-with-its-creature", "an Equipment whose creature left the battlefield is put into its owner's "
        "graveyard, instead of staying on the battlefield unattached", ["301.5c", "704.5n"])
def _equipment_goes_with_its_creature(p: Patcher) -> None:
    from reference_engine import ops
    from reference_engine.layers import characteristics
    from reference_engine.model import Zone

    def wrapper(original):
        def check(game):
            state = game.state
            for obj in list(state.battlefield()):
                if obj.attached_to is not None and obj.attached_to not in state.objects \
                        and "Equipment" in characteristics(state, obj).subtypes:
                    ops.move(game, obj, Zone.GRAVEYARD)
            return (yield from original(game))
        return check
    p.wrap("sba", "check", wrapper)
