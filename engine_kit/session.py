"""What an adapter implements for one case on one engine: its moves and its observations.

The action interpreter (engine_kit/script.py) turns case actions into calls on a `Session`; each
engine's session turns those into the engine's own moves. A move the engine refuses raises
`Rejected` and leaves the game as it was; something the engine (or the adapter) cannot express
raises `Unsupported`, and the whole case is skipped with that reason; a case the engine can't set
up or play for a reason it can state (a limit) raises `CaseError`, and the case is errored with
that message.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from engine_kit.values import value_class

#: An object id of the engine's own choosing (an int, a string, ...): the kit only passes it back.
EngineId = Any


class Rejected(Exception):
    """The engine refused the action: as the engine sees it, the rules forbid it."""


class Unsupported(Exception):
    """The case needs something this engine, or this adapter, cannot express: the case is skipped."""


class CaseError(Exception):
    """The engine can't set up or play this case, for a reason it states (no card data, a limit it
    reached): the case is errored with this message alone, without a traceback."""


@dataclass(frozen=True)
class Pending:
    """The decision a game waits for. kind: priority, attackers, blockers, damage (a player announces
    how their creatures assign combat damage, 510.1: answered by `assign_damage`), or decision (any
    other, answered by `choose`)."""

    kind: str
    player: str
    detail: str = ""

    def describe(self) -> str:
        what = {"priority": "priority", "attackers": "attackers", "blockers": "blockers",
                "damage": "combat damage assignment"}.get(self.kind, self.detail)
        return f"{self.player} ({what or self.kind})"


@value_class
class Target:
    kind: str  # "player", "object", or "stack" (a spell or ability on the stack, by its id in stack_ids())
    value: Any  # a player's name, an engine object id, or a stack id


@value_class
class ManaPayment:
    """A mana ability activated while paying a cost (rule 601.2g)."""

    object: EngineId
    ability: int = 0
    mana: str | None = None


@value_class
class CastSpec:
    card: EngineId
    targets: tuple[Target, ...] = ()
    x: int | None = None
    modes: tuple[int, ...] = ()
    pay: tuple[ManaPayment, ...] = ()
    face: str = "front"  # or "back": the face a modal double-faced card is cast with (712.11b)


@value_class
class ActivateSpec:
    object: EngineId
    ability: int = 0
    targets: tuple[Target, ...] = ()
    x: int | None = None
    mana: str | None = None
    sacrifice: tuple[EngineId, ...] = ()
    pay: tuple[ManaPayment, ...] = ()


@value_class
class DamageAssignment:
    """How one attacking or blocking creature divides its combat damage (510.1c-d, 702.19b)."""

    creature: EngineId
    amounts: tuple[tuple[Target, int], ...]  # (a blocker, attacker or the player/planeswalker attacked, damage)


@value_class
class CounterChoice:
    """A kind of counter on an object, and whether to put another of that kind on it or remove one."""

    kind: str  # as the case format names it: "+1/+1", "level", ...
    action: str  # "add" or "remove"


@value_class
class Choice:
    """An answer to a decision; only the fields the case gave are set."""

    yes: bool | None = None
    objects: tuple[EngineId, ...] | None = None
    targets: tuple[Target, ...] | None = None
    order: tuple[EngineId, ...] | None = None
    replacement: EngineId | None = None  # the source of the replacement or prevention effect applied first
    modes: tuple[int, ...] | None = None  # the modes of a modal triggered ability, by index (603.3c, 700.2b)
    option: str | None = None  # one of the words a card offers ('choose Khans or Dragons', 614.12c)
    color: str | None = None
    mana: str | None = None
    number: int | None = None
    counter: CounterChoice | None = None
    pay: tuple[ManaPayment, ...] = field(default_factory=tuple)


class Session(ABC):
    """One case being played on one engine. `labels` maps case labels to engine object ids."""

    players: list[str]
    labels: dict[str, EngineId]

    # --- references ----------------------------------------------------------------------------------
    def object_of(self, label: str) -> EngineId:
        """The engine id of the object a case label names now; Rejected if there is none."""
        if label not in self.labels:
            raise Rejected(f"unknown label {label!r}")
        return self.labels[label]

    def matching(self, selector: dict[str, Any]) -> list[EngineId]:
        """The objects an action's selector matches (by their observed fields), in the order they
        entered their current zone, oldest first (`nth` picks among them: capability object-order)."""
        return [engine_id for engine_id, view in self.object_views() if matches(view, selector)]

    # --- reading -----------------------------------------------------------------------------------
    @abstractmethod
    def pending(self) -> Pending | None:
        """The decision the game waits for, or None once the game is over."""

    def turn(self) -> int:
        """The turn number (for `advance`; read from the observation unless the engine says faster)."""
        return int(self.observe()["game"]["turn"])

    def step(self) -> str:
        """The current step, as named in engine_kit.vocabulary.STEPS (for `advance`)."""
        return str(self.observe()["game"]["step"])

    def stack_ids(self) -> list[EngineId]:
        """Ids of the objects on the stack, top first (for `resolve`, and `{stack: N}` targets)."""
        raise Unsupported("the adapter can't read the stack")

    def object_views(self) -> list[tuple[EngineId, dict[str, Any]]]:
        """Every object in every zone, as observed (the protocol's object fields), with its engine id
        (for selectors)."""
        raise Unsupported("the adapter can't select objects")

    @abstractmethod
    def observe(self) -> dict[str, Any]:
        """The whole observed state: {"game", "players", "objects"}."""

    def game_over_reason(self) -> str:
        return "the game is over"

    def waiting_for(self) -> str:
        """The decision the game waits for, in words."""
        pending = self.pending()
        return pending.describe() if pending is not None else self.game_over_reason()

    # --- moves: each raises Rejected (state unchanged) or Unsupported ------------------------------
    # Passing priority is the one move every case needs; an engine without the others leaves them
    # out, and a case using one is skipped, naming it.
    @abstractmethod
    def pass_priority(self, player: str) -> None: ...

    def play_land(self, player: str, card: EngineId, face: str = "front") -> None:
        """face: "front", or "back" to play a modal double-faced card's back face (712.12)."""
        raise Unsupported("the adapter can't play a land")

    def cast(self, player: str, spec: CastSpec) -> None:
        raise Unsupported("the adapter can't cast a spell")

    def activate(self, player: str, spec: ActivateSpec) -> None:
        raise Unsupported("the adapter can't activate an ability")

    def declare_attackers(self, player: str, attacks: list[tuple[EngineId, Target]]) -> None:
        raise Unsupported("the adapter can't declare attackers")

    def declare_blockers(self, player: str, blocks: list[tuple[EngineId, EngineId]]) -> None:
        raise Unsupported("the adapter can't declare blockers")

    def choose(self, player: str, choice: Choice) -> None:
        raise Unsupported("the adapter can't make a choice")

    def assign_damage(self, player: str, assignments: list[DamageAssignment] | None) -> None:
        """Answer a pending `damage` decision (510.1): how each listed creature of `player` divides its
        combat damage; None, or a creature left out, takes the case format's default assignment
        (docs/case-format.md). An engine that never asks (it applies the default itself) needn't
        implement this: a case that gives an assignment requires `damage-assignment`."""
        raise Unsupported("the adapter can't assign combat damage")

def front_face_only(face: str) -> None:
    """The engine can't be told which face of a modal double-faced card to cast or play (712.11b, 712.12)."""
    if face != "front":
        raise Unsupported("the adapter can't choose the back face of a modal double-faced card to cast or play")


def matches(view: dict[str, Any], selector: dict[str, Any]) -> bool:
    """Does an observed object meet every condition of a selector?"""
    for key, wanted in selector.items():
        if key in ("types", "subtypes"):
            have = {str(v).casefold() for v in view.get(key) or []}
            if not all(str(w).casefold() in have for w in wanted):
                return False
        elif view.get(key) != wanted:
            return False
    return True
