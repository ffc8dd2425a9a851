"""Where a run's reports go, in which format: a table for people, JSON, JUnit XML for CI systems, and
JSON lines streamed while the run goes on (an interrupted run keeps every case that finished).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from harness.baseline import Verdict
from harness.corpus import Corpus
from harness.junit import junit_xml
from harness.report import summary, table, to_json
from harness.results import CaseResult

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

    def open(self) -> None:
        for target in self.targets:
            if target.path is not None:
                target.path.parent.mkdir(parents=True, exist_ok=True)
                target.stream = target.path.open("w", encoding="utf-8")
            else:
                target.stream = sys.stdout

    def begin(self, engine: dict[str, Any], run: dict[str, Any]) -> None:
        self._lines({"engine": engine, "run": run})

    def result(self, result: CaseResult) -> None:
        self._lines(result.to_json())

    def finish(self, engine: dict[str, Any], results: list[CaseResult], corpus: Corpus, *, verbose: bool,
               verdict: Verdict | None, allow_unexpected_pass: bool, exit_code: int) -> None:
        tail: dict[str, Any] = {"summary": summary(results), "exit": exit_code}
        if verdict is not None:
            tail["baseline"] = baseline_json(verdict, allow_unexpected_pass)
        self._lines(tail)
        for target in self.targets:
            if target.format == "jsonl":
                continue
            assert target.stream is not None
            target.stream.write(render(target.format, engine, results, corpus, verbose=verbose, verdict=verdict,
                                       allow_unexpected_pass=allow_unexpected_pass) + "\n")
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


def render(fmt: str, engine: dict[str, Any], results: list[CaseResult], corpus: Corpus, *, verbose: bool = False,
           verdict: Verdict | None = None, allow_unexpected_pass: bool = False) -> str:
    if fmt == "junit":
        return junit_xml(engine, results, corpus, verdict, allow_unexpected_pass=allow_unexpected_pass)
    if fmt == "json":
        report = to_json(engine, results)
        if verdict is not None:
            report["baseline"] = baseline_json(verdict, allow_unexpected_pass)
        return json.dumps(report, indent=2, default=str)
    text = table(engine, results, corpus, verbose=verbose, known=verdict.known_ids if verdict else frozenset())
    if verdict is not None:
        text += "\n\n" + "\n".join(baseline_lines(verdict, allow_unexpected_pass))
    return text


def baseline_json(verdict: Verdict, allow_unexpected_pass: bool) -> dict[str, Any]:
    entries = verdict.baseline.entries
    return {
        "file": str(verdict.baseline.path),
        "ok": verdict.ok(allow_unexpected_pass),
        "as_expected": len(verdict.as_expected),
        "unexpected": [{"id": r.case_id, "status": r.status.value,
                        "expected": [s.value for s in verdict.baseline.statuses(r.case_id)]} for r in verdict.unexpected],
        "unexpected_pass": [{"id": r.case_id, "expected": [s.value for s in entries[r.case_id].statuses]}
                            for r in verdict.unexpected_passes],
        "unknown_ids": verdict.unknown_ids,
    }


def baseline_lines(verdict: Verdict, allow_unexpected_pass: bool) -> list[str]:
    baseline = verdict.baseline
    known = len(verdict.known_ids)
    lines = [f"baseline {baseline.path}: {len(verdict.as_expected)} result(s) as expected"
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
