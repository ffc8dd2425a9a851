"""The engine's public face, shaped like python-chess: read the pending decision, apply a move."""

from __future__ import annotations


from reference_engine.layers import Characteristics, characteristics
from reference_engine.model import GameObject, Target
from reference_engine.moves import Decision, Illegal, Move, Procedure, answers
from reference_engine.state import GameState
from reference_engine.turn import play


class Game:
    """A game in progress. `pending` is the decision the game waits for (None once it is over).

    `apply(move)` performs a move that answers it, or raises Illegal and leaves the game unchanged.
    """

    def __init__(self, state: GameState, *, resume: bool = True) -> None:
        self.state = state
        self._loop: Procedure = play(self, resume=resume)
        self.pending: Decision | None = self._step(None)

    def _step(self, move: Move | None) -> Decision | None:
        try:
            return next(self._loop) if move is None else self._loop.send(move)
        except StopIteration:
            return None

    def apply(self, move: Move) -> None:
        decision = self.pending
        if decision is None:
            raise Illegal(self.over_reason())
        if move.player != decision.player:
            raise Illegal(f"the game is waiting for {decision.describe()}, not for {move.player}")
        if not answers(decision, move):
            raise Illegal(f"the game is waiting for {decision.describe()}")
        self.state.rejection = None
        self.pending = self._step(move)
        if self.state.rejection is not None:
            reason, self.state.rejection = self.state.rejection, None
            raise Illegal(reason)

    def over_reason(self) -> str:
        reasons = [p.loss_reason for p in self.state.players.values() if p.lost]
        return "the game is over" + (f": {'; '.join(reasons)}" if reasons else "")

    # --- reading ---------------------------------------------------------------------------------
    def chars(self, obj: GameObject) -> Characteristics:
        return characteristics(self.state, obj)

    def describe_target(self, target: Target) -> str:
        if target.kind == "player":
            return str(target.value)
        if target.kind == "ability":
            item = next((i for i in self.state.stack if i.id == target.value), None)
            return f"the ability of {item.source_name}" if item is not None else "an ability no longer on the stack"
        obj = self.state.objects.get(target.value)  # type: ignore[arg-type]
        return self.chars(obj).name if obj is not None else f"object {target.value}"
