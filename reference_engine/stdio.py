"""The reference engine over the JSON-lines protocol (docs/protocol.md): one JSON object per line on
stdin and stdout. Standard output carries replies only: anything else printed goes to stderr, the
engine's log.
"""

from __future__ import annotations

import json
import sys
import traceback
from typing import Any, BinaryIO, TextIO


def serve(adapter: Any, commands: BinaryIO | None = None, replies: TextIO | None = None) -> int:
    """Answer commands until `stop` or the end of input; the exit status."""
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
                print(f"reference engine: ignored a line that is not JSON ({exc})", file=sys.stderr)
                continue
            command = message.get("cmd") if isinstance(message, dict) else None
            if command == "stop":
                break
            if command == "start":
                reply = adapter.start(message)
            elif command == "run":
                reply = {"seq": message.get("seq"), **_run(adapter, message.get("case"))}
            else:
                print(f"reference engine: unknown command {command!r}", file=sys.stderr)
                if not isinstance(message, dict) or "seq" not in message:
                    continue
                reply = {"seq": message["seq"], "errored": {"message": f"unknown command {command!r}"}}
            replies.write(json.dumps(reply, separators=(",", ":"), check_circular=False) + "\n")
            replies.flush()
    finally:
        adapter.stop()
        sys.stdout = saved
    return 0


def _run(adapter: Any, case: Any) -> dict[str, Any]:
    try:
        return adapter.run(case)
    except Exception as exc:
        return {"errored": {"message": f"{type(exc).__name__}: {exc}", "context": {"traceback": traceback.format_exc()}}}
