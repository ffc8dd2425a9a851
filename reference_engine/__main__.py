"""`python -m reference_engine`: the reference engine as an engine in its own process, speaking the
JSON-lines protocol on stdin/stdout (docs/protocol.md), as an engine in any language would.

    mtg-conformance run --engine "cmd:python -m reference_engine"
"""

import sys

from engine_kit.stdio import serve
from reference_engine.adapter import ReferenceEngine

if __name__ == "__main__":
    if len(sys.argv) > 1:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(0 if sys.argv[1] in ("-h", "--help") else 2)
    sys.exit(serve(ReferenceEngine(), name="reference engine"))
