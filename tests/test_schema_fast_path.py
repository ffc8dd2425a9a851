"""The fast yes/no of the schemas (jsonschema-rs) against jsonschema: on every file of the corpus, on
protocol messages, and on thousands of broken variants of them, it must decide as jsonschema does (a
yes where jsonschema finds an error would let an invalid case run)."""

from __future__ import annotations

import copy
from typing import Any, Iterator

import pytest

from harness import schemas
from harness.protocol import run_command, start_command
from harness.wire import engine_case
from reference_engine.adapter import ReferenceEngine
from tests.conftest import REPO, paths_of

SCHEMA_NAMES = sorted(p.relative_to(REPO / "schema").as_posix().removesuffix(".json").removesuffix(".schema")
                      for p in (REPO / "schema").rglob("*.json"))
REPLACEMENTS = [None, -1, True, "", [], {"x": 1}]


def decide(name: str, instance: Any) -> tuple[bool, bool]:
    """(jsonschema-rs's answer, jsonschema's)."""
    return schemas.surely_valid(name, instance), schemas.validator(name).is_valid(instance)


def variants(instance: Any) -> Iterator[Any]:
    """The instance with one thing broken: a key removed or added, a value replaced by another kind."""
    def at(root: Any, path: tuple) -> Any:
        for step in path:
            root = root[step]
        return root

    for path in list(paths_of(instance)):
        if not path:
            continue
        for replacement in REPLACEMENTS:
            broken = copy.deepcopy(instance)
            at(broken, path[:-1])[path[-1]] = copy.deepcopy(replacement)
            yield broken
        broken = copy.deepcopy(instance)
        del at(broken, path[:-1])[path[-1]]
        yield broken
        parent = copy.deepcopy(instance)
        if isinstance(at(parent, path[:-1]), dict):
            at(parent, path[:-1])["unknown_key"] = 1
            yield parent


def corpus_instances(real_corpus) -> list[tuple[str, str, Any]]:
    out = [("rulings", "rulings.yaml", real_corpus.rulings_doc.data)]
    out += [("card", path.name, doc.data) for path, doc in real_corpus.card_docs.items()]
    out += [("case", case.id, case.doc.data) for case in real_corpus.iter_cases()]
    return out


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_every_schema_compiles(name: str) -> None:
    assert schemas.fast_validator(name) is not None


def test_the_corpus_is_valid_by_the_fast_check(real_corpus) -> None:
    for name, what, data in corpus_instances(real_corpus):
        assert decide(name, data) == (True, True), what


def test_protocol_messages_are_valid_by_the_fast_check(real_corpus) -> None:
    engine = ReferenceEngine()
    assert decide("protocol/start", start_command()) == (True, True)
    assert decide("protocol/start-reply", engine.start(start_command())) == (True, True)
    for seq, case in enumerate(real_corpus.iter_cases(), 1):
        message = engine_case(case, real_corpus)
        assert decide("protocol/run", run_command(seq, message)) == (True, True), case.id
        assert decide("protocol/run-reply", {"seq": seq, **engine.run(message)}) == (True, True), case.id


def test_broken_instances_are_decided_as_jsonschema_decides(real_corpus) -> None:
    cases = sorted(real_corpus.iter_cases(), key=lambda c: -len(str(c.doc.data)))
    samples = [("case", c.id, c.doc.data) for c in (cases[0], cases[len(cases) // 2])]
    samples.append(("rulings", "rulings.yaml", {"rulings": real_corpus.rulings_doc.data["rulings"][:2]}))
    samples.append(next((n, w, d) for n, w, d in corpus_instances(real_corpus) if n == "card"))
    reply = ReferenceEngine().run(engine_case(cases[-1], real_corpus))
    samples.append(("protocol/run-reply", "a reply", {"seq": 1, **reply}))
    outcomes = set()
    for name, what, data in samples:
        for broken in variants(data):
            fast, slow = decide(name, broken)
            outcomes.add(slow)
            assert fast == slow, f"{name} {what}: jsonschema-rs {fast}, jsonschema {slow}: {broken}"
    assert outcomes == {True, False}  # some variants are still valid (a value replaced by an allowed one)


def test_problems_of_an_invalid_case_still_come_from_jsonschema(corpus_builder) -> None:
    found = schemas.problems("case", {"id": "demo/x", "description": 3})
    assert found and all(p.message for p in found)
    assert any("description" in str(p.path) or "is required" in p.message for p in found)
