"""Finding and starting engines: registered names (entry point group `mtg_conformance.engines`),
or 'cmd:<command line>' for an engine in any language speaking the JSON-lines protocol.

An in-process adapter is any class whose instances have `start(request) -> dict`,
`run(case) -> dict` and `stop()`, exchanging the protocol's messages as dicts (docs/protocol.md).
The harness never imports an engine directly: the reference engine is found like any other.
"""

from __future__ import annotations

import difflib
import traceback
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Callable, Protocol

from harness.protocol import PROTOCOL_VERSION  # noqa: F401 (re-exported)
from harness.protocol import ProtocolError, read_run_reply, read_start_reply, start_command
from harness.session import DEFAULT_START_TIMEOUT, DEFAULT_TIMEOUT, EngineError, EngineSession, Reply

ENTRY_POINT_GROUP = "mtg_conformance.engines"


class Adapter(Protocol):
    def start(self, request: dict[str, Any]) -> dict[str, Any]: ...
    def run(self, case: dict[str, Any]) -> dict[str, Any]: ...
    def stop(self) -> None: ...


def registered() -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def received(message: Any, seq: int) -> Reply:
    """An in-process adapter's reply as the harness takes it in, with the same checks as over the wire
    (as it would be sent with its seq): plain data within the limits, the schema, then parsed. A reply
    that breaks the protocol is the engine's error."""
    if not isinstance(message, dict):
        return Reply(None, "error", f"the adapter returned {type(message).__name__}, not a reply object")
    try:
        return Reply(read_run_reply({"seq": seq, **message}))
    except ProtocolError as exc:
        return Reply(None, "error", str(exc))


class InProcessSession(EngineSession):
    """An adapter living in the harness's process: fast, but a hang can't be cut short."""

    def __init__(self, name: str, adapter: Adapter, *, strict: bool = False) -> None:
        super().__init__(name)
        self.adapter = adapter
        self.strict = strict
        self.seq = 0
        try:
            reply = adapter.start(start_command())
        except Exception as exc:
            raise EngineError(f"engine {name!r} failed to start: {type(exc).__name__}: {exc}") from exc
        try:
            self.accept(read_start_reply(reply, strict=strict))
        except ProtocolError as exc:
            raise EngineError(f"engine {name!r}: {exc} (docs/protocol.md)") from exc

    def run(self, case: dict[str, Any]) -> Reply:
        answer = self.call(case)
        return answer if isinstance(answer, Reply) else self.receive(answer)

    def call(self, case: dict[str, Any]) -> Any:
        """The adapter's reply to `case` as it returned it, not yet checked (`receive` checks it); the
        error, as a Reply, if the adapter raised."""
        self.seq += 1
        try:
            return self.adapter.run(case)
        except Exception as exc:
            return Reply(None, "error", f"the adapter raised {type(exc).__name__}: {exc}\n{traceback.format_exc()}")

    def receive(self, message: Any) -> Reply:
        """The reply `call` returned, checked and parsed as `run` takes it in."""
        return received(message, self.seq)

    def close(self) -> None:
        try:
            self.adapter.stop()
        except Exception:
            pass


def create_adapter(spec: str) -> Adapter:
    """The in-process adapter of a registered engine: 'name', or 'name:argument' (the argument goes to
    the engine's factory, as in 'mutant:summoning-sickness-ignored')."""
    return _factory(spec)()


def _factory(spec: str) -> Callable[[], Adapter]:
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

    def create() -> Adapter:
        try:
            return factory(argument) if argument else factory()
        except Exception as exc:
            raise EngineError(f"engine {spec!r} could not be created: {exc}") from exc
    return create


def check_spec(spec: str) -> None:
    """EngineError now, with close matches, if `spec` names no registered engine (or can't be created)."""
    if not spec.startswith("cmd:"):
        create_adapter(spec)


def open_engine(spec: str, *, strict: bool = False, timeout: float = DEFAULT_TIMEOUT,
                start_timeout: float = DEFAULT_START_TIMEOUT, isolated: bool = False) -> EngineSession:
    """Start the engine named by `spec`: a registered name, or 'cmd:<command line>'. `isolated` runs a
    registered engine in a process of its own, over the protocol (for -j, and so timeouts apply)."""
    if spec.startswith("cmd:") or isolated:
        from harness.protocol_client import SubprocessSession, serve_command

        command = spec[4:] if spec.startswith("cmd:") else serve_command(spec)
        return SubprocessSession(command, name=spec, strict=strict, timeout=timeout, start_timeout=start_timeout)
    return InProcessSession(spec, create_adapter(spec), strict=strict)
