"""Mutants for issue 19, second round: face-down double-faced cards (712.15a), copies of a spell for
each object it could target or with a specified new target (707.10d-e), choosing a card name (712.19),
static copy effects (707.2c), tokens created by name (111.11) and melded permanents leaving (712.21)."""

from __future__ import annotations

from mutants.patching import Patcher, mutant


@mutant("face-down-double-faced-card-turned-up-back-face",
        "a face-down double-faced permanent turned face up has its back face up", ["712.15a"])
def _turned_up_back_face(p: Patcher) -> None:
    p.replace("face_down", "face_turned_up", lambda obj: 1 if obj.card.double_faced else 0)


# --- copies of a spell with their targets given (707.10d-e) --------------------------------------
@mutant("copy-for-each-ignores-target-legality",
        "'copy that spell for each creature it could target' copies it for every such creature, legal "
        "target or not", ["707.10d"])
def _for_each_ignores_legality(p: Patcher) -> None:
    p.replace("spell_copies", "could_target", lambda game, spell, target, controller: True)


@mutant("copy-with-new-target-ignores-its-legality",
        "'the copy targets [it]' creates the copy even when that object isn't a legal target", ["707.10e"])
def _new_target_legality_ignored(p: Patcher) -> None:
    p.replace("spell_copies", "new_target_allowed", lambda game, spell, target, controller: True)


@mutant("copy-with-given-target-changes-only-the-first-target",
        "a copy given one new target takes it for the first instance of 'target' only, keeping the "
        "original's other targets", ["707.10d", "707.10e"])
def _only_first_target(p: Patcher) -> None:
    p.replace("spell_copies", "copy_targets", lambda item, target: (target,) + tuple(item.targets[1:]))
