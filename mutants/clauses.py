"""Mutants that each break one clause of a ruling no case used to check (issue 17): the clause is
named in `breaks`, and the case that notices it cites that ruling."""

from __future__ import annotations

from mutants.patching import Patcher, mutant


@mutant("color-identity-ignores-back-face-rules-text", "color identity ignores mana symbols in a back face's rules "
        "text (grub-06)", ["903.4", "903.4d"])
def _identity_ignores_back_text(p: Patcher) -> None:
    from reference_engine.layers import BASIC_LAND_MANA, _strip_reminder
    from reference_engine.mana import mana_symbols_in

    def color_identity(card) -> set[str]:
        found: set[str] = set()
        for index, face in enumerate(card.faces):
            found |= {BASIC_LAND_MANA[t] for t in face.subtypes if t in BASIC_LAND_MANA}
            if face.mana_cost:
                found |= face.mana_cost.colors()
            if face.color_indicator:
                found |= face.color_indicator
            if index == 0:
                found |= mana_symbols_in(_strip_reminder(face.text))
        return found
    p.replace("layers", "color_identity", color_identity)
