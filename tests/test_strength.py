"""Corpus strength: every case fails on an engine that applies no rules and on at least one rule
mutant that breaks a rule the case cites (harness/killmatrix.py says when a mutant is relevant),
every mutant is caught by at least one case, and no mutant breaks the engine instead of a rule (an
error, a crash or a hang proves nothing). A green run then means something.

The matrix is the one `mtg-conformance prove --all` prints, computed once for the module."""

from __future__ import annotations

import pytest

from harness.corpus import Corpus
from harness.killmatrix import KillMatrix, compute, mutants
from harness.validation import validate_corpus
from tests.conftest import REAL_CORPUS

CORPUS = Corpus(REAL_CORPUS)
CASES = validate_corpus(CORPUS).valid_cases
CASE_IDS = [case.id for case in CASES]
MUTANTS = list(mutants())


@pytest.fixture(scope="module")
def matrix() -> KillMatrix:
    return compute(CASES, CORPUS)


@pytest.mark.parametrize("case_id", CASE_IDS)
def test_case_fails_on_the_null_engine(matrix, case_id: str) -> None:
    assert matrix.null_caught[case_id], (f"{case_id} passes on an engine that applies no rules: "
                                         f"it asserts nothing that depends on the rules")


@pytest.mark.parametrize("case_id", CASE_IDS)
def test_case_is_caught_by_a_relevant_mutant(matrix, case_id: str) -> None:
    assert matrix.relevant_killers(case_id), (
        f"no mutant breaking a rule {case_id} cites ({', '.join(matrix.case_rules[case_id])}) makes it fail "
        f"(killed only by: {', '.join(matrix.killed_by(case_id)) or 'none'}): check that it depends on the rules "
        f"it cites, or add a mutant breaking one of them (mutants/); see `mtg-conformance prove {case_id}`")


@pytest.mark.parametrize("mutant", MUTANTS)
def test_mutant_is_caught_by_a_case(matrix, mutant: str) -> None:
    assert matrix.kills[mutant], f"no case fails when the rule broken by mutant {mutant!r} is broken: the corpus has a gap"


@pytest.mark.parametrize("mutant", MUTANTS)
def test_mutant_breaks_a_rule_not_the_engine(matrix, mutant: str) -> None:
    faults = matrix.faults[mutant]
    assert not faults, (f"under mutant {mutant!r} the engine errs, crashes or hangs on {len(faults)} case(s) "
                        f"({', '.join(faults[:5])}): such a run catches a case for the wrong reason. Fix the mutant "
                        f"(often a wrapper out of step with the function it wraps); see "
                        f"`mtg-conformance run --engine mutant:{mutant} -k {faults[0]}`")
