"""`rules RULE...`: the text of Comprehensive Rules rules (the pinned edition, cr/), each with its
subrules and examples, and the cases that cite each one."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from typing import TYPE_CHECKING, Any

from harness.cli.common import add_corpus_option, corpus_from, print_problems
from harness.validation import validate_corpus

if TYPE_CHECKING:
    from harness.cr import Edition


def add_parser(verbs) -> None:
    parser = verbs.add_parser(
        "rules", help="show Comprehensive Rules rules, with their subrules, examples and the cases citing them",
        description="Print each RULE of the Comprehensive Rules (the pinned edition, cr/, effective 2026-08-07) "
                    "with its subrules and their examples, and for each the cases that cite exactly that number "
                    "(or the reason it is exempt, cases/rules-exempt/). RULE is a rule ('702.145'), a subrule "
                    "('702.145a') or a section ('702': all its rules). An unknown number exits 2 with the closest "
                    "existing ones.")
    parser.add_argument("numbers", nargs="+", metavar="RULE", help="a section, rule or subrule number")
    add_corpus_option(parser)
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    from harness import cr
    from harness.rule_coverage import citations

    try:
        edition = cr.pinned()
    except cr.CRError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    unknown = [number for number in args.numbers if number not in edition]
    for number in unknown:
        print(f"error: no rule {number} in the Comprehensive Rules effective {edition.effective} "
              f"({cr.suggestion(edition, number)})", file=sys.stderr)
    if unknown:
        return 2
    corpus = corpus_from(args)
    if corpus is None:
        return 2
    report = validate_corpus(corpus)
    cited = citations(report.valid_cases)
    found = [lookup(edition, number, cited, report.exemptions) for number in dict.fromkeys(args.numbers)]
    if args.format == "json":
        print(json.dumps({"edition": edition.effective, "results": found}, indent=2, ensure_ascii=False))
    else:
        print(f"Comprehensive Rules effective {edition.effective}")
        for item in found:
            print()
            print("\n".join(text_lines(item)))
    if report.problems:
        print_problems(report)
        return 2
    return 0


def lookup(edition: Edition, number: str, cited: dict[str, list[str]], exemptions) -> dict[str, Any]:
    """The rule `number` (or every rule of the section `number`) with its subrules, as data."""
    section = edition.section_of(number)
    assert section is not None
    rules = [{"rule": rule.number, "text": rule.text, "examples": list(rule.examples), "parent": rule.parent,
              "cases": cited.get(rule.number, []), "exempt": exemptions.reason(rule.number)}
             for rule in edition.under(number)]
    return {"query": number, "rules": rules,
            "section": {"section": section.number, "title": section.title, "cases": cited.get(section.number, [])}}


def text_lines(item: dict[str, Any]) -> list[str]:
    section = item["section"]
    lines = [f"{section['section']}. {section['title']}"]
    if section["cases"]:
        lines.append(textwrap.fill("the section is cited by: " + ", ".join(section["cases"]), 100,
                                   initial_indent="    -> ", subsequent_indent="       ", break_on_hyphens=False))
    for rule in item["rules"]:
        lines.append(textwrap.fill(f"{rule['rule']} {rule['text']}", 100, subsequent_indent="    "))
        for example in rule["examples"]:
            lines.append(textwrap.fill(f"Example: {example}", 100, initial_indent="    ", subsequent_indent="      "))
        if rule["cases"]:
            lines.append(textwrap.fill("cited by: " + ", ".join(rule["cases"]), 100, initial_indent="    -> ",
                                       subsequent_indent="       ", break_on_hyphens=False))
        elif rule["exempt"] is not None:
            lines.append(f"    -> exempt: {rule['exempt']}")
        else:
            lines.append("    -> no case cites it")
    return lines
