"""What a player can be asked (decisions) and how they answer (moves), as frozen values.

The game loop yields a Decision and receives a move; the engine never decides for a player.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any, Callable, Generator

from engine_kit import Rejected
from engine_kit.values import value_class
from reference_engine.model import DecisionKind, Target


class Illegal(Rejected):
    """A move the rules do not allow; the game state is left as it was (the case's action is rejected)."""


@value_class
class Decision:
    """The game waits for `player` to make a decision of `kind`.

    kind: a DecisionKind.
    """

    player: str
    kind: DecisionKind | str
    prompt: str = ""
    options: dict[str, Any] = field(default_factory=dict, compare=False)

    def describe(self) -> str:
        return f"{self.player} to {self.prompt or self.kind}"


@value_class
class ManaActivation:
    """A mana ability activated while paying a cost (rule 601.2g)."""

    object_id: int
    ability_index: int = 0
    mana: str | None = None


@value_class
class Move:
    player: str


@value_class
class Pass(Move):
    pass


@value_class
class PlayLand(Move):
    object_id: int
    face: int = 0  # the face a modal double-faced card is played with (rule 712.12)


@value_class
class Cast(Move):
    object_id: int
    targets: tuple[Target, ...] = ()
    x: int | None = None
    modes: tuple[int, ...] = ()
    payments: tuple[ManaActivation, ...] = ()
    face: int = 0  # the face a modal double-faced card is cast with (rule 712.11b)


@value_class
class Activate(Move):
    object_id: int
    ability_index: int = 0
    targets: tuple[Target, ...] = ()
    x: int | None = None
    mana: str | None = None
    sacrifice: tuple[int, ...] = ()
    payments: tuple[ManaActivation, ...] = ()


@value_class
class DeclareAttackers(Move):
    attacks: tuple[tuple[int, Target], ...] = ()


@value_class
class DeclareBlockers(Move):
    blocks: tuple[tuple[int, int], ...] = ()


@value_class
class Choose(Move):
    yes: bool | None = None
    objects: tuple[int, ...] | None = None
    targets: tuple[Target, ...] | None = None
    order: tuple[int, ...] | None = None  # source uids, first resolves first
    replacement: int | None = None  # source uid of the replacement or prevention effect to apply first (616.1)
    modes: tuple[int, ...] | None = None  # the modes of a modal triggered ability (603.3c)
    option: str | None = None  # a word the card offers: 'choose Khans or Dragons' (614.12c)
    color: str | None = None
    mana: str | None = None
    number: int | None = None
    payments: tuple[ManaActivation, ...] = ()
    counter: tuple[str, str] | None = None  # (kind, "add" or "remove")


@value_class
class AssignDamage(Move):
    """How the player's creatures divide their combat damage (510.1c-d, 702.19b): per creature, the
    damage to each recipient. None, or a creature left out, takes the case format's default."""

    assignments: tuple[tuple[int, tuple[tuple[Target, int], ...]], ...] | None = None


#: A rules procedure that needs players' decisions: it yields each Decision, receives the move that
#: answers it (`move = yield decision`), and may return a value to the procedure that called it
#: (`chosen = yield from ...`).
Procedure = Generator[Decision, Any, Any]


#: Which moves answer which kind of decision.
ANSWERS: dict[str, tuple[type, ...]] = {
    DecisionKind.PRIORITY: (Pass, PlayLand, Cast, Activate),
    DecisionKind.ATTACKERS: (DeclareAttackers,),
    DecisionKind.BLOCKERS: (DeclareBlockers,),
    DecisionKind.DAMAGE: (AssignDamage,),
}


def answers(decision: Decision, move: Move) -> bool:
    return isinstance(move, ANSWERS.get(decision.kind, (Choose,)))


def choose_one(state: Any, player: str, prompt: str, candidates: list[int], refusal: str) -> Procedure:
    """`player` chooses exactly one of `candidates` (object ids), answered with `choose: {objects:
    [label]}`; returns the id chosen. Any other answer is rejected with `refusal`, and asked again.
    `state` is the GameState (not imported here: the state imports the moves)."""
    decision = Decision(player, DecisionKind.OBJECTS, prompt, {"candidates": candidates, "min": 1, "max": 1})
    while True:
        move = yield decision
        if move.objects is not None and len(move.objects) == 1 and move.objects[0] in candidates:
            return move.objects[0]
        state.rejection = refusal


def yes_or_no(state: Any, decision: Decision, problem: Callable[[Any], str | None],
              unanswered: str = "answer yes or no") -> Procedure:
    """Ask `decision`, a 'you may ...' question: returns the move if it is yes and `problem(move)` finds
    nothing wrong with it, None if it is no. An answer that is neither is rejected with `unanswered`, a
    yes that `problem` refuses with its reason, and the question is asked again."""
    while True:
        move = yield decision
        if move.yes is None:
            state.rejection = unanswered
            continue
        if not move.yes:
            return None
        reason = problem(move)
        if reason is None:
            return move
        state.rejection = reason
