"""`coverage`: each ruling with the cases that encode it; rulings without a case are listed."""

from __future__ import annotations

import argparse
import json

from tabulate import tabulate

from harness.cli.common import add_corpus_option, corpus_from, print_problems
from harness.validation import validate_corpus


def add_parser(verbs) -> None:
    parser = verbs.add_parser("coverage", help="which cases encode each ruling",
                              description="Each ruling of rulings.yaml with the cases that encode it.")
    add_corpus_option(parser)
    parser.add_argument("--format", choices=("table", "json"), default="table", help="output format")
    parser.set_defaults(handler=handle)


def coverage_map(corpus, cases) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {ruling_id: [] for ruling_id in corpus.rulings}
    for case in cases:
        for ruling_id in case.rulings:
            if ruling_id in found:
                found[ruling_id].append(case.id)
    return found


def handle(args: argparse.Namespace) -> int:
    corpus = corpus_from(args)
    if corpus is None:
        return 2
    report = validate_corpus(corpus)
    found = coverage_map(corpus, report.valid_cases)
    uncovered = [r for r, cases in found.items() if not cases]
    if args.format == "json":
        print(json.dumps({"rulings": [{"id": r, "cases": cases} for r, cases in found.items()],
                          "uncovered": uncovered}, indent=2))
    else:
        rows = [[r, len(cases), "\n".join(cases) or "-"] for r, cases in found.items()]
        print(tabulate(rows, headers=["ruling", "cases", "case ids"]))
        print()
        print(f"{len(found) - len(uncovered)}/{len(found)} rulings covered")
        if uncovered:
            print("uncovered: " + ", ".join(uncovered))
    if report.problems:
        print_problems(report)
        return 2
    return 0
