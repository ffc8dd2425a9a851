"""Merging the reports of shards (`run --shard I/N` on several machines) into the report one run
would have written: JSON (or JSON lines) into JSON, JUnit XML into JUnit XML.

Reports merge only when they can be one run: the same engine (name and version), the same corpus
version, the same selection (-k, --tag), disjoint cases, and shards of the same N with none
missing (unless a partial merge is asked for)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from harness.report_files import LoadedReport, ReportError, corpus_order, load_report


def merged_report(reports: list[LoadedReport], *, partial: bool = False) -> dict[str, Any]:
    """The JSON report of the run the shards `reports` are parts of."""
    _check_together([_Facts.of_json(r) for r in reports], partial)
    cases: dict[str, dict[str, Any]] = {}
    for report in reports:
        for case in report.cases:
            if case["id"] in cases:
                raise ReportError(f"{report.path}: case {case['id']} is in another report too: shards are disjoint, "
                                  "so these are not shards of one run")
            cases[case["id"]] = case
    ordered = sorted(cases.values(), key=corpus_order)
    first = reports[0]
    summary = {status: 0 for status in first.summary()}
    for case in ordered:
        summary[case["status"]] += 1
    shards = sorted((str(r.run["shard"]) for r in reports if r.run.get("shard")), key=_shard_key)
    head: dict[str, Any] = {}
    if first.harness:
        head["harness"] = first.harness
    if first.corpus:
        head["corpus"] = first.corpus
    dates = sorted(r.date for r in reports if r.date)
    if dates:
        head["date"] = dates[-1]
    head["run"] = {"selected": len(ordered), "shard": None, "merged": shards or [str(r.path) for r in reports],
                   "patterns": first.run.get("patterns", []), "tags": first.run.get("tags", [])}
    baselines = [r.baseline for r in reports if r.baseline is not None]
    out = {"engine": first.engine, "summary": summary, **head, "cases": ordered}
    if baselines and len(baselines) == len(reports):
        out["baseline"] = _merged_baseline(baselines)
    return out


def _merged_baseline(parts: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "file": parts[0].get("file"),
        "ok": all(p.get("ok") for p in parts),
        "as_expected": sum(p.get("as_expected", 0) for p in parts),
        "unexpected": sorted((u for p in parts for u in p.get("unexpected", [])), key=lambda u: u["id"]),
        "unexpected_pass": sorted((u for p in parts for u in p.get("unexpected_pass", [])), key=lambda u: u["id"]),
        "unknown_ids": sorted({i for p in parts for i in p.get("unknown_ids", [])}),
    }


# --- JUnit ---------------------------------------------------------------------------------------
def load_junit(path: Path) -> ET.Element:
    try:
        root = ET.parse(path).getroot()
    except FileNotFoundError:
        raise ReportError(f"{path}: no such file") from None
    except (ET.ParseError, OSError) as exc:
        raise ReportError(f"{path}: not a JUnit report of mtg-conformance run ({exc})") from None
    if root.tag != "testsuites" or root.get("name") != "mtg-conformance":
        raise ReportError(f"{path}: not a JUnit report of mtg-conformance run (no <testsuites name=\"mtg-conformance\">)")
    return root


def merged_junit(paths: list[Path], roots: list[ET.Element], *, partial: bool = False) -> ET.Element:
    """The JUnit report of the run whose shards wrote `roots`: one suite per topic, cases in the
    corpus order, totals counted again."""
    _check_together([_Facts.of_junit(p, r) for p, r in zip(paths, roots)], partial)
    suites: dict[str, ET.Element] = {}
    seen: dict[str, Path] = {}
    for path, root in zip(paths, roots):
        for suite in root.iter("testsuite"):
            if suite.find("testcase") is None:  # an empty shard's suite: it only names the engine and corpus
                continue
            name = suite.get("name", "")
            target = suites.get(name)
            if target is None:
                target = suites[name] = ET.Element("testsuite", name=name)
                properties = suite.find("properties")
                if properties is not None:
                    target.append(_without(properties, "run.shard"))
            for case in suite.iter("testcase"):
                case_id = case.get("name", "")
                if case_id in seen:
                    raise ReportError(f"{path}: case {case_id} is in {seen[case_id]} too: shards are disjoint, "
                                      "so these are not shards of one run")
                seen[case_id] = path
                target.append(case)
    merged = ET.Element("testsuites", name="mtg-conformance")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    total_time = 0.0
    for name in sorted(suites):
        suite = suites[name]
        cases = sorted(suite.findall("testcase"),
                       key=lambda c: corpus_order({"file": c.get("file", ""), "id": c.get("name", "")}))
        for case in cases:
            suite.remove(case)
        counts = {"tests": len(cases), "failures": 0, "errors": 0, "skipped": 0}
        suite_time = 0.0
        for case in cases:
            suite.append(case)
            suite_time += float(case.get("time", "0") or 0)
            for child, key in (("failure", "failures"), ("error", "errors"), ("skipped", "skipped")):
                counts[key] += case.find(child) is not None
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
        suite.set("time", f"{suite_time:.3f}")
        total_time += suite_time
        merged.append(suite)
    for key, value in totals.items():
        merged.set(key, str(value))
    merged.set("time", f"{total_time:.3f}")
    ET.indent(merged)
    return merged


def _without(properties: ET.Element, name: str) -> ET.Element:
    out = ET.Element("properties")
    for prop in properties.findall("property"):
        if prop.get("name") != name:
            out.append(prop)
    return out


# --- can these be one run? -------------------------------------------------------------------------
class _Facts:
    """What decides whether reports are shards of one run."""

    def __init__(self, path: Path, engine: tuple[str, str], corpus: str | None, selection: tuple, shard: str | None,
                 complete: bool = True) -> None:
        self.path, self.engine, self.corpus, self.selection, self.shard = path, engine, corpus, selection, shard
        self.complete = complete

    @classmethod
    def of_json(cls, report: LoadedReport) -> "_Facts":
        run = report.run
        return cls(report.path, (report.engine_name, report.engine_version), report.corpus_version,
                   (tuple(run.get("patterns") or ()), tuple(run.get("tags") or ())), run.get("shard"), report.complete)

    @classmethod
    def of_junit(cls, path: Path, root: ET.Element) -> "_Facts":
        suite = root.find("testsuite")
        props = {p.get("name"): p.get("value") for p in suite.iter("property")} if suite is not None else {}
        return cls(path, (props.get("engine.name") or "", props.get("engine.version") or ""), props.get("corpus.version"),
                   (tuple((props.get("run.patterns") or "").split()), tuple((props.get("run.tags") or "").split())),
                   props.get("run.shard"))


def _check_together(facts: list[_Facts], partial: bool) -> None:
    first = facts[0]
    for item in facts:
        if not item.complete:
            raise ReportError(f"{item.path}: the run stopped before it finished (its JSON lines have no summary): "
                              "run that shard again")
        if item.corpus is None:
            raise ReportError(f"{item.path}: the report has no corpus version (written by an older harness?): "
                              "can't tell whether it ran the same corpus")
    for item in facts[1:]:
        if item.engine != first.engine:
            raise ReportError(f"can't merge reports of different engines: {first.path} is {' '.join(first.engine)}, "
                              f"{item.path} is {' '.join(item.engine)}")
        if item.corpus != first.corpus:
            raise ReportError(f"can't merge reports of different corpus versions: {first.path} ran corpus "
                              f"{first.corpus}, {item.path} ran {item.corpus}")
        if item.selection != first.selection:
            raise ReportError(f"can't merge reports of different selections (-k, --tag): {first.path} and {item.path}")
    shards = [item.shard for item in facts if item.shard]
    if not shards:
        return
    if len(shards) != len(facts):
        unsharded = next(item.path for item in facts if not item.shard)
        raise ReportError(f"{unsharded}: not a shard (no --shard), but other reports are: can't merge a whole run "
                          "with shards of it")
    counts = {_shard_key(s)[1] for s in shards}
    if len(counts) != 1:
        raise ReportError(f"can't merge shards of different counts: {', '.join(sorted(shards, key=_shard_key))}")
    duplicates = sorted({s for s in shards if shards.count(s) > 1})
    if duplicates:
        raise ReportError(f"shard {', '.join(duplicates)} given more than once")
    count = counts.pop()
    missing = [f"{i}/{count}" for i in range(1, count + 1) if f"{i}/{count}" not in shards]
    if missing and not partial:
        raise ReportError(f"shard(s) {', '.join(missing)} missing: give every shard's report, or --partial to "
                          "merge only these")


def _shard_key(text: str) -> tuple[int, int]:
    index, _, count = str(text).partition("/")
    return (int(index), int(count)) if index.isdigit() and count.isdigit() else (0, 0)


def load_all(paths: list[Path]) -> tuple[str, list[Any]]:
    """The format of the reports ('json' or 'junit') and the reports, read; ReportError if one isn't
    a report or they are of both formats."""
    kinds = {path: "junit" if _looks_xml(path) else "json" for path in paths}
    if len(set(kinds.values())) > 1:
        raise ReportError("can't merge JUnit XML with JSON reports: give reports of one format")
    kind = kinds[paths[0]]
    if kind == "junit":
        return kind, [load_junit(path) for path in paths]
    return kind, [load_report(path) for path in paths]


def _looks_xml(path: Path) -> bool:
    try:
        with path.open("rb") as stream:
            start = stream.read(64).lstrip()
    except OSError:
        return path.suffix.lower() == ".xml"
    return start.startswith(b"<")
