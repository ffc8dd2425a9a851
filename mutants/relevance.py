"""Mutants that break the rules some cases cite and no other mutant broke, so each case is proven by a
mutant of a rule it cites (tests/test_strength.py): target restrictions, 'and/or' subtypes, the face
a double-faced spell enters with."""

from __future__ import annotations

from mutants.patching import Patcher, mutant


@mutant("target-restrictions-ignored", "a target's restrictions ('target Wolf or Werewolf you control') aren't checked "
        "as targets are chosen, only its kind (creature, player, ...)", ["115.1", "601.2c"])
def _target_restrictions_ignored(p: Patcher) -> None:
    def wrapper(original):
        def check_targets(game, specs, chosen, controller, source_id, describe=None):
            loose = [{k: v for k, v in spec.items() if k != "filter"} for spec in specs]
            return original(game, loose, chosen, controller, source_id, describe)
        return check_targets
    p.wrap("targets", "check_targets", wrapper)


@mutant("and-or-subtypes-need-both", "'Wolves and/or Werewolves' counts only creatures that have both subtypes",
        ["205.3"])
def _and_or_needs_both(p: Patcher) -> None:
    from reference_engine.filters import CONDITIONS

    p.set_item(CONDITIONS, "subtypes_any", lambda state, obj, value, ctx, chars: all(chars.has_subtype(t) for t in value))


@mutant("dfc-spell-enters-back-face-up", "a resolving double-faced permanent spell enters the battlefield back face up, "
        "not with the face it had on the stack", ["712.13"])
def _dfc_spell_enters_back_face_up(p: Patcher) -> None:
    from reference_engine.model import Zone

    def wrapper(original):
        def enter_battlefield(game, obj, controller, **kwargs):
            if obj.zone is Zone.STACK and obj.card.double_faced:
                kwargs["transformed"] = True
            return (yield from original(game, obj, controller, **kwargs))
        return enter_battlefield
    p.wrap("ops", "enter_battlefield", wrapper)
