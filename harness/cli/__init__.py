"""`mtg-conformance`: run the corpus against an engine, validate it, list cases, show coverage and
the Comprehensive Rules.

Exit codes: harness/exits.py (0 passed, 1 failed, 2 bad input or usage, 3 nothing played, 130/143
interrupted).
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading

from harness import __version__
from harness.cli import (coverage, engines, listing, merge, new, prove, rules, rules_diff, run, site, smoke, table,
                         validate)

from harness.exits import (EPILOG, EXIT_FAILED, EXIT_INTERRUPTED, EXIT_NOTHING_PLAYED, EXIT_OK,  # noqa: F401
                           EXIT_TERMINATED, EXIT_USAGE, Terminated)
VERBS = (run, validate, listing, coverage, rules, rules_diff, engines, smoke, table, new, prove, merge, site)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # usage errors exit 2, as argparse does, with a pointer to --help
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n(see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="mtg-conformance",
        description="Rules-conformance corpus and harness for Magic: The Gathering rules engines.",
        epilog=EPILOG,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", parser_class=_Parser)
    for module in VERBS:
        module.add_parser(verbs)
    return parser


@contextlib.contextmanager
def _signals_interrupt():
    """SIGTERM raises Terminated (Ctrl-C raises KeyboardInterrupt): both unwind through every cleanup."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminate(signum, frame):
        raise Terminated()
    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _shut_down(exc: KeyboardInterrupt) -> int:
    """After an interruption, however far the cleanup got (a second Ctrl-C may have cut it short):
    kill every engine still running, without being interrupted again."""
    from harness.engine_process import kill_all

    in_main = threading.current_thread() is threading.main_thread()
    if in_main:
        saved = {s: signal.signal(s, signal.SIG_IGN) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        kill_all()
        print("interrupted", file=sys.stderr)
    finally:
        if in_main:
            for number, handler in saved.items():
                signal.signal(number, handler)
    return EXIT_TERMINATED if isinstance(exc, Terminated) else EXIT_INTERRUPTED


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.verb is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        with _signals_interrupt():
            try:
                return args.handler(args)
            except BrokenPipeError:  # e.g. piped into head
                return EXIT_OK
    except KeyboardInterrupt as exc:  # Ctrl-C, SIGTERM, or a second one during the cleanup of the first
        return _shut_down(exc)
