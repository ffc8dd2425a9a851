"""`python -m harness.serve ENGINE`: a registered in-process engine served over the JSON-lines
protocol, in a process of its own. `run -j N` uses it to run in-process engines in parallel (and so
that --timeout applies to them); adapter authors can use it to see their adapter as the harness
sees an external engine: `mtg-conformance smoke --engine "cmd:python -m harness.serve my-engine"`.
"""

from __future__ import annotations

import sys

from engine_kit.stdio import serve
from harness.engines import create_adapter
from harness.session import EngineError


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
    return serve(adapter, sys.stdin.buffer, replies, name="harness.serve")


if __name__ == "__main__":
    sys.exit(main())
