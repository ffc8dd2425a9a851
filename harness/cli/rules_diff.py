"""`rules-diff NEW_TEXT`: before moving the corpus to a newer edition of the Comprehensive Rules,
list every rule the corpus cites or exempts whose number vanished or whose text changed."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path

from harness.cli.common import add_corpus_option, corpus_from, print_problems
from harness.validation import validate_corpus


def add_parser(verbs) -> None:
    parser = verbs.add_parser(
        "rules-diff", help="which cited rules a newer Comprehensive Rules text renumbers or changes",
        description="Compare NEW_TEXT, a newer edition of the Comprehensive Rules (the .txt Wizards publishes), "
                    "with the pinned edition (cr/), and list every number a case cites or cases/rules-exempt/ "
                    "exempts whose rule vanished (with the number its text may have moved to) or whose text, "
                    "examples or section title changed, with the cases to re-check. Exit 0 if there is none, "
                    "1 if there is some, 2 if NEW_TEXT can't be read as the Comprehensive Rules.")
    parser.add_argument("new_text", type=Path, metavar="NEW_TEXT", help="the newer edition's text file")
    add_corpus_option(parser)
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    from harness import cr
    from harness.edition_diff import changes
    from harness.rule_coverage import citations

    try:
        old = cr.pinned()
        new = cr.load(args.new_text)
    except cr.CRError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    corpus = corpus_from(args)
    if corpus is None:
        return 2
    report = validate_corpus(corpus)
    if report.problems:
        print_problems(report)
        print("not comparing: fix the problems above first", file=sys.stderr)
        return 2
    exempt = {number: e.reason for number, e in report.exemptions.by_rule.items()}
    found = changes(old, new, citations(report.valid_cases), exempt)
    if args.format == "json":
        print(json.dumps({"from": old.effective, "to": new.effective, "changes": [c.to_json() for c in found]},
                         indent=2, ensure_ascii=False))
    else:
        print(f"Comprehensive Rules effective {old.effective} (pinned) -> {new.effective} ({args.new_text})")
        for change in found:
            print()
            print("\n".join(_lines(change)))
        print()
        cases = {case for change in found for case in change.cases}
        print(f"{len(found)} cited or exempt number(s) changed; {len(cases)} case(s) to re-check"
              if found else "no cited or exempt number changed")
    return 1 if found else 0


def _lines(change) -> list[str]:
    what = {"vanished": "vanished", "text": "text changed", "examples": "examples changed",
            "title": "section title changed"}[change.change]
    moved = f" (its text is now {' or '.join(change.moved_to)}?)" if change.moved_to else ""
    lines = [f"{change.rule}: {what}{moved}"]
    lines += textwrap.wrap(f"was: {change.old}", 100, initial_indent="  ", subsequent_indent="    ")
    if change.new is not None:
        lines += textwrap.wrap(f"now: {change.new}", 100, initial_indent="  ", subsequent_indent="    ")
    if change.cases:
        lines += textwrap.wrap("cited by: " + ", ".join(change.cases), 100, initial_indent="  ",
                               subsequent_indent="    ", break_on_hyphens=False)
    if change.exempt is not None:
        lines.append(f"  exempt: {change.exempt}")
    return lines
