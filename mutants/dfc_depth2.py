"""Mutants for issue 19, second round: face-down double-faced cards (712.15a), copies of a spell for
each object it could target or with a specified new target (707.10d-e), choosing a card name (712.19),
static copy effects (707.2c), tokens created by name (111.11) and melded permanents leaving (712.21)."""

from __future__ import annotations

from mutants.patching import Patcher, mutant


@mutant("face-down-double-faced-card-turned-up-back-face",
        "a face-down double-faced permanent turned face up has its back face up", ["712.15a"])
def _turned_up_back_face(p: Patcher) -> None:
    p.replace("face_down", "face_turned_up", lambda obj: 1 if obj.card.double_faced else 0)
