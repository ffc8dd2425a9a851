"""What a report says about where its results come from: the corpus version (a hash of the corpus's
files), the harness version and the date. `merge` refuses to join reports whose corpus differs, and
the site shows which corpus and harness each column was measured on."""

from __future__ import annotations

import hashlib
from datetime import datetime, timezone
from typing import Any

from harness import __version__
from harness.corpus import Corpus

HARNESS_NAME = "mtg-conformance"


def corpus_version(corpus: Corpus) -> str:
    """A hash of every file of the corpus (rulings.yaml, cards/, the case files), by path and bytes:
    two runs with the same version ran the same cases on the same card data."""
    h = hashlib.sha256()
    support = {corpus.name_of(path): raw for path, raw in corpus.support_files.items()}
    for name_text in sorted([*support, *corpus.case_names()]):
        name = name_text.encode()
        raw = support[name_text] if name_text in support else (corpus.root / name_text).read_bytes()
        h.update(len(name).to_bytes(8, "little") + name + len(raw).to_bytes(8, "little") + raw)
    return h.hexdigest()[:16]


def provenance(corpus: Corpus, case_count: int) -> dict[str, Any]:
    """The report keys that say what was run, by what, when."""
    return {
        "harness": {"name": HARNESS_NAME, "version": __version__},
        "corpus": {"version": corpus_version(corpus), "cases": case_count},
        "date": datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z"),
    }
