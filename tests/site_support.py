"""Fixtures for the site and merge tests (a plugin of tests/conftest.py): reports of real runs of the
reference engine, a rule mutant and phase.rs (when its extra is installed), and a site built from
them. Made once per session: each run takes about a second (phase.rs a few)."""

from __future__ import annotations

import html.parser
import importlib.util
import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from harness.cli import main

MUTANT = "mutant:lethal-damage-ignored"


def phase_installed() -> bool:
    return importlib.util.find_spec("phase") is not None


@dataclass
class SiteReports:
    folder: Path
    reports: dict[str, Path]  # by engine spec

    def load(self, spec: str) -> dict:
        return json.loads(self.reports[spec].read_text())


@pytest.fixture(scope="session")
def site_reports(tmp_path_factory) -> SiteReports:
    folder = tmp_path_factory.mktemp("reports")
    engines = ["reference", MUTANT] + (["phase"] if phase_installed() else [])
    reports = {}
    for spec in engines:
        path = folder / f"{spec.replace(':', '-')}.json"
        code = main(["run", "-q", "--engine", spec, "--output", str(path)])
        assert code in (0, 1) and path.is_file(), f"run --engine {spec} exited {code}"
        reports[spec] = path
    return SiteReports(folder, reports)


@dataclass
class BuiltSite:
    root: Path
    reports: SiteReports

    def page(self, rel: str) -> str:
        return (self.root / rel).read_text(encoding="utf-8")

    def pages(self) -> list[Path]:
        return sorted(self.root.rglob("*.html"))


@pytest.fixture(scope="session")
def built_site(site_reports: SiteReports, tmp_path_factory) -> BuiltSite:
    root = tmp_path_factory.mktemp("site") / "site"
    code = main(["site", *map(str, site_reports.reports.values()), "--output", str(root)])
    assert code == 0
    return BuiltSite(root, site_reports)


class Links(html.parser.HTMLParser):
    """The links (href, src) and element ids of an HTML page, and its headings in order."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.headings: list[int] = []

    def handle_starttag(self, tag, attrs) -> None:
        values = dict(attrs)
        for name in ("href", "src"):
            if values.get(name):
                self.links.append(values[name])
        if values.get("id"):
            self.ids.add(values["id"])
        if len(tag) == 2 and tag[0] == "h" and tag[1].isdigit():
            self.headings.append(int(tag[1]))


def parse_page(path: Path) -> Links:
    parser = Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def broken_links(root: Path) -> list[str]:
    """Every relative link of every page that names no file of the site, or no id in its page."""
    root = root.resolve()
    parsed = {path.resolve(): parse_page(path) for path in root.rglob("*.html")}
    broken = []
    for page, links in parsed.items():
        for link in links.links:
            if link.startswith(("http://", "https://", "mailto:")):
                continue
            target, _, fragment = link.partition("#")
            path = (page.parent / target).resolve() if target else page
            if not path.is_file():
                broken.append(f"{page.relative_to(root)}: {link} (no such file)")
            elif fragment and path.suffix == ".html" and fragment not in parsed[path].ids:
                broken.append(f"{page.relative_to(root)}: {link} (no such id)")
    return broken
