"""A document read from the cache (corpus.StoredDocument) is the document as parsed: the same data,
and the same line for every value, though its lines are unpacked only when first asked for."""

from __future__ import annotations

from harness.cache import Cache
from harness.corpus import Corpus, StoredDocument
from tests.conftest import elves_case, paths_of


def test_a_document_from_the_cache_reads_as_the_parsed_one(corpus_builder, tmp_path) -> None:
    path = corpus_builder.write("demo/elves", elves_case())
    parsed = Corpus(corpus_builder.root, cache=Cache(tmp_path / "cache")).document(path)
    stored = Corpus(corpus_builder.root, cache=Cache(tmp_path / "cache")).document(path)
    assert isinstance(stored, StoredDocument) and not isinstance(parsed, StoredDocument)
    assert stored.data == parsed.data
    paths = list(paths_of(parsed.data)) + [("actions", 99), ("nowhere",)]
    assert len(paths) > 20
    assert [stored.line_of(p) for p in paths] == [parsed.line_of(p) for p in paths]
    assert stored.lines == parsed.lines
    stored.lines = None
    assert stored.line_of(["actions", 0]) == 1
