"""The action interpreter: a case's actions played on a Session, labels and selectors turned into
engine ids, verbs into moves.

`resolve` and `advance` are conveniences of the case format: they are played here, the same way for
every engine, as the passes (and empty attack and block declarations) they stand for; the engine
decides what each pass does.
"""

from __future__ import annotations

from typing import Any

from engine_kit.session import (ActivateSpec, CastSpec, Choice, CounterChoice, DamageAssignment, EngineId,
                                ManaPayment, Rejected, Session, Target)
from engine_kit.vocabulary import STEPS, verb_of

MAX_ADVANCE_TURNS = 3
#: A guard against an engine that never moves on (each pass is one engine move).
MAX_PASSES = 400


class Script:
    """Applies case actions to a session."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.upcoming: dict[str, Any] | None = None  # the case's next action, while one is played

    # --- references ------------------------------------------------------------------------------
    def object_id(self, ref: Any) -> EngineId:
        if isinstance(ref, dict):
            return self.select(ref["select"])
        return self.session.object_of(ref)

    def select(self, selector: dict[str, Any]) -> EngineId:
        """The one object a selector names. With `nth: N`, the Nth (from 1) of the objects matching the
        rest, in the order they entered their current zone (Session.matching's order)."""
        conditions = {k: v for k, v in selector.items() if k != "nth"}
        found = self.session.matching(conditions)
        if "nth" in selector:
            nth = selector["nth"]
            if not 1 <= nth <= len(found):
                raise Rejected(f"the selector {conditions} matches {len(found)} objects, so there is no #{nth}")
            return found[nth - 1]
        if len(found) != 1:
            raise Rejected(f"the selector {selector} matches {len(found)} objects, not exactly one")
        return found[0]

    def target(self, ref: Any) -> Target:
        if isinstance(ref, str) and ref in self.session.players:
            return Target("player", ref)
        if isinstance(ref, dict) and "stack" in ref:  # the Nth object from the top of the stack
            ids = self.session.stack_ids()
            if not 0 <= ref["stack"] < len(ids):
                raise Rejected(f"the stack holds {len(ids)} objects: there is no {{stack: {ref['stack']}}}")
            return Target("stack", ids[ref["stack"]])
        return Target("object", self.object_id(ref))

    def targets(self, refs: list[Any] | None) -> tuple[Target, ...]:
        return tuple(self.target(ref) for ref in refs or [])

    def payments(self, items: list[Any] | None) -> tuple[ManaPayment, ...]:
        out = []
        for item in items or []:
            if isinstance(item, dict):
                out.append(ManaPayment(self.object_id(item["object"]), item.get("ability", 0), item.get("mana")))
            else:
                out.append(ManaPayment(self.object_id(item)))
        return tuple(out)

    # --- actions ---------------------------------------------------------------------------------
    def apply(self, action: dict[str, Any], upcoming: dict[str, Any] | None = None) -> None:
        """Play one action (`upcoming`: the case's next one, if any); Rejected if the engine refuses it.
        A combat damage assignment the next action doesn't give is the format's default."""
        self.upcoming = upcoming
        self._play(action)
        self._default_damage()

    def _play(self, action: dict[str, Any]) -> None:
        verb = verb_of(action)
        value = action[verb]
        pending = self.session.pending()
        if pending is None:
            raise Rejected(self.session.game_over_reason())
        player = action.get("by", pending.player)
        if verb == "resolve":
            self.resolve(value)
        elif verb == "advance":
            self.advance(value)
        elif verb == "pass":
            self.session.pass_priority(pending.player if value is True else value)
        elif verb == "play":
            spec = value if isinstance(value, dict) and "card" in value else {"card": value}
            self.session.play_land(player, self.object_id(spec["card"]), spec.get("face", "front"))
        elif verb == "cast":
            spec = value if isinstance(value, dict) and "card" in value else {"card": value}
            self.session.cast(player, CastSpec(self.object_id(spec["card"]), self.targets(spec.get("targets")),
                                               spec.get("x"), tuple(spec.get("modes", [])),
                                               self.payments(spec.get("pay")), spec.get("face", "front")))
        elif verb == "activate":
            self.session.activate(player, ActivateSpec(
                self.object_id(value["object"]), value.get("ability", 0), self.targets(value.get("targets")),
                value.get("x"), value.get("mana"), tuple(self.object_id(s) for s in value.get("sacrifice", [])),
                self.payments(value.get("pay"))))
        elif verb == "attack":
            if isinstance(value, dict):
                attacks = [(self.object_id(a), self.target(d)) for a, d in value.items()]
            else:
                defender = next(p for p in self.session.players if p != player)
                attacks = [(self.object_id(a), Target("player", defender)) for a in value]
            self.session.declare_attackers(player, attacks)
        elif verb == "block":
            self.session.declare_blockers(player, [(self.object_id(b), self.object_id(a)) for b, a in value.items()])
        elif verb == "assign":
            self.session.assign_damage(player, [
                DamageAssignment(self.object_id(creature), tuple((self.target(to), amount) for to, amount in split.items()))
                for creature, split in value.items()])
        elif verb == "choose":
            self.session.choose(player, self.choice(value))
        else:
            raise Rejected(f"unknown action {verb!r}")

    def choice(self, value: dict[str, Any]) -> Choice:
        return Choice(
            yes=value.get("yes"),
            objects=tuple(self.object_id(o) for o in value["objects"]) if "objects" in value else None,
            targets=self.targets(value["targets"]) if "targets" in value else None,
            order=tuple(self.object_id(o) for o in value["order"]) if "order" in value else None,
            replacement=self.object_id(value["replacement"]) if "replacement" in value else None,
            color=value.get("color"), mana=value.get("mana"), number=value.get("number"),
            counter=CounterChoice(value["counter"]["kind"], value["counter"]["action"]) if "counter" in value else None,
            pay=self.payments(value.get("pay")))

    def _assignment_follows(self) -> bool:
        return self.upcoming is not None and verb_of(self.upcoming) == "assign"

    def _default_damage(self) -> None:
        """Answer pending combat damage assignments with the default, unless the next action gives one."""
        for _ in range(4):  # the active player's, then the defending player's (510.1)
            pending = self.session.pending()
            if pending is None or pending.kind != "damage" or self._assignment_follows():
                return
            self.session.assign_damage(pending.player, None)

    # --- macros ------------------------------------------------------------------------------------
    def resolve(self, count: Any) -> None:
        """All players pass in turn until `count` objects have left the top of the stack ('all': empty)."""
        session = self.session
        if not session.stack_ids():
            raise Rejected("the stack is empty: nothing to resolve")
        remaining = None if count == "all" else int(count)
        passes = 0
        while session.stack_ids() and (remaining is None or remaining > 0):
            top = session.stack_ids()[0]
            while top in session.stack_ids():
                pending = session.pending()
                if pending is None or pending.kind != "priority":
                    return  # a player must decide something else first: the script answers it next
                session.pass_priority(pending.player)
                passes += 1
                if passes > MAX_PASSES:
                    raise RuntimeError(f"the engine did not resolve the stack after {MAX_PASSES} passes")
            if remaining is not None:
                remaining -= 1

    def advance(self, value: Any) -> None:
        """Pass priority (and declare no attackers or blockers) until the step is reached."""
        session = self.session
        spec = value if isinstance(value, dict) else {"to": value}
        target = spec["to"]
        wanted_turn = spec.get("turn")
        start = (session.turn(), STEPS.index(session.step()))
        if wanted_turn is not None and (wanted_turn, STEPS.index(target)) <= start:
            raise Rejected(f"turn {wanted_turn}'s {target} step has already begun")
        for _ in range(MAX_PASSES):
            pending = session.pending()
            if pending is None:
                return
            turn, step = session.turn(), session.step()
            here = (turn, STEPS.index(step))
            if pending.kind == "priority" and step == target and here > start and \
                    (wanted_turn is None or turn == wanted_turn):
                return
            if turn > start[0] + MAX_ADVANCE_TURNS or (wanted_turn is not None and turn > wanted_turn):
                raise Rejected(f"the game never reached the {target} step with priority")
            if pending.kind == "priority":
                session.pass_priority(pending.player)
            elif pending.kind == "attackers":
                session.declare_attackers(pending.player, [])
            elif pending.kind == "blockers":
                session.declare_blockers(pending.player, [])
            elif pending.kind == "damage" and not self._assignment_follows():
                session.assign_damage(pending.player, None)
            else:
                return  # another decision: the script's next action answers it
        raise RuntimeError(f"the engine did not reach the {target} step after {MAX_PASSES} moves")

