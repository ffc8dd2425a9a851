"""Relevance between a mutant's rules and a case's rules (harness/killmatrix.py)."""

from __future__ import annotations

from harness.killmatrix import parent, related, relevant


def test_parent_drops_the_letter_then_the_number() -> None:
    assert parent("601.2g") == "601.2"
    assert parent("601.2") == "601"
    assert parent("601") is None
    assert parent("702.145d") == "702.145"


def test_related_rules_are_equal_or_parent_and_child() -> None:
    assert related("601.2g", "601.2g")
    assert related("601.2g", "601.2") and related("601.2", "601.2g")
    assert related("601.2", "601")
    assert not related("601.2g", "601.2h")  # siblings are different rules
    assert not related("601.2g", "601")  # a grandparent is too broad
    assert not related("704.5f", "704.5g")


def test_a_mutant_is_relevant_when_one_rule_is_related() -> None:
    assert relevant(["107.3a", "602.2b"], ["115.1", "602.2"])
    assert not relevant(["704.5f"], ["107.3m", "107.3"])


def test_running_only_reachable_cases_gives_the_exhaustive_matrix(monkeypatch) -> None:
    """A mutant skips the cases that never call what it replaces (mutants/reach.py), and a reply equal to
    the reference engine's is judged as that one was: the matrix must be the one running and judging
    every case on every mutant gives."""
    from harness import killmatrix
    from harness.corpus import Corpus
    from harness.killmatrix import compute
    from harness.validation import validate_corpus
    from tests.conftest import REAL_CORPUS

    corpus = Corpus(REAL_CORPUS)
    cases = validate_corpus(corpus).valid_cases
    topics = {}
    for case in cases:  # one case of each topic, so many rules are exercised
        topics.setdefault(case.topic, case)
    sample = list(topics.values())
    selective = compute(sample, corpus)  # in two processes where there are two cores, as CI has
    monkeypatch.setattr(killmatrix, "_reference_replies", lambda work: None)  # every reply judged
    exhaustive = compute(sample, corpus, exhaustive=True)
    assert selective.as_json() == exhaustive.as_json()
    assert selective.null_caught == exhaustive.null_caught


def test_a_run_that_never_ends_is_cut_off_and_the_timer_cleared() -> None:
    """An in-process mutant can loop forever (state-based actions that never settle): the matrix cuts
    the case off at the deadline and counts it caught, as a run counts a timeout, instead of hanging."""
    import signal
    import time

    import pytest

    from harness.killmatrix import _deadline, _Overrun

    if not hasattr(signal, "setitimer"):
        pytest.skip("no SIGALRM here: the matrix runs cases unbounded")
    with pytest.raises(_Overrun):
        with _deadline(0.05):
            while True:
                pass
    with _deadline(0.05):
        pass
    time.sleep(0.1)  # a timer left running would interrupt this sleep
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
