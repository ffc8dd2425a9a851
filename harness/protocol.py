"""The protocol's messages (docs/protocol.md, schema/protocol/): the commands the harness sends and
the checks of what engines answer. In-process adapters and engines over stdio exchange the same
messages, so both go through these functions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness import schemas

PROTOCOL_VERSION = 1
REPLY_KINDS = ("result", "skipped", "errored")
STOP = {"cmd": "stop"}


class ProtocolError(Exception):
    """A message that breaks the protocol; the text says what is wrong and how to fix it."""


@dataclass(frozen=True)
class Handshake:
    """What the start reply said: the engine's description and what it can do."""

    engine: dict[str, Any]
    capabilities: tuple[str, ...]
    version: int = PROTOCOL_VERSION


def start_command() -> dict[str, Any]:
    return {"cmd": "start", "version": PROTOCOL_VERSION}


def run_command(seq: int, case: dict[str, Any]) -> dict[str, Any]:
    return {"cmd": "run", "seq": seq, "case": case}


def schema_problems(name: str, message: Any) -> list[str]:
    """Where `message` breaks schema/protocol/<name>.json (empty if it doesn't)."""
    return list(schemas.iter_messages(f"protocol/{name}", message))


def read_start_reply(reply: Any, *, strict: bool = False) -> Handshake:
    """The handshake in a start reply; ProtocolError, with advice, if it can't be used."""
    if not isinstance(reply, dict):
        raise ProtocolError(f"the start reply is {_kind(reply)}, not an object")
    if "engine" not in reply and "name" in reply:
        raise ProtocolError("the start reply is flat: put name, version, homepage and issues under 'engine', "
                            "and add \"version\": 1, the protocol version")
    if "version" not in reply:
        raise ProtocolError("the start reply has no 'version', the protocol version the engine speaks")
    version = reply["version"]
    if version != PROTOCOL_VERSION:
        advice = ("upgrade mtg-conformance, or use an adapter for version 1" if isinstance(version, int)
                  and version > PROTOCOL_VERSION else "answer with \"version\": 1")
        raise ProtocolError(f"the engine speaks protocol version {version!r}; this harness speaks version "
                            f"{PROTOCOL_VERSION} ({advice})")
    engine = reply.get("engine")
    if not isinstance(engine, dict) or not isinstance(engine.get("name"), str) or not engine.get("name"):
        raise ProtocolError("the start reply needs 'engine': {\"name\": ..., \"version\": ..., \"issues\": ...}")
    capabilities = reply.get("capabilities")
    if not isinstance(capabilities, list) or not all(isinstance(c, str) for c in capabilities):
        raise ProtocolError("the start reply needs 'capabilities': a list of capability tags (may be empty)")
    if strict:
        check_schema("start-reply", reply, "the start reply")
    return Handshake(dict(engine), tuple(capabilities), version)


def check_run_reply(reply: Any, seq: int) -> None:
    """ProtocolError if `reply` can't be the answer to the run command `seq` (the stream is out of step)."""
    if not isinstance(reply, dict):
        raise ProtocolError(f"the reply is {_kind(reply)}, not an object")
    if reply.get("seq") != seq:
        got = f"seq {reply['seq']!r}" if "seq" in reply else "no seq"
        raise ProtocolError(f"the reply has {got}; the case was sent with seq {seq}")


def check_schema(schema: str, message: Any, what: str) -> None:
    """ProtocolError listing where `message` breaks schema/protocol/<schema>.json (for --strict)."""
    problems = schema_problems(schema, message)
    if problems:
        listed = "\n".join(f"  {p}" for p in problems)
        raise ProtocolError(f"{what} breaks schema/protocol/{schema}.json (--strict):\n{listed}")


def _kind(value: Any) -> str:
    return {list: "a list", str: "a string", type(None): "null", bool: "a boolean"}.get(type(value), type(value).__name__)
