"""`run`: run cases against an engine and report; exit 1 if any case failed or errored."""

from __future__ import annotations

import argparse
import json
import sys

from harness.cli.common import add_corpus_option, add_selection_options, corpus_from, print_problems, validated_selection
from harness.engines import EngineError, open_engine
from harness.report import table, to_json
from harness.results import FAILING
from harness.runner import run_cases


def add_parser(verbs) -> None:
    parser = verbs.add_parser(
        "run", help="run cases against an engine",
        description="Validate the selected cases, run them against an engine, and report. "
                    "Exit 0 if all passed or were skipped, 1 if any failed or errored, 2 on bad input.")
    add_corpus_option(parser)
    add_selection_options(parser)
    parser.add_argument("--engine", default="reference", metavar="ENGINE",
                        help="a registered engine name (see `engines`) or 'cmd:<command line>' (default: reference)")
    parser.add_argument("--format", choices=("table", "json"), default="table", help="report format (default: table)")
    parser.add_argument("--output", metavar="FILE", help="write the report to FILE instead of standard output")
    parser.add_argument("-v", "--verbose", action="store_true", help="also explain skipped cases")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    corpus = corpus_from(args)
    if corpus is None:
        return 2
    report, cases = validated_selection(args, corpus)
    if report.problems:
        print_problems(report)
        print("not running: fix the problems above first (or select other cases with -k/--tag)", file=sys.stderr)
        return 2
    if not cases:
        print("no case matches the selection", file=sys.stderr)
        return 2
    try:
        session = open_engine(args.engine)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        results = list(run_cases(cases, session, corpus))
    finally:
        session.close()
    if args.format == "json":
        text = json.dumps(to_json(session.info, results), indent=2)
    else:
        text = table(session.info, results, corpus, verbose=args.verbose)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle_:
            handle_.write(text + "\n")
    else:
        print(text)
    return 1 if any(r.status in FAILING for r in results) else 0
