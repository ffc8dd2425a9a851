"""Building the site: read the reports, compute the pages' contents (harness.site.model), render them
with the Jinja2 templates, and put the folder in place only once every page is written.

The output folder is replaced only if it is a site this command made (it holds the marker file);
an empty folder is used; anything else is refused, so nothing is overwritten by mistake."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import yaml

from harness import __version__
from harness.corpus import Case, Corpus
from harness.evaluate import describe_action
from harness.provenance import corpus_version
from harness.report_files import LoadedReport, ReportError, corpus_order, load_report
from harness.site import badge, model
from harness.site.board import board
from harness.site.rules import RuleBook
from harness.yamlio import YamlError

MARKER = ".mtg-conformance-site"
PACKAGE = Path(__file__).resolve().parent


class SiteError(Exception):
    """Bad input: a file that isn't a report, an output folder that isn't a site."""


@dataclass
class Built:
    output: Path
    pages: int
    seconds: float
    replaced: bool


def build_site(paths: list[Path], output: Path, corpus: Corpus, rulebook: RuleBook) -> Built:
    started = time.perf_counter()
    try:
        reports = [load_report(path) for path in paths]
    except ReportError as exc:
        raise SiteError(str(exc)) from None
    replacing = check_output(output, paths)
    env = _environment()
    output.parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=f".{output.name}.building-", dir=output.parent))
    try:
        pages = _render_all(env, reports, corpus, rulebook, building)
        _publish(building, output, replacing)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    return Built(output, pages, time.perf_counter() - started, replacing)


def check_output(output: Path, reports: list[Path]) -> bool:
    """Whether `output` is a site to replace (False: a new or empty folder); SiteError if it is
    something else."""
    if not output.exists():
        return False
    if not output.is_dir():
        raise SiteError(f"--output {output} exists and is not a folder: not writing there")
    for report in reports:
        if output.resolve() in report.resolve().parents:
            raise SiteError(f"{report} is inside --output {output}, which would be replaced: keep reports elsewhere")
    if (output / MARKER).is_file():
        return True
    if any(output.iterdir()):
        raise SiteError(f"--output {output} exists and is not a site made by `mtg-conformance site` (it has no {MARKER}): "
                        "not overwriting it; give a new or empty folder")
    return False


def _publish(building: Path, output: Path, replacing: bool) -> None:
    mask = os.umask(0)
    os.umask(mask)
    os.chmod(building, 0o777 & ~mask)  # mkdtemp makes it private; a site is read by a web server
    if output.exists() and not replacing:
        output.rmdir()  # empty (check_output said so)
    if not replacing:
        os.rename(building, output)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{output.name}.old-", dir=output.parent))
    old.rmdir()
    os.rename(output, old)
    os.rename(building, output)
    shutil.rmtree(old, ignore_errors=True)


def _environment():
    try:
        import jinja2
    except ImportError:
        raise SiteError("the site needs Jinja2: pip install 'mtg-conformance[site]'") from None
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(PACKAGE / "templates"), autoescape=True,
                             trim_blocks=True, lstrip_blocks=True, auto_reload=False)
    env.filters["pct"] = _percent
    env.filters["compact"] = lambda value: json.dumps(value, ensure_ascii=False, default=str)
    env.filters["web_url"] = _web_url
    env.globals["statuses"] = model.STATUSES
    return env


def _web_url(value: Any) -> str:
    """An engine's link from its report, only if it is an http(s) address (a report is data, not code)."""
    return value if isinstance(value, str) and value.startswith(("https://", "http://")) else ""


def _percent(share: float) -> str:
    value = share * 100
    return f"{value:.0f}%" if value in (0, 100) else f"{value:.1f}%"


# --- the pages ---------------------------------------------------------------------------------------
def _render_all(env, reports: list[LoadedReport], corpus: Corpus, rulebook: RuleBook, out: Path) -> int:
    columns = model.columns_of(reports)
    local_cases = _cases_by_id(corpus)
    version = corpus_version(corpus)
    first_seen: dict[str, dict[str, Any]] = {}
    for report in reports:
        for case in report.cases:
            first_seen.setdefault(case["id"], case)
    case_ids = [case["id"] for case in sorted(first_seen.values(), key=corpus_order)]
    common = {"columns": columns, "harness_version": __version__, "corpus_version": version,
              "generated": datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z"),
              "rules_source": rulebook.source}
    pages = 0

    def page(rel: str, template: str, **context: Any) -> None:
        nonlocal pages
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        root = "../" * rel.count("/")
        target.write_text(env.get_template(template).render(root=root, **common, **context), encoding="utf-8")
        pages += 1

    rules_of = {case_id: _rules(local_cases[case_id]) for case_id in case_ids if case_id in local_cases}
    topics = model.topic_rows(columns, case_ids)
    for row in topics:
        row.link = f"#topic-{row.key}"
    matrices = [
        {"id": "by-topic", "title": "By topic", "label": "Topic", "rows": topics, "total": model.total_row(columns),
         "caption": "Cases passing per topic (a topic is a card or a theme of the corpus), out of those run"},
        {"id": "by-section", "title": "By Comprehensive Rules section", "label": "Section",
         "rows": model.section_rows(columns, rules_of, rulebook.section_title), "total": None,
         "caption": "Cases passing per section of the Comprehensive Rules they cite (a case counts in each)"},
    ]
    diffs = model.diffs_of(columns)
    by_topic: dict[str, list[str]] = {}
    for case_id in case_ids:
        by_topic.setdefault(model.topic_of(case_id), []).append(case_id)
    page("index.html", "index.html.j2", case_count=len(case_ids), matrices=matrices, diffs=diffs,
         cases_by_topic=sorted(by_topic.items()), notices=_notices(reports, version, rulebook))
    for column in columns:
        groups = {status: [c for c in column.report.cases if c["status"] == status] for status in model.STATUSES}
        page(f"engines/{column.slug}.html", "engine.html.j2", column=column, groups=groups)
        (out / "badges").mkdir(exist_ok=True)
        (out / "badges" / f"{column.slug}.svg").write_text(badge.render(env, column), encoding="utf-8")
        pages += 1
    for d in diffs:
        page(f"diffs/{d.slug}.html", "diff.html.j2", d=d)
    for case_id in case_ids:
        page(f"cases/{case_id}.html", "case.html.j2", **_case_context(case_id, local_cases.get(case_id), columns,
                                                                       corpus, rulebook))
    shutil.copy(PACKAGE / "static" / "style.css", out / "style.css")
    (out / MARKER).write_text(json.dumps({"generator": "mtg-conformance site", "harness": __version__,
                                          "reports": [str(r.path) for r in reports]}, indent=2) + "\n",
                              encoding="utf-8")
    return pages


def _cases_by_id(corpus: Corpus) -> dict[str, Case]:
    out = {}
    for case in corpus.iter_cases():
        if isinstance(case, YamlError):
            continue
        out[case.id] = case
    return out


def _rules(case: Case) -> list[str]:
    value = case.data.get("rules")
    return [str(v) for v in value] if isinstance(value, list) else []


def _notices(reports: list[LoadedReport], version: str, rulebook: RuleBook) -> list[str]:
    out = []
    for report in reports:
        if report.corpus_version is None:
            out.append(f"{report.path.name} ({report.engine_title}) has no corpus version (an older harness wrote it); "
                       f"its cases are shown as corpus {version} has them.")
        elif report.corpus_version != version:
            out.append(f"{report.path.name} ({report.engine_title}) ran corpus {report.corpus_version}; the cases "
                       f"are shown as corpus {version} has them, which may differ (build with --cases to match).")
        if not report.complete:
            out.append(f"{report.path.name} ({report.engine_title}) stopped before it finished: it has "
                       f"{len(report.cases)} case(s).")
    if not rulebook.available:
        out.append("The Comprehensive Rules text was not available, so rules are cited by number only.")
    return out


def _case_context(case_id: str, case: Case | None, columns: list[model.Column], corpus: Corpus,
                  rulebook: RuleBook) -> dict[str, Any]:
    results = [(column, column.by_id.get(case_id)) for column in columns]
    context: dict[str, Any] = {"case_id": case_id, "case": case, "results": results,
                               "observations": model.observation_rows(case_id, columns),
                               "rulings": [], "rules": [], "board": None, "actions": [], "final": "", "notes": ""}
    if case is None:
        return context
    data = case.data
    context["rulings"] = [corpus.rulings[r] for r in case.rulings if r in corpus.rulings]
    context["rules"] = [{"number": n, "text": rulebook.text(n)} for n in _rules(case)]
    if isinstance(data.get("setup"), dict):
        context["board"] = board(data["setup"], corpus)
    actions: list[Any] = data["actions"] if isinstance(data.get("actions"), list) else []
    context["actions"] = [{"text": describe_action(a), "note": a.get("note", ""),
                           "expect": _yaml(a["expect"]) if a.get("expect") else ""}
                          for a in actions if isinstance(a, dict)]
    context["final"] = _yaml(data["expect"]) if data.get("expect") else ""
    context["notes"] = data.get("notes", "") if isinstance(data.get("notes"), str) else ""
    return context


_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml's when present: a few times faster


def _yaml(value: Any) -> str:
    """An expectation block as the case file has it (block style, keys in their order)."""
    return yaml.dump(value, Dumper=_DUMPER, sort_keys=False, default_flow_style=False, allow_unicode=True,
                     width=100).rstrip()
