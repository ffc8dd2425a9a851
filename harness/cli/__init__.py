"""`mtg-conformance`: run the corpus against an engine, validate it, list cases, show coverage and
the Comprehensive Rules.

Exit codes: 0 everything passed (or was skipped), 1 a case failed or errored, 2 bad input or usage.
"""

from __future__ import annotations

import argparse
import sys

from harness import __version__
from harness.cli import (coverage, engines, listing, merge, new, prove, rules, rules_diff, run, site, smoke, table,
                         validate)

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
VERBS = (run, validate, listing, coverage, rules, rules_diff, engines, smoke, table, new, prove, merge, site)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # usage errors exit 2, as argparse does, with a pointer to --help
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n(see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="mtg-conformance",
        description="Rules-conformance corpus and harness for Magic: The Gathering rules engines.",
        epilog="Exit codes: 0 all passed or skipped, 1 a case failed or errored, 2 bad input or usage.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", parser_class=_Parser)
    for module in VERBS:
        module.add_parser(verbs)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.verb is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        return args.handler(args)
    except BrokenPipeError:  # e.g. piped into head
        return EXIT_OK
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
