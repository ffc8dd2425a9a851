"""An in-process adapter served over the JSON-lines protocol (docs/protocol.md): one JSON object per
line on stdin and stdout. Standard output carries replies only: anything the adapter prints goes to
stderr, the engine's log.

    if __name__ == "__main__":
        sys.exit(engine_kit.stdio.serve(MyAdapter()))
"""

from __future__ import annotations

import json
import sys
import traceback
from typing import Any, BinaryIO, Protocol, TextIO

from engine_kit.protocol import Errored, JSON, reply_to_json


class DictAdapter(Protocol):
    """What the loop serves: an adapter exchanging the protocol's messages as dicts."""

    def start(self, request: JSON) -> JSON: ...
    def run(self, case: JSON) -> JSON: ...
    def stop(self) -> None: ...


def serve(adapter: DictAdapter, commands: BinaryIO | None = None, replies: TextIO | None = None,
          *, name: str = "engine") -> int:
    """Answer commands until `stop` or the end of input, then stop the adapter; the exit status.
    A line that is not JSON, and an unknown command, are logged; an unknown command that has a seq
    is answered with an error, so the harness need not wait for a reply that never comes."""
    commands = commands or sys.stdin.buffer
    replies = replies or sys.stdout
    saved, sys.stdout = sys.stdout, sys.stderr  # a stray print must not corrupt the reply stream
    try:
        for line in commands:
            if not line.strip():
                continue
            try:
                message = json.loads(line)
            except ValueError as exc:
                print(f"{name}: ignored a line that is not JSON ({exc})", file=sys.stderr)
                continue
            command = message.get("cmd") if isinstance(message, dict) else None
            if command == "stop":
                break
            reply = answer(adapter, message, command)
            if reply is None:
                print(f"{name}: ignored the command {command!r}", file=sys.stderr)
                continue
            replies.write(json.dumps(reply, separators=(",", ":"), check_circular=False) + "\n")
            replies.flush()
    finally:
        sys.stdout = saved
        adapter.stop()
    return 0


def answer(adapter: DictAdapter, message: Any, command: Any) -> JSON | None:
    """The reply to one command; None for one that gets no reply."""
    if command == "start":
        return adapter.start(message)
    seq = message.get("seq") if isinstance(message, dict) else None
    if seq is None:
        return None
    if command != "run":
        return reply_to_json(Errored(f"unknown command {command!r}"), seq)
    try:
        reply = adapter.run(message.get("case"))
    except Exception as exc:
        return reply_to_json(Errored(f"the adapter raised {type(exc).__name__}: {exc}",
                                     {"traceback": traceback.format_exc()}), seq)
    if not isinstance(reply, dict):
        return reply_to_json(Errored(f"the adapter returned {type(reply).__name__}, not a reply object"), seq)
    return {"seq": seq, **reply}
