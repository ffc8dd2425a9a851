"""Reading back the reports `run` writes (JSON, or JSON lines), for `merge` and `site`: what a report
must hold to be one, and a clear error for a file that isn't one."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.results import Status

STATUSES = {s.value for s in Status}


class ReportError(Exception):
    """A file that is not a report of `mtg-conformance run`, or reports that can't go together."""


@dataclass
class LoadedReport:
    path: Path
    engine: dict[str, Any]
    cases: list[dict[str, Any]]
    harness: dict[str, Any] = field(default_factory=dict)
    corpus: dict[str, Any] = field(default_factory=dict)
    date: str | None = None
    run: dict[str, Any] = field(default_factory=dict)
    baseline: dict[str, Any] | None = None
    complete: bool = True  # False: JSON lines of a run that stopped before its summary

    @property
    def engine_name(self) -> str:
        return str(self.engine.get("name") or "")

    @property
    def engine_version(self) -> str:
        return str(self.engine.get("version") or "")

    @property
    def engine_title(self) -> str:
        return f"{self.engine_name} {self.engine_version}".strip()

    @property
    def corpus_version(self) -> str | None:
        value = self.corpus.get("version")
        return value if isinstance(value, str) else None

    def summary(self) -> dict[str, int]:
        counts = {status.value: 0 for status in Status}
        for case in self.cases:
            counts[case["status"]] += 1
        return counts


def load_report(path: Path) -> LoadedReport:
    """The report in `path` (JSON from `run --format json`, or JSON lines from `--output x.jsonl`);
    ReportError saying why, if the file isn't one."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ReportError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ReportError(f"{path}: can't be read ({exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = None
    if isinstance(data, dict):
        return _from_json(path, data)
    return _from_lines(path, text)


def _from_json(path: Path, data: dict[str, Any]) -> LoadedReport:
    _require(path, isinstance(data.get("engine"), dict) and isinstance(data["engine"].get("name"), str),
             "it has no engine name ('engine': {'name': ...})")
    _require(path, isinstance(data.get("cases"), list), "it has no list of 'cases'")
    for index, case in enumerate(data["cases"]):
        _check_case(path, case, f"cases[{index}]")
    _check_unique(path, data["cases"])
    return LoadedReport(path, data["engine"], data["cases"], _dict(data.get("harness")), _dict(data.get("corpus")),
                        data.get("date") if isinstance(data.get("date"), str) else None, _dict(data.get("run")),
                        data.get("baseline") if isinstance(data.get("baseline"), dict) else None)


def _from_lines(path: Path, text: str) -> LoadedReport:
    items = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ReportError(f"{path}:{number}: not a report of mtg-conformance run: not JSON, nor JSON lines "
                              f"({exc.msg})") from None
        _require(path, isinstance(item, dict), f"line {number} is not a JSON object")
        items.append(item)
    _require(path, bool(items), "the file is empty")
    head = items[0]
    _require(path, isinstance(head.get("engine"), dict) and isinstance(head["engine"].get("name"), str),
             "its first line names no engine ('engine': {'name': ...})")
    cases, tail = [], None
    for index, item in enumerate(items[1:], 2):
        if "summary" in item and "id" not in item:
            tail = item
            continue
        _check_case(path, item, f"line {index}")
        cases.append(item)
    _check_unique(path, cases)
    cases.sort(key=corpus_order)  # lines come in the order played (--shuffle): reports keep the corpus order
    return LoadedReport(path, head["engine"], cases, _dict(head.get("harness")), _dict(head.get("corpus")),
                        head.get("date") if isinstance(head.get("date"), str) else None, _dict(head.get("run")),
                        tail.get("baseline") if tail and isinstance(tail.get("baseline"), dict) else None,
                        complete=tail is not None)


def corpus_order(case: dict[str, Any]) -> tuple:
    """Where a case comes in the corpus order (topic folders by name, files by path), from its file."""
    file = case.get("file") or ""
    return (tuple(Path(file).parts[1:]) if file else (), case["id"])


def _check_case(path: Path, case: Any, where: str) -> None:
    _require(path, isinstance(case, dict) and isinstance(case.get("id"), str), f"{where} has no case 'id'")
    _require(path, case.get("status") in STATUSES,
             f"{where} ({case['id']}) has status {case.get('status')!r}, not one of {', '.join(sorted(STATUSES))}")
    _require(path, isinstance(case.get("message", ""), str), f"{where} ({case['id']}): 'message' is not text")
    for key in ("observed", "mismatches"):
        value = case.get(key, [])
        _require(path, isinstance(value, list) and all(isinstance(item, dict) for item in value),
                 f"{where} ({case['id']}): '{key}' is not a list of objects")


def _check_unique(path: Path, cases: list[dict[str, Any]]) -> None:
    seen: set[str] = set()
    for case in cases:
        _require(path, case["id"] not in seen, f"case {case['id']} is in it twice")
        seen.add(case["id"])


def _require(path: Path, condition: bool, reason: str) -> None:
    if not condition:
        raise ReportError(f"{path}: not a report of mtg-conformance run: {reason}")


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}
