"""What the site's pages show, computed from the reports and the corpus: one column per report
(an engine at a version, on some machine and date), counts by topic and by CR section, each case's
results side by side, and the differences between two reports of the same engine."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from harness.report_files import LoadedReport
from harness.results import FAILING, Status
from harness.site.rules import section_of

STATUSES = [s.value for s in Status]
FAILING_STATUSES = {s.value for s in FAILING}


@dataclass
class Column:
    """One report: an engine's results over the cases it ran."""

    slug: str
    report: LoadedReport
    by_id: dict[str, dict[str, Any]]

    @property
    def title(self) -> str:
        return self.report.engine_title or self.slug

    @property
    def name(self) -> str:
        return self.report.engine_name

    @property
    def version(self) -> str:
        return self.report.engine_version

    @cached_property
    def summary(self) -> dict[str, int]:
        return self.report.summary()

    @property
    def total(self) -> int:
        return len(self.report.cases)

    @property
    def passed(self) -> int:
        return self.summary["pass"]

    @property
    def score(self) -> float:
        """The share of the cases it ran that pass (skips count against it: they are not conformance)."""
        return self.passed / self.total if self.total else 0.0


@dataclass
class Cell:
    """The counts of one column in one row of the matrix."""

    counts: Counter = field(default_factory=Counter)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def passed(self) -> int:
        return self.counts.get("pass", 0)

    @property
    def share(self) -> float:
        return self.passed / self.total if self.total else 0.0

    def others(self) -> list[tuple[str, int]]:
        """The statuses other than pass with a count, in the status order."""
        return [(s, self.counts[s]) for s in STATUSES[1:] if self.counts.get(s)]

    @property
    def level(self) -> str:
        """A class for the cell's colour (the counts are always written too)."""
        if not self.total:
            return "none"
        if self.passed == self.total:
            return "all"
        if any(self.counts.get(s) for s in FAILING_STATUSES):
            return "failing"
        return "partial"


@dataclass
class Row:
    key: str
    title: str
    cells: list[Cell]
    link: str = ""


def slugs_for(reports: list[LoadedReport]) -> list[str]:
    """A file name for each report: engine name and version, numbered when two reports share them."""
    seen: Counter = Counter()
    out = []
    for report in reports:
        base = _slug(report.engine_title) or "engine"
        seen[base] += 1
        out.append(base if seen[base] == 1 else f"{base}-{seen[base]}")
    return out


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9.]+", "-", text.lower()).strip("-.")


def columns_of(reports: list[LoadedReport]) -> list[Column]:
    return [Column(slug, report, {case["id"]: case for case in report.cases})
            for slug, report in zip(slugs_for(reports), reports)]


def topic_of(case_id: str) -> str:
    return case_id.split("/", 1)[0]


def topic_rows(columns: list[Column], case_ids: list[str]) -> list[Row]:
    topics = sorted({topic_of(case_id) for case_id in case_ids})
    counts: list[dict[str, Counter]] = []
    for column in columns:  # one pass over each report
        by_topic: dict[str, Counter] = {}
        for case_id, case in column.by_id.items():
            by_topic.setdefault(topic_of(case_id), Counter())[case["status"]] += 1
        counts.append(by_topic)
    return [Row(topic, topic, [Cell(by_topic.get(topic, Counter())) for by_topic in counts]) for topic in topics]


def section_rows(columns: list[Column], rules_of: dict[str, list[str]], title_of) -> list[Row]:
    """One row per CR section a case cites (a case counts in every section it cites)."""
    cases_in: dict[str, set[str]] = {}
    for case_id, numbers in rules_of.items():
        for number in numbers:
            cases_in.setdefault(section_of(number), set()).add(case_id)
    rows = []
    for section in sorted(cases_in, key=lambda s: (len(s), s)):
        cells = []
        for column in columns:
            cell = Cell()
            for case_id in cases_in[section]:
                if case_id in column.by_id:
                    cell.counts[column.by_id[case_id]["status"]] += 1
            cells.append(cell)
        title = title_of(section)
        rows.append(Row(section, f"{section}. {title}" if title else section, cells))
    return rows


def total_row(columns: list[Column]) -> Row:
    return Row("total", "All cases", [Cell(Counter({s: n for s, n in c.summary.items() if n})) for c in columns])


# --- observations side by side -------------------------------------------------------------------
@dataclass
class ObservationRow:
    when: str
    path: str
    expected: Any
    observed: list[dict[str, Any] | None]  # per column: {"observed", "met"}, or None when it wasn't checked
    span: int = 1  # rows of the same checkpoint it heads (0: it follows one that heads them)


def observation_rows(case_id: str, columns: list[Column]) -> list[ObservationRow]:
    """Every expectation any engine's run checked, in the order checked, with each engine's value."""
    rows: dict[tuple[str, str, int], ObservationRow] = {}
    for index, column in enumerate(columns):
        case = column.by_id.get(case_id) or {}
        repeats: Counter = Counter()
        for check in case.get("observed") or []:
            key = (check.get("when", ""), check.get("path", ""))
            repeats[key] += 1
            full = (*key, repeats[key])
            row = rows.get(full)
            if row is None:
                row = rows[full] = ObservationRow(key[0], key[1], check.get("expected"), [None] * len(columns))
            row.observed[index] = {"observed": check.get("observed"), "met": bool(check.get("met"))}
    order = {when: position for position, when in reversed(list(enumerate(r.when for r in rows.values())))}
    ordered = sorted(rows.values(), key=lambda r: order[r.when])  # stable: each checkpoint's rows together
    for position, row in enumerate(ordered):
        if position and ordered[position - 1].when == row.when:
            row.span = 0
            continue
        row.span = 1
        while position + row.span < len(ordered) and ordered[position + row.span].when == row.when:
            row.span += 1
    return ordered


# --- two reports of one engine -------------------------------------------------------------------
@dataclass
class Change:
    case_id: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None


@dataclass
class Diff:
    slug: str
    old: Column
    new: Column
    newly_failing: list[Change]
    newly_passing: list[Change]
    other_status: list[Change]
    changed_message: list[Change]
    only_old: list[Change]
    only_new: list[Change]

    @property
    def changes(self) -> int:
        return sum(len(part) for part in (self.newly_failing, self.newly_passing, self.other_status,
                                          self.changed_message, self.only_old, self.only_new))


def diff(old: Column, new: Column) -> Diff:
    out = Diff(f"{old.slug}--{new.slug}", old, new, [], [], [], [], [], [])
    for case_id, before in old.by_id.items():
        after = new.by_id.get(case_id)
        if after is None:
            out.only_old.append(Change(case_id, before, None))
            continue
        change = Change(case_id, before, after)
        was, now = before["status"], after["status"]
        if now in FAILING_STATUSES and was not in FAILING_STATUSES:
            out.newly_failing.append(change)
        elif now == "pass" and was != "pass":
            out.newly_passing.append(change)
        elif now != was:
            out.other_status.append(change)
        elif (before.get("message") or "") != (after.get("message") or ""):
            out.changed_message.append(change)
    out.only_new = [Change(case_id, None, case) for case_id, case in new.by_id.items() if case_id not in old.by_id]
    return out


def diffs_of(columns: list[Column]) -> list[Diff]:
    """For each engine with several reports, each report against the one before it (by date, then
    in the order given)."""
    groups: dict[str, list[Column]] = {}
    for column in columns:
        groups.setdefault(column.name, []).append(column)
    out: list[Diff] = []
    for group in groups.values():
        ordered = sorted(group, key=lambda c: c.report.date or "")
        out.extend(diff(a, b) for a, b in zip(ordered, ordered[1:]))
    return out
