"""Playing a case's actions: case-local labels and verbs translated into the engine's moves.

`resolve` and `advance` are conveniences of the case format, played here as the passes (and empty
attack and block declarations) they stand for.
"""

from __future__ import annotations

from typing import Any

from reference_engine.game import Game
from reference_engine.layers import characteristics
from reference_engine.model import STEPS, Step, Target, Zone
from reference_engine.moves import (Activate, Cast, Choose, DeclareAttackers, DeclareBlockers, Illegal,
                                    ManaActivation, Move, Pass, PlayLand)

FACES = {"front": 0, "back": 1}  # `face` of a cast or play action
MAX_ADVANCE_TURNS = 3


class Script:
    """Applies case actions to a game, resolving labels (each names a physical card or token)."""

    def __init__(self, game: Game, labels: dict[str, int]) -> None:
        self.game = game
        self.labels = labels

    # --- references ------------------------------------------------------------------------------
    def object_id(self, ref: Any) -> int:
        state = self.game.state
        if isinstance(ref, dict):
            return self._select(ref["select"])
        uid = self.labels.get(ref)
        if uid is None:
            raise Illegal(f"unknown label {ref!r}")
        obj = state.find_uid(uid)
        if obj is None:
            raise Illegal(f"{ref} no longer exists")
        return obj.id

    def _select(self, selector: dict[str, Any]) -> int:
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
        if len(found) != 1:
            raise Illegal(f"the selector {selector} matches {len(found)} objects, not exactly one")
        return found[0]

    def target(self, ref: Any) -> Target:
        if isinstance(ref, str) and ref in self.game.state.players:
            return Target("player", ref)
        return Target("object", self.object_id(ref))

    def payments(self, items: list[Any]) -> tuple[ManaActivation, ...]:
        out = []
        for item in items or []:
            if isinstance(item, dict):
                out.append(ManaActivation(self.object_id(item["object"]), item.get("ability", 0), item.get("mana")))
            else:
                out.append(ManaActivation(self.object_id(item)))
        return tuple(out)

    # --- actions ---------------------------------------------------------------------------------
    def apply(self, action: dict[str, Any]) -> None:
        """Play one action; Illegal if the game rejects it."""
        verb = next(k for k in action if k not in ("by", "note", "checkpoint"))
        value = action[verb]
        pending = self.game.pending
        if pending is None:
            raise Illegal(self.game.over_reason())
        player = action.get("by", pending.player)
        if verb == "resolve":
            self._resolve(value)
        elif verb == "advance":
            self._advance(value)
        elif verb == "pass":
            self.game.apply(Pass(pending.player if value is True else value))
        else:
            self.game.apply(self._move(verb, value, player))

    def _move(self, verb: str, value: Any, player: str) -> Move:
        if verb == "play":
            spec = value if isinstance(value, dict) and "card" in value else {"card": value}
            return PlayLand(player, self.object_id(spec["card"]), FACES[spec.get("face", "front")])
        if verb == "cast":
            spec = value if isinstance(value, dict) and "card" in value else {"card": value}
            return Cast(player, self.object_id(spec["card"]), tuple(self.target(t) for t in spec.get("targets", [])),
                        spec.get("x"), tuple(spec.get("modes", [])), self.payments(spec.get("pay")),
                        FACES[spec.get("face", "front")])
        if verb == "activate":
            return Activate(player, self.object_id(value["object"]), value.get("ability", 0),
                            tuple(self.target(t) for t in value.get("targets", [])), value.get("x"),
                            value.get("mana"), tuple(self.object_id(s) for s in value.get("sacrifice", [])),
                            self.payments(value.get("pay")))
        if verb == "attack":
            if isinstance(value, dict):
                attacks = tuple((self.object_id(a), self.target(d)) for a, d in value.items())
            else:
                defender = next(p for p in self.game.state.players if p != player)
                attacks = tuple((self.object_id(a), Target("player", defender)) for a in value)
            return DeclareAttackers(player, attacks)
        if verb == "block":
            return DeclareBlockers(player, tuple((self.object_id(b), self.object_id(a)) for b, a in value.items()))
        if verb == "choose":
            return Choose(
                player, yes=value.get("yes"),
                objects=tuple(self.object_id(o) for o in value["objects"]) if "objects" in value else None,
                targets=tuple(self.target(t) for t in value["targets"]) if "targets" in value else None,
                order=tuple(self.game.state.objects[self.object_id(o)].uid for o in value["order"])
                if "order" in value else None,
                replacement=self.game.state.objects[self.object_id(value["replacement"])].uid
                if "replacement" in value else None,
                color=value.get("color"), mana=value.get("mana"), number=value.get("number"),
                payments=self.payments(value.get("pay")),
                counter=(value["counter"]["kind"], value["counter"]["action"]) if "counter" in value else None)
        raise Illegal(f"unknown action {verb!r}")

    # --- macros ------------------------------------------------------------------------------------
    def _resolve(self, count: Any) -> None:
        """All players pass in turn until `count` objects have left the top of the stack ('all': empty)."""
        state = self.game.state
        if not state.stack:
            raise Illegal("the stack is empty: nothing to resolve")
        remaining = None if count == "all" else int(count)
        while state.stack and (remaining is None or remaining > 0):
            top = state.stack[-1].id
            while any(item.id == top for item in state.stack):
                pending = self.game.pending
                if pending is None or pending.kind != "priority":
                    return  # a player must decide something else first: the script answers it next
                self.game.apply(Pass(pending.player))
            if remaining is not None:
                remaining -= 1

    def _advance(self, value: Any) -> None:
        """Pass priority (and declare no attackers or blockers) until the step is reached."""
        spec = value if isinstance(value, dict) else {"to": value}
        target = Step(spec["to"])
        state = self.game.state
        start = (state.turn, STEPS.index(state.step))
        wanted_turn = spec.get("turn")
        if wanted_turn is not None and (wanted_turn, STEPS.index(target)) <= start:
            raise Illegal(f"turn {wanted_turn}'s {target.value} step has already begun")
        while True:
            pending = self.game.pending
            if pending is None:
                return
            here = (state.turn, STEPS.index(state.step))
            if pending.kind == "priority" and state.step is target and here > start and \
                    (wanted_turn is None or state.turn == wanted_turn):
                return
            if state.turn > start[0] + MAX_ADVANCE_TURNS or (wanted_turn is not None and state.turn > wanted_turn):
                raise Illegal(f"the game never reached the {target.value} step with priority")
            if pending.kind == "priority":
                self.game.apply(Pass(pending.player))
            elif pending.kind == "attackers":
                self.game.apply(DeclareAttackers(pending.player, ()))
            elif pending.kind == "blockers":
                self.game.apply(DeclareBlockers(pending.player, ()))
            else:
                return  # another decision: the script's next action answers it
