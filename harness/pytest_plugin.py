"""pytest plugin: each case file of the corpus becomes one test item, run against an engine.

Active only where a corpus is configured: `--mtg-cases DIR` on the command line or `mtg_corpus`
in the ini file (this repository sets `mtg_corpus = "cases"`). Choose the engine with
`--mtg-engine NAME` (default: reference).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.corpus import NOT_CASES, Corpus
from harness.engines import open_engine
from harness.report import describe
from harness.results import Status
from harness.runner import run_case
from harness.session import EngineError, EngineSession
from harness.validation import validate_case
from harness.yamlio import YamlError

_CORPUS = pytest.StashKey[Corpus]()
_SESSION = pytest.StashKey[EngineSession]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mtg-conformance")
    group.addoption("--mtg-engine", default="reference", metavar="ENGINE",
                    help="engine to run the corpus against: a registered name or 'cmd:<command line>'")
    group.addoption("--mtg-cases", default=None, metavar="DIR", help="corpus directory to collect cases from")
    parser.addini("mtg_corpus", "corpus directory (relative to the rootdir) whose cases are collected", default="")


def _corpus_root(config: pytest.Config) -> Path | None:
    option = config.getoption("--mtg-cases")
    if option:
        return Path(option).resolve()
    ini = config.getini("mtg_corpus")
    return (config.rootpath / ini).resolve() if ini else None


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "mtg(capability): a capability the conformance case requires")
    root = _corpus_root(config)
    if root is not None and (root / "rulings.yaml").is_file():
        config.stash[_CORPUS] = Corpus(root)


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    corpus = parent.config.stash.get(_CORPUS, None)
    if corpus is None or file_path.suffix != ".yaml" or file_path.name == "rulings.yaml":
        return None
    try:
        relative = file_path.resolve().relative_to(corpus.root)
    except ValueError:
        return None
    if relative.parts[0] in NOT_CASES or len(relative.parts) < 2:
        return None
    return CaseFile.from_parent(parent, path=file_path)


def pytest_unconfigure(config: pytest.Config) -> None:
    session = config.stash.get(_SESSION, None)
    if session is not None:
        session.close()


class CaseFailure(Exception):
    """A case that did not pass; its report is the plain lines of the harness, not a traceback."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


class CaseFile(pytest.File):
    def collect(self):
        corpus: Corpus = self.config.stash[_CORPUS]
        try:
            case = corpus.load_case(self.path)
        except YamlError as exc:
            yield CaseItem.from_parent(self, name=self.path.stem, case=None, problems=[str(exc)])
            return
        problems = [str(p) for p in validate_case(case, corpus)]
        yield CaseItem.from_parent(self, name=case.id, case=case, problems=problems)


class CaseItem(pytest.Item):
    def __init__(self, *, case, problems: list[str], **kwargs) -> None:
        super().__init__(**kwargs)
        self.case = case
        self.problems = problems
        for tag in case.requires if case is not None else []:
            self.add_marker(pytest.mark.mtg(tag))

    def _session(self) -> EngineSession:
        config = self.config
        session = config.stash.get(_SESSION, None)
        if session is None:
            try:
                session = open_engine(config.getoption("--mtg-engine"))
            except EngineError as exc:
                raise pytest.UsageError(str(exc)) from exc
            config.stash[_SESSION] = session
        return session

    def runtest(self) -> None:
        if self.problems:
            raise CaseFailure(["invalid case:"] + [f"  {p}" for p in self.problems])
        corpus: Corpus = self.config.stash[_CORPUS]
        result = run_case(self.case, self._session(), corpus)
        if result.status is Status.SKIP:
            pytest.skip(result.message)
        if result.status is not Status.PASS:
            raise CaseFailure(describe(result, corpus))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CaseFailure):
            return "\n".join(excinfo.value.lines)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        line = self.case.line_of(["id"]) - 1 if self.case is not None else 0
        return self.path, line, f"case {self.name}"


@pytest.hookimpl
def pytest_report_header(config: pytest.Config) -> str | None:
    corpus = config.stash.get(_CORPUS, None)
    if corpus is None:
        return None
    return f"mtg-conformance: corpus {corpus.root}, engine {config.getoption('--mtg-engine')}"
