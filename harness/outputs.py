"""Where a run's reports go, in which format: a table for people, JSON, JUnit XML for CI systems, and
JSON lines streamed while the run goes on (an interrupted run keeps every case that finished).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, TextIO

from harness.baseline import Verdict
from harness.corpus import Corpus
from harness.report import citations, table
from harness.results import CaseResult, Status
from harness.tally import Tally

FORMATS = ("table", "json", "junit", "jsonl")
BY_EXTENSION = {".json": "json", ".jsonl": "jsonl", ".xml": "junit"}


@dataclass
class Destination:
    path: Path | None  # None: standard output
    format: str
    stream: TextIO | None = None

    @property
    def name(self) -> str:
        return str(self.path) if self.path else "standard output"


def destinations(fmt: str | None, outputs: list[str]) -> list[Destination]:
    """Without --output, the report goes to standard output (--format, or a table). Each --output
    FILE gets --format, or the format its extension names (.json, .jsonl, .xml: JUnit), else a
    table; standard output then shows the table."""
    if not outputs:
        return [Destination(None, fmt or "table")]
    files = [Destination(Path(o), fmt or BY_EXTENSION.get(Path(o).suffix.lower(), "table")) for o in outputs]
    return files + [Destination(None, "table")]


class Reports:
    """The run's destinations: JSON lines are written as results come, the rest at the end."""

    def __init__(self, targets: list[Destination]) -> None:
        self.targets = targets
        self.head: dict[str, Any] = {}  # what every report says first: the run and its provenance
        self.corpus: Corpus | None = None

    def open(self) -> None:
        for target in self.targets:
            if target.path is not None:
                target.path.parent.mkdir(parents=True, exist_ok=True)
                target.stream = target.path.open("w", encoding="utf-8")
            else:
                target.stream = sys.stdout

    def begin(self, engine: dict[str, Any], run: dict[str, Any], provenance: dict[str, Any] | None = None,
              corpus: Corpus | None = None) -> None:
        """Start the reports: `run` is the run's options, `provenance` the harness, corpus version and
        date; with `corpus`, a case that didn't pass has its rulings' and rules' text in JSON lines too,
        as in the JSON report."""
        self.head = {**(provenance or {}), "run": run}
        self.corpus = corpus
        self._lines({"engine": engine, **self.head})

    def result(self, result: CaseResult) -> None:
        if not any(target.format == "jsonl" for target in self.targets):
            return
        item = result.to_json()
        if self.corpus is not None and result.status not in (Status.PASS, Status.SKIP):
            item["cited"] = citations(result, self.corpus)
        self._lines(item)

    @property
    def lists_every_case(self) -> bool:
        """Whether a report written at the end lists every result (JSON, JUnit), not only the failures."""
        return any(target.format in ("json", "junit") for target in self.targets)

    def finish(self, engine: dict[str, Any], results: Tally, corpus: Corpus, *, verbose: bool,
               verdict: Verdict | None, allow_unexpected_pass: bool, exit_code: int,
               interrupted: tuple[int, int] | None = None) -> None:
        """The reports' ends. `interrupted`: (cases selected, cases finished) of a run cut short, which
        every report says."""
        tail: dict[str, Any] = {"summary": results.summary(), "exit": exit_code}
        if interrupted is not None:
            tail["interrupted"] = True
        if verdict is not None:
            tail["baseline"] = baseline_json(verdict, allow_unexpected_pass)
        self._lines(tail)
        head = self.head
        if interrupted is not None:
            head = {**head, "interrupted": {"selected": interrupted[0], "finished": interrupted[1]}}
        for target in self.targets:
            if target.format == "jsonl":
                continue
            assert target.stream is not None
            write(target.stream, target.format, engine, results, corpus, verbose=verbose, verdict=verdict,
                  allow_unexpected_pass=allow_unexpected_pass, head=head, interrupted=interrupted)
            target.stream.flush()

    def close(self) -> None:
        for target in self.targets:
            if target.path is not None and target.stream is not None:
                target.stream.close()

    def _lines(self, item: dict[str, Any]) -> None:
        for target in self.targets:
            if target.format == "jsonl" and target.stream is not None:
                target.stream.write(json.dumps(item, default=str) + "\n")
                target.stream.flush()


def write(stream: TextIO, fmt: str, engine: dict[str, Any], results: Tally, corpus: Corpus, *,
          verbose: bool = False, verdict: Verdict | None = None, allow_unexpected_pass: bool = False,
          head: dict[str, Any] | None = None, interrupted: tuple[int, int] | None = None) -> None:
    """Write the report in `fmt`. JSON and JUnit list every result, read back one at a time; `head`
    (provenance and run options) goes at the top of both."""
    if fmt == "junit":
        from harness.junit import write_junit  # xml.etree, only for a JUnit report

        write_junit(stream, engine, results.results(), corpus, verdict, allow_unexpected_pass=allow_unexpected_pass,
                    head=head)
        stream.write("\n")
        if interrupted is not None:
            stream.write(f"<!-- {interrupted_note(interrupted)} -->\n")
    elif fmt == "json":
        write_json(stream, engine, results, verdict, allow_unexpected_pass, head, corpus=corpus)
    else:
        text = table(engine, results, corpus, verbose=verbose, known=verdict.known_ids if verdict else frozenset())
        if verdict is not None:
            text += "\n\n" + "\n".join(baseline_lines(verdict, allow_unexpected_pass))
        if interrupted is not None:
            text += "\n\n" + interrupted_note(interrupted)
        stream.write(text + "\n")


def interrupted_note(interrupted: tuple[int, int]) -> str:
    selected, finished = interrupted
    return f"INTERRUPTED: the run was stopped after {finished} of {selected} case(s); the others were not played"


def write_json(stream: TextIO, engine: dict[str, Any], results: Tally | Iterable[CaseResult] | Iterable[dict],
               verdict: Verdict | None = None, allow_unexpected_pass: bool = False,
               head: dict[str, Any] | None = None, *, baseline: dict[str, Any] | None = None,
               summary: dict[str, int] | None = None, corpus: Corpus | None = None) -> None:
    """The JSON report, written as json.dumps(report, indent=2) would write it, a case at a time.
    `results` is a tally, or results (or their JSON) in order with their `summary`; `baseline` is
    a baseline verdict already as JSON (merge writes one). With `corpus`, a case that failed,
    errored, timed out or crashed also has "cited": the text of its rulings and of its
    Comprehensive Rules rules."""
    info = {"name": engine.get("name"), "version": engine.get("version"),
            **{k: v for k, v in engine.items() if k not in ("name", "version")}}
    counts = results.summary() if isinstance(results, Tally) else summary
    text = json.dumps({"engine": info, "summary": counts, **(head or {})}, indent=2, default=str)
    stream.write(text[:-2] + ',\n  "cases": [')  # the head without its closing "\n}"
    count = 0
    for result in results.results() if isinstance(results, Tally) else results:
        item = result.to_json() if isinstance(result, CaseResult) else result
        if corpus is not None and isinstance(result, CaseResult) and result.status not in (Status.PASS, Status.SKIP):
            item["cited"] = citations(result, corpus)
        stream.write(("\n" if not count else ",\n") + _nested(item, "    ", first=True))
        count += 1
    stream.write("\n  ]" if count else "]")
    if verdict is not None:
        baseline = baseline_json(verdict, allow_unexpected_pass)
    if baseline is not None:
        stream.write(',\n  "baseline": ' + _nested(baseline, "  ", first=False))
    stream.write("\n}\n")


def _nested(value: Any, indent: str, *, first: bool) -> str:
    """json.dumps(value, indent=2) as it reads nested at `indent` (its first line too, if `first`)."""
    lines = json.dumps(value, indent=2, default=str).split("\n")
    return "\n".join(([indent + lines[0]] if first else [lines[0]]) + [indent + line for line in lines[1:]])


def baseline_json(verdict: Verdict, allow_unexpected_pass: bool) -> dict[str, Any]:
    entries = verdict.baseline.entries
    return {
        "file": str(verdict.baseline.path),
        "ok": verdict.ok(allow_unexpected_pass),
        "as_expected": verdict.as_expected,
        "unexpected": [{"id": r.case_id, "status": r.status.value,
                        "expected": [s.value for s in verdict.baseline.statuses(r.case_id)]} for r in verdict.unexpected],
        "unexpected_pass": [{"id": r.case_id, "expected": [s.value for s in entries[r.case_id].statuses]}
                            for r in verdict.unexpected_passes],
        "unknown_ids": verdict.unknown_ids,
    }


def baseline_lines(verdict: Verdict, allow_unexpected_pass: bool) -> list[str]:
    baseline = verdict.baseline
    known = len(verdict.known_ids)
    lines = [f"baseline {baseline.path}: {verdict.as_expected} result(s) as expected"
             + (f" ({known} known not to pass)" if known else "")]
    for result in verdict.unexpected:
        expected = " or ".join(s.value for s in baseline.statuses(result.case_id))
        lines.append(f"  UNEXPECTED {result.status.value} {result.case_id}: the baseline expects {expected}")
    for result in verdict.unexpected_passes:
        entry = baseline.entries[result.case_id]
        lines.append(f"  UNEXPECTED PASS {result.case_id}: the baseline ({baseline.path}:{entry.line}) expects "
                     f"{' or '.join(s.value for s in entry.statuses)}: {entry.reason}")
    if verdict.unexpected_passes:
        consequence = "allowed by --allow-unexpected-pass" if allow_unexpected_pass else "this fails the run"
        lines.append(f"  the baseline is stale: remove those entries, or run --write-baseline ({consequence})")
    for case_id in verdict.unknown_ids:
        lines.append(f"  note: {baseline.path}:{baseline.entries[case_id].line}: no case {case_id!r} in the corpus "
                     "(renamed or removed?)")
    lines.append("baseline: " + ("ok" if verdict.ok(allow_unexpected_pass) else "FAILED"))
    return lines
