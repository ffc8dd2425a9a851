"""The site in a real browser: headless Chromium (the Debian package `chromium`) loads the pages
from file://, as someone opening the folder would. Skipped without Chromium, except when
MTG_REQUIRE_BROWSER=1 (set by .ci/run), where a missing browser fails.

Screenshots of the index and of a case page are kept in test-artifacts/ (or $MTG_ARTIFACTS), to be
looked at."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser import Browser, find_chromium
from tests.site_support import MUTANT

REQUIRE_BROWSER = "MTG_REQUIRE_BROWSER"
ARTIFACTS = Path(os.environ.get("MTG_ARTIFACTS") or Path(__file__).resolve().parent.parent / "test-artifacts")
BOARD_CASE = "grub/token-copy-is-untapped-and-unmarked"  # a tapped permanent with counters and damage, a hand
FAILING_CASE = "grub/token-copies-printed-values-only"  # back faces up, counters; phase.rs fails it


@pytest.fixture(scope="module")
def browser():
    executable = find_chromium()
    if executable is None:
        message = "Chromium is not installed (apt-get install chromium)"
        if os.environ.get(REQUIRE_BROWSER):
            pytest.fail(f"{message}; {REQUIRE_BROWSER} is set, so this fails instead of skipping", pytrace=False)
        pytest.skip(message)
    started = Browser(executable)
    yield started
    started.close()


@pytest.fixture
def page(browser):
    tab = browser.new_page()
    yield tab
    tab.send("Page.close")


def url(site, rel: str) -> str:
    return (site.root / rel).resolve().as_uri()


def test_the_index_loads_without_console_errors(built_site, page) -> None:
    page.navigate(url(built_site, "index.html"))
    assert page.problems() == []
    assert page.evaluate("document.title") == "Conformance · mtg-conformance"
    assert page.evaluate("getComputedStyle(document.body).fontFamily") != ""  # the stylesheet applied
    assert page.evaluate("document.styleSheets.length") == 1
    assert page.evaluate("document.images.length") == len(built_site.reports.reports)
    assert page.evaluate("[...document.images].every(i => i.complete && i.naturalWidth > 0)")  # the badges load
    page.screenshot(ARTIFACTS / "site-index.png")


def test_the_matrix_shows_the_reports_counts(built_site, page) -> None:
    page.navigate(url(built_site, "index.html"))
    rows = page.evaluate("""[...document.querySelectorAll('table.engines tbody tr')].map(tr =>
        [tr.querySelector('th').innerText, ...[...tr.querySelectorAll('td.num')].map(td => td.innerText)])""")
    reports = [built_site.reports.load(spec) for spec in built_site.reports.reports]
    assert rows == [[r["engine"]["name"], *(str(r["summary"][s]) for s in r["summary"])] for r in reports]
    totals = page.evaluate("""[...document.querySelectorAll('#by-topic tfoot td')].map(td => td.innerText)""")
    for text, report in zip(totals, reports):
        assert text.startswith(f"{report['summary']['pass']}/{len(report['cases'])} pass"), text
        for status in ("fail", "skip"):
            if report["summary"][status]:
                assert f"{report['summary'][status]} {status}" in text
    mutant = built_site.reports.load(MUTANT)
    general = [c for c in mutant["cases"] if c["id"].startswith("general/")]
    cell = page.evaluate("""[...document.querySelectorAll('#by-topic tbody tr')].find(tr =>
        tr.querySelector('th').innerText === 'general').querySelectorAll('td')[1].innerText""")
    assert cell.startswith(f"{sum(c['status'] == 'pass' for c in general)}/{len(general)} pass")


def test_every_link_resolves_in_the_browser(built_site, page) -> None:
    """Every page links only to pages that load (checked for every page without a browser in
    test_site.py); here the browser follows every link of the index and of an engine page."""
    seen: set[str] = set()
    for start in ("index.html", f"engines/{_first_engine(built_site)}.html"):
        page.navigate(url(built_site, start))
        links = page.evaluate("[...document.querySelectorAll('a[href], img[src]')].map(a => a.href || a.src)")
        assert links
        for link in links:
            target = link.split("#", 1)[0]
            if target in seen or not target.startswith("file://"):
                continue
            seen.add(target)
            page.navigate(target)
            assert page.evaluate("document.readyState") == "complete"
            if target.endswith(".html"):
                assert page.evaluate("document.querySelector('h1') !== null"), target
    assert page.problems() == [], page.problems()
    assert len(seen) > 10


def test_a_case_page_shows_the_board_and_each_engines_observations(built_site, page) -> None:
    page.navigate(url(built_site, f"cases/{BOARD_CASE}.html"))
    assert page.problems() == []
    players = page.evaluate("[...document.querySelectorAll('.board .player h3')].map(h => h.innerText)")
    assert [p.split()[0] for p in players] == ["alice", "bob"]
    bears = page.evaluate("""(() => { const card = [...document.querySelectorAll('.zone-battlefield li.card')]
        .find(c => c.querySelector('.name').innerText === 'Grizzly Bears');
        return {tags: [...card.querySelectorAll('.tag')].map(t => t.innerText), tapped: card.classList.contains('tapped'),
                visible: card.getBoundingClientRect().width > 0}; })()""")
    assert bears["tapped"] and bears["visible"]
    assert {"label bears", "tapped", "2 +1/+1 counters", "1 damage marked"} <= set(bears["tags"])
    hand = page.evaluate("[...document.querySelectorAll('.zone-hand .name')].map(n => n.innerText)")
    assert hand == ["Relm's Sketching"]
    headers = page.evaluate("[...document.querySelectorAll('table.observations thead th')].map(th => th.innerText)")
    titles = [f"{r['engine']['name']} {r['engine']['version']}"
              for r in map(built_site.reports.load, built_site.reports.reports)]
    assert [" ".join(h.split()) for h in headers[3:]] == titles
    rows = page.evaluate("""[...document.querySelectorAll('table.observations tbody tr')].map(tr =>
        [tr.querySelector('th[scope=row]').innerText,
         ...[...tr.querySelectorAll('td')].map(td => td.innerText.replace(/\\s+/g, ' ').trim())])""")
    tapped = next(row for row in rows if row[0] == "$.expect.objects.bears.tapped")
    assert tapped[1] == "true" and len(tapped) == 2 + len(titles)
    assert all(cell in ("true MET", "true NOT MET") or cell.startswith("not checked") for cell in tapped[2:])
    when = page.evaluate("[...document.querySelectorAll('table.observations th.when')].map(th => th.innerText)")
    assert when[-1] == "at the end" and len(when) == len(set(when))  # each checkpoint heads its rows once
    statuses = page.evaluate("[...document.querySelectorAll('table.results tbody .status')].map(s => s.innerText)")
    assert len(statuses) == len(titles) and all(s in ("PASS", "FAIL", "SKIP", "ERROR") for s in statuses)
    page.screenshot(ARTIFACTS / "site-case.png")


def test_a_case_an_engine_fails_shows_its_value_beside_the_others(built_site, page) -> None:
    page.navigate(url(built_site, f"cases/{FAILING_CASE}.html"))
    assert page.problems() == []
    unmet = page.evaluate("[...document.querySelectorAll('table.observations td.unmet')].map(td => td.innerText)")
    failing = [spec for spec in built_site.reports.reports
               if next(c for c in built_site.reports.load(spec)["cases"] if c["id"] == FAILING_CASE)["status"] == "fail"]
    assert bool(unmet) == bool(failing) and all("NOT MET" in text for text in unmet)
    faces = page.evaluate("[...document.querySelectorAll('.zone-battlefield .tag.face')].map(t => t.innerText)")
    assert faces == ["back face up", "back face up"]
    page.screenshot(ARTIFACTS / "site-case-failing.png")


def _first_engine(site) -> str:
    return sorted(p.stem for p in (site.root / "engines").glob("*.html"))[0]
