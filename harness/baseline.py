"""Baselines: the results an engine is known to get, so CI fails on a change, not on known gaps.

A case not in the baseline must pass. A listed case must get one of its statuses. A case that
passes although the baseline says otherwise is an unexpected pass: the baseline is stale (tighten
it), which fails the run unless unexpected passes are allowed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

import yaml

from harness import schemas
from harness.results import CaseResult, Status
from harness.yamlio import YamlError, format_path, load_file

REASON_LENGTH = 160


class BaselineError(Exception):
    """A baseline file that can't be used; the text has one file:line problem per line."""


@dataclass(frozen=True)
class Expected:
    """One entry: the statuses a case may get, and why."""

    statuses: tuple[Status, ...]
    reason: str
    issue: str | None = None
    line: int = 1


@dataclass
class Baseline:
    path: Path
    entries: dict[str, Expected] = field(default_factory=dict)

    def statuses(self, case_id: str) -> tuple[Status, ...]:
        entry = self.entries.get(case_id)
        return entry.statuses if entry else (Status.PASS,)


@dataclass
class Verdict:
    """A run's results against a baseline, added as they come (only those that didn't pass are kept)."""

    baseline: Baseline
    as_expected: int = 0  # results with a status the baseline allows
    known: list[CaseResult] = field(default_factory=list)  # of those, the ones that didn't pass
    unexpected: list[CaseResult] = field(default_factory=list)  # a status the baseline does not allow
    unexpected_passes: list[CaseResult] = field(default_factory=list)  # passed, listed as not passing
    unknown_ids: list[str] = field(default_factory=list)  # entries naming no case of the corpus

    def add(self, result: CaseResult) -> None:
        allowed = self.baseline.statuses(result.case_id)
        if result.status in allowed:
            self.as_expected += 1
            if result.status is not Status.PASS:
                self.known.append(result)
        elif result.status is Status.PASS:
            self.unexpected_passes.append(result)
        else:
            self.unexpected.append(result)

    def finish(self, corpus_ids: Iterable[str], order: dict[str, int] | None = None) -> "Verdict":
        """Note the baseline's entries for cases the corpus doesn't have; put results in `order`."""
        known = set(corpus_ids)
        self.unknown_ids = sorted(case_id for case_id in self.baseline.entries if case_id not in known)
        if order is not None:
            for results in (self.known, self.unexpected, self.unexpected_passes):
                results.sort(key=lambda r: order[r.case_id])
        return self

    def ok(self, allow_unexpected_pass: bool = False) -> bool:
        return not self.unexpected and (allow_unexpected_pass or not self.unexpected_passes)

    @property
    def known_ids(self) -> set[str]:
        """Cases that did not pass, as the baseline expects."""
        return {r.case_id for r in self.known}


def load(path: Path) -> Baseline:
    try:
        doc = load_file(path)
    except FileNotFoundError:
        raise BaselineError(f"{path}: no such file (write one with --write-baseline)") from None
    except YamlError as exc:
        raise BaselineError(str(exc)) from None
    data = doc.data if doc.data is not None else {"cases": {}}
    problems = schemas.problems("baseline", data)
    if problems:
        raise BaselineError("\n".join(f"{path}:{doc.line_of(p.path)}: {format_path(p.path)}: {p.message}"
                                      + (f" ({p.hint})" if p.hint else "") for p in problems))
    baseline = Baseline(path)
    for case_id, entry in (data.get("cases") or {}).items():
        status = entry["status"]
        statuses = tuple(Status(s) for s in (status if isinstance(status, list) else [status]))
        baseline.entries[case_id] = Expected(statuses, entry["reason"], entry.get("issue"),
                                             doc.line_of(["cases", case_id]))
    return baseline


def compare(baseline: Baseline, results: Iterable[CaseResult], corpus_ids: Iterable[str]) -> Verdict:
    """Results against the baseline; entries for cases that exist but were not run are ignored."""
    verdict = Verdict(baseline)
    for result in results:
        verdict.add(result)
    return verdict.finish(corpus_ids)


def write(path: Path, results: Iterable[CaseResult], engine: dict[str, Any], previous: Baseline | None,
          ran: Iterable[str] | None = None) -> int:
    """Write the baseline of `results` to `path`; the number of entries. Entries of cases not run are
    kept from `previous`, and so are the reasons and issues of entries whose status still holds.
    `results` may hold only the results that didn't pass when `ran` names every case that ran."""
    entries: dict[str, dict[str, Any]] = {}
    ran = set(ran or ())
    old = previous.entries if previous else {}
    for result in results:
        ran.add(result.case_id)
        if result.status is Status.PASS:
            continue
        before = old.get(result.case_id)
        if before is not None and result.status in before.statuses:
            entries[result.case_id] = _entry(before.statuses, before.reason, before.issue)
        else:
            entries[result.case_id] = _entry((result.status,), _reason(result), result.details.get("issue"))
    for case_id, before in old.items():
        if case_id not in ran:
            entries[case_id] = _entry(before.statuses, before.reason, before.issue)
    name = " ".join(str(engine.get(k)) for k in ("name", "version") if engine.get(k))
    header = ("# mtg-conformance baseline (docs/ci.md): the results this engine is known to get.\n"
              "# A case not listed here must pass. Edit the reasons and add issue links freely: they are kept\n"
              "# when the baseline is written again (run --write-baseline).\n")
    body = yaml.safe_dump({"engine": name, "cases": dict(sorted(entries.items()))},
                          sort_keys=False, allow_unicode=True, width=120, default_flow_style=False)
    path.write_text(header + body, encoding="utf-8")
    return len(entries)


def _entry(statuses: tuple[Status, ...], reason: str, issue: str | None) -> dict[str, Any]:
    values = [s.value for s in statuses]
    out: dict[str, Any] = {"status": values[0] if len(values) == 1 else values, "reason": reason}
    if issue:
        out["issue"] = issue
    return out


def _plain(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, default=str)


def _reason(result: CaseResult) -> str:
    """A first reason, from what the run said; people are expected to improve it."""
    lines = (result.message or "").strip().splitlines()
    text = lines[0] if lines else result.status.value
    if result.mismatches:
        first = result.mismatches[0]
        text += f" (first: {first.path}: expected {_plain(first.expected)}, observed {_plain(first.observed)})"
    return text if len(text) <= REASON_LENGTH else text[:REASON_LENGTH - 3] + "..."
