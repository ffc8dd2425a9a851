"""What the harness holds of a started engine, wherever it runs: a session that runs cases one at a
time, the reply (or fault) each case got, and the error of an engine that can't be found or started.
In-process adapters (harness.engines) and engine processes (harness.protocol_client) both build on it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine_kit.protocol import Reply as Message
from engine_kit.protocol import Started

#: Seconds an engine in its own process gets per case (the reference engine needs milliseconds).
DEFAULT_TIMEOUT = 5.0
#: Seconds it gets to start and answer the handshake (a JVM loading its card database takes a while).
DEFAULT_START_TIMEOUT = 60.0


class EngineError(Exception):
    """An engine can't be found or started (bad --engine, failed handshake)."""


@dataclass
class Reply:
    """What came back for one case: the reply, checked and parsed, or a fault the harness observed
    (a reply that breaks the protocol is the fault "error")."""

    message: Message | None
    fault: str | None = None  # "error" | "timeout" | "crash"
    detail: str = ""
    stderr: str = ""


class EngineSession:
    """A started engine: its handshake, and a way to run cases one at a time."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.info: dict[str, Any] = {}  # the start reply's 'engine': name, version, homepage, issues, ...
        self.capabilities: set[str] = set()

    def accept(self, handshake: Started) -> None:
        self.info = handshake.engine.to_json()
        self.capabilities = set(handshake.capabilities)

    def run(self, case: dict[str, Any]) -> Reply:
        raise NotImplementedError

    def close(self) -> None:
        pass
