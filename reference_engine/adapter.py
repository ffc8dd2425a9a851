"""The in-process adapter: the reference engine on the engine kit (engine_kit/adapter.py).

It speaks the same messages as engines over the JSON-lines protocol (docs/protocol.md): `start`
returns who the engine is and what it can do, `run` plays one case (sent without its expectations)
and returns what was observed, `stop` ends the session.
"""

from __future__ import annotations

from typing import Any

from engine_kit import Adapter, Case, EngineInfo, Unsupported
from reference_engine import __version__
from reference_engine.carddefs import UnsupportedCard, build_card
from reference_engine.game import Game
from reference_engine.model import CardDef
from reference_engine.session import ReferenceSession
from reference_engine.setup import build

REPOSITORY = "https://github.com/mtg-conformance/mtg-conformance"


class ReferenceEngine(Adapter):
    """The bundled reference engine, which passes every case (registered as the engine 'reference').
    It has every capability of the case format."""

    def __init__(self) -> None:
        self._cards: dict[str, tuple[Any, CardDef]] = {}  # by name: the data sent, the card built from it

    def info(self) -> EngineInfo:
        return EngineInfo("reference", __version__, "python", REPOSITORY, f"{REPOSITORY}/issues",
                          f"{REPOSITORY}/tree/main/reference_engine")

    def open(self, case: Case) -> ReferenceSession:
        try:
            cards = {name: self._card(name, data) for name, data in case.cards.items()}
        except UnsupportedCard as exc:
            raise Unsupported(str(exc)) from None
        state, labels = build(case.setup, cards)
        return ReferenceSession(Game(state), labels)

    def _card(self, name: str, data: Any) -> CardDef:
        """The card built from `data`: the same cards come with case after case, and a card definition
        never changes once built, so each is built once per session."""
        built = self._cards.get(name)
        if built is None or (built[0] is not data and built[0] != data):
            built = self._cards[name] = (data, build_card(data))
        return built[1]
