"""Face-down permanents (rule 708): turning them face down and face up, and the triggers on turning face up.

Double-faced permanents can't be turned face down (712.16): the attempt does nothing. Transforming
is not turning face up or face down (701.27b): "whenever a permanent is turned face up" watches the
event `turned_face_up`, which transforming never emits."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reference_engine import ops
from reference_engine.effects import Ctx, effect, objects
from reference_engine.filters import FilterContext, condition, matches
from reference_engine.model import GameObject, Zone
from reference_engine.triggers import matcher

if TYPE_CHECKING:
    from reference_engine.game import Game


def can_be_turned_face_down(obj: GameObject) -> bool:
    """Rule 712.16: melded and other double-faced permanents can't be turned face down."""
    return not obj.card.double_faced


def turn_face_down(game: Game, obj: GameObject) -> bool:
    """Turn a permanent face down (708.2): it becomes a 2/2 creature with no other characteristics
    (layer 1b). Returns whether it was turned face down."""
    if obj.zone is not Zone.BATTLEFIELD or obj.face_down or not can_be_turned_face_down(obj):
        return False
    obj.face_down = True
    game.state.touch()
    return True


def turn_face_down_as_enters(game: Game, controller: str, source_id: int | None, filt: dict[str, Any]) -> None:
    """'As this creature enters, turn all other [permanents] face down' (Ixidron): a replacement effect
    on its entering (614.1c), applied before it is on the battlefield, so 'other' is every permanent."""
    state = game.state
    ctx = FilterContext(controller, source_id)
    for obj in [o for o in state.battlefield() if matches(state, o, filt, ctx)]:
        turn_face_down(game, obj)


@condition("face_down")
def _face_down(state, obj, value, ctx, chars) -> bool:
    """'The number of face-down creatures' (708)."""
    return bool(obj is not None and obj.face_down) == bool(value)


@matcher("turned_face_up", "turned_face_up")
def _turned_face_up(game: Game, event, value, source) -> bool:
    """'Whenever a permanent is turned face up' (708.8); value: `any`, `self`, or a filter."""
    if value == "self":
        return event.data["uid"] == source.uid
    if value == "any":
        return True
    obj = game.state.objects.get(event.data["object_id"])
    from reference_engine.triggers import _ctx

    return obj is not None and matches(game.state, obj, value, _ctx(source))


def face_turned_up(obj: GameObject) -> int:
    """Rule 712.15a: a double-faced permanent turned face up has its front face up."""
    return 0


def turn_face_up(game: Game, obj) -> None:
    """Rule 708.8: the permanent turns face up and has its normal characteristics again; it receives a
    new timestamp (613.7f). A double-faced one shows its front face (712.15a)."""
    if obj.zone is not Zone.BATTLEFIELD or not obj.face_down:
        return
    obj.face_down = False
    obj.face = face_turned_up(obj)
    obj.timestamp = game.state.new_timestamp()
    game.state.touch()
    as_turned_face_up(game, obj)
    ops.emit(game, "turned_face_up", object_id=obj.id, uid=obj.uid)


def as_turned_face_up(game: Game, obj: GameObject) -> None:
    """'As this creature is turned face up, put five +1/+1 counters on it' (`replacement:
    {as_turned_face_up: {counters}}`): a replacement effect (614.1e), part of the event of turning it
    face up, so it is face up with the counters at once: nothing can see it without them, and nothing
    goes on the stack."""
    from reference_engine.layers import characteristics

    for ability in characteristics(game.state, obj).abilities:
        spec = ability.data.get("as_turned_face_up") if ability.kind == "replacement" else None
        for kind, amount in ((spec or {}).get("counters") or {}).items():
            ops.add_counters_unasked(game, obj, kind, int(amount))  # part of turning it face up


@effect("turn_face_up")
def _turn_face_up(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """'Turn target face-down creature face up'."""
    for obj in objects(game, ctx, params["what"]):
        turn_face_up(game, obj)
