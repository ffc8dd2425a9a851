"""The example adapter of docs/adapters.md works as written, in process and over stdio."""

from __future__ import annotations

import importlib.util
import shlex
import sys

from engine_kit.protocol import Errored, Skipped
from harness.engines import InProcessSession
from harness.results import Status
from harness.runner import run_case
from harness.smoke import error_message, skip_message, smoke, trivial_case
from tests.conftest import REPO

EXAMPLE = REPO / "examples" / "lands_adapter.py"


def load_example():
    spec = importlib.util.spec_from_file_location("lands_adapter", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_is_short() -> None:
    assert len(EXAMPLE.read_text().splitlines()) < 60


def test_the_example_plays_skips_and_errs_in_process(real_corpus) -> None:
    session = InProcessSession("lands-example", load_example().LandsAdapter(), strict=True)
    assert session.info["name"] == "lands-example" and session.capabilities == set()
    assert run_case(trivial_case(), session, real_corpus).status is Status.PASS
    assert isinstance(session.run(skip_message(real_corpus)).message, Skipped)
    assert isinstance(session.run(error_message(real_corpus)).message, Errored)


def test_the_example_passes_the_smoke_test_over_stdio(real_corpus) -> None:
    spec = "cmd:" + shlex.join([sys.executable, str(EXAMPLE)])
    checks = smoke(spec, real_corpus, timeout=30, start_timeout=60, report=lambda check: None)
    assert [(c.name, c.outcome) for c in checks] == [
        ("handshake", "warn"),  # it declares no capabilities: the toy has none
        ("trivial case", "ok"), ("skip path", "ok"), ("error path", "ok"), ("stop", "ok")]
