"""Finding and starting engines: registered names (entry point group `mtg_conformance.engines`).

An in-process adapter is any class whose instances have `start(request) -> dict`,
`run(case) -> dict` and `stop()`, speaking the protocol's messages as dicts (docs/protocol.md).
The harness never imports an engine directly: the reference engine is found like any other.
"""

from __future__ import annotations

import difflib
import traceback
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Protocol

ENTRY_POINT_GROUP = "mtg_conformance.engines"
PROTOCOL_VERSION = 1


class EngineError(Exception):
    """An engine can't be found or started (bad --engine, failed handshake)."""


class Adapter(Protocol):
    def start(self, request: dict[str, Any]) -> dict[str, Any]: ...
    def run(self, case: dict[str, Any]) -> dict[str, Any]: ...
    def stop(self) -> None: ...


def registered() -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


@dataclass
class Reply:
    """What came back for one case: the reply message, or a fault the harness observed."""

    message: dict[str, Any] | None
    fault: str | None = None  # "error" | "timeout" | "crash"
    detail: str = ""
    stderr: str = ""


@dataclass
class EngineSession:
    """A started engine: its handshake info, and a way to run cases one at a time."""

    name: str
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def capabilities(self) -> set[str]:
        return set(self.info.get("capabilities", []))

    def run(self, case: dict[str, Any]) -> Reply:
        raise NotImplementedError

    def close(self) -> None:
        pass


class InProcessSession(EngineSession):
    def __init__(self, name: str, adapter: Adapter) -> None:
        super().__init__(name)
        self.adapter = adapter
        try:
            self.info = adapter.start({"cmd": "start", "version": PROTOCOL_VERSION}) or {}
        except Exception as exc:
            raise EngineError(f"engine {name!r} failed to start: {type(exc).__name__}: {exc}") from exc

    def run(self, case: dict[str, Any]) -> Reply:
        try:
            message = self.adapter.run(case)
        except Exception as exc:
            return Reply(None, "error", f"the adapter raised {type(exc).__name__}: {exc}\n{traceback.format_exc()}")
        if not isinstance(message, dict):
            return Reply(None, "error", f"the adapter returned {type(message).__name__}, not a reply object")
        return Reply(message)

    def close(self) -> None:
        try:
            self.adapter.stop()
        except Exception:
            pass


def open_engine(spec: str, **options: Any) -> EngineSession:
    """Start the engine named by `spec`: a registered name (optionally 'name:argument', the argument
    going to the engine's factory, as in 'mutant:summoning-sickness-ignored'), or 'cmd:<command line>'."""
    if spec.startswith("cmd:"):
        from harness.protocol_client import SubprocessSession

        return SubprocessSession(spec[4:], **options)
    engines = registered()
    name, _, argument = spec.partition(":")
    entry = engines.get(name)
    if entry is None:
        close = difflib.get_close_matches(name, list(engines), n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        known = ", ".join(sorted(engines)) or "none"
        raise EngineError(f"no engine named {spec!r}{hint} (registered: {known}; or use 'cmd:<command line>')")
    try:
        factory = entry.load()
    except Exception as exc:
        raise EngineError(f"engine {spec!r} could not be loaded ({entry.value}): {type(exc).__name__}: {exc}") from exc
    try:
        adapter = factory(argument) if argument else factory()
    except Exception as exc:
        raise EngineError(f"engine {spec!r} could not be created: {exc}") from exc
    return InProcessSession(spec, adapter)
