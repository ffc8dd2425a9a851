"""The engine kit: its import rule, and its messages and vocabulary against the schemas."""

from __future__ import annotations

import ast
import dataclasses
import json
import sys
from pathlib import Path

import pytest

from engine_kit import protocol, vocabulary
from engine_kit.protocol import (ActionOutcome, Case, EngineInfo, Errored, MessageError, Observation, Result, Run,
                                 Skipped, Start, Started, reply_from_json, reply_to_json)
from harness import schemas
from tests.conftest import REPO

PACKAGES = ("engine_kit", "harness", "reference_engine", "engine_adapters", "mutants")
#: package -> the packages of ours it must never import
FORBIDDEN = {
    "engine_kit": {"harness", "reference_engine", "engine_adapters", "mutants"},
    "harness": {"reference_engine", "engine_adapters", "mutants"},
    "reference_engine": {"harness", "engine_adapters", "mutants"},
    "engine_adapters": {"harness", "reference_engine", "mutants"},
}


def imported_modules(package: str, root: Path = REPO) -> list[tuple[Path, int, str]]:
    """(file, line, module) of every import in a package, at any depth (imports inside functions too)."""
    found = []
    for path in sorted((root / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                found.extend((path, node.lineno, alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.append((path, node.lineno, node.module))
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_packages_import_only_what_the_architecture_allows(package: str) -> None:
    wrong = [f"{path.relative_to(REPO)}:{line}: {module}" for path, line, module in imported_modules(package)
             if module.split(".")[0] in FORBIDDEN[package]]
    assert not wrong, "imports that break the architecture (DEVELOPERS.md):\n" + "\n".join(wrong)


def test_the_kit_needs_only_the_standard_library() -> None:
    outside = [f"{path.relative_to(REPO)}:{line}: {module}" for path, line, module in imported_modules("engine_kit")
               if module.split(".")[0] not in sys.stdlib_module_names and module.split(".")[0] != "engine_kit"]
    assert not outside


def test_the_import_rule_sees_imports_inside_functions(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text("import json\ndef f():\n    from harness import cli\n"
                                           "    import reference_engine.game\n")
    assert [(line, module) for _, line, module in imported_modules("pkg", tmp_path)] == [
        (1, "json"), (3, "harness"), (4, "reference_engine.game")]


# --- messages against schema/protocol/ ------------------------------------------------------------------
def schema(name: str) -> dict:
    return json.loads((REPO / "schema" / "protocol" / f"{name}.json").read_text())


def fields(cls: type) -> set[str]:
    return {f.name for f in dataclasses.fields(cls)}


def test_each_message_class_has_its_schemas_fields() -> None:
    run, start, started, reply = schema("run"), schema("start"), schema("start-reply"), schema("run-reply")
    assert fields(Start) | {"cmd"} == set(start["properties"])
    assert fields(Run) | {"cmd"} == set(run["properties"])
    assert fields(Case) == set(run["properties"]["case"]["properties"])
    assert fields(Started) == set(started["properties"])
    assert fields(EngineInfo) == set(started["properties"]["engine"]["properties"])
    assert fields(Result) == set(reply["properties"]["result"]["properties"])
    assert fields(Skipped) == set(reply["properties"]["skipped"]["properties"])
    assert fields(Errored) == set(reply["properties"]["errored"]["properties"])
    assert fields(ActionOutcome) == set(reply["$defs"]["action_result"]["properties"])
    assert fields(Observation) == set(reply["$defs"]["observation"]["properties"])
    assert set(protocol.REPLY_KINDS) == set(reply["properties"]) - {"seq"}
    assert protocol.PROTOCOL_VERSION == 1


REPLIES = [
    Result((ActionOutcome(), ActionOutcome("rejected", "no priority")),
           (Observation(-1, {"game": {"turn": 2}}), Observation(1, {"players": {}, "objects": []}))),
    Skipped("no day/night", "https://example.org/issues/1"),
    Skipped("no day/night"),
    Errored("it broke", {"action": 0, "traceback": "..."}),
    Errored("it broke"),
]


@pytest.mark.parametrize("reply", REPLIES, ids=lambda r: r.kind)
def test_replies_are_valid_json_and_read_back_the_same(reply) -> None:
    data = reply_to_json(reply, seq=3)
    assert schemas.problems("protocol/run-reply", data) == []
    assert reply_from_json(json.loads(json.dumps(data))) == reply


def test_commands_and_the_start_reply_read_back_the_same() -> None:
    started = Started(EngineInfo("e", "1", issues="https://example.org", details={"x": 1}), ("stack",))
    assert schemas.problems("protocol/start-reply", started.to_json()) == []
    assert Started.from_json(started.to_json()) == started
    assert Start.from_json(Start().to_json()) == Start()
    run = Run(7, Case("t/x", {"players": {"a": {}, "b": {}}}, ({"pass": True},), (0,), {}))
    assert schemas.problems("protocol/run", run.to_json()) == []
    assert Run.from_json(run.to_json()) == run


@pytest.mark.parametrize("data, message", [
    ({"result": {"actions": []}}, "the result has no 'observations'"),
    ({"skipped": {"reason": 3}}, "skipped.reason is int, not a string"),
    ({"skipped": {"reason": "x"}, "errored": {"message": "y"}}, "the reply has skipped and errored"),
    ({"result": {"actions": [{"status": "okay"}], "observations": []}}, "status is 'okay'"),
    ([], "the reply is not an object"),
])
def test_a_malformed_reply_says_which_field(data, message) -> None:
    with pytest.raises(MessageError, match=message):
        reply_from_json(data)


# --- the vocabulary against schema/case.schema.json ---------------------------------------------------------
def test_the_vocabulary_is_the_case_schemas() -> None:
    defs = json.loads((REPO / "schema" / "case.schema.json").read_text())["$defs"]
    assert list(vocabulary.CAPABILITIES) == defs["capability"]["enum"]
    assert list(vocabulary.STEPS) == defs["step"]["enum"]
    assert list(vocabulary.ZONES) == defs["zone"]["enum"]
    assert set(vocabulary.ACTION_VERBS) | set(vocabulary.ACTION_MODIFIERS) == set(defs["action"]["properties"])
    assert set(vocabulary.SETUP_DEFAULTS) < set(defs["setup"]["properties"])
    assert set(vocabulary.PLAYER_DEFAULTS) | set(vocabulary.PLAYER_ZONES) == set(defs["player_setup"]["properties"])


def test_verb_of_names_the_one_verb() -> None:
    assert vocabulary.verb_of({"by": "bob", "cast": "bolt", "note": "x"}) == "cast"
    with pytest.raises(ValueError, match="no verb"):
        vocabulary.verb_of({"by": "bob"})


# --- value_class: frozen dataclasses made cheaply --------------------------------------------------
def test_value_class_is_the_frozen_dataclass_it_declares() -> None:
    import dataclasses

    from engine_kit.values import value_class

    @value_class
    class Point:
        x: int
        y: int = 0
        tags: list[str] = dataclasses.field(default_factory=list)

    p = Point(1)
    assert (p.x, p.y, p.tags) == (1, 0, [])
    assert Point(1, 2, ["a"]) == Point(x=1, y=2, tags=["a"]) != p
    assert Point(1).tags is not Point(1).tags  # a fresh default each time
    assert dataclasses.replace(p, y=5) == Point(1, 5)
    assert repr(p).endswith("Point(x=1, y=0, tags=[])")
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        Point()  # type: ignore[call-arg]


def test_value_class_refuses_what_it_does_not_support() -> None:
    import dataclasses

    from engine_kit.values import value_class

    with pytest.raises(TypeError, match="__post_init__"):
        @value_class
        class Checked:
            x: int

            def __post_init__(self) -> None:
                pass
    with pytest.raises(TypeError, match="positional"):
        @value_class
        class KeywordOnly:
            x: int = dataclasses.field(kw_only=True, default=0)
