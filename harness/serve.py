"""`python -m harness.serve ENGINE`: a registered in-process engine served over the JSON-lines
protocol, in a process of its own. `run -j N` uses it to run in-process engines in parallel (and so
that --timeout applies to them); adapter authors can use it to see their adapter as the harness
sees an external engine: `mtg-conformance smoke --engine "cmd:python -m harness.serve my-engine"`.
"""

from __future__ import annotations

import json
import sys
import traceback
from typing import Any, BinaryIO, TextIO

from harness.engines import create_adapter

from harness.session import EngineError


def serve(adapter: Any, commands: BinaryIO, replies: TextIO) -> None:
    """Answer commands until `stop` or the end of input. Replies are the only thing written to `replies`."""
    for line in commands:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError as exc:
            print(f"harness.serve: ignored a line that is not JSON ({exc})", file=sys.stderr)
            continue
        command = message.get("cmd") if isinstance(message, dict) else None
        if command == "stop":
            return
        if command == "start":
            reply = adapter.start(message)
        elif command == "run" and "seq" in message:
            reply = {"seq": message["seq"], **_run(adapter, message.get("case"))}
        else:
            print(f"harness.serve: ignored the command {command!r}", file=sys.stderr)
            continue
        replies.write(json.dumps(reply, separators=(",", ":"), check_circular=False) + "\n")
        replies.flush()


def _run(adapter: Any, case: Any) -> dict[str, Any]:
    try:
        reply = adapter.run(case)
    except Exception as exc:
        return {"errored": {"message": f"the adapter raised {type(exc).__name__}: {exc}",
                            "context": {"traceback": traceback.format_exc()}}}
    return reply if isinstance(reply, dict) else {"errored": {"message": f"the adapter returned {type(reply).__name__}"}}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0].startswith("-"):
        print(__doc__.strip(), file=sys.stderr)
        return 0 if args and args[0] in ("-h", "--help") else 2
    replies, sys.stdout = sys.stdout, sys.stderr  # prints of the adapter go to the log, not the protocol
    try:
        adapter = create_adapter(args[0])
    except EngineError as exc:
        print(f"harness.serve: {exc}", file=sys.stderr)
        return 2
    try:
        serve(adapter, sys.stdin.buffer, replies)
    finally:
        adapter.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
