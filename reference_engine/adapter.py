"""The in-process adapter: the reference engine answering the protocol's messages as Python dicts.

It speaks the same messages as engines over the JSON-lines protocol (docs/protocol.md): `start`
returns who the engine is and what it can do, `run` plays one case (sent without its expectations)
and returns what was observed, `stop` ends the session.
"""

from __future__ import annotations

import traceback
from typing import Any

from reference_engine import __version__
from reference_engine.carddefs import UnsupportedCard, build_card
from reference_engine.game import Game
from reference_engine.model import CardDef
from reference_engine.moves import Illegal
from reference_engine.observe import observe
from reference_engine.replacement import EngineLimit
from reference_engine.script import Script
from reference_engine.setup import SetupError, build

PROTOCOL_VERSION = 1  # docs/protocol.md

CAPABILITIES = [
    "stack", "priority", "combat", "mana-abilities", "triggers", "replacement", "replacement-order", "layers", "counters",
    "tokens", "marked-damage", "day-night", "transform", "loyalty", "emblems", "copy", "level-up",
    "legend-rule", "choices", "color-identity",
]


class ReferenceEngine:
    """The bundled reference engine, which passes every case (registered as the engine 'reference')."""

    def __init__(self) -> None:
        self._cards: dict[str, tuple[Any, CardDef]] = {}  # by name: the data sent, the card built from it

    def start(self, request: dict[str, Any] | None = None) -> dict[str, Any]:
        """The start reply. Whatever version is asked for, the answer names the one this engine speaks
        (1): a harness speaking another version then says so."""
        return {
            "version": PROTOCOL_VERSION,
            "engine": {
                "name": "reference",
                "version": __version__,
                "language": "python",
                "homepage": "https://github.com/mtg-conformance/mtg-conformance",
                "issues": "https://github.com/mtg-conformance/mtg-conformance/issues",
                "source": "https://github.com/mtg-conformance/mtg-conformance/tree/main/reference_engine",
            },
            "capabilities": list(CAPABILITIES),
        }

    def run(self, case: dict[str, Any]) -> dict[str, Any]:
        try:
            cards = {name: self._card(name, data) for name, data in case["cards"].items()}
        except UnsupportedCard as exc:
            return {"skipped": {"reason": str(exc)}}
        action_index = None
        try:
            state, labels = build(case["setup"], cards)
            game = Game(state)
            script = Script(game, labels)
            checkpoints = set(case.get("checkpoints", []))
            observations = []
            if -1 in checkpoints:
                observations.append({"after": -1, "state": observe(game, labels)})
            statuses = []
            for action_index, action in enumerate(case["actions"]):
                try:
                    script.apply(action)
                    statuses.append({"status": "ok"})
                except Illegal as exc:
                    statuses.append({"status": "rejected", "reason": str(exc)})
                if action_index in checkpoints:
                    observations.append({"after": action_index, "state": observe(game, labels)})
            last = len(case["actions"]) - 1
            if last not in checkpoints:
                observations.append({"after": last, "state": observe(game, labels)})
            return {"result": {"actions": statuses, "observations": observations}}
        except (EngineLimit, SetupError) as exc:
            return {"errored": {"message": str(exc), "context": {"action": action_index}}}
        except Exception as exc:  # a bug in the engine: report it with the traceback, go on with the run
            return {"errored": {"message": f"{type(exc).__name__}: {exc}",
                                "context": {"action": action_index, "traceback": traceback.format_exc()}}}

    def _card(self, name: str, data: Any) -> CardDef:
        """The card built from `data`: the same cards come with case after case, and a card definition
        never changes once built, so each is built once per session."""
        built = self._cards.get(name)
        if built is None or built[0] != data:
            built = self._cards[name] = (data, build_card(data))
        return built[1]

    def stop(self) -> None:
        pass
