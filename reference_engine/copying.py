"""Copiable values (rule 707.2): what a copy of an object gets, and nothing else."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Iterable

from reference_engine.layers import copiable_values
from reference_engine.model import Ability, CardDef, Face, GameObject

if TYPE_CHECKING:
    from reference_engine.game import Game


def copiable_for_permanent(game: Game, obj: GameObject) -> tuple[Face, CardDef]:
    """Values for an object that becomes a copy of `obj`: the face that is up, as modified by other
    copy effects (707.8). The copy is single-faced, so a copy of a back face has mana value 0 (202.3b)."""
    face, _ = copiable_values(game.state, obj)
    return face, CardDef(name=face.name, layout="copy", faces=(face,))


def card_for_token_copy(game: Game, obj: GameObject, extra: Iterable[Ability] = ()) -> tuple[CardDef, int]:
    """A token copy's definition and the face it enters with (707.8a): a copy of a double-faced
    permanent is a double-faced token, back face up if the original is; exceptions are added (707.9a)."""
    face, card = copiable_values(game.state, obj)
    return token_copy_card(face, card, extra)


def token_copy_card(face: Face, card: CardDef, extra: Iterable[Ability] = ()) -> tuple[CardDef, int]:
    """The same from copiable values (`face` up, of `card`), e.g. an object's last known ones.
    Copy effects give single-faced values (707.8), so only a double-faced card's own face is double-faced."""
    extra = tuple(extra)
    index = next((i for i, f in enumerate(card.faces) if f is face), None)
    if card.double_faced and index is not None:
        faces = tuple(_with(f, extra) for f in card.faces)
        return CardDef(name=card.name, layout=card.layout, faces=faces), index
    return CardDef(name=face.name, layout="copy", faces=(_with(face, extra),)), 0


def _with(face: Face, extra: tuple[Ability, ...]) -> Face:
    return replace(face, abilities=face.abilities + extra) if extra else face
