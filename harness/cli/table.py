"""`table`: run the corpus against several engines and write their conformance tables (docs/engines.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from harness.cli.common import add_corpus_option, add_selection_options, cases_to_run
from harness.engine_table import EngineRun, render
from harness.engines import open_engine
from harness.runner import run_cases
from harness.session import EngineError


def add_parser(verbs) -> None:
    parser = verbs.add_parser(
        "table", help="conformance tables of several engines, as Markdown",
        description="Run the selected cases against each engine and write, per engine, what it lacks, "
                    "pass/fail/skip/error by topic, each failure with its ruling and what the engine did, "
                    "and each skip with its reason. Exit 0 when written (failures are the content, not an "
                    "error); with --check, exit 1 if FILE differs from a fresh run.")
    add_corpus_option(parser)
    add_selection_options(parser)
    parser.add_argument("--engine", dest="engines", action="append", required=True, metavar="ENGINE",
                        help="an engine to run (repeatable; in the order given)")
    target = parser.add_mutually_exclusive_group()
    target.add_argument("--output", metavar="FILE", help="write the Markdown to FILE instead of standard output")
    target.add_argument("--check", metavar="FILE",
                        help="don't write: compare FILE with a fresh run, exit 1 if it is out of date")
    parser.set_defaults(handler=handle)


def command_line(args: argparse.Namespace) -> str:
    """The command that regenerates the file, as written at its top."""
    parts = ["mtg-conformance table"] + [f"--engine {e}" for e in args.engines]
    parts += [f"-k {p}" for p in args.patterns] + [f"--tag {t}" for t in args.tags]
    target = args.output or args.check
    if target:
        parts.append(f"--output {target}")
    return " ".join(parts)


def handle(args: argparse.Namespace) -> int:
    selection = cases_to_run(args)
    if selection is None:
        return 2
    corpus, _, cases = selection
    runs = []
    for spec in args.engines:
        try:
            session = open_engine(spec)
        except EngineError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        try:
            runs.append(EngineRun(spec, session.info, list(run_cases(cases, session, corpus))))
        finally:
            session.close()
    text = render(runs, corpus, cases, command_line(args))
    if args.check:
        current = Path(args.check).read_text(encoding="utf-8") if Path(args.check).is_file() else ""
        if current != text:
            print(f"{args.check} is out of date; regenerate it with: {command_line(args)}", file=sys.stderr)
            return 1
        print(f"{args.check} is up to date")
        return 0
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
        print(f"wrote {args.output}")
    else:
        sys.stdout.write(text)
    return 0
