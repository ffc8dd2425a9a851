"""`prove CASE_ID`: show which rule mutants make a case fail, and that an engine doing nothing fails it.
`prove --all`: the whole kill matrix (harness/killmatrix.py), as a table of what is unproven or as JSON.

A case earns trust by failing when the rule it encodes is broken. The reference engine's rule
mutants (engine `mutant:<name>`) each break one rule; the `null` engine applies no rules at all.
A mutant is *relevant* to a case when it breaks a rule the case cites (or that rule's parent).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from tabulate import tabulate

from harness.cli.common import add_corpus_option, corpus_from, print_problems
from harness.engines import open_engine
from harness.killmatrix import CAUGHT, FAULTS, compute, mutants, relevant
from harness.results import Status
from harness.runner import run_case
from harness.scheduling import settled_loaded
from harness.session import EngineError
from harness.validation import validate_corpus


def add_parser(verbs) -> None:
    parser = verbs.add_parser(
        "prove", help="show which rule mutants a case catches",
        description="Run one case against the null engine (which applies no rules) and against every rule "
                    "mutant of the reference engine. Exit 0 if both the null engine and at least one mutant "
                    "breaking a rule the case cites (the same number, or one the parent of the other: 601.2g "
                    "and 601.2, 601.2 and 601) make it fail (a mutant under which the engine errs proves nothing), 1 otherwise. With --all: every "
                    "case and every mutant (the kill matrix); exit 0 if every case is proven so, every mutant "
                    "makes a case fail, and no mutant makes the engine err, crash or hang.")
    parser.add_argument("case_id", metavar="CASE_ID", nargs="?",
                        help="the case's id, e.g. general/tap-ability-summoning-sick")
    parser.add_argument("--all", action="store_true", help="every case against every mutant: the kill matrix")
    parser.add_argument("--format", choices=["table", "json"], default="table",
                        help="with --all: table (what is unproven, default) or json: "
                             '{"cases": {id: {"killed_by": [...], "relevant": [...]}}, '
                             '"mutants": {name: {"rules": [...], "kills": [...], "faults": [...]}}}')
    parser.add_argument("-j", "--jobs", type=int, default=None, metavar="N",
                        help="with --all: processes to run the engines in (default: 2, or 1 on a single core)")
    add_corpus_option(parser)
    parser.set_defaults(handler=handle)


def mutant_names() -> dict[str, str]:
    """The mutants the installed 'mutant' engine offers (name -> the rule it breaks)."""
    return {name: info.breaks for name, info in mutants().items()}


def outcome(case, spec: str, corpus) -> Status:
    session = open_engine(spec)
    try:
        return run_case(case, session, corpus).status
    finally:
        session.close()


def handle(args: argparse.Namespace) -> int:
    if args.all == bool(args.case_id):
        print("error: name one CASE_ID, or give --all", file=sys.stderr)
        return 2
    corpus = corpus_from(args)
    if corpus is None:
        return 2
    report = validate_corpus(corpus)
    if args.all:
        return _handle_all(args, corpus, report)
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
        caught, relevant_caught = [], []
        rules = case.data.get("rules") or []
        for name, info in (every_mutant := mutants()).items():
            status = outcome(case, f"mutant:{name}", corpus)
            is_relevant = relevant(info.rules, rules)
            if status in CAUGHT:
                caught.append(name)
                if is_relevant and status not in FAULTS:  # an engine broken by the mutant proves nothing
                    relevant_caught.append(name)
            if status in CAUGHT:  # only the rows that say something: the others are counted below
                verdict = ("caught" if status not in FAULTS else f"{status.value}: the mutant broke the engine, "
                           "not the rule (fix the mutant)") + (" (relevant)" if is_relevant else "")
                rows.append([f"mutant:{name}", f"{info.breaks} [{', '.join(info.rules)}]", verdict])
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"case {case.id} ({case.display_path})")
    print(tabulate(rows, headers=["engine", "breaks", "result"], maxcolwidths=[None, 70, None]))
    print(f"{len(every_mutant) - len(caught)} other mutant(s) did not catch it")
    print()
    ok = null in CAUGHT and bool(relevant_caught)
    if ok:
        print(f"caught by the null engine and by {len(caught)} mutant(s), {len(relevant_caught)} breaking a rule "
              f"it cites: {', '.join(relevant_caught)}")
        return 0
    if null not in CAUGHT:
        print("the null engine passes this case: its expectations hold even if no rule is applied, so it asserts "
              "nothing about the rules. Expect something the ruling changes.")
    if not relevant_caught:
        print(f"no mutant breaking a rule the case cites ({', '.join(rules)}) makes it fail"
              + (f" (only: {', '.join(caught)})" if caught else "")
              + ": either it doesn't depend on the rule it cites, or no mutant breaks that rule yet. Check the "
                "expectations and the citations, or add a mutant for the rule in mutants/.")
    return 1


def _handle_all(args: argparse.Namespace, corpus, report) -> int:
    started = time.perf_counter()
    try:
        with settled_loaded():  # the corpus lives to the end (and the workers forked from here share it)
            matrix = compute(report.valid_cases, corpus, workers=args.jobs)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    data = matrix.as_json()
    unproven = [case_id for case_id, row in data["cases"].items()
                if not row["relevant"] or not matrix.null_caught[case_id]]
    idle = [name for name, row in data["mutants"].items() if not row["kills"]]
    faulty = {name: row["faults"] for name, row in data["mutants"].items() if row["faults"]}
    if args.format == "json":
        json.dump(data, sys.stdout, indent=1)
        print()
    else:
        rows = [[case_id, ", ".join(matrix.case_rules[case_id]),
                 "passes" if not matrix.null_caught[case_id] else "caught",
                 ", ".join(data["cases"][case_id]["killed_by"]) or "-"] for case_id in unproven]
        if rows:
            print(tabulate(rows, headers=["unproven case", "rules", "null engine", "killed only by"],
                           maxcolwidths=[None, 30, None, 60]))
        for name in idle:
            print(f"mutant {name} makes no case fail")
        for name, ids in faulty.items():
            print(f"mutant {name} breaks the engine (an error, a crash or a hang) on {len(ids)} case(s), e.g. "
                  f"{ids[0]}: see `mtg-conformance run --engine mutant:{name} -k {ids[0]}`")
        print(f"{len(data['cases']) - len(unproven)} of {len(data['cases'])} cases proven, "
              f"{len(data['mutants']) - len(idle)} of {len(data['mutants'])} mutants kill a case "
              f"({time.perf_counter() - started:.1f} s)")
    return 0 if not unproven and not idle and not faulty else 1
