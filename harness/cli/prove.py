"""`prove CASE_ID`: show which rule mutants make a case fail, and that an engine doing nothing fails it.

A case earns trust by failing when the rule it encodes is broken. The reference engine's rule
mutants (engine `mutant:<name>`) each break one rule; the `null` engine applies no rules at all.
"""

from __future__ import annotations

import argparse
import sys

from tabulate import tabulate

from harness.cli.common import add_corpus_option, corpus_from, print_problems
from harness.engines import open_engine, registered
from harness.results import Status
from harness.runner import run_case
from harness.session import EngineError
from harness.validation import validate_corpus

CAUGHT = (Status.FAIL, Status.ERROR, Status.TIMEOUT, Status.CRASH)


def add_parser(verbs) -> None:
    parser = verbs.add_parser(
        "prove", help="show which rule mutants a case catches",
        description="Run one case against the null engine (which applies no rules) and against every rule "
                    "mutant of the reference engine. Exit 0 if both the null engine and at least one mutant "
                    "make it fail, 1 otherwise.")
    parser.add_argument("case_id", metavar="CASE_ID", help="the case's id, e.g. general/tap-ability-summoning-sick")
    add_corpus_option(parser)
    parser.set_defaults(handler=handle)


def mutant_names() -> dict[str, str]:
    """The mutants the installed 'mutant' engine offers (name -> the rule it breaks)."""
    entry = registered().get("mutant")
    if entry is None:
        raise EngineError("no 'mutant' engine is installed (it ships with mtg-conformance's mutants package)")
    return entry.load().variants()


def outcome(case, spec: str, corpus) -> Status:
    session = open_engine(spec)
    try:
        return run_case(case, session, corpus).status
    finally:
        session.close()


def handle(args: argparse.Namespace) -> int:
    corpus = corpus_from(args)
    if corpus is None:
        return 2
    report = validate_corpus(corpus)
    case = next((c for c in report.valid_cases if c.id == args.case_id), None)
    if case is None:
        import difflib

        if report.problems and any(p.file.endswith(f"{args.case_id}.yaml") for p in report.problems):
            print_problems(report)
            return 2
        close = difflib.get_close_matches(args.case_id, [c.id for c in report.valid_cases], n=3)
        print(f"error: no valid case {args.case_id!r}" + (f"; did you mean {', '.join(close)}?" if close else ""),
              file=sys.stderr)
        return 2
    try:
        baseline = outcome(case, "reference", corpus)
        if baseline is not Status.PASS:
            print(f"the reference engine does not pass {case.id} ({baseline.value}): fix the case first", file=sys.stderr)
            return 1
        null = outcome(case, "null", corpus)
        rows = [["null", "applies no rules at all", "caught" if null in CAUGHT else null.value]]
        caught = []
        mutants = mutant_names()
        for name, breaks in mutants.items():
            status = outcome(case, f"mutant:{name}", corpus)
            if status in CAUGHT:  # only the rows that say something: the others are counted below
                caught.append(name)
                rows.append([f"mutant:{name}", breaks, "caught"])
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"case {case.id} ({case.display_path})")
    print(tabulate(rows, headers=["engine", "breaks", "result"], maxcolwidths=[None, 70, None]))
    print(f"{len(mutants) - len(caught)} other mutant(s) did not catch it")
    print()
    ok = null in CAUGHT and bool(caught)
    if ok:
        print(f"caught by the null engine and by {len(caught)} mutant(s): {', '.join(caught)}")
        return 0
    if null not in CAUGHT:
        print("the null engine passes this case: its expectations hold even if no rule is applied, so it asserts "
              "nothing about the rules. Expect something the ruling changes.")
    if not caught:
        print("no mutant makes this case fail: either it doesn't depend on the rule it cites, or no mutant breaks "
              "that rule yet. Check the expectations, or add a mutant for the rule in mutants/.")
    return 1
