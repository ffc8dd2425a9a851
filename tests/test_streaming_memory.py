"""A run streaming its results (keep=False, as `mtg-conformance run` does) keeps no case's document
once the case is judged: memory grows by what identifies a case, not by its whole document."""

from __future__ import annotations

from harness.corpus import Corpus
from harness.engines import open_engine
from harness.scheduling import play
from harness.validation import validate_corpus
from tests.conftest import REAL_CORPUS


def test_a_streaming_run_releases_each_document_and_a_released_case_reads_it_again() -> None:
    corpus = Corpus(REAL_CORPUS)
    cases = validate_corpus(corpus).valid_cases[:20]
    session = open_engine("reference")
    try:
        seen = []
        play(cases, [session], corpus, seen.append, keep=False)
    finally:
        session.close()
    assert [r.status.value for r in seen] == ["pass"] * len(cases)
    assert not any(case.loaded for case in cases)
    first = cases[0]
    assert first.id and first.data["id"] == first.id  # read again when asked for
    assert first.loaded


def test_a_run_keeping_its_results_keeps_the_documents() -> None:
    corpus = Corpus(REAL_CORPUS)
    cases = validate_corpus(corpus).valid_cases[:3]
    for case in cases:
        case.data  # noqa: B018 (loads it)
    session = open_engine("reference")
    try:
        results = play(cases, [session], corpus, lambda result: None)
    finally:
        session.close()
    assert len(results) == 3 and all(case.loaded for case in cases)


def test_without_a_cache_documents_are_kept_rather_than_parsed_again() -> None:
    from harness.cache import Cache

    corpus = Corpus(REAL_CORPUS, cache=Cache(None))
    cases = validate_corpus(corpus).valid_cases[:3]
    assert all(case.loaded for case in cases)  # validated, and kept: there is nowhere to read them from again
    session = open_engine("reference")
    try:
        play(cases, [session], corpus, lambda result: None, keep=False)
    finally:
        session.close()
    assert all(case.loaded for case in cases)
