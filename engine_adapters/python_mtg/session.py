"""One case played on python-mtg: case moves as the engine's action tuples, applied with its own step.

`mtg.engine.env.step` applies a move through the engine's real resolution and then runs the game on
to the engine's next decision point (possibly turns later). A case observes the state right after
each move, so the adapter applies each move with that auto-advance held back, and plays `pass` as
the engine's own single-step advance (`env._advance_one`). Moves are taken from the engine's list of
legal actions; a move not in that list is rejected, and a move the engine has no way to express
(chosen targets, X, paying with chosen mana abilities, answering a choice) is unsupported.
"""

from __future__ import annotations

import contextlib
import io
from typing import Any

from engine_adapters.python_mtg import names
from engine_adapters.python_mtg.observe import Observer
from engine_adapters.python_mtg.setup import Built
from engine_kit.session import (front_face_only, ActivateSpec, CastSpec, Choice, Pending, Rejected, Session, Target,
                                     Unsupported)


class PythonMtgSession(Session):
    def __init__(self, built: Built, players: list[str], cards: dict[str, dict[str, Any]]) -> None:
        self.state = built.state
        self.labels = dict(built.labels)
        self.players = players
        self.built = built
        self.cards = cards

    # --- engine access ---------------------------------------------------------------------------
    def legal(self) -> list[tuple]:
        from mtg.engine import env

        return env.legal_actions(self.state)

    def step_with(self, action: tuple) -> None:
        """The engine's pure transition for one move, without running on to its next decision."""
        from mtg.engine import env

        held = env._advance_to_decision
        env._advance_to_decision = lambda state, max_steps=200: None
        try:
            self.state = env.step(self.state, action)
        finally:
            env._advance_to_decision = held

    def to_move(self) -> str:
        from mtg.engine import env

        return env.to_move(self.state)

    def require_to_move(self, player: str) -> None:
        if player != self.to_move():
            raise Rejected(f"python-mtg waits for {self.to_move()}, not for {player}")

    # --- reading -----------------------------------------------------------------------------------
    def pending(self) -> Pending | None:
        from mtg.engine import env

        if env.is_terminal(self.state):
            return None
        step = self.engine_step()
        if step == "declare_attackers":
            return Pending("attackers", self.to_move())
        if step == "declare_blockers" and self.state.get("attacks"):
            return Pending("blockers", self.to_move())
        return Pending("priority", self.to_move())

    def game_over_reason(self) -> str:
        loser = self.state.get("_loser")
        return f"the game is over: {loser} lost" if loser else "the game is over"

    def engine_step(self) -> str:
        return next(iter(self.state["current_step"]))[0]

    def turn(self) -> int:
        return self.state.get("_turn", 0)

    def step(self) -> str:
        return names.CASE_STEPS[self.engine_step()]

    def stack_ids(self) -> list[str]:
        return [obj for obj, _ in sorted(self.state.get("on_stack", set()), key=lambda row: -row[1])]

    def observer(self) -> Observer:
        return Observer(self.state, self.labels, self.players, self.built)

    def object_views(self) -> list[tuple[str, dict[str, Any]]]:
        return self.observer().views()

    def observe(self) -> dict[str, Any]:
        pending = self.pending()
        return self.observer().observe(pending.player if pending and pending.kind == "priority" else None)

    # --- moves -------------------------------------------------------------------------------------
    def pass_priority(self, player: str) -> None:
        from mtg.engine import env

        self.require_to_move(player)
        pending = self.pending()
        if pending is not None and pending.kind != "priority":
            raise Rejected(f"python-mtg waits for {pending.describe()}")
        state = env._clone(self.state)
        with contextlib.redirect_stdout(io.StringIO()):
            env._advance_one(state)
        self.state = state

    def play_land(self, player: str, card: str, face: str = "front") -> None:
        front_face_only(face)
        self.require_to_move(player)
        self.take(("play", player, card), f"python-mtg doesn't offer playing {self.name(card)} now")

    def cast(self, player: str, spec: CastSpec) -> None:
        front_face_only(spec.face)
        self.require_to_move(player)
        if spec.x is not None or spec.modes or spec.pay:
            raise Unsupported("python-mtg chooses X and modes and pays costs from its own pool itself; "
                              "a cast with X, modes or mana abilities to pay with can't be expressed")
        offered = [a for a in self.legal() if a[0] == "cast" and a[2] == spec.card]
        if not offered:
            raise Rejected(f"python-mtg doesn't offer casting {self.name(spec.card)} now")
        if spec.targets:
            wanted = self.engine_target(spec.targets)
            if not any("target" in a[3] for a in offered):
                raise Unsupported(f"python-mtg chooses the targets of {self.name(spec.card)} itself")
            offered = [a for a in offered if a[3].get("target") == wanted]
            if not offered:
                raise Rejected(f"python-mtg doesn't offer {self.name(spec.card)} with that target")
        self.paying_from_pool(offered[0], source=None)

    def activate(self, player: str, spec: ActivateSpec) -> None:
        self.require_to_move(player)
        if spec.x is not None or spec.mana or spec.sacrifice or spec.pay:
            raise Unsupported("python-mtg chooses X, mana, sacrifices and payment itself")
        ability_id = self.observer().ability_id(spec.object, spec.ability, self.cards)
        offered = [a for a in self.legal() if a[0] == "activate" and a[2][1] == spec.object
                   and str(a[2][0]).endswith(ability_id)]
        if not offered:
            raise Rejected(f"python-mtg doesn't offer activating that ability of {self.name(spec.object)} now")
        if spec.targets:
            wanted = self.engine_target(spec.targets)
            offered = [a for a in offered if a[3].get("target") == wanted]
            if not offered:
                raise Rejected(f"python-mtg doesn't offer that ability of {self.name(spec.object)} with that target")
        self.paying_from_pool(offered[0], source=spec.object)

    def paying_from_pool(self, action: tuple, source: str | None) -> None:
        """Apply a cast or an activation. python-mtg taps mana sources itself to pay; the case pays from
        the mana pool, so a move for which the engine tapped anything else is rejected, undone."""
        before = set(self.state.get("tapped", set()))
        saved = self.state
        self.step_with(action)
        tapped = sorted(t for (t,) in set(self.state.get("tapped", set())) - before if t != source)
        if tapped:
            self.state = saved
            raise Rejected("the cost can't be paid from the mana pool: python-mtg would tap "
                           f"{', '.join(self.name(t) for t in tapped)} to pay it")

    def engine_target(self, targets: tuple[Target, ...]) -> Any:
        if len(targets) != 1 or targets[0].kind != "object":
            raise Unsupported("python-mtg's moves take at most one target, a permanent")
        return targets[0].value

    def declare_attackers(self, player: str, attacks: list[tuple[str, Target]]) -> None:
        self.require_to_move(player)
        if any(defender.kind != "player" for _, defender in attacks):
            raise Unsupported("python-mtg's attack moves don't name what each creature attacks")
        wanted = frozenset(attacker for attacker, _ in attacks)
        self.take(("attack", wanted), "python-mtg doesn't offer that declaration of attackers")

    def declare_blockers(self, player: str, blocks: list[tuple[str, str]]) -> None:
        self.require_to_move(player)
        self.take(("block", frozenset(blocks)), "python-mtg doesn't offer that declaration of blockers")

    def choose(self, player: str, choice: Choice) -> None:
        raise Unsupported("python-mtg makes the choices of a resolving spell or ability itself")

    def take(self, action: tuple, refusal: str) -> None:
        if action not in self.legal():
            raise Rejected(refusal)
        self.step_with(action)

    def name(self, object_id: str) -> str:
        return self.observer().name(object_id)
