"""The cache of read and validated files (harness/cache.py): a run on an unchanged corpus doesn't read
its cases again, and any change to a case, a card or the rulings is seen as if there were no cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness import yamlio
from harness.cache import CACHE_VARIABLE, Cache
from harness.cli import main
from harness.corpus import Corpus
from harness.validation import validate_corpus
from tests.conftest import elves_case

UNKNOWN_LABEL = elves_case(sick=False).replace("activate: {object: elves", "activate: {object: elfs")


def report(root: Path, cache: Path | None) -> tuple[list[str], list[str]]:
    """(problems, valid case ids) of a fresh corpus object reading through `cache` (None: no cache)."""
    validated = validate_corpus(Corpus(root, cache=Cache(cache)))
    return [str(p) for p in validated.problems], [c.id for c in validated.valid_cases]


@pytest.fixture
def parses(monkeypatch) -> list[str]:
    """The files parsed from now on (cache hits are not parsed)."""
    seen: list[str] = []
    real = yamlio.load_text

    def counting(text: str, path: Path):
        seen.append(path.name)
        return real(text, path)
    monkeypatch.setattr(yamlio, "load_text", counting)
    return seen


def test_an_unchanged_corpus_is_not_read_again(corpus_builder, tmp_path, parses) -> None:
    corpus_builder.write("demo/elves", elves_case())
    corpus_builder.write("demo/bad", UNKNOWN_LABEL.replace("demo/elves", "demo/bad"))
    first = report(corpus_builder.root, tmp_path / "cache")
    assert "elves.yaml" in parses and "bad.yaml" in parses
    parses.clear()
    assert report(corpus_builder.root, tmp_path / "cache") == first
    assert parses == []
    assert report(corpus_builder.root, None) == first  # the same as without the cache
    assert first[1] == ["demo/elves"] and "undefined label 'elfs'" in first[0][0]


def test_a_changed_case_is_validated_again(corpus_builder, tmp_path, parses) -> None:
    path = corpus_builder.write("demo/elves", elves_case())
    assert report(corpus_builder.root, tmp_path / "cache") == ([], ["demo/elves"])
    path.write_text(UNKNOWN_LABEL, encoding="utf-8")
    parses.clear()
    problems, valid = report(corpus_builder.root, tmp_path / "cache")
    assert parses == ["elves.yaml"] and valid == [] and "undefined label 'elfs'" in problems[0]


def test_a_changed_card_or_ruling_validates_every_case_again(corpus_builder, tmp_path) -> None:
    corpus_builder.write("demo/elves", elves_case())
    assert report(corpus_builder.root, tmp_path / "cache") == ([], ["demo/elves"])
    card = corpus_builder.root / "cards" / "llanowar-elves.yaml"
    card.rename(card.with_name("llanowar-elves.yaml.removed"))
    problems, valid = report(corpus_builder.root, tmp_path / "cache")
    assert valid == [] and "unknown card 'Llanowar Elves'" in problems[0]
    card.with_name("llanowar-elves.yaml.removed").rename(card)
    assert report(corpus_builder.root, tmp_path / "cache") == ([], ["demo/elves"])
    rulings = corpus_builder.root / "rulings.yaml"
    rulings.write_text(rulings.read_text(encoding="utf-8").replace("id: general-07", "id: general-77"), encoding="utf-8")
    problems, valid = report(corpus_builder.root, tmp_path / "cache")
    assert valid == [] and "unknown ruling id 'general-07'" in problems[0]


def test_a_damaged_or_unwritable_cache_is_not_used(corpus_builder, tmp_path) -> None:
    corpus_builder.write("demo/elves", elves_case())
    cache = tmp_path / "cache"
    expected = report(corpus_builder.root, cache)
    for entry in (p for p in cache.rglob("*") if p.is_file()):
        entry.write_bytes(entry.read_bytes()[:7])
    assert report(corpus_builder.root, cache) == expected
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder would be")
    assert report(corpus_builder.root, blocked) == expected


def test_the_command_uses_the_cache_of_the_environment(corpus_builder, tmp_path, monkeypatch, capsys) -> None:
    corpus_builder.write("demo/elves", elves_case(sick=False))
    monkeypatch.setenv(CACHE_VARIABLE, "off")
    assert main(["run", "--cases", str(corpus_builder.root)]) == 1
    monkeypatch.setenv(CACHE_VARIABLE, str(tmp_path / "cache"))
    assert main(["run", "--cases", str(corpus_builder.root)]) == 1
    assert main(["run", "--cases", str(corpus_builder.root)]) == 1
    output = capsys.readouterr().out
    assert output.count("FAIL demo/elves  (cases/demo/elves.yaml:1)") == 3
    assert any((tmp_path / "cache").rglob("*"))


def test_a_run_parses_each_case_file_once(corpus_builder, monkeypatch) -> None:
    from harness import corpus as corpus_module
    from harness.engines import open_engine
    from harness.scheduling import play

    parsed: list[str] = []
    load_bytes = corpus_module.load_bytes
    monkeypatch.setattr(corpus_module, "load_bytes", lambda raw, path: parsed.append(path.name) or load_bytes(raw, path))
    corpus_builder.write("demo/elves", elves_case())
    corpus = Corpus(corpus_builder.root, cache=Cache(None))  # no cache: every read is a parse
    cases = validate_corpus(corpus).valid_cases
    results = play(cases, [open_engine("reference")], corpus, lambda result: None)
    assert [r.status.value for r in results] == ["pass"]
    assert parsed.count("elves.yaml") == 1
