"""Reports of a run: a table for people, JSON for programs. Failures show the ruling and the text of
each Comprehensive Rules rule the case cites, the action that was running, and what was expected
against what was observed."""

from __future__ import annotations

import json
import textwrap
from collections import Counter
from typing import Any, Iterable

from tabulate import tabulate

from harness.limits import bounded
from harness.corpus import Corpus
from harness.results import CaseResult, Status
from harness.tally import STATUS_ORDER, Tally


def summary(results: Iterable[CaseResult]) -> dict[str, int]:
    counts = Counter(r.status.value for r in results)
    return {status: counts.get(status, 0) for status in STATUS_ORDER}


def table(engine: dict[str, Any], results: Tally | list[CaseResult], corpus: Corpus, *, verbose: bool = False,
          known: frozenset[str] | set[str] = frozenset()) -> str:
    """Results table by topic, then details of every case that did not pass (except `known` ones:
    results a baseline expects, shown with --verbose)."""
    tally = results if isinstance(results, Tally) else Tally.of(results)
    lines = [f"engine: {engine.get('name')} {engine.get('version', '')}".rstrip(), ""]
    rows = [[topic] + [counts.get(s, 0) for s in STATUS_ORDER] for topic, counts in sorted(tally.by_topic.items())]
    totals = tally.summary()
    rows.append(["total"] + [totals[s] for s in STATUS_ORDER])
    lines.append(tabulate(rows, headers=["topic"] + STATUS_ORDER, tablefmt="simple"))
    failing = tally.failing()
    shown = [r for r in failing if verbose or (r.status is not Status.SKIP and r.case_id not in known)]
    for result in shown:
        lines.append("")
        lines.extend(describe(result, corpus))
    skipped = totals["skip"]
    hidden = sum(1 for r in failing if r.case_id in known and r.status is not Status.SKIP)
    if (skipped or hidden) and not verbose:
        lines.append("")
        told = [f"{skipped} case(s) skipped"] if skipped else []
        told += [f"{hidden} known result(s) of the baseline not detailed"] if hidden else []
        lines.append(f"{'; '.join(told)}; --verbose shows {'why' if not hidden else 'them'}.")
    return "\n".join(lines)


def describe(result: CaseResult, corpus: Corpus) -> list[str]:
    out = [f"{result.status.value.upper()} {result.case_id}  ({result.file}:{result.line})"]
    if result.message:
        out.append(f"  {result.message}")
    if result.status is not Status.SKIP:
        cited = citations(result, corpus)
        for ruling in cited["rulings"]:
            out.append(textwrap.fill(f"ruling {ruling['id']}: {ruling['text']}", 100, initial_indent="  ",
                                     subsequent_indent="    "))
        for rule in cited["rules"]:
            what = "rule" if "." in rule["rule"] else "section"
            out.append(textwrap.fill(f"{what} {rule['rule']}: {rule['text']}", 100, initial_indent="  ",
                                     subsequent_indent="    "))
    last_when = None
    for mismatch in result.mismatches:
        if mismatch.when != last_when:
            out.append(f"  {mismatch.when}:")
            last_when = mismatch.when
        out.append(f"    {mismatch.path} (line {mismatch.line})")
        out.append(f"      expected: {_value(mismatch.expected)}")
        out.append(f"      observed: {_value(mismatch.observed)}")
        if mismatch.note:
            out.append(f"      {mismatch.note}")
    if result.details.get("context"):
        context = dict(result.details["context"])
        trace = context.pop("traceback", None)
        if context:
            out.append(f"  context: {json.dumps(context, default=str)}")
        if trace:
            out.extend("  | " + line for line in trace.rstrip().splitlines()[-8:])
    if result.stderr:
        out.append("  engine stderr (last lines):")
        out.extend("  | " + line for line in result.stderr.rstrip().splitlines()[-10:])
    return out


def citations(result: CaseResult, corpus: Corpus) -> dict[str, list[dict[str, str]]]:
    """The text of each ruling and each Comprehensive Rules rule the case cites (a rule's whole text,
    without its examples; a section's title), to read next to a failure."""
    rulings = [{"id": r, "text": corpus.rulings[r].text} for r in result.rulings if r in corpus.rulings]
    if not result.rules:
        return {"rulings": rulings, "rules": []}
    from harness import cr

    edition = cr.pinned()
    rules = []
    for number in result.rules:
        rule = edition.rules.get(number)
        section = edition.sections.get(number)
        if rule is not None or section is not None:
            rules.append({"rule": number, "text": rule.text if rule is not None else section.title if section else ""})
    return {"rulings": rulings, "rules": rules}


VALUE_SHOWN = 500  # characters of an expected or observed value in a report line


def _value(value: Any) -> str:
    """A value as a report line shows it: an engine's megabyte of output is cut short."""
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return bounded(text, VALUE_SHOWN)
