"""Answers to phase.rs's decision prompts: a case's `choose` as the engine action each prompt takes.

A mixin of PhaseSession, kept apart from the moves: each answer uses the session's engine access
(`apply`, `waiting`) and, for prompts that belong to a cast, its prompt loop (`answer_prompts`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine_adapters.phase_rs import names
from engine_kit.session import CastSpec, Choice, ManaPayment, Rejected, Target, Unsupported


class Answers:
    """The answer to each decision prompt, by prompt (CHOICE_ANSWERS). PhaseSession provides `apply`,
    `waiting`, `answer_prompts`, `refuse_automatic_payment`, `choose_mana`, `check_targets` and
    `suspended_cast`."""

    if TYPE_CHECKING:
        suspended_cast: tuple[str, CastSpec] | None

        def apply(self, player: str, action: dict[str, Any]) -> Any: ...
        def waiting(self) -> dict[str, Any]: ...
        def answer_prompts(self, player: str, targets: tuple[Target, ...], x: int | None, modes: tuple[int, ...],
                           pay: tuple[ManaPayment, ...], *, mana: str | None = None, sacrifice: tuple[int, ...] = (),
                           trigger: bool = False) -> list[dict[str, Any]]: ...
        def refuse_automatic_payment(self, result: Any, allowed: set[int]) -> None: ...
        def choose_mana(self, player: str, mana: str | None) -> None: ...
        def check_targets(self, object_id: int, targets: tuple[Target, ...]) -> None: ...

    def answer_optional_effect(self, player: str, choice: Choice) -> None:
        """'You may ...': yes or no. A 'may' that chooses objects ('you may blight 1') is one choice in a
        case, the objects or [] for none; phase.rs asks whether first, then which."""
        if choice.yes is not None or choice.objects is None:
            result = self.apply(player, {"type": "DecideOptionalEffect", "data": {"accept": self.yes(choice)}})
            # 'You may pay {R}': phase.rs activates mana abilities itself to pay when the player accepts
            # (no mana ability can be activated while it waits for the answer); only those listed may be.
            self.refuse_automatic_payment(result, allowed={payment.object for payment in choice.pay})
            return
        self.apply(player, {"type": "DecideOptionalEffect", "data": {"accept": bool(choice.objects)}})
        if choice.objects:
            kind = self.waiting()["type"]
            if CHOICE_ANSWERS.get(kind) is not Answers.answer_cards:
                raise Rejected(f"the answer chooses objects, but after the 'may' phase.rs asks {kind}")
            self.answer_cards(player, choice)

    def answer_optional_cost(self, player: str, choice: Choice) -> None:
        """Pay or decline an optional cost (buyback), then finish the cast it interrupted: the cost is
        paid from the pool after the mana abilities the cast and this answer list."""
        self.apply(player, {"type": "DecideOptionalCost", "data": {"pay": self.yes(choice)}})
        if self.suspended_cast is None:
            return
        caster, spec = self.suspended_cast
        self.suspended_cast = None
        self.answer_prompts(caster, (), spec.x, (), spec.pay + choice.pay)
        self.check_targets(spec.card, spec.targets)

    def answer_branch(self, player: str, choice: Choice) -> None:
        """One of several effects ("remove that counter ... or put another of those counters on it")."""
        branches = self.waiting()["data"]["branches"]
        if choice.counter is None:
            raise Rejected("the engine asks to choose one of "
                           f"{[b.get('description') for b in branches]}, and the answer names no counter action")
        effect = COUNTER_EFFECTS[choice.counter.action]
        counter = names.ENGINE_COUNTERS.get(choice.counter.kind, choice.counter.kind)
        index = next((i for i, b in enumerate(branches) if b["effect"].get("type") == effect
                      and str(b["effect"].get("counter_type")).lower() == counter.lower()), None)
        if index is None:
            raise Rejected(f"none of phase.rs's choices {[b.get('description') for b in branches]} is to "
                           f"{choice.counter.action} a {choice.counter.kind} counter")
        self.apply(player, {"type": "ChooseBranch", "data": {"index": index}})

    def answer_replacement(self, player: str, choice: Choice) -> None:
        """Which of several replacement effects applies first (616.1, the case's `choose: {replacement}`
        names the source), or an optional replacement ('you may have ... enter as a copy of'): apply it
        or decline it, then name the object it copies."""
        data = self.waiting()["data"]
        kind = (data.get("kind") or {}).get("type")
        if kind == "Order":
            self.answer_replacement_order(player, choice, data.get("candidates") or [])
            return
        if kind != "OptionalBranch":
            raise Unsupported(f"phase.rs asks a replacement choice of kind {kind!r}; the adapter does not "
                              "translate that choice")
        accept = bool(choice.objects) if choice.objects is not None else self.yes(choice)
        self.apply(player, {"type": "ChooseReplacement", "data": {"index": 0 if accept else 1}})
        if accept and choice.objects and self.waiting()["type"] == "CopyTargetChoice":
            self.answer_copy_target(player, choice)

    def answer_replacement_order(self, player: str, choice: Choice, candidates: list[dict[str, Any]]) -> None:
        """phase.rs lists the applicable effects with their sources; the case names the source of the one
        to apply first."""
        if choice.replacement is None:
            raise Rejected("phase.rs asks which replacement effect applies first "
                           f"({[c.get('source_name') for c in candidates]}), and the answer names none")
        index = next((i for i, c in enumerate(candidates) if c.get("source_id") == choice.replacement), None)
        if index is None:
            raise Rejected(f"none of the effects phase.rs offers ({[c.get('source_name') for c in candidates]}) "
                           f"comes from object {choice.replacement}")
        self.apply(player, {"type": "ChooseReplacement", "data": {"index": index}})

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
            raise Rejected(f"phase.rs asks for targets ({describe_prompt(self.waiting()['data'])}), and the "
                           "answer gives none")
        self.answer_prompts(player, choice.targets, None, (), (), trigger=True)

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


def describe_prompt(data: dict[str, Any]) -> str:
    """What a target prompt is for, in the engine's words: the ability's text and the legal targets."""
    description = data.get("description") or ((data.get("pending_cast") or {}).get("ability") or {}).get("description")
    legal = (data.get("selection") or {}).get("current_legal_targets")
    parts = [f"for {description!r}" if description else "", f"legal: {legal}" if legal is not None else ""]
    return ", ".join(p for p in parts if p) or "no description"


#: The effect phase.rs offers for each counter action of a case's `choose: {counter: ...}`.
COUNTER_EFFECTS = {"add": "PutCounter", "remove": "RemoveCounter"}

#: The engine's decision prompts the adapter answers, and how (a case's `choose`).
CHOICE_ANSWERS = {
    "OptionalEffectChoice": Answers.answer_optional_effect,
    "OptionalCostChoice": Answers.answer_optional_cost,
    "ReplacementChoice": Answers.answer_replacement,
    "CopyTargetChoice": Answers.answer_copy_target,
    "ChooseLegend": Answers.answer_legend,
    "OrderTriggers": Answers.answer_order,
    "TargetSelection": Answers.answer_targets,
    "TriggerTargetSelection": Answers.answer_targets,
    "ChooseManaColor": Answers.answer_mana,
    "ChooseXValue": Answers.answer_number,
    "EffectZoneChoice": Answers.answer_cards,
    "DiscardToHandSize": Answers.answer_cards,
    "ChooseOneOfBranch": Answers.answer_branch,
}
