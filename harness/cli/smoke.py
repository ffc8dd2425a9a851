"""`smoke`: a quick check for adapter authors that an engine speaks the protocol, with advice."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from harness.cli.common import add_corpus_option, add_engine_options, corpus_from
from harness.engines import check_spec
from harness.session import EngineError

if TYPE_CHECKING:
    from harness.smoke import Check


def add_parser(verbs) -> None:
    parser = verbs.add_parser(
        "smoke", help="check that an engine's adapter speaks the protocol",
        description="Start the engine, play a trivial case, a case it can't know (it should skip) and a case it "
                    "can't set up (it should answer errored), then stop it; every message is checked against "
                    "schema/protocol/. Exit 0 if every check passed (warnings allowed), 1 otherwise.")
    add_corpus_option(parser)
    add_engine_options(parser, required=True)
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    corpus = corpus_from(args)
    if corpus is None:
        return 2
    try:
        check_spec(args.engine)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"smoke test of {args.engine}")
    from harness.smoke import smoke  # imported here: every other command starts without it

    checks = smoke(args.engine, corpus, timeout=args.timeout, start_timeout=args.start_timeout, report=_show)
    failed = [c for c in checks if c.outcome == "FAIL"]
    warned = [c for c in checks if c.outcome == "warn"]
    if failed:
        print(f"smoke: {len(failed)} check(s) failed: {', '.join(c.name for c in failed)}")
    else:
        print("smoke: the engine speaks the protocol" + (f" ({len(warned)} warning(s))" if warned else ""))
    return 1 if failed else 0


def _show(check: Check) -> None:
    print(f"  {check.outcome:<5} {check.name}: {check.summary}")
    for line in check.advice:
        print(f"        {line}")
