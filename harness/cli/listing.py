"""`list`: the cases, with what they require, the rulings they encode and the rules they cite."""

from __future__ import annotations

import argparse
import json

from tabulate import tabulate

from harness.cli.common import add_corpus_option, add_selection_options, corpus_from, print_problems, validated_selection


def add_parser(verbs) -> None:
    parser = verbs.add_parser("list", help="list cases", description="List cases (after validation).")
    add_corpus_option(parser)
    add_selection_options(parser)
    parser.add_argument("--format", choices=("table", "json", "ids"), default="table", help="output format")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    corpus = corpus_from(args)
    if corpus is None:
        return 2
    report, cases = validated_selection(args, corpus)
    if args.format == "json":
        print(json.dumps([{"id": c.id, "description": c.description, "rulings": c.rulings, "rules": c.rules,
                           "requires": c.requires, "file": c.display_path} for c in cases], indent=2))
    elif args.format == "ids":
        print("\n".join(c.id for c in cases))
    else:
        rows = [[c.id, ", ".join(c.rulings), ", ".join(c.requires), c.description] for c in cases]
        print(tabulate(rows, headers=["case", "rulings", "requires", "description"], maxcolwidths=[None, 20, 24, 60]))
    if report.problems:
        print_problems(report)
        return 2
    return 0
