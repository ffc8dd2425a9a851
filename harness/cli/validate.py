"""`validate`: check every case against the schema, then lint it (rulings, cards, labels, ids)."""

from __future__ import annotations

import argparse
import json

from harness.cli.common import add_corpus_option, corpus_from, print_problems
from harness.validation import validate_corpus


def add_parser(verbs) -> None:
    parser = verbs.add_parser(
        "validate", help="check the corpus: schema, then rulings, cards, labels and ids",
        description="Validate every case (JSON Schema, then semantic checks), the cards and the rulings. "
                    "Each problem is one line: file:line: path: message (hint).")
    add_corpus_option(parser)
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    corpus = corpus_from(args)
    if corpus is None:
        return 2
    report = validate_corpus(corpus)
    if args.format == "json":
        print(json.dumps({"cases": report.case_count, "valid": len(report.valid_cases),
                          "problems": [vars(p) for p in report.problems]}, indent=2))
    elif report.problems:
        print_problems(report)
    else:
        print(f"ok: {report.case_count} cases, {len(corpus.cards)} cards, {len(corpus.rulings)} rulings")
    return 0 if report.ok else 2
