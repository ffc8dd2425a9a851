"""`merge`: join the reports of shards (`run --shard I/N`) into the report of the whole run."""

from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
from pathlib import Path

from harness.outputs import write_json
from harness.report_files import ReportError, load_report


def add_parser(verbs) -> None:
    parser = verbs.add_parser(
        "merge", help="merge the reports of shards into one",
        description="Merge the reports of `run --shard I/N` (JSON or JSON lines into JSON; JUnit XML into JUnit XML) "
                    "into the report one unsharded run would have written. Refuses reports of different engines, "
                    "corpus versions or selections, overlapping or missing shards. Exit 0 when written, 2 on bad "
                    "input (the results' failures are the content, not an error).")
    parser.add_argument("reports", nargs="+", type=Path, metavar="REPORT", help="the shards' reports")
    parser.add_argument("--output", type=Path, required=True, metavar="FILE",
                        help="the merged report (.json for JSON reports, .xml for JUnit ones); an existing FILE "
                             "is replaced only if it is a report")
    parser.add_argument("--partial", action="store_true", help="merge even if some shards of the N are missing")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    import xml.etree.ElementTree as ET  # imported here: every other command starts without them

    from harness.merge import load_all, merged_junit, merged_report

    try:
        kind, loaded = load_all(args.reports)
        _check_output(args.output, kind, args.reports)
        if kind == "junit":
            root = merged_junit(args.reports, loaded, partial=args.partial)
            text = '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
            total = f"{root.get('tests')} case(s), {root.get('failures')} failure(s), {root.get('errors')} error(s)"
        else:
            report = merged_report(loaded, partial=args.partial)
            buffer = io.StringIO()
            write_json(buffer, report["engine"], report["cases"],
                       head={k: report[k] for k in ("harness", "corpus", "date", "run") if k in report},
                       baseline=report.get("baseline"), summary=report["summary"])
            text = buffer.getvalue()
            total = f"{len(report['cases'])} case(s): " + ", ".join(f"{n} {s}" for s, n in report["summary"].items() if n)
    except ReportError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        _write(args.output, text)
    except OSError as exc:
        print(f"error: can't write {args.output}: {exc}", file=sys.stderr)
        return 2
    print(f"merged {len(args.reports)} report(s) into {args.output}: {total}", file=sys.stderr)
    return 0


def _check_output(output: Path, kind: str, inputs: list[Path]) -> None:
    from harness.merge import load_all

    suffix = output.suffix.lower()
    wanted = ".xml" if kind == "junit" else ".json"
    if suffix in (".xml", ".json", ".jsonl") and suffix != wanted:
        raise ReportError(f"--output {output}: the reports are {'JUnit XML' if kind == 'junit' else 'JSON'}, "
                          f"so the merged report is a {wanted} file")
    if not output.exists():
        return
    if any(output.resolve() == path.resolve() for path in inputs):
        raise ReportError(f"--output {output} is one of the reports to merge: write the merged report elsewhere")
    if output.is_dir():
        raise ReportError(f"--output {output} is a folder")
    try:
        load_all([output]) if kind == "junit" else load_report(output)
    except ReportError:
        raise ReportError(f"--output {output} exists and is not a report: not overwriting it") from None


def _write(path: Path, text: str) -> None:
    """Write the whole file or nothing (a failed write leaves what was there)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(temporary, 0o666 & ~mask)  # as an ordinary new file (mkstemp makes it private)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
