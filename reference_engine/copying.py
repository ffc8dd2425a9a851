"""Copiable values (rule 707.2): what a copy of an object gets, and nothing else."""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from reference_engine.layers import copiable_values
from reference_engine.model import Ability, CardDef, Face, GameObject


def copiable_for_permanent(game, obj: GameObject) -> tuple[Face, CardDef]:
    """Values for an object that becomes a copy of `obj`: the face that is up, as modified by other
    copy effects (707.8). The copy is single-faced, so a copy of a back face has mana value 0 (202.3b)."""
    face, _ = copiable_values(game.state, obj)
    return face, CardDef(name=face.name, layout="copy", faces=(face,))


def card_for_token_copy(game, obj: GameObject, extra: Iterable[Ability] = ()) -> tuple[CardDef, int]:
    """A token copy's definition and the face it enters with (707.8a): a copy of a double-faced
    permanent is a double-faced token, back face up if the original is; exceptions are added (707.9a)."""
    face, card = copiable_values(game.state, obj)
    extra = tuple(extra)
    if card is obj.card and obj.card.double_faced:
        faces = tuple(_with(f, extra) for f in card.faces)
        return CardDef(name=card.name, layout=card.layout, faces=faces), obj.face
    return CardDef(name=face.name, layout="copy", faces=(_with(face, extra),)), 0


def _with(face: Face, extra: tuple[Ability, ...]) -> Face:
    return replace(face, abilities=face.abilities + extra) if extra else face
