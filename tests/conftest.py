"""Fixtures: small corpora written in a temporary folder, sharing the real rulings and cards."""

from __future__ import annotations

import atexit
import importlib.util
import os
import shutil
import tempfile
import textwrap
from pathlib import Path

import pytest

from harness.corpus import Corpus

REPO = Path(__file__).resolve().parent.parent
REAL_CORPUS = REPO / "cases"

pytest_plugins = ["pytester", "tests.site_support"]

# The suite reads and writes the harness's cache (harness/cache.py) in a folder of its own, never the
# user's; commands run in subprocesses inherit it.
_CACHE = tempfile.mkdtemp(prefix="mtg-conformance-test-cache-")
atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)
atexit.register(lambda: os.path.exists(_CACHE + ".key") and os.remove(_CACHE + ".key"))  # its key, beside it
os.environ["MTG_CONFORMANCE_CACHE"] = _CACHE


class CorpusBuilder:
    """A corpus in tmp_path: the real rulings.yaml and cards/, plus the case files a test writes."""

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        shutil.copy(REAL_CORPUS / "rulings.yaml", root / "rulings.yaml")
        shutil.copytree(REAL_CORPUS / "cards", root / "cards")

    def write(self, case_id: str, text: str) -> Path:
        path = self.root / f"{case_id}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return path

    def corpus(self) -> Corpus:
        return Corpus(self.root)


@pytest.fixture
def corpus_builder(tmp_path: Path) -> CorpusBuilder:
    return CorpusBuilder(tmp_path / "cases")


@pytest.fixture
def full_corpus_builder(tmp_path: Path) -> CorpusBuilder:
    """A copy of the whole real corpus, to add a case to (every ruling stays covered)."""
    builder = CorpusBuilder(tmp_path / "cases")
    for topic in REAL_CORPUS.iterdir():
        if topic.is_dir() and topic.name != "cards":
            shutil.copytree(topic, builder.root / topic.name)
    return builder


@pytest.fixture(scope="session")
def real_corpus() -> Corpus:
    return Corpus(REAL_CORPUS)


#: A small valid case used by several tests; {ELVES_SICK} toggles whether it should pass.
ELVES_CASE = """
id: demo/elves
description: Llanowar Elves that arrived this turn can't pay {T}.
rulings: [general-07]
rules: ["302.6"]
requires: [mana-abilities]
setup:
  players:
    alice:
      battlefield:
        - {card: Llanowar Elves, label: elves, summoning_sick: SICK}
    bob: {}
actions:
  - activate: {object: elves, ability: 0}
    expect:
      rejected: true
expect:
  objects:
    elves: {tapped: false}
"""


def paths_of(data, path=()):
    """Every path in `data` (the key or index of each step), the empty path first."""
    yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from paths_of(value, path + (key,))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from paths_of(value, path + (index,))


def elves_case(sick: bool = True) -> str:
    return ELVES_CASE.replace("SICK", "true" if sick else "false")


# Seven {T}/{Q} cases of the real corpus, named one by one so that a case added to the corpus later
# does not change what the harness tests run: their order is the corpus order.
TAP_CASES = ("general/tap-ability-already-tapped", "general/tap-ability-controlled-since-turn-began",
             "general/tap-ability-noncreature-ignores-summoning-sickness", "general/tap-ability-summoning-sick",
             "general/untap-ability-needs-tapped-permanent", "general/untap-ability-returns-creature",
             "general/untap-ability-summoning-sick")


def select(case_ids) -> list[str]:
    """`run` arguments choosing exactly these cases."""
    return [arg for case_id in case_ids for arg in ("-k", case_id)]


def started(engine):
    """An in-process adapter after the protocol's start handshake, as the harness leaves it."""
    engine.start({"cmd": "start", "version": 1})
    return engine


def corpus_card(name: str) -> dict:
    """A card's Oracle data as the real corpus has it (what a case sends an engine)."""
    return Corpus(REAL_CORPUS).card(name).data


def tool(name: str):
    """A script of tools/ (not a package) loaded as a module, to test its functions."""
    spec = importlib.util.spec_from_file_location(name, REPO / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FAKE_ENGINE = REPO / "tests" / "fake_engine.py"


def fake_engine(mode: str, marker: str = "", argument: str = "") -> str:
    """--engine for tests/fake_engine.py: the reference engine over stdio, misbehaving as `mode` on the
    cases whose id contains `marker`."""
    import shlex
    import sys

    return "cmd:" + shlex.join([sys.executable, str(FAKE_ENGINE), mode, marker or "\x01", argument])


def wire_engine(*module_args: str) -> str:
    """--engine for `python -m <module args>` with this interpreter."""
    import shlex
    import sys

    return "cmd:" + shlex.join([sys.executable, "-m", *module_args])


def comparable(report: dict) -> dict:
    """A JSON report without what may differ between two runs with equal results (durations, the
    date, the run's options)."""
    out = {k: v for k, v in report.items() if k not in ("date", "run")}
    out["cases"] = [{k: v for k, v in case.items() if k != "duration"} for case in report["cases"]]
    return out


#: Set by .ci/run: an optional engine that doesn't import is then a failure, not a skip.
REQUIRE_ENGINES = "MTG_REQUIRE_ENGINES"


def engine_module(module: str, extra: str):
    """Import a third-party engine's module for its adapter tests, or skip them when its extra is not
    installed; with MTG_REQUIRE_ENGINES set (as in CI), a missing engine fails instead of skipping."""
    import importlib
    import os

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        message = f"{module} is not importable ({exc}); install it with: pip install -e '.[{extra}]'"
        if os.environ.get(REQUIRE_ENGINES):
            pytest.fail(f"{message} ({REQUIRE_ENGINES} is set, so this fails instead of skipping)", pytrace=False)
        pytest.skip(message)


TEST_CARDS = REPO / "tests" / "data" / "cards"


@pytest.fixture
def adapter_corpus(corpus_builder: CorpusBuilder) -> CorpusBuilder:
    """A corpus for adapter tests: the real cards plus a few only the tests use (tests/data/cards)."""
    for path in TEST_CARDS.glob("*.yaml"):
        shutil.copy(path, corpus_builder.root / "cards" / path.name)
    return corpus_builder


class Played:
    """An engine's reply to one case, with helpers to read its observations."""

    def __init__(self, reply: dict) -> None:
        self.reply = reply

    @property
    def result(self) -> dict:
        assert "result" in self.reply, self.reply
        return self.reply["result"]

    @property
    def statuses(self) -> list[str]:
        return [a["status"] for a in self.result["actions"]]

    def reason(self, index: int) -> str:
        return self.result["actions"][index].get("reason", "")

    def state(self, after: int) -> dict:
        return next(o["state"] for o in self.result["observations"] if o["after"] == after)

    def obj(self, label: str, after: int = -2) -> dict:
        after = after if after != -2 else self.result["observations"][-1]["after"]
        return next(o for o in self.state(after)["objects"] if o.get("label") == label)


def play(adapter, builder: CorpusBuilder, text: str) -> Played:
    """Write a case (its expect blocks only set the checkpoints) and run it on an adapter directly."""
    from harness.wire import engine_case

    case_text = textwrap.dedent(text).lstrip("\n")
    case_id = next(line.split(":", 1)[1].strip() for line in case_text.splitlines() if line.startswith("id:"))
    builder.write(case_id, case_text)
    corpus = builder.corpus()
    case = corpus.load_case(builder.root / f"{case_id}.yaml")
    return Played(adapter.run(engine_case(case, corpus)))
