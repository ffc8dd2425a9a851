"""The protocol's start / run / stop around an engine-specific Session.

`run` plays one case: it opens a session (the case's state in the engine), applies each action, and
observes the state at the checkpoints. An action the engine refuses is `rejected` and the case goes
on; a case the engine can't express is `skipped` with the reason; any other fault inside the case
(an engine exception, an adapter bug) is that case's `errored` reply, and the run goes on.
"""

from __future__ import annotations

import importlib
import traceback
from abc import ABC, abstractmethod
from importlib.metadata import version
from typing import Any

from engine_adapters.script import Script, verb_of
from engine_adapters.session import Rejected, Session, Unsupported

#: The capability vocabulary of the case format (the `capability` enum of schema/case.schema.json).
ALL_CAPABILITIES = (
    "stack", "priority", "combat", "mana-abilities", "triggers", "replacement", "replacement-order", "layers", "counters",
    "tokens", "marked-damage", "day-night", "transform", "loyalty", "emblems", "copy", "level-up",
    "legend-rule", "choices", "color-identity",
)


PROTOCOL_VERSION = 1  # docs/protocol.md


class EngineMissing(RuntimeError):
    """The engine's package is not installed (the optional extra was not installed)."""


class Adapter(ABC):
    """An in-process adapter. Subclasses name the engine, declare what it lacks, and open sessions."""

    name: str = ""
    package: str = ""  # the distribution on the package index
    modules: tuple[str, ...] = ()  # what the adapter imports from it
    extra: str = ""  # the optional extra of mtg-conformance that installs it
    homepage: str = ""
    issues: str = ""
    #: Capabilities the engine lacks, each with the reason: cases requiring one are skipped.
    lacks: dict[str, str] = {}
    #: What the adapter, not the engine, can't do or derives itself: listed in the reports as such.
    adapter_limitations: tuple[str, ...] = ()

    def start(self, request: dict[str, Any] | None = None) -> dict[str, Any]:
        version = self.load_engine()
        return {
            "version": PROTOCOL_VERSION,
            "engine": {
                "name": self.name,
                "version": version,
                "language": "python",
                "homepage": self.homepage,
                "issues": self.issues,
                # What the engine lacks (capability -> why), and what this adapter can't express
                # although the engine may: read by `mtg-conformance table`.
                "details": {"limitations": dict(self.lacks),
                            "adapter_limitations": list(self.adapter_limitations)},
            },
            "capabilities": [c for c in ALL_CAPABILITIES if c not in self.lacks],
        }

    def run(self, case: dict[str, Any]) -> dict[str, Any]:
        try:
            session = self.open(case)
        except Unsupported as exc:
            return {"skipped": {"reason": str(exc)}}
        except Exception as exc:
            return errored(exc, {"action": None})
        return play(session, case)

    def stop(self) -> None:
        pass

    def load_engine(self) -> str:
        """Import the engine (EngineMissing if it is not installed) and return its version."""
        try:
            for module in self.modules:
                importlib.import_module(module)
        except ImportError as exc:
            raise EngineMissing(f"the {self.package} package is not installed ({exc}); "
                                f"install it with: pip install 'mtg-conformance[{self.extra}]'") from exc
        return version(self.package)

    @abstractmethod
    def open(self, case: dict[str, Any]) -> Session:
        """The case's starting state in the engine; Unsupported if the engine can't express it."""


def play(session: Session, case: dict[str, Any]) -> dict[str, Any]:
    """Apply the case's actions and observe the checkpoints; the protocol's reply."""
    script = Script(session)
    actions = case["actions"]
    checkpoints = set(case.get("checkpoints", [])) | {len(actions) - 1}
    observations: list[dict[str, Any]] = []
    statuses: list[dict[str, Any]] = []
    index: int | None = None
    try:
        if -1 in checkpoints:
            observations.append({"after": -1, "state": session.observe()})
        for index, action in enumerate(actions):
            try:
                script.apply(action)
                statuses.append({"status": "ok"})
            except Rejected as exc:
                statuses.append({"status": "rejected", "reason": str(exc)})
            if index in checkpoints:
                observations.append({"after": index, "state": session.observe()})
    except Unsupported as exc:
        where = f"action {index} ({verb_of(actions[index])})" if index is not None else "the starting state"
        return {"skipped": {"reason": f"{where}: {exc}"}}
    except Exception as exc:
        return errored(exc, {"action": index})
    return {"result": {"actions": statuses, "observations": observations}}


def errored(exc: BaseException, context: dict[str, Any]) -> dict[str, Any]:
    return {"errored": {"message": f"{type(exc).__name__}: {exc}",
                        "context": {**context, "traceback": traceback.format_exc()}}}
