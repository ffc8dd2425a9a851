"""`mtg-conformance site`: the pages a site has, what they say, links, accessibility, and bad input.
(tests/test_site_browser.py loads the same site in a real browser.)"""

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from harness.cli import main
from harness.site import MARKER
from tests.site_support import MUTANT, broken_links, parse_page, phase_installed


def test_a_site_has_an_index_a_page_per_engine_and_case_and_a_badge_per_engine(built_site) -> None:
    root = built_site.root
    ids = {case["id"] for spec in built_site.reports.reports for case in built_site.reports.load(spec)["cases"]}
    assert (root / "index.html").is_file() and (root / "style.css").is_file() and (root / MARKER).is_file()
    assert {p.relative_to(root / "cases").as_posix().removesuffix(".html") for p in (root / "cases").rglob("*.html")} == ids
    engines = sorted(p.stem for p in (root / "engines").glob("*.html"))
    assert engines == sorted(p.stem for p in (root / "badges").glob("*.svg")) and len(engines) == len(built_site.reports.reports)


def test_phase_is_on_the_site_when_its_extra_is_installed(built_site) -> None:
    from tests.conftest import engine_module

    engine_module("phase", "phase")  # skips without the extra, fails with MTG_REQUIRE_ENGINES
    assert phase_installed() and "phase" in built_site.reports.reports
    assert "phase.rs" in built_site.page("index.html")


def test_every_link_of_every_page_resolves(built_site) -> None:
    assert broken_links(built_site.root) == []


def test_the_matrix_counts_each_report_by_topic_and_in_total(built_site) -> None:
    page = built_site.page("index.html")
    mutant = built_site.reports.load(MUTANT)
    total = len(mutant["cases"])
    passed = mutant["summary"]["pass"]
    assert 0 < passed < total
    # the total row has each engine's pass count out of its cases, in the order the reports were given
    footer = page[page.index("<tfoot>"):page.index("</tfoot>")]
    cells = re.findall(r'data-pass="(\d+)" data-total="(\d+)"', footer)
    assert cells == [(str(r["summary"]["pass"]), str(len(r["cases"])))
                     for r in map(built_site.reports.load, built_site.reports.reports)]
    topic = "general"
    in_topic = [c for c in mutant["cases"] if c["id"].startswith(topic + "/")]
    assert f'<a href="#topic-{topic}">{topic}</a>' in page
    assert f"{sum(c['status'] == 'pass' for c in in_topic)}</strong>/{len(in_topic)} pass" in page
    assert "By Comprehensive Rules section" in page and "608. Resolving Spells and Abilities" in page


def test_a_case_page_has_the_ruling_the_rules_the_board_and_every_engine_side_by_side(built_site) -> None:
    case_id = "grub/token-copy-is-untapped-and-unmarked"
    page = built_site.page(f"cases/{case_id}.html")
    assert "Relm&#39;s Sketching copies a tapped Grizzly Bears" in page  # the description
    assert "ruling <code>grub-08</code>".lower() in page.lower()
    assert "<dt>707.2</dt>" in page and "The copiable values are" in page  # the CR text of a cited rule
    board = page[page.index('id="board-h"'):page.index('id="actions-h"')]
    assert '<h3 id="player-alice">alice' in board and '<h3 id="player-bob">bob' in board
    bears = board[board.index("Grizzly Bears"):board.index("Relm&#39;s Sketching")]
    assert "tapped</li>" in bears and "2 +1/+1 counters" in bears and "1 damage marked" in bears and "bears" in bears
    assert "mana pool {U}{U}{U}{U}" in board
    observed = page[page.index('id="observed-h"'):]
    for spec in built_site.reports.reports:
        title = json.loads(built_site.reports.reports[spec].read_text())["engine"]["name"]
        assert f"<th scope=\"col\">{title} " in observed.replace("&#126;", "~")
    assert "$.expect.objects.bears.tapped" in observed and "met</span>" in observed


def test_a_failing_engine_shows_what_it_observed_instead(built_site) -> None:
    mutant = built_site.reports.load(MUTANT)
    failing = next(c for c in mutant["cases"] if c["status"] == "fail")
    page = built_site.page(f"cases/{failing['id']}.html")
    assert "NOT met" in page and 'class="status status-fail">fail</span>' in page
    mismatch = failing["mismatches"][0]
    assert mismatch["path"] in page


def test_pages_are_accessible_headings_in_order_tables_with_headers_and_status_in_words(built_site) -> None:
    for path in built_site.pages():
        parsed = parse_page(path)
        assert parsed.headings.count(1) == 1, path
        assert all(b - a <= 1 for a, b in zip(parsed.headings, parsed.headings[1:])), (path, parsed.headings)
        text = path.read_text(encoding="utf-8")
        assert text.count("<table") == text.count("<thead>") and 'lang="en"' in text, path
    # a status is a word on the page, not only a colour
    assert re.search(r'class="status status-fail">fail<', built_site.page(f"engines/{_slug(built_site, MUTANT)}.html"))


def test_an_engine_page_lists_every_case_with_its_status(built_site) -> None:
    report = built_site.reports.load(MUTANT)
    page = built_site.page(f"engines/{_slug(built_site, MUTANT)}.html")
    for case in report["cases"]:
        assert f'href="../cases/{case["id"]}.html"' in page
    assert f"{report['summary']['pass']} of {len(report['cases'])} case(s) pass" in page
    assert "<dt>Corpus version</dt><dd><code>" + report["corpus"]["version"] in page


def test_badges_are_svg_with_the_score_written(built_site) -> None:
    report = built_site.reports.load(MUTANT)
    svg = ET.parse(built_site.root / "badges" / f"{_slug(built_site, MUTANT)}.svg").getroot()
    title = svg.find("{http://www.w3.org/2000/svg}title").text
    assert title.startswith("mtg-conformance: ") and f"({report['summary']['pass']}/{len(report['cases'])})" in title
    assert svg.get("role") == "img"


def _slug(site, spec: str) -> str:
    report = site.reports.load(spec)
    from harness.site.model import _slug as slug

    return slug(f"{report['engine']['name']} {report['engine']['version']}")


# --- two reports of one engine --------------------------------------------------------------------
def test_a_diff_page_shows_what_changed_between_two_reports_of_an_engine(site_reports, tmp_path) -> None:
    old = site_reports.load("reference")
    new = json.loads(json.dumps(old))
    new["engine"]["version"] = "0.2.0"
    new["date"] = "2999-01-01T00:00:00Z"
    broken, renamed = new["cases"][0], new["cases"][1]
    broken.update(status="fail", message="2 expectation(s) not met")
    renamed["message"] = "a new message"
    (tmp_path / "old.json").write_text(json.dumps(old))
    (tmp_path / "new.json").write_text(json.dumps(new))
    assert main(["site", str(tmp_path / "new.json"), str(tmp_path / "old.json"), "--output", str(tmp_path / "s")]) == 0
    diffs = list((tmp_path / "s" / "diffs").glob("*.html"))
    assert [d.name for d in diffs] == ["reference-0.1.0--reference-0.2.0.html"]  # older first, by date
    page = diffs[0].read_text()
    newly_failing = page[page.index("Newly failing (1)"):page.index("Newly passing")]
    assert broken["id"] in newly_failing
    changed = page[page.index("Changed messages (1)"):page.index("Only in the older")]
    assert renamed["id"] in changed and "a new message" in changed
    assert "diffs/reference-0.1.0--reference-0.2.0.html" in (tmp_path / "s" / "index.html").read_text()


def test_json_lines_reports_make_a_site_too(tmp_path, capsys) -> None:
    stream = tmp_path / "r.jsonl"
    assert main(["run", "-q", "-k", "nightpack", "--shuffle", "3", "--output", str(stream)]) == 0
    assert main(["site", str(stream), "--output", str(tmp_path / "s")]) == 0
    page = (tmp_path / "s" / "index.html").read_text()
    assert 'data-pass="9" data-total="9"' in page


# --- bad input: exit 2, nothing overwritten ----------------------------------------------------------
def test_a_file_that_is_not_a_report_exits_2(tmp_path, capsys) -> None:
    for name, text in [("a.json", '{"hello": 1}'), ("b.json", "not json at all"), ("c.json", '[1, 2]'),
                       ("d.json", '{"engine": {"name": "x"}, "cases": [{"id": "a/b", "status": "great"}]}'),
                       ("e.json", '{"engine": {"name": "x"}, "cases": [{"id": "a/b", "status": "pass", "observed": 3}]}'),
                       ("f.json", '{"engine": {"name": "x"}, "cases": [{"id": "a/b", "status": "pass"}, '
                                  '{"id": "a/b", "status": "fail"}]}'),
                       ("g.jsonl", '{"engine": {"name": "x"}}\n{"id": "a/b"}\n')]:
        (tmp_path / name).write_text(text)
        assert main(["site", str(tmp_path / name), "--output", str(tmp_path / "s")]) == 2
        err = capsys.readouterr().err
        assert f"{name}" in err and "not a report of mtg-conformance run" in err, err
    assert main(["site", str(tmp_path / "missing.json"), "--output", str(tmp_path / "s")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert not (tmp_path / "s").exists()


def test_an_output_folder_that_is_not_a_site_is_left_alone(site_reports, tmp_path, capsys) -> None:
    report = str(site_reports.reports["reference"])
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("precious")
    assert main(["site", report, "--output", str(mine)]) == 2
    assert "is not a site made by `mtg-conformance site`" in capsys.readouterr().err
    assert [p.name for p in mine.iterdir()] == ["notes.txt"] and (mine / "notes.txt").read_text() == "precious"
    (tmp_path / "file").write_text("x")
    assert main(["site", report, "--output", str(tmp_path / "file")]) == 2
    assert (tmp_path / "file").read_text() == "x"


def test_a_site_is_replaced_whole_by_the_next_build(site_reports, tmp_path, capsys) -> None:
    out = tmp_path / "s"
    out.mkdir()  # an empty folder is fine
    assert main(["site", str(site_reports.reports["reference"]), "--output", str(out)]) == 0
    (out / "engines" / "stale.html").write_text("from an old build")
    assert main(["site", str(site_reports.reports[MUTANT]), "--output", str(out)]) == 0
    assert "replaced the site in" in capsys.readouterr().err
    assert not (out / "engines" / "stale.html").exists() and (out / MARKER).is_file()
    assert [p.name for p in tmp_path.iterdir()] == ["s"]  # no temporary folder left behind


def test_a_report_inside_the_site_it_would_replace_is_refused(site_reports, tmp_path, capsys) -> None:
    out = tmp_path / "s"
    assert main(["site", str(site_reports.reports["reference"]), "--output", str(out)]) == 0
    inside = out / "report.json"
    inside.write_text(site_reports.reports["reference"].read_text())
    assert main(["site", str(inside), "--output", str(out)]) == 2
    assert "inside --output" in capsys.readouterr().err and inside.is_file()


@pytest.mark.parametrize("args, message", [(["--rules", "/nonexistent/cr.txt"], "no such file")])
def test_a_missing_rules_file_exits_2(site_reports, tmp_path, capsys, args, message) -> None:
    assert main(["site", str(site_reports.reports["reference"]), "--output", str(tmp_path / "s"), *args]) == 2
    assert message in capsys.readouterr().err


def test_a_report_of_another_corpus_version_is_noted_on_the_index(site_reports, tmp_path) -> None:
    report = site_reports.load("reference")
    report["corpus"]["version"] = "0000000000000000"
    path = tmp_path / "old.json"
    path.write_text(json.dumps(report))
    assert main(["site", str(path), "--output", str(tmp_path / "s")]) == 0
    assert "ran corpus 0000000000000000" in (tmp_path / "s" / "index.html").read_text()


def test_templates_and_stylesheet_are_package_data() -> None:
    import tomllib

    from harness.site.build import PACKAGE

    data = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())
    patterns = data["tool"]["setuptools"]["package-data"]["harness"]
    shipped = {p.relative_to(PACKAGE.parent).as_posix() for p in PACKAGE.rglob("*") if p.suffix in (".j2", ".css")}
    assert shipped and all(any(Path(f).match(p) for p in patterns) for f in shipped)


def test_an_engines_links_are_kept_only_when_they_are_web_addresses(site_reports, tmp_path) -> None:
    report = site_reports.load("reference")
    report["engine"].update(homepage="javascript:alert(1)", issues="https://example.org/issues")
    path = tmp_path / "r.json"
    path.write_text(json.dumps(report))
    assert main(["site", str(path), "--output", str(tmp_path / "s")]) == 0
    page = next((tmp_path / "s" / "engines").glob("*.html")).read_text()
    assert "javascript:" not in page and 'href="https://example.org/issues"' in page


def test_a_case_the_corpus_does_not_have_gets_a_page_with_its_results_only(site_reports, tmp_path) -> None:
    report = site_reports.load("reference")
    report["cases"] = [dict(report["cases"][0], id="retired/an-old-case", file="cases/retired/an-old-case.yaml")]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(report))
    assert main(["site", str(path), "--output", str(tmp_path / "s")]) == 0
    page = (tmp_path / "s" / "cases" / "retired" / "an-old-case.html").read_text()
    assert "This case is not in the corpus the site was built from" in page and "status-pass" in page
    assert broken_links(tmp_path / "s") == []
