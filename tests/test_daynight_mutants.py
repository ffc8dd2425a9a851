"""Every day/night mutant makes some tovolar case fail, and every tovolar case fails under some
mutant: the corpus notices each of those rules being broken, and each case can fail."""

from __future__ import annotations

import pytest

from harness.engines import open_engine
from harness.results import Status
from harness.runner import run_case
from mutants.patching import MUTANTS

DAYNIGHT_MUTANTS = sorted(name for name, m in MUTANTS.items() if m.apply.__module__ == "mutants.daynight")


@pytest.fixture(scope="module")
def failures(real_corpus) -> dict[str, set[str]]:
    """For each day/night mutant, the tovolar cases that don't pass under it."""
    cases = [c for c in real_corpus.iter_cases() if getattr(c, "topic", None) == "tovolar"]
    assert cases
    found: dict[str, set[str]] = {}
    for name in DAYNIGHT_MUTANTS:
        session = open_engine(f"mutant:{name}")
        try:
            found[name] = {c.id for c in cases if run_case(c, session, real_corpus).status is not Status.PASS}
        finally:
            session.close()
    found["<all>"] = {c.id for c in cases}
    return found


@pytest.mark.parametrize("name", DAYNIGHT_MUTANTS)
def test_mutant_makes_a_tovolar_case_fail(failures, name: str) -> None:
    assert failures[name], f"no tovolar case notices the mutant {name}"


def test_every_tovolar_case_can_fail(failures) -> None:
    caught = set().union(*(ids for name, ids in failures.items() if name != "<all>"))
    assert failures["<all>"] - caught == set()
