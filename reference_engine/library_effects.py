"""'Put target creature on top of its owner's library' (Excommunicate, Griptide): the permanent goes
into its owner's library (400.3), on top; a melded permanent becomes its two cards there, in the
order its owner chooses (712.21a)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reference_engine import ops
from reference_engine.effects import Ctx, effect, objects
from reference_engine.meld import arrange_in_library
from reference_engine.model import Zone
from reference_engine.moves import Procedure

if TYPE_CHECKING:
    from reference_engine.game import Game


@effect("put_on_top_of_library")
def _put_on_top_of_library(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """{what}: on top of its owner's library."""
    for obj in objects(game, ctx, params["what"]):
        if obj.zone is Zone.LIBRARY:
            continue
        new = ops.move(game, obj, Zone.LIBRARY, position=0, arranged=True)
        yield from arrange_in_library(game, new)
