"""Options and helpers shared by the verbs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from harness.corpus import Case, Corpus, select
from harness.paths import default_corpus
from harness.session import DEFAULT_START_TIMEOUT, DEFAULT_TIMEOUT
from harness.validation import CorpusReport, validate_corpus


def add_corpus_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cases", type=Path, default=None, metavar="DIR",
                        help="the corpus directory (default: the corpus shipped with this harness)")


def add_selection_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-k", dest="patterns", action="append", default=[], metavar="PATTERN",
                        help="only cases whose id contains PATTERN, or matches it as a glob (repeatable)")
    parser.add_argument("--tag", dest="tags", action="append", default=[], metavar="TAG",
                        help="only cases that require capability TAG (repeatable; all must match)")


def add_engine_options(parser: argparse.ArgumentParser, *, required: bool = False) -> None:
    """--engine, and the timeouts of an engine in its own process."""
    parser.add_argument("--engine", required=required, default=None if required else "reference", metavar="ENGINE",
                        help="a registered engine name (see `engines`) or 'cmd:<command line>' for an engine speaking "
                             "the JSON-lines protocol, e.g. \"cmd:java -jar my-adapter.jar\""
                             + ("" if required else " (default: reference)"))
    parser.add_argument("--timeout", type=seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help=f"per case, for an engine in its own process (default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--start-timeout", type=seconds, default=DEFAULT_START_TIMEOUT, metavar="SECONDS",
                        help=f"for an engine to start and answer the handshake (default {DEFAULT_START_TIMEOUT:g})")


def seconds(text: str) -> float:
    value = float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError("must be more than 0")
    return value


def corpus_from(args: argparse.Namespace) -> Corpus | None:
    root = args.cases or default_corpus()
    if not (root / "rulings.yaml").is_file():
        print(f"error: {root} is not a corpus (no rulings.yaml there)", file=sys.stderr)
        return None
    return Corpus(root)


def validated_selection(args: argparse.Namespace, corpus: Corpus) -> tuple[CorpusReport, list[Case]]:
    report = validate_corpus(corpus)
    chosen = select(report.valid_cases, args.patterns, args.tags)
    return report, chosen


def cases_to_run(args: argparse.Namespace) -> tuple[Corpus, CorpusReport, list[Case]] | None:
    """The corpus, its validation report, and the valid cases the options select (and --shard keeps,
    if the verb has it: possibly none); or None, with the reason printed, when there is nothing to
    run: no corpus, a problem in it, or no case selected."""
    from harness.scheduling import shard

    corpus = corpus_from(args)
    if corpus is None:
        return None
    report, cases = validated_selection(args, corpus)
    if report.problems:
        print_problems(report)
        print("not running: fix the problems above first (or select other cases with -k/--tag)", file=sys.stderr)
        return None
    if not cases:
        print("no case matches the selection", file=sys.stderr)
        return None
    if getattr(args, "shard", None):
        cases = shard(cases, *args.shard)
        if not cases:  # a small selection may leave a shard empty: its (empty) report still merges
            print(f"note: shard {args.shard[0]}/{args.shard[1]} has none of the selected cases", file=sys.stderr)
    return corpus, report, cases


def print_problems(report: CorpusReport, stream=None) -> None:
    stream = stream or sys.stderr
    for problem in report.problems:
        print(problem, file=stream)
    print(f"{len(report.problems)} problem(s) in the corpus", file=stream)
