"""One case played on phase.rs: the case's moves as the engine's GameActions, answered prompt by prompt.

Casting and activating are several engine actions (the cast, each target, X, a sacrifice, the mana
payment). If the engine refuses any of them, the game is restored to the state before the move, so a
rejected move leaves the state unchanged as the protocol requires. A cast that stops at an optional
cost waits for the case's next action, a `choose`, and finishes there. The engine never gets to
choose for a player unnoticed: where it fills in a choice itself (a sole legal target, mana tapped
automatically to finish a payment, the only permanent it could sacrifice), the adapter checks the
result against the case and rejects the move if the engine did something other than what the case
says.
"""

from __future__ import annotations

from typing import Any

from engine_adapters.phase_rs import names
from engine_adapters.phase_rs.answers import CHOICE_ANSWERS, Answers, describe_prompt
from engine_adapters.phase_rs.observe import Observer
from engine_kit.session import (front_face_only, ActivateSpec, CastSpec, Choice, ManaPayment, Pending, Rejected, Session,
                                     Target, Unsupported)

#: The engine's prompts for priority and for the combat declarations; any other prompt is a decision.
PRIORITY, ATTACKERS, BLOCKERS = "Priority", "DeclareAttackers", "DeclareBlockers"
MAX_PROMPTS = 50


class PhaseSession(Answers, Session):
    def __init__(self, engine: Any, game: Any, labels: dict[str, int], seats: dict[str, int]) -> None:
        self.engine = engine
        self.game = game
        self.labels = labels
        self.seats = seats
        self.players = list(seats)
        #: A cast waiting for the case's answer to its optional cost (buyback), and what is left of it.
        self.suspended_cast: tuple[str, CastSpec] | None = None
        #: A spell just cast whose optional cost phase.rs did not offer (it offers only a cost it sees
        #: can be paid), so declining it is what happened.
        self.unoffered_cost: int | None = None
        #: A spell just cast, while no later engine action was taken (see choose).
        self.just_cast: int | None = None
        #: (object id, incarnation) -> the object's name as it last existed there (see remember_last_known).
        self.last_known: dict[tuple[int, int], str] = {}

    # --- engine access ---------------------------------------------------------------------------
    def apply(self, player: str, action: dict[str, Any]) -> Any:
        """Apply one engine action for a player; the engine's refusal becomes Rejected."""
        from phase import GameAction

        try:
            move = GameAction.from_dict(action)
        except ValueError as exc:  # a malformed action is the adapter's bug, not a rejection
            raise RuntimeError(f"the adapter built an invalid phase.rs action {action}: {exc}") from exc
        self.unoffered_cost = None
        self.just_cast = None
        try:
            result = self.game.apply(self.seats[player], move)
        except ValueError as exc:
            raise Rejected(str(exc)) from None
        self.remember_last_known(result.events)
        return result

    def remember_last_known(self, events: list[dict[str, Any]]) -> None:
        """The name each object had as it left a zone, from the engine's zone-change records: an
        ability on the stack whose source has left is named after the source as it last existed."""
        for event in events:
            if event["type"] != "ZoneChanged":
                continue
            record = event["data"].get("record") or {}
            reference = ((record.get("trigger_source_context") or {}).get("identity") or {}).get("reference") or {}
            if "incarnation" in reference and record.get("name"):
                self.last_known[(reference["object_id"], reference["incarnation"])] = record["name"]

    def waiting(self) -> dict[str, Any]:
        return self.game.waiting_for()

    def saved(self) -> dict[str, Any]:
        return self.game.state()

    def restore(self, saved: dict[str, Any]) -> None:
        self.game = self.engine.load_game(saved)

    def atomically(self, move) -> None:
        """Run a compound move; if any part is refused, put the game back as it was."""
        saved = self.saved()
        suspended = self.suspended_cast
        try:
            move()
        except (Rejected, Unsupported):
            self.restore(saved)
            self.suspended_cast = suspended
            raise

    def seat_player(self, seat: int | None) -> Any:
        """The player in a seat (None for none)."""
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
        if kind == "TriggerTargetSelection" and untargeted(data):
            raise Unsupported(
                "phase.rs asks for targets as a triggered ability goes on the stack, for a choice its text makes "
                f"as it resolves (for {data.get('description')!r}): the case answers that choice only then, and the "
                "adapter can't answer the prompt")
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
        return Observer(self.saved()["state"], self.labels, self.players, self.last_known)

    def object_views(self) -> list[tuple[int, dict[str, Any]]]:
        """By phase.rs's object id, which it hands out in order as it makes objects (so tokens are in
        the order they were created, for `nth`)."""
        return sorted(self.observer().views(), key=lambda view: view[0])

    def observe(self) -> dict[str, Any]:
        waiting = self.waiting()
        seat = (waiting.get("data") or {}).get("player") if waiting["type"] == PRIORITY else None
        return self.observer().observe(seat)

    # --- moves -------------------------------------------------------------------------------------
    def pass_priority(self, player: str) -> None:
        self.apply(player, {"type": "PassPriority"})
        self.assign_combat_damage()

    def assign_combat_damage(self) -> None:
        """phase.rs asks the attacking player to divide a trampling attacker's combat damage (rule
        510.1c-d). The case format has no such choice: its cases expect lethal damage to the blocker
        and the rest to the player or planeswalker attacked, so that is the answer given."""
        while self.waiting()["type"] == "AssignCombatDamage":
            data = self.waiting()["data"]
            blockers = data.get("blockers") or []
            if len(blockers) != 1:
                raise Unsupported("phase.rs asks how to divide an attacker's combat damage among "
                                  f"{len(blockers)} blockers; the case format has no such choice")
            total = data["total_damage"]
            to_blocker = min(total, blockers[0]["lethal_minimum"]) if data.get("trample") else total
            self.apply(self.players[data["player"]], {"type": "AssignCombatDamage", "data": {
                "mode": "Normal", "assignments": [[blockers[0]["blocker_id"], to_blocker]],
                "trample_damage": total - to_blocker, "controller_damage": 0}})

    def play_land(self, player: str, card: int, face: str = "front") -> None:
        front_face_only(face)
        obj = self.object(card)
        self.apply(player, {"type": "PlayLand", "data": {"object_id": card, "card_id": obj["card_id"]}})

    def cast(self, player: str, spec: CastSpec) -> None:
        front_face_only(spec.face)
        def move() -> None:
            obj = self.object(spec.card)
            self.apply(player, {"type": "CastSpell", "data": {
                "object_id": spec.card, "card_id": obj["card_id"], "targets": [], "payment_mode": {"type": "Manual"}}})
            self.answer_prompts(player, spec.targets, spec.x, spec.modes, spec.pay)
            if self.waiting()["type"] == "OptionalCostChoice":
                self.suspended_cast = (player, spec)  # the case's next action, a `choose`, answers it
                return
            self.check_targets(spec.card, spec.targets)
            if (obj.get("additional_cost") or {}).get("type") == "Optional":
                self.unoffered_cost = spec.card
            self.just_cast = spec.card
        self.atomically(move)

    def activate(self, player: str, spec: ActivateSpec) -> None:
        def move() -> None:
            index = self.ability_index(spec.object, spec.ability)
            self.activate_mana_abilities(player, spec.pay)  # activations pay at once, from the pool
            before = self.stack_ids()
            result = self.apply(player, {"type": "ActivateAbility", "data": {"source_id": spec.object, "ability_index": index}})
            self.refuse_automatic_payment(result, allowed={spec.object})
            if spec.mana is not None and self.waiting()["type"] != "ChooseManaColor":
                check_mana_choice(result, spec.mana)
            events = list(result.events)
            events += self.answer_prompts(player, spec.targets, spec.x, (), (), mana=spec.mana, sacrifice=spec.sacrifice)
            self.check_sacrificed(events, spec.sacrifice, spec.object)
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
                       pay: tuple[ManaPayment, ...], *, mana: str | None = None, sacrifice: tuple[int, ...] = (),
                       trigger: bool = False) -> list[dict[str, Any]]:
        """Answer the engine's prompts for a cast or an activation (or, with `trigger`, for the targets of
        a triggered ability) until the move is made: the engine is back to priority, or waits for a
        decision that is not part of the move (the legend rule, a triggered ability's targets, an
        optional cost), which the case's next action answers. Returns the engine's events for the
        prompts answered (what was sacrificed)."""
        queue = list(targets)
        modes_left = list(modes)
        events: list[dict[str, Any]] = []
        answered = 0
        for _ in range(MAX_PROMPTS):
            waiting = self.waiting()
            kind, data = waiting["type"], waiting.get("data") or {}
            if kind == PRIORITY or data.get("player") not in (None, self.seats[player]):
                return events
            if kind == "TargetSelection" or (trigger and kind == "TriggerTargetSelection"):
                current = data["selection"]["current_slot"]
                if trigger and answered and current == 0 and not queue:
                    return events  # the next triggered ability's targets: the case's next `choose`
                slot = data["target_slots"][current]
                if queue:
                    self.apply(player, {"type": "ChooseTarget", "data": {"target": self.engine_target(queue.pop(0))}})
                elif slot.get("optional"):
                    self.apply(player, {"type": "ChooseTarget", "data": {"target": None}})
                else:
                    raise Rejected(f"phase.rs asks for another target ({describe_prompt(data)}), and the case "
                                   "gives none")
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
            elif kind == "PayCost" and (data.get("kind") or {}).get("type") == "Sacrifice":
                events += self.sacrifice(player, data, sacrifice)
                sacrifice = ()
            elif kind == "OptionalCostChoice" or not self.saved()["state"].get("has_pending_cast"):
                return events  # a decision the case's next action answers
            else:
                raise Unsupported(f"phase.rs asks {kind} while casting or activating; the adapter does not answer it")
            answered += 1
        raise RuntimeError(f"phase.rs kept prompting after {MAX_PROMPTS} answers")

    def sacrifice(self, player: str, prompt: dict[str, Any], chosen: tuple[int, ...]) -> list[dict[str, Any]]:
        """The permanents the case sacrifices to pay the cost (rule 601.2h), as the engine asks for them."""
        if not chosen:
            raise Rejected(f"the cost includes sacrificing {prompt.get('count', 1)} permanent(s), and the case "
                           "sacrifices none")
        return list(self.apply(player, {"type": "SelectCards", "data": {"cards": list(chosen)}}).events)

    def check_sacrificed(self, events: list[dict[str, Any]], wanted: tuple[int, ...], source: int) -> None:
        """The engine sacrifices by itself when it sees only one way to pay: it must be the case's way.
        A source that sacrifices itself ("Sacrifice this: ...") involves no choice, so no case lists it."""
        sacrificed = sorted(e["data"]["object_id"] for e in events if e["type"] == "PermanentSacrificed"
                            and (e["data"]["object_id"] != source or source in wanted))
        if sacrificed != sorted(wanted):
            shown = ", ".join(self.object(i)["name"] for i in sacrificed) or "nothing"
            raise Rejected(f"phase.rs sacrificed {shown} to pay the cost, not what the case sacrifices")

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
        if kind == PRIORITY and self.unoffered_cost is not None and choice.yes is not None:
            name = self.object(self.unoffered_cost)["name"]
            if choice.yes:
                raise Rejected(f"phase.rs did not offer {name}'s optional cost: it sees that the cost can't be paid")
            self.unoffered_cost = None  # declined, as phase.rs did by not offering it
            return
        if kind == PRIORITY and self.just_cast is not None and choice.yes is not None:
            raise Unsupported("phase.rs asked nothing as the spell was cast, where the case answers whether an "
                              "alternative cost (or 2 life for Phyrexian mana) is paid (rule 601.2b); the adapter "
                              "doesn't translate that announcement")
        if kind in (PRIORITY, ATTACKERS, BLOCKERS):
            raise Rejected(f"no choice is pending: the game waits for {self.waiting_for()}")
        answer = CHOICE_ANSWERS.get(kind)
        if answer is None:
            raise Unsupported(f"phase.rs asks {kind}; the adapter does not translate answers to it")
        self.atomically(lambda: answer(self, player, choice))


def untargeted(data: dict[str, Any]) -> bool:
    """A target prompt for a triggered ability whose text has no target: 'transform any number of Human
    Werewolves you control' is a choice made as the ability resolves (rule 608.2c), not a target."""
    description = data.get("description")
    return isinstance(description, str) and "target" not in description.lower()


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
