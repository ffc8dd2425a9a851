"""JUnit XML, the report format CI systems (GitHub Actions reporters, GitLab, Jenkins) read.

One <testsuite> per topic, one <testcase> per case, named by its case id. With a baseline, a
result the baseline expects is reported as skipped (known), so the CI's test view shows what
changed; an unexpected pass is a failure unless unexpected passes are allowed.
"""

from __future__ import annotations

import io
import itertools
import re
import tempfile
import xml.etree.ElementTree as ET
from typing import Any, Iterable, TextIO

from harness.baseline import Verdict
from harness.corpus import Corpus
from harness.report import describe
from harness.results import CaseResult, Status

_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def junit_xml(engine: dict[str, Any], results: Iterable[CaseResult], corpus: Corpus, verdict: Verdict | None = None,
              *, allow_unexpected_pass: bool = False, head: dict[str, Any] | None = None) -> str:
    out = io.StringIO()
    write_junit(out, engine, results, corpus, verdict, allow_unexpected_pass=allow_unexpected_pass, head=head)
    return out.getvalue()


def write_junit(stream: TextIO, engine: dict[str, Any], results: Iterable[CaseResult], corpus: Corpus,
                verdict: Verdict | None = None, *, allow_unexpected_pass: bool = False,
                head: dict[str, Any] | None = None) -> None:
    """The report, with `results` in the corpus order (each topic's together): one topic's suite is
    built at a time and kept in a temporary file until the totals, written first, are known. Each
    suite's properties name the engine and, from `head`, the harness, corpus version, date and shard
    (what `merge` checks)."""
    described = head_properties(engine, head or {})
    known = verdict.known_ids if verdict else set()
    stale = {r.case_id for r in verdict.unexpected_passes} if verdict and not allow_unexpected_pass else set()
    root = ET.Element("testsuites", name="mtg-conformance")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    total_time = 0.0
    with tempfile.TemporaryFile("w+", encoding="utf-8") as suites:
        for topic, group in itertools.groupby(results, key=lambda r: r.case_id.split("/")[0]):
            suite = ET.Element("testsuite", name=topic)
            properties = ET.SubElement(suite, "properties")
            for name, text in described.items():
                ET.SubElement(properties, "property", name=name, value=_clean(text))
            for result in group:
                case = _testcase(suite, result, corpus, known, stale, verdict)
                total_time += float(case.get("time", "0"))
                for child, count in (("failure", "failures"), ("error", "errors"), ("skipped", "skipped")):
                    totals[count] += case.find(child) is not None
                totals["tests"] += 1
            _count(suite)
            ET.indent(suite, level=1)
            suites.write("\n  " + ET.tostring(suite, encoding="unicode"))
        for key, value in totals.items():
            root.set(key, str(value))
        root.set("time", f"{total_time:.3f}")
        stream.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        if not totals["tests"]:  # one empty suite still says which engine and corpus ran (an empty shard merges)
            empty = ET.SubElement(root, "testsuite", name="mtg-conformance", tests="0", failures="0", errors="0",
                                  skipped="0", time="0.000")
            properties = ET.SubElement(empty, "properties")
            for name, text in described.items():
                ET.SubElement(properties, "property", name=name, value=_clean(text))
            ET.indent(root)
            stream.write(ET.tostring(root, encoding="unicode") + "\n")
            return
        opening = ET.tostring(root, encoding="unicode")
        stream.write(opening.removesuffix(" />") + ">")  # the root has no children yet: "<testsuites ... />"
        suites.seek(0)
        while chunk := suites.read(65536):
            stream.write(chunk)
        stream.write("\n</testsuites>\n")


def head_properties(engine: dict[str, Any], head: dict[str, Any]) -> dict[str, str]:
    """The properties every suite carries: engine name and version, then what `head` knows."""
    out = {"engine.name": str(engine.get("name") or ""), "engine.version": str(engine.get("version") or "")}
    run = head.get("run") or {}
    for key, value in (("harness.version", (head.get("harness") or {}).get("version")),
                       ("corpus.version", (head.get("corpus") or {}).get("version")),
                       ("date", head.get("date")), ("run.shard", run.get("shard")),
                       ("run.patterns", " ".join(run.get("patterns") or [])), ("run.tags", " ".join(run.get("tags") or []))):
        if value:
            out[key] = str(value)
    return out


def _count(suite: ET.Element) -> None:
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    total_time = 0.0
    for case in suite.iter("testcase"):
        counts["tests"] += 1
        total_time += float(case.get("time", "0"))
        for child, key in (("failure", "failures"), ("error", "errors"), ("skipped", "skipped")):
            if case.find(child) is not None:
                counts[key] += 1
    for key, value in counts.items():
        suite.set(key, str(value))
    suite.set("time", f"{total_time:.3f}")


def _testcase(suite: ET.Element, result: CaseResult, corpus: Corpus, known: set[str], stale: set[str],
              verdict: Verdict | None) -> ET.Element:
    case = ET.SubElement(suite, "testcase", name=result.case_id, classname=f"mtg-conformance.{suite.get('name')}",
                         file=result.file, line=str(result.line), time=f"{result.duration:.3f}")
    details = _clean("\n".join(describe(result, corpus)))
    status = result.status
    if result.case_id in known:
        assert verdict is not None
        entry = verdict.baseline.entries[result.case_id]
        issue = f" ({entry.issue})" if entry.issue else ""
        ET.SubElement(case, "skipped", message=_clean(f"known {status.value} (baseline): {entry.reason}{issue}"))
        ET.SubElement(case, "system-out").text = details
    elif result.case_id in stale:
        assert verdict is not None
        entry = verdict.baseline.entries[result.case_id]
        expected = ", ".join(s.value for s in entry.statuses)
        ET.SubElement(case, "failure", type="unexpected-pass",
                      message=_clean(f"passed, but the baseline expects {expected}: remove the entry "
                                     f"(line {entry.line}) or run --write-baseline"))
    elif status is Status.FAIL:
        ET.SubElement(case, "failure", type="fail", message=_clean(result.message)).text = details
    elif status is Status.SKIP:
        ET.SubElement(case, "skipped", message=_clean(result.message))
    elif status is not Status.PASS:
        ET.SubElement(case, "error", type=status.value, message=_clean(result.message.splitlines()[0]
                                                                        if result.message else status.value)).text = details
    if result.stderr:
        ET.SubElement(case, "system-err").text = _clean(result.stderr)
    return case


def _clean(text: Any) -> str:
    """Text XML 1.0 can hold (engines' stderr may carry control characters)."""
    return _NOT_XML.sub("\ufffd", str(text))
