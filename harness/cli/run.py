"""`run`: run cases against an engine and report; exit 1 if any case failed or errored (or, with a
baseline, exactly when a result does not match it)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from harness import baseline as baselines
from harness.cli.common import add_corpus_option, add_engine_options, add_selection_options, cases_to_run
from harness.outputs import FORMATS, Reports, destinations
from harness.progress import Progress
from harness.exits import (EPILOG, EXIT_FAILED, EXIT_INTERRUPTED, EXIT_NOTHING_PLAYED, EXIT_OK, EXIT_TERMINATED,
                           Terminated)
from harness.provenance import provenance
from harness.results import FAILING, CaseResult, Status
from harness.scheduling import open_sessions, parse_shard, play, settled_loaded, shuffled
from harness.session import EngineError
from harness.tally import Tally


def add_parser(verbs) -> None:
    parser = verbs.add_parser(
        "run", help="run cases against an engine",
        description="Validate the selected cases, run them against an engine, and report. Exit 0 if every case "
                    "played passed, 1 if any failed or errored, 2 on bad input, 3 if no case was played (all "
                    "skipped). With --baseline: exit 0 exactly when every result matches the baseline (and a "
                    "case was played).", epilog=EPILOG)
    add_corpus_option(parser)
    add_selection_options(parser)
    output = parser.add_argument_group("reports")
    output.add_argument("--format", choices=FORMATS, default=None,
                        help="report format: table (default), json, junit (JUnit XML), jsonl (one line per case, "
                             "written as cases finish)")
    output.add_argument("--output", action="append", default=[], metavar="FILE",
                        help="write the report to FILE (repeatable); its format is --format, or else given by the "
                             "extension: .json, .jsonl, .xml (JUnit). The table then goes to standard output.")
    output.add_argument("-v", "--verbose", action="store_true", help="also explain skipped cases and known results")
    output.add_argument("-q", "--quiet", action="store_true",
                        help="no progress bar (it is shown on standard error only when that is a terminal)")
    engine = parser.add_argument_group("engine")
    add_engine_options(engine)
    engine.add_argument("--strict", action="store_true",
                        help="also check the start reply against schema/protocol/ (replies to cases always are)")
    engine.add_argument("-j", "--jobs", type=_positive, default=1, metavar="N",
                        help="run N engine processes in parallel (in-process engines too, each in its own process)")
    order = parser.add_argument_group("selection and order")
    order.add_argument("--shard", type=_shard, default=None, metavar="I/N",
                       help="only the I-th of N shards of the selected cases (for a CI matrix): a case's shard is a "
                            "hash of its id, so adding a case moves no other; `merge` joins the shards' reports")
    order.add_argument("--shuffle", type=int, default=None, metavar="SEED",
                       help="play the cases in a random order (reports keep the corpus order)")
    gate = parser.add_argument_group("CI gating (docs/ci.md)")
    gate.add_argument("--baseline", type=Path, default=None, metavar="FILE",
                      help="the results the engine is known to get (YAML); exit 0 exactly when every result matches")
    gate.add_argument("--allow-unexpected-pass", action="store_true",
                      help="with --baseline: report a case that passes against its entry, but don't fail")
    gate.add_argument("--write-baseline", type=Path, default=None, metavar="FILE",
                      help="record this run's results as a baseline (keeps reasons and issues already in FILE)")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    selection = cases_to_run(args)
    if selection is None:
        return 2
    corpus, report, cases = selection
    played = shuffled(cases, args.shuffle) if args.shuffle is not None else cases
    try:
        baseline = baselines.load(args.baseline) if args.baseline else None
        previous = _previous_baseline(args.write_baseline, baseline)
    except baselines.BaselineError as exc:
        print(f"error: bad baseline:\n{exc}", file=sys.stderr)
        return 2
    reports = Reports(destinations(args.format, args.output))
    try:
        reports.open()
    except OSError as exc:
        print(f"error: can't write the report: {exc}", file=sys.stderr)
        return 2
    try:
        return _run(args, corpus, cases, played, reports, baseline, previous, [c.id for c in report.valid_cases])
    finally:
        reports.close()


def _run(args, corpus, cases, played, reports: Reports, baseline, previous, corpus_ids: list[str]) -> int:
    try:
        sessions = open_sessions(args.engine, min(args.jobs, len(cases)), strict=args.strict,
                                 timeout=args.timeout, start_timeout=args.start_timeout)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    engine = sessions[0].info
    reports.begin(engine, {"selected": len(cases), "jobs": len(sessions), "strict": args.strict,
                           "shard": "/".join(map(str, args.shard)) if args.shard else None, "shuffle": args.shuffle,
                           "patterns": args.patterns, "tags": args.tags},
                  provenance(corpus, len(corpus_ids)), corpus)
    position = {case.id: index for index, case in enumerate(cases)}
    tally = Tally(keep_all=reports.lists_every_case)  # results are counted as they come, not all kept
    verdict = baselines.Verdict(baseline) if baseline else None
    progress = Progress(len(cases), enabled=not args.quiet)

    def done(result: CaseResult) -> None:
        reports.result(result)
        tally.add(result, position[result.case_id])
        if verdict is not None:
            verdict.add(result)
        progress.advance(result)

    interrupted: KeyboardInterrupt | None = None
    try:
        try:
            with settled_loaded():
                play(played, sessions, corpus, done, keep=False)
        except KeyboardInterrupt as exc:  # Ctrl-C or SIGTERM: report what finished, and say so
            interrupted = exc
        finally:
            progress.close()
            for session in sessions:
                session.close()
            _warn(sessions)
        if interrupted is not None:
            code = EXIT_TERMINATED if isinstance(interrupted, Terminated) else EXIT_INTERRUPTED
        elif verdict is not None:
            verdict.finish(corpus_ids, position)
            code = EXIT_OK if verdict.ok(args.allow_unexpected_pass) else EXIT_FAILED
            if code == EXIT_OK and outcome_code(tally) == EXIT_NOTHING_PLAYED:
                code = EXIT_NOTHING_PLAYED
        else:
            code = outcome_code(tally)
        reports.finish(engine, tally, corpus, verbose=args.verbose, verdict=verdict if interrupted is None else None,
                       allow_unexpected_pass=args.allow_unexpected_pass, exit_code=code,
                       interrupted=(len(cases), tally.count) if interrupted is not None else None)
        if interrupted is not None:
            raise interrupted
        if args.write_baseline:
            count = baselines.write(args.write_baseline, tally.failing(), engine, previous, ran=position)
            print(f"baseline written to {args.write_baseline} ({count} case(s) not passing)", file=sys.stderr)
    finally:
        tally.close()
    return code


def outcome_code(tally: Tally) -> int:
    """1 if a case failed, errored, timed out or crashed; 3 if no case was played (every one skipped:
    an engine that ran nothing has proved nothing); else 0."""
    summary = tally.summary()
    if any(summary[s.value] for s in FAILING):
        return EXIT_FAILED
    if tally.count and summary[Status.SKIP.value] == tally.count:
        return EXIT_NOTHING_PLAYED
    return EXIT_OK


def _previous_baseline(path: Path | None, loaded):
    if path is None:
        return None
    if loaded is not None and path.resolve() == loaded.path.resolve():
        return loaded
    return baselines.load(path) if path.exists() else None


def _warn(sessions) -> None:
    restarts = sum(getattr(s, "restarts", 0) for s in sessions)
    if restarts:
        print(f"note: the engine was restarted {restarts} time(s) after a fault", file=sys.stderr)
    for session in sessions:
        for warning in getattr(session, "warnings", []):
            print(f"warning: {session.name}: {warning}", file=sys.stderr)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def _shard(text: str) -> tuple[int, int]:
    try:
        return parse_shard(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
