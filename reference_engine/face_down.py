"""Face-down permanents (rule 708): which are face down, and turning one face up."""

from __future__ import annotations

from typing import Any

from reference_engine import ops
from reference_engine.effects import Ctx, effect, objects
from reference_engine.filters import condition
from reference_engine.model import Zone


@condition("face_down")
def _face_down(state, obj, value, ctx, chars) -> bool:
    """'face-down creatures'."""
    return obj is not None and obj.face_down == bool(value)


def turn_face_up(game, obj) -> None:
    """Rule 708.8: the permanent turns face up and has its normal characteristics again; it receives a
    new timestamp (613.7f)."""
    if obj.zone is not Zone.BATTLEFIELD or not obj.face_down:
        return
    obj.face_down = False
    obj.timestamp = game.state.new_timestamp()
    game.state.touch()
    ops.emit(game, "turned_face_up", object_id=obj.id, uid=obj.uid)


@effect("turn_face_up")
def _turn_face_up(game, ctx: Ctx, params: dict[str, Any]) -> None:
    """'Turn target face-down creature face up'."""
    for obj in objects(game, ctx, params["what"]):
        turn_face_up(game, obj)
