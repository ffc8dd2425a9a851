"""The reference engine as an engine_kit Session: the kit's action interpreter plays a case's
actions as calls here, which become the engine's moves (reference_engine/moves.py).

Labels name physical cards and tokens (uids): a label is looked up each time it is used, so it
follows its card from zone to zone."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine_kit import ActivateSpec, CastSpec, Choice, DamageAssignment, ManaPayment, Pending, Session, Target
from reference_engine.game import Game
from reference_engine.layers import characteristics
from reference_engine.model import Target as EngineTarget
from reference_engine.moves import (Activate, AssignDamage, Cast, Choose, DeclareAttackers, DeclareBlockers, Illegal,
                                    ManaActivation, Pass, PlayLand)
from reference_engine.observe import observe, observe_object

FACES = {"front": 0, "back": 1}  # the face a card is cast or played with (712.11b, 712.12)


class ReferenceSession(Session):
    def __init__(self, game: Game, labels: dict[str, int]) -> None:
        self.game = game
        self.uids = labels  # label -> uid
        self.players = list(game.state.players)
        # The decisions `pending` described (by id, kept alive here), with their descriptions.
        self._described: dict[int, tuple[Any, Pending]] = {}

    # --- references ------------------------------------------------------------------------------
    @property
    def labels(self) -> dict[str, Any]:  # type: ignore[override]
        """Each label's object id now (labels name uids, which keep across zone changes)."""
        out = {}
        for label, uid in self.uids.items():
            obj = self.game.state.find_uid(uid)
            if obj is not None:
                out[label] = obj.id
        return out

    def object_of(self, label: str) -> int:
        uid = self.uids.get(label)
        if uid is None:
            raise Illegal(f"unknown label {label!r}")
        obj = self.game.state.find_uid(uid)
        if obj is None:
            raise Illegal(f"{label} no longer exists")
        return obj.id

    def matching(self, selector: dict[str, Any]) -> list[Any]:
        state = self.game.state
        found = []
        for obj in state.objects.values():
            chars = characteristics(state, obj)
            if "name" in selector and chars.name != selector["name"]:
                continue
            if "zone" in selector and obj.zone.value != selector["zone"]:
                continue
            if "controller" in selector and chars.controller != selector["controller"]:
                continue
            if "owner" in selector and obj.owner != selector["owner"]:
                continue
            if "token" in selector and obj.is_token != selector["token"]:
                continue
            if not all(t in chars.types for t in selector.get("types", [])):
                continue
            if not all(chars.has_subtype(t) for t in selector.get("subtypes", [])):
                continue
            found.append(obj.id)
        return sorted(found)  # ids are given in order as objects enter a zone: oldest first

    # --- reading ---------------------------------------------------------------------------------
    def pending(self) -> Pending | None:
        decision = self.game.pending
        if decision is None:
            return None
        described = self._described.get(id(decision))  # asked again and again while a decision waits
        if described is None or described[0] is not decision:
            described = self._described[id(decision)] = (decision, Pending(decision.kind, decision.player,
                                                                           decision.prompt))
        return described[1]

    def turn(self) -> int:
        return self.game.state.turn

    def step(self) -> str:
        return self.game.state.step.value

    def stack_ids(self) -> list[Any]:
        stack = self.game.state.stack
        return [item.id for item in reversed(stack)] if stack else []

    def object_views(self) -> list[tuple[Any, dict[str, Any]]]:
        by_uid = {uid: label for label, uid in self.uids.items()}
        return [(obj.id, observe_object(self.game, obj, by_uid)) for obj in self.game.state.objects.values()]

    def observe(self) -> dict[str, Any]:
        return observe(self.game, self.uids)

    def game_over_reason(self) -> str:
        return self.game.over_reason()

    def _target(self, target: Target) -> EngineTarget:
        """A kit target as the engine's: `{stack: N}` names a spell (its object) or an ability (its stack id)."""
        if target.kind == "stack":
            item = next(i for i in self.game.state.stack if i.id == target.value)
            if item.object_id is not None:  # a spell: its object
                return EngineTarget("object", item.object_id)
            return EngineTarget("ability", item.id)
        return EngineTarget(target.kind, target.value)

    def _targets(self, targets: tuple[Target, ...]) -> tuple[EngineTarget, ...]:
        return tuple(self._target(t) for t in targets)

    # --- moves -----------------------------------------------------------------------------------
    def pass_priority(self, player: str) -> None:
        self.game.apply(_pass(player))

    def play_land(self, player: str, card: Any, face: str = "front") -> None:
        self.game.apply(PlayLand(player, card, FACES[face]))

    def cast(self, player: str, spec: CastSpec) -> None:
        self.game.apply(Cast(player, spec.card, self._targets(spec.targets), spec.x, spec.modes, _payments(spec.pay),
                             FACES[spec.face]))

    def activate(self, player: str, spec: ActivateSpec) -> None:
        self.game.apply(Activate(player, spec.object, spec.ability, self._targets(spec.targets), spec.x, spec.mana,
                                 spec.sacrifice, _payments(spec.pay)))

    def declare_attackers(self, player: str, attacks: list[tuple[Any, Target]]) -> None:
        self.game.apply(DeclareAttackers(player, tuple((a, self._target(d)) for a, d in attacks)))

    def assign_damage(self, player: str, assignments: list[DamageAssignment] | None) -> None:
        self.game.apply(AssignDamage(player, None if assignments is None else tuple(
            (a.creature, tuple((self._target(to), amount) for to, amount in a.amounts)) for a in assignments)))

    def declare_blockers(self, player: str, blocks: list[tuple[Any, Any]]) -> None:
        self.game.apply(DeclareBlockers(player, tuple(blocks)))

    def choose(self, player: str, choice: Choice) -> None:
        objects = self.game.state.objects
        self.game.apply(Choose(
            player, yes=choice.yes, objects=choice.objects,
            targets=self._targets(choice.targets) if choice.targets is not None else None,
            order=tuple(objects[o].uid for o in choice.order) if choice.order is not None else None,
            replacement=objects[choice.replacement].uid if choice.replacement is not None else None,
            modes=choice.modes, option=choice.option,
            color=choice.color, mana=choice.mana, number=choice.number, payments=_payments(choice.pay),
            counter=(choice.counter.kind, choice.counter.action) if choice.counter is not None else None))


@lru_cache(maxsize=None)
def _pass(player: str) -> Pass:
    """A player passes priority: a value, made once per player."""
    return Pass(player)


def _payments(items: tuple[ManaPayment, ...]) -> tuple[ManaActivation, ...]:
    return tuple(ManaActivation(p.object, p.ability, p.mana) for p in items)
