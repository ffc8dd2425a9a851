"""'As long as a card exiled with this creature is a creature card, this creature has the power,
toughness, and creature types of the last creature card exiled with it. It's still a Shapeshifter'
(Duplicant): static modifiers that read the cards linked to their source (607.2a, linked.py).

`pt_of_last_exiled` (layer 7b) and `creature_types_of_last_exiled: {keep: [...]}` (layer 4) apply only
while such a card is in exile; the last one is the one with the latest timestamp (613.7), which for the
two cards of an exiled melded permanent is the order the exiling player chose (712.21b, linked.py)."""

from __future__ import annotations

from typing import Any, Callable

from reference_engine.layers import Characteristics, all_creature_types, modifier
from reference_engine.model import GameObject, Zone
from reference_engine.state import GameState

LAST_EXILED_MODIFIERS = ("pt_of_last_exiled", "creature_types_of_last_exiled")


def last_exiled_creature(state: GameState, source_id: int | None) -> Callable[[], GameObject | None]:
    """The creature card exiled with `source_id` last, still in exile (None if there is none)."""
    def last() -> GameObject | None:
        ids = state.linked.get(source_id, []) if source_id is not None else []
        cards = [state.objects[i] for i in ids if i in state.objects and state.objects[i].zone is Zone.EXILE
                 and "Creature" in state.objects[i].card.faces[0].types]
        return max(cards, key=lambda c: c.timestamp, default=None)
    return last


@modifier("pt_of_last_exiled", "7b")
def _pt_of_last_exiled(chars: Characteristics, params: dict[str, Any]) -> None:
    """The power and toughness of the last creature card exiled with it, as printed ('*' is 0, 208.2a)."""
    from reference_engine.statics import _printed_number

    card = params["_last"]()
    if card is not None:
        face = card.card.faces[0]
        chars.power, chars.toughness = _printed_number(face.power), _printed_number(face.toughness)


@modifier("creature_types_of_last_exiled", "4")
def _creature_types_of_last_exiled(chars: Characteristics, params: dict[str, Any]) -> None:
    """Its creature types become those of the last creature card exiled with it, and those `keep` lists."""
    card = params["_last"]()
    if card is None:
        return
    types = all_creature_types()
    kept = [s for s in chars.subtypes if s not in types]
    new = [s for s in card.card.faces[0].subtypes if s in types]
    chars.subtypes = kept + new + [s for s in params.get("keep", []) if s not in new]
    chars.all_creature_types = False
