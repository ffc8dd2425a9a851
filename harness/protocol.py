"""The harness's reading of the protocol's messages (docs/protocol.md, schema/protocol/): the
commands it sends, and every reply checked against its schema, then parsed into the engine kit's
message classes (engine_kit/protocol.py). In-process adapters and engines over stdio exchange the
same messages, so both go through these functions.
"""

from __future__ import annotations

from typing import Any

from engine_kit.protocol import (PROTOCOL_VERSION, MessageError, Reply, Start, Started, Stop,
                                 reply_from_json)
from harness import schemas
from harness.limits import plain_data_scan

STOP = Stop().to_json()


class ProtocolError(Exception):
    """A message that breaks the protocol; the text says what is wrong and how to fix it."""


def start_command() -> dict[str, Any]:
    return Start().to_json()


def run_command(seq: int, case: dict[str, Any]) -> dict[str, Any]:
    return {"cmd": "run", "seq": seq, "case": case}


def schema_problems(name: str, message: Any) -> list[str]:
    """Where `message` breaks schema/protocol/<name>.json (empty if it doesn't)."""
    return list(schemas.iter_messages(f"protocol/{name}", message))


def read_start_reply(reply: Any, *, strict: bool = False) -> Started:
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
    try:
        return Started.from_json(reply)
    except MessageError as exc:
        raise ProtocolError(str(exc)) from None


def check_run_reply(reply: Any, seq: int) -> None:
    """ProtocolError if `reply` can't be the answer to the run command `seq` (the stream is out of step)."""
    if not isinstance(reply, dict):
        raise ProtocolError(f"the reply is {_kind(reply)}, not an object")
    if reply.get("seq") != seq:
        got = f"seq {reply['seq']!r}" if "seq" in reply else "no seq"
        raise ProtocolError(f"the reply has {got}; the case was sent with seq {seq}")


def read_run_reply(reply: dict[str, Any]) -> Reply:
    """The reply to a case, checked against schema/protocol/run-reply.json (`reply` has its seq: an
    in-process adapter's is given the seq it would have been sent with); ProtocolError with the
    schema's messages if it breaks the schema. NaN, sets, deep nesting and integers beyond the limits
    are refused first: the schema's check recurses, and the comparison must never see them."""
    problem, floats = plain_data_scan(reply)
    if problem is not None:
        raise ProtocolError(f"the reply is not plain JSON data within the limits: {problem}")
    if not schemas.surely_valid("protocol/run-reply", reply, floats=floats):  # the common case: one walk
        check_schema("run-reply", reply, "the reply")
    return reply_from_json(reply)


def check_schema(schema: str, message: Any, what: str) -> None:
    """ProtocolError listing where `message` breaks schema/protocol/<schema>.json."""
    problems = schema_problems(schema, message)
    if problems:
        listed = "\n".join(f"  {p}" for p in problems)
        raise ProtocolError(f"{what} breaks schema/protocol/{schema}.json:\n{listed}")


def _kind(value: Any) -> str:
    return {list: "a list", str: "a string", type(None): "null", bool: "a boolean"}.get(type(value), type(value).__name__)
