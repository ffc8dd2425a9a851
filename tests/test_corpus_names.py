"""A corpus keeps its case files as names under the root, not as Paths (a run holds the list for its
whole length): the names, the paths and their order must be what pathlib would give, wherever the
root is, and a file read from the cache is read byte for byte."""

from __future__ import annotations

from pathlib import Path

from harness.cache import read_bytes
from harness.corpus import Corpus
from harness.validation import validate_corpus
from tests.conftest import elves_case


def test_names_and_paths_agree_and_sort_as_paths_do(corpus_builder) -> None:
    for case_id in ("demo/b", "demo/a-b/c", "demo/a/z", "demo/a0", "other/x"):
        corpus_builder.write(case_id, elves_case().replace("id: demo/elves", f"id: {case_id}"))
    corpus = Corpus(corpus_builder.root)
    paths = corpus.case_paths()
    assert paths == sorted(paths, key=lambda p: (p.relative_to(corpus.root).parts[0], p))
    assert corpus.case_names() == [p.relative_to(corpus.root).as_posix() for p in paths]
    assert [corpus.name_of(p) for p in paths] == corpus.case_names()
    assert corpus.case_names()[:4] == ["demo/a/z.yaml", "demo/a-b/c.yaml", "demo/a0.yaml", "demo/b.yaml"]


def test_a_corpus_rooted_at_the_working_directory_names_its_files(corpus_builder, monkeypatch) -> None:
    corpus_builder.write("demo/elves", elves_case())
    monkeypatch.chdir(corpus_builder.root)
    corpus = Corpus(Path("."))
    assert corpus.case_names() == ["demo/elves.yaml"]
    assert corpus.name_of(corpus.case_paths()[0]) == "demo/elves.yaml"
    report = validate_corpus(corpus)
    assert [case.id for case in report.valid_cases] == ["demo/elves"]


def test_read_bytes_reads_the_whole_file(tmp_path) -> None:
    data = bytes(range(256)) * 1000  # larger than one read
    (tmp_path / "f").write_bytes(data)
    (tmp_path / "empty").write_bytes(b"")
    assert read_bytes(tmp_path / "f") == data
    assert read_bytes(str(tmp_path / "empty")) == b""
