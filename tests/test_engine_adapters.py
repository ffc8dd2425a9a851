"""The adapters' shared machinery (engine_kit, engine_adapters/base.py), on a fake engine: the protocol
loop, the script and its macros."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine_adapters.base import EngineMissing, PackageAdapter
from engine_kit import Case
from engine_kit.script import Script
from engine_kit.session import Pending, Rejected, Session, Unsupported, matches
from engine_kit.vocabulary import CAPABILITIES, STEPS
from tests.conftest import REPO


class FakeSession(Session):
    """A game that is only a step counter, a stack of ids and a log of moves."""

    def __init__(self, fail_on: str | None = None, unsupported_on: str | None = None) -> None:
        self.players = ["alice", "bob"]
        self.labels = {"bears": 1, "wolf": 2}
        self.log: list[tuple] = []
        self.stack: list[int] = []
        self.turn_number, self.step_index = 2, 3  # precombat-main
        self.priority = "alice"
        self.fail_on, self.unsupported_on = fail_on, unsupported_on

    def pending(self) -> Pending | None:
        return Pending("priority", self.priority)

    def turn(self) -> int:
        return self.turn_number

    def step(self) -> str:
        return STEPS[self.step_index]

    def stack_ids(self) -> list[int]:
        return list(reversed(self.stack))

    def object_views(self) -> list[tuple[int, dict[str, Any]]]:
        return [(1, {"name": "Grizzly Bears", "zone": "battlefield", "controller": "alice", "types": ["Creature"],
                     "subtypes": ["Bear"]}),
                (2, {"name": "Wolf", "zone": "battlefield", "controller": "bob", "types": ["Creature"],
                     "subtypes": ["Wolf"], "token": True})]

    def observe(self) -> dict[str, Any]:
        return {"game": {"step": self.step(), "stack": len(self.stack)}, "players": {}, "objects": []}

    def pass_priority(self, player: str) -> None:
        if player != self.priority:
            raise Rejected(f"{player} doesn't hold priority")
        self.log.append(("pass", player))
        if self.priority == "alice":
            self.priority = "bob"
            return
        self.priority = "alice"
        if self.stack:
            self.stack.pop()
        elif self.step_index == 12:
            self.turn_number, self.step_index = self.turn_number + 1, 0
        else:
            self.step_index += 1

    def _move(self, *entry) -> None:
        if entry[0] == self.fail_on:
            raise RuntimeError("the engine crashed")
        if entry[0] == self.unsupported_on:
            raise Unsupported("the engine can't express this")
        self.log.append(entry)

    def play_land(self, player, card, face="front"):
        self._move("play", player, card)

    def cast(self, player, spec):
        self._move("cast", player, spec)
        self.stack.append(spec.card)

    def activate(self, player, spec):
        self._move("activate", player, spec)

    def declare_attackers(self, player, attacks):
        self._move("attack", player, attacks)

    def declare_blockers(self, player, blocks):
        self._move("block", player, blocks)

    def choose(self, player, choice):
        self._move("choose", player, choice)


class FakeAdapter(PackageAdapter):
    name = "fake"
    lacks = {"day-night": "no day/night"}
    adapter_limitations = ("none worth naming",)

    def __init__(self, **session_options) -> None:
        self.session_options = session_options
        self.opened: list[FakeSession] = []

    def load_engine(self) -> str:
        return "1.0"

    def open(self, case: Case) -> Session:
        if case.id == "unsupported/setup":
            raise Unsupported("a card the engine can't play")
        if case.id == "broken/setup":
            raise KeyError("players")
        session = FakeSession(**self.session_options)
        self.opened.append(session)
        return session


def message(actions: list[dict[str, Any]], checkpoints: list[int] | None = None, case_id: str = "t/case") -> dict:
    return {"id": case_id, "setup": {}, "actions": actions,
            "checkpoints": checkpoints if checkpoints is not None else [len(actions) - 1], "cards": {}}


def test_capability_vocabulary_is_the_schemas() -> None:
    schema = json.loads((REPO / "schema" / "case.schema.json").read_text())
    assert list(CAPABILITIES) == schema["$defs"]["capability"]["enum"]


def test_start_lists_what_the_engine_has_and_why_it_lacks_the_rest() -> None:
    info = FakeAdapter().start({"cmd": "start", "version": 1})
    assert "day-night" not in info["capabilities"] and "stack" in info["capabilities"]
    assert info["version"] == 1  # protocol v1's handshake
    assert info["engine"]["details"]["limitations"] == {"day-night": "no day/night"}
    assert info["engine"]["details"]["adapter_limitations"] == ["none worth naming"]


def test_actions_report_ok_or_rejected_and_observations_follow_checkpoints() -> None:
    reply = FakeAdapter().run(message([{"cast": "bears"}, {"pass": "bob"}, {"resolve": 1}], checkpoints=[-1, 0, 2]))
    result = reply["result"]
    assert result["actions"][0] == {"status": "ok"}
    assert result["actions"][1]["status"] == "rejected" and "bob doesn't hold priority" in result["actions"][1]["reason"]
    assert result["actions"][2] == {"status": "ok"}
    assert [o["after"] for o in result["observations"]] == [-1, 0, 2]
    assert result["observations"][1]["state"]["game"]["stack"] == 1
    assert result["observations"][2]["state"]["game"]["stack"] == 0


def test_an_engine_exception_is_that_cases_error_and_the_adapter_goes_on() -> None:
    adapter = FakeAdapter(fail_on="cast")
    reply = adapter.run(message([{"play": "bears"}, {"cast": "bears"}]))
    assert reply["errored"]["message"] == "RuntimeError: the engine crashed"
    assert reply["errored"]["context"]["action"] == 1 and "Traceback" in reply["errored"]["context"]["traceback"]
    assert "result" in FakeAdapter().run(message([{"play": "bears"}]))


def test_unsupported_setup_or_action_skips_the_case_with_the_reason() -> None:
    adapter = FakeAdapter(unsupported_on="attack")
    assert adapter.run(message([], case_id="unsupported/setup")) == {"skipped": {"reason": "a card the engine can't play"}}
    reply = adapter.run(message([{"play": "bears"}, {"attack": ["bears"]}]))
    assert reply == {"skipped": {"reason": "action 1 (attack): the engine can't express this"}}
    assert "KeyError" in adapter.run(message([], case_id="broken/setup"))["errored"]["message"]


def test_labels_selectors_and_players_become_engine_references() -> None:
    session = FakeSession()
    script = Script(session)
    assert script.object_id("wolf") == 2
    assert script.object_id({"select": {"name": "Wolf", "token": True}}) == 2
    assert script.target("bob").kind == "player" and script.target("bears").value == 1
    with pytest.raises(Rejected, match="unknown label 'elves'"):
        script.object_id("elves")
    with pytest.raises(Rejected, match="matches 2 objects"):
        script.select({"types": ["Creature"]})


def test_selectors_compare_types_without_case() -> None:
    assert matches({"subtypes": ["Wolf", "Werewolf"]}, {"subtypes": ["werewolf"]})
    assert not matches({"zone": "hand"}, {"zone": "battlefield"})


def test_the_default_player_is_the_one_the_game_waits_for() -> None:
    session = FakeSession()
    Script(session).apply({"play": "bears"})
    Script(session).apply({"play": "wolf", "by": "bob"})
    assert session.log == [("play", "alice", 1), ("play", "bob", 2)]


def test_resolve_passes_in_turn_until_the_object_leaves_the_stack() -> None:
    session = FakeSession()
    script = Script(session)
    with pytest.raises(Rejected, match="stack is empty"):
        script.apply({"resolve": 1})
    script.apply({"cast": "bears"})
    script.apply({"cast": "wolf"})
    script.apply({"resolve": 1})
    assert session.stack == [1]
    script.apply({"resolve": "all"})
    assert session.stack == [] and session.log.count(("pass", "bob")) == 2


def test_advance_passes_until_the_step_and_refuses_the_past() -> None:
    session = FakeSession()
    script = Script(session)
    script.apply({"advance": "end"})
    assert (session.turn(), session.step()) == (2, "end")
    script.apply({"advance": {"to": "upkeep", "turn": 3}})
    assert (session.turn(), session.step()) == (3, "upkeep")
    with pytest.raises(Rejected, match="already begun"):
        script.apply({"advance": {"to": "draw", "turn": 2}})


def test_a_missing_engine_skips_its_tests_but_fails_them_when_engines_are_required(monkeypatch) -> None:
    from tests.conftest import REQUIRE_ENGINES, engine_module

    monkeypatch.delenv(REQUIRE_ENGINES, raising=False)
    with pytest.raises(pytest.skip.Exception, match="pip install -e '.\\[nowhere\\]'"):
        engine_module("no_such_engine_module", "nowhere")
    monkeypatch.setenv(REQUIRE_ENGINES, "1")
    with pytest.raises(pytest.fail.Exception, match="fails instead of skipping"):
        engine_module("no_such_engine_module", "nowhere")


def test_a_missing_engine_package_fails_the_start_with_the_install_command() -> None:
    class Missing(FakeAdapter):
        package, extra, modules = "no-such-engine", "nowhere", ("no_such_engine_module",)
        load_engine = PackageAdapter.load_engine

    with pytest.raises(EngineMissing, match=r"pip install 'mtg-conformance\[nowhere\]'"):
        Missing().start({})
