"""Corpus strength: every case fails on an engine that applies no rules and on at least one rule
mutant, and every mutant is caught by at least one case. A green run then means something."""

from __future__ import annotations

import pytest

from harness.cli.prove import CAUGHT, mutant_names
from harness.engines import open_engine
from harness.runner import run_case
from harness.validation import validate_corpus
from tests.conftest import REAL_CORPUS
from harness.corpus import Corpus

CORPUS = Corpus(REAL_CORPUS)
CASES = validate_corpus(CORPUS).valid_cases
CASE_IDS = [case.id for case in CASES]
MUTANTS = list(mutant_names())


@pytest.fixture(scope="module")
def outcomes() -> dict[str, dict[str, object]]:
    """engine spec -> case id -> status, for the null engine and every mutant."""
    table: dict[str, dict[str, object]] = {}
    for spec in ["null"] + [f"mutant:{name}" for name in MUTANTS]:
        session = open_engine(spec)
        try:
            table[spec] = {case.id: run_case(case, session, CORPUS).status for case in CASES}
        finally:
            session.close()
    return table


@pytest.mark.parametrize("case_id", CASE_IDS)
def test_case_fails_on_the_null_engine(outcomes, case_id: str) -> None:
    status = outcomes["null"][case_id]
    assert status in CAUGHT, (f"{case_id} passes on an engine that applies no rules ({status}): "
                              f"it asserts nothing that depends on the rules")


@pytest.mark.parametrize("case_id", CASE_IDS)
def test_case_is_caught_by_a_mutant(outcomes, case_id: str) -> None:
    caught = [spec for spec, results in outcomes.items() if spec != "null" and results[case_id] in CAUGHT]
    assert caught, (f"no rule mutant makes {case_id} fail: check that it depends on the rule it cites, "
                    f"or add a mutant breaking that rule (mutants/); see `mtg-conformance prove {case_id}`")


@pytest.mark.parametrize("mutant", MUTANTS)
def test_mutant_is_caught_by_a_case(outcomes, mutant: str) -> None:
    caught = [case_id for case_id, status in outcomes[f"mutant:{mutant}"].items() if status in CAUGHT]
    assert caught, f"no case fails when the rule broken by mutant {mutant!r} is broken: the corpus has a gap"
