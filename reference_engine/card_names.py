"""'Choose a card name' (rule 201.3) and the effects that refer to the name chosen (Pithing Needle).

A double-faced card has two names, one per face, and a player naming it names one of them: either
face, not both (712.19); the combined back face of a meld pair is a name that may be chosen too."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reference_engine.filters import condition
from reference_engine.model import DecisionKind
from reference_engine.moves import Decision, Procedure

if TYPE_CHECKING:
    from reference_engine.game import Game


def card_name_problem(game: Game, name: str | None) -> str | None:
    """Why `name` can't be chosen as a card name, or None. The engine knows the cards of this game: the
    name of a double-faced card as a whole (both faces' names) is refused; a face's name is a card name."""
    if not name:
        return "choose a card name"
    for obj in game.state.objects.values():
        card = obj.card
        if card.double_faced and name == card.name and name not in (f.name for f in card.faces):
            return (f"{name!r} names both faces of a double-faced card: choose the name of one face "
                    f"({' or '.join(repr(f.name) for f in card.faces)}) (rule 712.19)")
    return None


def choose_card_name(game: Game, face_name: str, controller: str) -> Procedure:
    """'As this enters, choose a card name' (614.12a): answered with `choose: {option: <name>}`."""
    decision = Decision(controller, DecisionKind.OPTION, f"choose a card name as {face_name} enters")
    while True:
        move = yield decision
        problem = card_name_problem(game, move.option)
        if problem is None:
            return move.option
        game.state.rejection = problem


@condition("has_chosen_name")
def _has_chosen_name(state, obj, value, ctx, chars) -> bool:
    """'Sources with the chosen name': the object's name is the card name its source chose as it entered."""
    source = state.objects.get(ctx.source_id) if ctx.source_id is not None else None
    chosen = source.chosen.get("card_name") if source is not None else None
    return (chosen is not None and chars.name == chosen) == bool(value)
