"""The adapter for phase.rs (PyPI `phase-python`), registered as the engine `phase`."""

from __future__ import annotations

from typing import Any

from engine_adapters.base import PackageAdapter
from engine_kit import Case
from engine_adapters.phase_rs.cards import build_database
from engine_adapters.phase_rs.session import PhaseSession
from engine_adapters.phase_rs.setup import build
from engine_kit.session import Unsupported


class PhaseEngine(PackageAdapter):
    name = "phase.rs"
    package = "phase-python"
    modules = ("phase",)
    extra = "phase"
    homepage = "https://github.com/klyusba/phase-python"
    issues = "https://github.com/klyusba/phase-python/issues"
    lacks = {
        "color-identity": "phase.rs takes a card's color identity from its card data (MTGJSON's colorIdentity) "
                          "instead of deriving it from the card (rule 903.4); reporting it would only echo the "
                          "corpus's own answer",
        # The case format's 1.1 constructs the adapter doesn't translate yet (each a skip, with this reason):
        "damage-assignment": "the adapter answers phase.rs's AssignCombatDamage prompt with the format's default "
                             "assignment; it doesn't translate a case's `assign` into that prompt's answer",
        "stack-targets": "the adapter doesn't translate a `{stack: N}` target into a target of phase.rs's stack "
                         "entry",
        "ability-text": "the adapter reports no ability texts: it would have to word phase.rs's parsed abilities",
        "attachments": "the adapter doesn't set up an Aura or Equipment attached to a permanent, nor report "
                       "attached_to",
        # 1.3
        "player-counters": "the adapter doesn't set up a player's counters (poison, rad) nor report them",
    }
    adapter_limitations = (
        "Engine prompts other than targets, X, modes, a color or type of mana, mana payment, a sacrifice, a "
        "yes/no, an optional cost, a choice between effects, an optional copy, trigger order, the order of replacement effects, the legend rule, "
        "a number and choosing cards (blight, discard) are not translated: such a case is skipped, naming the "
        "prompt.",
        "phase.rs asks for targets as a triggered ability goes on the stack even when its text makes a "
        "choice only as it resolves (Tovolar's 'transform any number of Human Werewolves you control'); the "
        "case answers that choice as the ability resolves, so the adapter can't answer the prompt and the case "
        "is skipped, naming it.",
        "phase.rs asks the attacking player to divide a trampling attacker's combat damage (rule 510.1c-d); the "
        "case format has no such choice and its cases expect lethal damage to the blocker and the rest to the "
        "player attacked, so the adapter answers that.",
        "phase.rs offers an optional cost (buyback) only when it sees the cost can be paid; when it did not "
        "offer it, the case's `choose: {yes: false}` is taken as what happened and `yes: true` is rejected.",
        "For 'you may pay {R}', phase.rs activates mana abilities itself once the player accepts (it allows "
        "none while it waits for the answer); the adapter rejects the answer if it used any the case doesn't "
        "list. Mana abilities listed to pay an activation cost are activated just before the ability (phase.rs "
        "pays activation costs at once, with no payment step).",
        "A starting emblem is made as phase.rs makes one when the ability creating it resolves: an Emblem "
        "object in the command zone holding that ability's abilities as the engine parsed them.",
        "Spells cast earlier in the turn (the setup's count) are given to the engine as that many records of "
        "spells without characteristics.",
        "`mana_value` is derived by the adapter from the engine's mana cost and the X paid (X counts only "
        "on the stack, rule 202.3e), as the engine computes it itself (its own last-known mana value of a "
        "permanent agrees): the engine reports no mana value.",
        "An ability on the stack whose source has left its zone is named as the source last existed, from the "
        "engine's zone-change records: the stack entry holds only the source's id.",
        "The engine normally learns the creature types from its full card database; a case loads only its "
        "own cards, so the adapter gives it rule 205.3m's list (for changelings).",
        "A selector's `nth` counts objects in the order of phase.rs's object ids, the order it made them; "
        "an object that changed zones keeps its id there, so a card moved since setup counts from when it "
        "was made, not from when it entered its zone.",
        "The engine picks which mana in the pool pays a generic cost; the case format says colorless first, "
        "then WUBRG order.",
        "A spell's alternative cost (118.9) and the 2 life for a Phyrexian symbol (107.4f) are announced in the "
        "case as a yes/no right after the cast; phase.rs asks no such question as it casts, and the adapter "
        "doesn't translate the announcement, so such a case is skipped.",
    )

    def __init__(self) -> None:
        self._engines: dict[str, Any] = {}

    def open(self, case: Case) -> PhaseSession:
        import phase

        database = build_database(case.cards)
        if database.unsupported:
            name, problems = next(iter(sorted(database.unsupported.items())))
            raise Unsupported(f"phase.rs could not turn the Oracle text of {name} into abilities: "
                              + "; ".join(repr(p) for p in problems[:3]))
        engine = self._engines.get(database.json)
        if engine is None:
            engine = self._engines[database.json] = phase.Engine.from_json(database.json)
        built = build(engine, case, case.cards, database.faces)
        return PhaseSession(engine, built.game, built.labels, built.seats)
