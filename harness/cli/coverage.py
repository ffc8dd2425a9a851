"""`coverage`: each ruling with the cases that encode it; rulings without a case are listed. With
--rules: each Comprehensive Rules section with its rules cited by a case, and those exempt."""

from __future__ import annotations

import argparse
import json
import sys

from tabulate import tabulate

from harness.cli.common import add_corpus_option, corpus_from, print_problems
from harness.validation import validate_corpus


def add_parser(verbs) -> None:
    parser = verbs.add_parser(
        "coverage", help="which cases encode each ruling; with --rules, which cite each Comprehensive Rules rule",
        description="Each ruling of rulings.yaml with the cases that encode it. With --rules: for each section of "
                    "the Comprehensive Rules (the pinned edition, cr/), how many numbered rules and subrules it has, "
                    "how many a case cites and how many are exempt (cases/rules-exempt/); with --section, each of "
                    "its rules with the cases citing it. A citation covers exactly the number cited: '601.2' does "
                    "not cover '601.2a', nor '601.2a' cover '601.2'; a section's heading is not one of its rules.")
    add_corpus_option(parser)
    parser.add_argument("--rules", action="store_true", help="coverage of the Comprehensive Rules, by section")
    parser.add_argument("--section", action="append", default=[], metavar="N",
                        help="with --rules: only section N, e.g. 613 (repeatable); the table then lists its rules")
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
    if args.section and not args.rules:
        print("error: --section goes with --rules", file=sys.stderr)
        return 2
    corpus = corpus_from(args)
    if corpus is None:
        return 2
    report = validate_corpus(corpus)
    if args.rules:
        code = _rules(args, report)
        if code:
            return code
    else:
        _rulings(args, corpus, report)
    if report.problems:
        print_problems(report)
        return 2
    return 0


def _rulings(args: argparse.Namespace, corpus, report) -> None:
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


def _rules(args: argparse.Namespace, report) -> int:
    from harness import cr
    from harness.rule_coverage import rules_coverage

    try:
        edition = cr.pinned()
    except cr.CRError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    unknown = [number for number in args.section if number not in edition.sections]
    for number in unknown:
        hint = (f"{number} is a rule, not a section: see `mtg-conformance rules {number}`" if number in edition
                else cr.suggestion(edition, number))
        print(f"error: no section {number} in the Comprehensive Rules effective {edition.effective} ({hint})",
              file=sys.stderr)
    if unknown:
        return 2
    coverage = rules_coverage(edition, report.valid_cases, report.exemptions, list(dict.fromkeys(args.section)) or None)
    if args.format == "json":
        print(json.dumps(coverage, indent=2))
        return 0
    sections = coverage["sections"]
    rows = [[s["section"], s["title"], s["rules"], s["cited"], s["exempt"], s["rules"] - s["cited"] - s["exempt"]]
            for s in sections]
    total = [sum(s[key] for s in sections) for key in ("rules", "cited", "exempt")]
    rows.append(["total", "", *total, total[0] - total[1] - total[2]])
    print(f"Comprehensive Rules effective {coverage['edition']}")
    print(tabulate(rows, headers=["section", "title", "rules", "cited", "exempt", "neither"], maxcolwidths=[None, 40]))
    if args.section:
        print()
        rows = [[r["rule"], "\n".join(r["cases"]) or ("-" if r["exempt"] is None else f"exempt: {r['exempt']}")]
                for r in coverage["rules"]]
        print(tabulate(rows, headers=["rule", "cases citing it"], maxcolwidths=[None, 90]))
    return 0
