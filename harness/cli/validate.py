"""`validate`: check every case against the schema, then lint it (rulings, cards, labels, ids, rule
numbers); the rule exemptions too."""

from __future__ import annotations

import argparse
import json

from harness.cli.common import add_corpus_option, corpus_from, print_problems
from harness.cli.coverage import coverage_map
from harness.validation import Problem, validate_corpus


def add_parser(verbs) -> None:
    parser = verbs.add_parser(
        "validate", help="check the corpus: schema, then rulings, cards, labels, ids, rule numbers; every ruling covered",
        description="Validate every case (JSON Schema, then semantic checks: every Comprehensive Rules number it "
                    "cites exists in the pinned edition, cr/), the cards, the rulings and the rule exemptions "
                    "(cases/rules-exempt/), and check that every ruling is encoded by at least one case. Each problem is one line: "
                    "file:line: path: message (hint). Exit 0 if there is none, 2 otherwise.")
    add_corpus_option(parser)
    parser.add_argument("--allow-uncovered", action="store_true",
                        help="don't count rulings without a case as problems (while a topic is being encoded)")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    corpus = corpus_from(args)
    if corpus is None:
        return 2
    report = validate_corpus(corpus)
    if not args.allow_uncovered:
        report.problems.extend(uncovered_rulings(corpus, report.valid_cases))
    if args.format == "json":
        print(json.dumps({"cases": report.case_count, "valid": len(report.valid_cases),
                          "problems": [vars(p) for p in report.problems]}, indent=2))
    elif report.problems:
        print_problems(report)
    else:
        print(f"ok: {report.case_count} cases, {len(corpus.cards)} cards, {len(corpus.rulings)} rulings")
    return 0 if report.ok else 2


def uncovered_rulings(corpus, cases) -> list[Problem]:
    """Coverage as a gate: each ruling of rulings.yaml with no case encoding it is a problem."""
    doc = corpus.rulings_doc
    index = {entry.get("id"): i for i, entry in enumerate((doc.data or {}).get("rulings", []))
             if isinstance(entry, dict)}
    return [Problem(f"{corpus.root.name}/rulings.yaml", doc.line_of(["rulings", index.get(ruling_id, 0)]),
                    f"$.rulings[{index.get(ruling_id, 0)}]", f"no case encodes ruling {ruling_id!r}",
                    f"write one: mtg-conformance new {ruling_id}")
            for ruling_id, cases in coverage_map(corpus, cases).items() if not cases]
