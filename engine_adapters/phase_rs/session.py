"""One case played on phase.rs: the case's moves as the engine's GameActions, answered prompt by prompt.

Casting and activating are several engine actions (the cast, each target, X, the mana payment). If
the engine refuses any of them, the game is restored to the state before the move, so a rejected
move leaves the state unchanged as the protocol requires. The engine never gets to choose for a
player unnoticed: where it fills in a choice itself (a sole legal target, mana tapped automatically
to finish a payment), the adapter checks the result against the case and rejects the move if the
engine did something other than what the case says.
"""

from __future__ import annotations

from typing import Any

from engine_adapters.phase_rs import names
from engine_adapters.phase_rs.observe import Observer
from engine_adapters.session import (ActivateSpec, CastSpec, Choice, ManaPayment, Pending, Rejected, Session,
                                     Target, Unsupported)

#: The engine's prompts for priority and for the combat declarations; any other prompt is a decision.
PRIORITY, ATTACKERS, BLOCKERS = "Priority", "DeclareAttackers", "DeclareBlockers"
MAX_PROMPTS = 50


class PhaseSession(Session):
    def __init__(self, engine: Any, game: Any, labels: dict[str, int], seats: dict[str, int]) -> None:
        self.engine = engine
        self.game = game
        self.labels = labels
        self.seats = seats
        self.players = list(seats)

    # --- engine access ---------------------------------------------------------------------------
    def apply(self, player: str, action: dict[str, Any]) -> Any:
        """Apply one engine action for a player; the engine's refusal becomes Rejected."""
        from phase import GameAction

        try:
            move = GameAction.from_dict(action)
        except ValueError as exc:  # a malformed action is the adapter's bug, not a rejection
            raise RuntimeError(f"the adapter built an invalid phase.rs action {action}: {exc}") from exc
        try:
            return self.game.apply(self.seats[player], move)
        except ValueError as exc:
            raise Rejected(str(exc)) from None

    def waiting(self) -> dict[str, Any]:
        return self.game.waiting_for()

    def saved(self) -> dict[str, Any]:
        return self.game.state()

    def restore(self, saved: dict[str, Any]) -> None:
        self.game = self.engine.load_game(saved)

    def atomically(self, move) -> None:
        """Run a compound move; if any part is refused, put the game back as it was."""
        saved = self.saved()
        try:
            move()
        except (Rejected, Unsupported):
            self.restore(saved)
            raise

    def seat_player(self, seat: int | None) -> str | None:
        return self.players[seat] if seat is not None else None

    def object(self, object_id: int) -> dict[str, Any]:
        obj = self.game.object(object_id)
        if obj is None:
            raise Rejected(f"object {object_id} no longer exists")
        return obj

    # --- reading -----------------------------------------------------------------------------------
    def pending(self) -> Pending | None:
        waiting = self.waiting()
        kind = waiting["type"]
        data = waiting.get("data") or {}
        if kind == "GameOver":
            return None
        player = self.seat_player(data.get("player", self.game.priority_player()))
        if kind == PRIORITY:
            return Pending("priority", player)
        if kind == ATTACKERS:
            return Pending("attackers", player)
        if kind == BLOCKERS:
            return Pending("blockers", player)
        return Pending("decision", player, kind)

    def game_over_reason(self) -> str:
        data = self.waiting().get("data") or {}
        winner = data.get("winner")
        return "the game is over" + (f": {self.seat_player(winner)} won" if winner is not None else "")

    def turn(self) -> int:
        return self.game.turn

    def step(self) -> str:
        return names.CASE_STEPS[self.game.phase]

    def stack_ids(self) -> list[int]:
        return [entry["id"] for entry in reversed(self.game.stack())]

    def observer(self) -> Observer:
        return Observer(self.saved()["state"], self.labels, self.players)

    def object_views(self) -> list[tuple[int, dict[str, Any]]]:
        return self.observer().views()

    def observe(self) -> dict[str, Any]:
        waiting = self.waiting()
        seat = (waiting.get("data") or {}).get("player") if waiting["type"] == PRIORITY else None
        return self.observer().observe(seat)

    # --- moves -------------------------------------------------------------------------------------
    def pass_priority(self, player: str) -> None:
        self.apply(player, {"type": "PassPriority"})

    def play_land(self, player: str, card: int) -> None:
        obj = self.object(card)
        self.apply(player, {"type": "PlayLand", "data": {"object_id": card, "card_id": obj["card_id"]}})

    def cast(self, player: str, spec: CastSpec) -> None:
        def move() -> None:
            obj = self.object(spec.card)
            self.apply(player, {"type": "CastSpell", "data": {
                "object_id": spec.card, "card_id": obj["card_id"], "targets": [], "payment_mode": {"type": "Manual"}}})
            self.answer_prompts(player, spec.targets, spec.x, spec.modes, spec.pay)
            self.check_targets(spec.card, spec.targets)
        self.atomically(move)

    def activate(self, player: str, spec: ActivateSpec) -> None:
        def move() -> None:
            index = self.ability_index(spec.object, spec.ability)
            if spec.sacrifice:
                raise Unsupported("sacrificing permanents to pay a cost is not translated by this adapter")
            self.activate_mana_abilities(player, spec.pay)  # activations pay at once, from the pool
            before = self.stack_ids()
            result = self.apply(player, {"type": "ActivateAbility", "data": {"source_id": spec.object, "ability_index": index}})
            self.refuse_automatic_payment(result, allowed={spec.object})
            if spec.mana is not None and self.waiting()["type"] != "ChooseManaColor":
                check_mana_choice(result, spec.mana)
            self.answer_prompts(player, spec.targets, spec.x, (), (), mana=spec.mana)
            added = [e["id"] for e in self.game.stack() if e["id"] not in before and e["source_id"] == spec.object]
            if added:
                self.check_targets(added[0], spec.targets)
        self.atomically(move)

    def ability_index(self, object_id: int, index: int) -> int:
        """The engine's index of the case's N-th activated ability (printed order, mana abilities included)."""
        abilities = self.object(object_id).get("abilities") or []
        activated = [i for i, ability in enumerate(abilities) if ability.get("kind") == "Activated"]
        if index >= len(activated):
            raise Rejected(f"{self.object(object_id)['name']} has {len(activated)} activated abilities "
                           f"in phase.rs, so it has no ability {index}")
        return activated[index]

    def answer_prompts(self, player: str, targets: tuple[Target, ...], x: int | None, modes: tuple[int, ...],
                       pay: tuple[ManaPayment, ...], *, mana: str | None = None) -> None:
        """Answer the engine's prompts for a cast or an activation until it is back to priority."""
        queue = list(targets)
        modes_left = list(modes)
        for _ in range(MAX_PROMPTS):
            waiting = self.waiting()
            kind, data = waiting["type"], waiting.get("data") or {}
            if kind == PRIORITY or data.get("player") not in (None, self.seats[player]):
                return
            if kind in ("TargetSelection", "TriggerTargetSelection"):
                slot = data["target_slots"][data["selection"]["current_slot"]]
                if queue:
                    self.apply(player, {"type": "ChooseTarget", "data": {"target": self.engine_target(queue.pop(0))}})
                elif slot.get("optional"):
                    self.apply(player, {"type": "ChooseTarget", "data": {"target": None}})
                else:
                    raise Rejected("the engine asks for another target, and the case gives none")
            elif kind == "ChooseXValue":
                self.apply(player, {"type": "ChooseX", "data": {"value": x or 0}})
            elif kind in ("ModeChoice", "SelectModes"):
                self.apply(player, {"type": "SelectModes", "data": {"indices": modes_left}})
                modes_left = []
            elif kind == "ChooseManaColor":
                self.choose_mana(player, mana)
                mana = None
            elif kind == "ManaPayment":
                self.pay(player, pay)
                pay = ()
            else:
                raise Unsupported(f"phase.rs asks {kind} while casting or activating; the adapter does not answer it")
        raise RuntimeError(f"phase.rs kept prompting after {MAX_PROMPTS} answers")

    def choose_mana(self, player: str, mana: str | None) -> None:
        if mana is None:
            raise Rejected("the ability offers a choice of mana, and the case names none")
        self.apply(player, {"type": "ChooseManaColor", "data": {
            "choice": {"type": "SingleColor", "data": names.ENGINE_MANA[mana]}, "count": 1}})

    def pay(self, player: str, pay: tuple[ManaPayment, ...]) -> None:
        """Activate the case's mana abilities, then let the engine pay the rest from the pool. If the
        engine activates any other mana ability to finish, the cost could not be paid as the case says."""
        self.activate_mana_abilities(player, pay)
        self.refuse_automatic_payment(self.apply(player, {"type": "PassPriority"}), allowed=set())

    def refuse_automatic_payment(self, result: Any, allowed: set[int]) -> None:
        """phase.rs activates mana abilities itself to pay what the pool doesn't cover; the case pays
        from the pool and the mana abilities it lists, so a cost the engine had to complete can't be paid."""
        sources = sorted({e["data"]["source_id"] for e in result.events
                          if e["type"] == "AbilityActivated" and e["data"].get("kind") == "Mana"} - allowed)
        if sources:
            shown = ", ".join(self.object(i)["name"] for i in sources)
            raise Rejected("the cost can't be paid from the mana pool and the mana abilities the case lists "
                           f"(phase.rs would activate the mana abilities of {shown} to pay it)")

    def activate_mana_abilities(self, player: str, pay: tuple[ManaPayment, ...]) -> None:
        for payment in pay:
            index = self.ability_index(payment.object, payment.ability)
            result = self.apply(player, {"type": "ActivateAbility", "data": {
                "source_id": payment.object, "ability_index": index}})
            if self.waiting()["type"] == "ChooseManaColor":
                self.choose_mana(player, payment.mana)
            elif payment.mana is not None:
                check_mana_choice(result, payment.mana)

    def check_targets(self, object_id: int, targets: tuple[Target, ...]) -> None:
        """A sole legal target is chosen by the engine itself: the case's targets must be that one."""
        entry = next((e for e in self.game.stack() if e["id"] == object_id or e["source_id"] == object_id), None)
        if entry is None:
            return
        chosen = stack_targets(entry)
        wanted = [self.engine_target(t) for t in targets]
        if chosen != wanted:
            raise Rejected(f"phase.rs targets {chosen}, not the case's {wanted}: the case's targets "
                           "are not legal targets for it")

    def engine_target(self, target: Target) -> dict[str, int]:
        if target.kind == "player":
            return {"Player": self.seats[target.value]}
        return {"Object": target.value}

    def declare_attackers(self, player: str, attacks: list[tuple[int, Target]]) -> None:
        self.apply(player, {"type": "DeclareAttackers", "data": {"attacks": [
            [attacker, self.attack_target(defender)] for attacker, defender in attacks]}})

    def attack_target(self, defender: Target) -> dict[str, Any]:
        if defender.kind == "player":
            return {"type": "Player", "data": self.seats[defender.value]}
        return {"type": "Planeswalker", "data": defender.value}

    def declare_blockers(self, player: str, blocks: list[tuple[int, int]]) -> None:
        self.apply(player, {"type": "DeclareBlockers", "data": {"assignments": [[b, a] for b, a in blocks]}})

    def choose(self, player: str, choice: Choice) -> None:
        kind = self.waiting()["type"]
        if kind in (PRIORITY, ATTACKERS, BLOCKERS):
            raise Rejected(f"no choice is pending: the game waits for {self.pending().describe()}")
        answer = CHOICE_ANSWERS.get(kind)
        if answer is None:
            raise Unsupported(f"phase.rs asks {kind}; the adapter does not translate answers to it")
        self.atomically(lambda: answer(self, player, choice))

    # --- answers to the engine's decisions, by prompt ------------------------------------------------
    def answer_optional_effect(self, player: str, choice: Choice) -> None:
        self.apply(player, {"type": "DecideOptionalEffect", "data": {"accept": self.yes(choice)}})

    def answer_optional_cost(self, player: str, choice: Choice) -> None:
        self.apply(player, {"type": "DecideOptionalCost", "data": {"pay": self.yes(choice)}})

    def answer_replacement(self, player: str, choice: Choice) -> None:
        """An optional replacement ('you may have ... enter as a copy of'): apply it or decline it,
        then name the object it copies."""
        data = self.waiting()["data"]
        if (data.get("kind") or {}).get("type") != "OptionalBranch":
            raise Unsupported("phase.rs asks which replacement effect applies first; the adapter does not "
                              "translate that choice")
        accept = bool(choice.objects) if choice.objects is not None else self.yes(choice)
        self.apply(player, {"type": "ChooseReplacement", "data": {"index": 0 if accept else 1}})
        if accept and choice.objects and self.waiting()["type"] == "CopyTargetChoice":
            self.answer_copy_target(player, choice)

    def answer_copy_target(self, player: str, choice: Choice) -> None:
        if not choice.objects:
            raise Rejected("the engine asks what to copy, and the answer names nothing")
        self.apply(player, {"type": "ChooseTarget", "data": {"target": {"Object": choice.objects[0]}}})

    def answer_legend(self, player: str, choice: Choice) -> None:
        if not choice.objects or len(choice.objects) != 1:
            raise Rejected("the legend rule keeps exactly one of the permanents")
        self.apply(player, {"type": "ChooseLegend", "data": {"keep": choice.objects[0]}})

    def answer_targets(self, player: str, choice: Choice) -> None:
        if choice.targets is None:
            raise Rejected("the engine asks for targets, and the answer gives none")
        self.answer_prompts(player, choice.targets, None, (), ())

    def answer_mana(self, player: str, choice: Choice) -> None:
        self.choose_mana(player, choice.mana or choice.color)

    def answer_number(self, player: str, choice: Choice) -> None:
        if choice.number is None:
            raise Rejected("the engine asks for a number, and the answer gives none")
        self.apply(player, {"type": "ChooseX", "data": {"value": choice.number}})

    def answer_cards(self, player: str, choice: Choice) -> None:
        """Objects chosen from a zone (what to blight, what to discard)."""
        if choice.objects is None:
            raise Rejected("the engine asks to choose objects, and the answer names none")
        self.apply(player, {"type": "SelectCards", "data": {"cards": list(choice.objects)}})

    def answer_order(self, player: str, choice: Choice) -> None:
        """The case names the triggers' sources, the first to resolve first; phase.rs takes the indexes
        of its list of triggers in the order they go on the stack (the last listed resolves first)."""
        triggers = self.waiting()["data"]["triggers"]
        remaining = list(range(len(triggers)))
        chosen = []
        for source in choice.order or ():
            index = next((i for i in remaining if triggers[i]["source_id"] == source), None)
            if index is None:
                raise Rejected(f"no pending triggered ability of object {source} is left to order")
            remaining.remove(index)
            chosen.append(index)
        if remaining:
            raise Rejected(f"the order names {len(chosen)} of the {len(triggers)} triggered abilities")
        self.apply(player, {"type": "OrderTriggers", "data": {"order": list(reversed(chosen))}})

    @staticmethod
    def yes(choice: Choice) -> bool:
        if choice.yes is None:
            raise Rejected("the engine asks a yes/no question, and the answer is not yes or no")
        return choice.yes


def check_mana_choice(result: Any, mana: str) -> None:
    """phase.rs doesn't ask for a choice of mana when it sees only one option: it produces that one.
    The case's choice must then be what it produced."""
    produced = [e["data"]["mana_type"] for e in result.events if e["type"] == "ManaAdded"]
    if names.ENGINE_MANA[mana] not in produced:
        shown = "".join("{" + names.CASE_MANA.get(m, m) + "}" for m in produced) or "no mana"
        raise Rejected(f"phase.rs offered no choice of mana and produced {shown}, so {{{mana}}} is not an "
                       "option it allows")


def stack_targets(entry: dict[str, Any]) -> list[dict[str, int]]:
    data = entry["kind"].get("data") or {}
    ability = data.get("ability") or {}
    return list(ability.get("targets") or [])


#: The engine's decision prompts the adapter answers, and how (a case's `choose`).
CHOICE_ANSWERS = {
    "OptionalEffectChoice": PhaseSession.answer_optional_effect,
    "OptionalCostChoice": PhaseSession.answer_optional_cost,
    "ReplacementChoice": PhaseSession.answer_replacement,
    "CopyTargetChoice": PhaseSession.answer_copy_target,
    "ChooseLegend": PhaseSession.answer_legend,
    "OrderTriggers": PhaseSession.answer_order,
    "TargetSelection": PhaseSession.answer_targets,
    "TriggerTargetSelection": PhaseSession.answer_targets,
    "ChooseManaColor": PhaseSession.answer_mana,
    "ChooseXValue": PhaseSession.answer_number,
    "EffectZoneChoice": PhaseSession.answer_cards,
    "DiscardToHandSize": PhaseSession.answer_cards,
}
