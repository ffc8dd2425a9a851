"""Untrusted input can't reach outside the corpus (issue 23): `new` never writes outside it, links out
of it are refused without showing what they point to, the cache can't make an invalid case valid,
and the cache's folders are the user's alone."""

from __future__ import annotations

import os
import shutil
import stat

import pytest

from harness.cache import Cache
from harness.cli import main
from harness.corpus import Corpus
from harness.validation import validate_corpus
from tests.conftest import elves_case

SECRET = "secret-token-0123456789"


def test_new_refuses_a_ruling_id_that_leads_out_of_the_corpus(capsys, corpus_builder, tmp_path) -> None:
    rulings = corpus_builder.root / "rulings.yaml"
    rulings.write_text(rulings.read_text() + "- {id: ../escaped-01, text: Out of the corpus.}\n"
                       "- {id: /tmp/x/escaped-01, text: Out of the corpus.}\n")
    for ruling in ("../escaped-01", "/tmp/x/escaped-01"):
        assert main(["new", ruling, "--name", "escaped-01", "--cases", str(corpus_builder.root)]) == 2
        assert "not a folder name" in capsys.readouterr().err
    assert not list(tmp_path.rglob("escaped-01.yaml")) and not os.path.exists("/tmp/x/escaped-01.yaml")


@pytest.fixture
def outside(tmp_path):
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.yaml").write_text(f"id: {SECRET}\npassword: {SECRET}\n")
    return folder


@pytest.mark.parametrize("where", ["case", "topic", "card", "cards-folder", "rulings"])
def test_links_out_of_the_corpus_are_refused_without_showing_their_content(capsys, corpus_builder, outside,
                                                                           where) -> None:
    corpus_builder.write("demo/elves", elves_case())
    root = corpus_builder.root
    if where == "case":
        (root / "demo" / "linked.yaml").symlink_to(outside / "secret.yaml")
    elif where == "topic":
        (root / "linked").symlink_to(outside)
    elif where == "card":
        (root / "cards" / "linked.yaml").symlink_to(outside / "secret.yaml")
    elif where == "cards-folder":
        shutil.copytree(root / "cards", outside / "cards")
        (outside / "cards" / "secret.yaml").write_text(f"name: {SECRET}\n")
        shutil.rmtree(root / "cards")
        (root / "cards").symlink_to(outside / "cards")
    else:
        (root / "rulings.yaml").unlink()
        (root / "rulings.yaml").symlink_to(outside / "secret.yaml")
    code = main(["validate", "--cases", str(root), "--allow-uncovered"])
    captured = capsys.readouterr()
    assert code == 2
    assert SECRET not in captured.out + captured.err
    assert "symbolic link" in captured.err or "outside the corpus" in captured.err, captured.err
    assert main(["run", "--cases", str(root)]) == 2
    captured = capsys.readouterr()
    assert SECRET not in captured.out + captured.err


def test_a_link_inside_the_corpus_is_fine(corpus_builder) -> None:
    corpus_builder.write("demo/elves", elves_case())
    (corpus_builder.root / "demo" / "again.yaml").symlink_to(corpus_builder.root / "demo" / "elves.yaml")
    problems = [str(p) for p in validate_corpus(corpus_builder.corpus()).problems]
    assert not any("symbolic link" in p for p in problems), problems


def test_cache_folders_are_private(corpus_builder, tmp_path) -> None:
    corpus_builder.write("demo/elves", elves_case())
    cache = tmp_path / "cache"
    validate_corpus(Corpus(corpus_builder.root, cache=Cache(cache)))
    folders = [cache] + [p for p in cache.rglob("*") if p.is_dir()]
    assert len(folders) > 1
    for folder in folders:
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    for entry in (p for p in cache.rglob("*") if p.is_file()):
        assert stat.S_IMODE(entry.stat().st_mode) & 0o077 == 0, entry


def test_a_forged_cache_entry_never_makes_an_invalid_case_valid(corpus_builder, tmp_path) -> None:
    """Whoever can write the cache folder (a cache restored from elsewhere) can put any entry in it,
    with the right key: the harness must not believe it."""
    import marshal

    from harness import cache as cache_module

    valid = corpus_builder.write("demo/elves", elves_case())
    folder = tmp_path / "cache"
    first = Corpus(corpus_builder.root, cache=Cache(folder))
    validate_corpus(first)
    valid_raw = valid.read_bytes()
    own_keys = {cache_module.entry_key(valid_raw), cache_module.entry_key(valid_raw, first.context, b"demo/elves.yaml")}
    entries = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    valid.write_text(elves_case().replace("object: elves", "object: elfs"))  # now invalid
    invalid_problems = [str(p) for p in validate_corpus(Corpus(corpus_builder.root, cache=None or Cache(None))).problems]
    assert invalid_problems
    raw = valid.read_bytes()
    corpus = Corpus(corpus_builder.root, cache=Cache(folder))
    forged_keys = {"document": cache_module.entry_key(raw),
                   "validation": cache_module.entry_key(raw, corpus.context, b"demo/elves.yaml")}
    forged_kinds = set()
    for path, stored in entries.items():  # the valid file's stored values, under the keys of the invalid file
        kind = path.relative_to(folder).parts[1]
        for start in (cache_module.MAC_BYTES, 0):  # the current format first: read at the wrong offset, a MAC can look like a huge length
            try:
                key, value = marshal.loads(stored[start:])
                break
            except Exception:
                continue
        else:
            continue
        if key not in own_keys:
            continue  # an entry of a card or rulings file: replaying it for the case proves nothing more
        forged_kinds.add(kind)
        forged = marshal.dumps((forged_keys[kind], value))
        path.write_bytes(forged)  # as the old format did: no authentication
        assert [str(p) for p in validate_corpus(Corpus(corpus_builder.root, cache=Cache(folder))).problems] == invalid_problems
        path.write_bytes(stored[:cache_module.MAC_BYTES] + forged)  # an authentication copied from a real entry
        assert [str(p) for p in validate_corpus(Corpus(corpus_builder.root, cache=Cache(folder))).problems] == invalid_problems
    assert forged_kinds == set(forged_keys), f"the valid case's cache entries weren't all found: {forged_kinds}"


def test_the_cache_key_is_kept_outside_the_cache_folder(corpus_builder, tmp_path) -> None:
    corpus_builder.write("demo/elves", elves_case())
    folder = tmp_path / "cache"
    validate_corpus(Corpus(corpus_builder.root, cache=Cache(folder)))
    key = tmp_path / "cache.key"
    assert key.exists() and stat.S_IMODE(key.stat().st_mode) == 0o600
    assert not any(p.read_bytes() == key.read_bytes() for p in folder.rglob("*") if p.is_file())
