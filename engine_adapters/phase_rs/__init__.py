"""The adapter for phase.rs (PyPI `phase-python`), registered as the engine `phase`."""

from __future__ import annotations

from typing import Any

from engine_adapters.base import Adapter
from engine_adapters.phase_rs.cards import build_database
from engine_adapters.phase_rs.session import PhaseSession
from engine_adapters.phase_rs.setup import build
from engine_adapters.session import Unsupported


class PhaseEngine(Adapter):
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
    }
    adapter_limitations = (
        "A starting emblem, sacrificing permanents to pay an activation cost, and engine prompts other than "
        "targets, X, modes, a color or type of mana, mana payment, a yes/no, an optional copy, trigger "
        "order, the legend rule, a number and choosing cards (blight, discard) are not translated: such a "
        "case is skipped, naming the prompt.",
        "Mana abilities listed to pay an activation cost are activated just before the ability (phase.rs "
        "pays activation costs at once, with no payment step).",
        "`mana_value` is derived by the adapter from the engine's mana cost and the X paid (X counts only "
        "on the stack, rule 202.3e): the engine reports no mana value.",
        "The engine normally learns the creature types from its full card database; a case loads only its "
        "own cards, so the adapter gives it rule 205.3m's list (for changelings).",
        "The engine picks which mana in the pool pays a generic cost; the case format says colorless first, "
        "then WUBRG order.",
    )

    def __init__(self) -> None:
        self._engines: dict[str, Any] = {}

    def open(self, case: dict[str, Any]) -> PhaseSession:
        import phase

        database = build_database(case["cards"])
        if database.unsupported:
            name, problems = next(iter(sorted(database.unsupported.items())))
            raise Unsupported(f"phase.rs could not turn the Oracle text of {name} into abilities: "
                              + "; ".join(repr(p) for p in problems[:3]))
        engine = self._engines.get(database.json)
        if engine is None:
            engine = self._engines[database.json] = phase.Engine.from_json(database.json)
        built = build(engine, case, case["cards"])
        return PhaseSession(engine, built.game, built.labels, built.seats)
