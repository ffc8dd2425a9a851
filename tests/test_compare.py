"""Comparing observations with partial expectations."""

from pathlib import Path

import pytest

from harness.compare import Checker, state_differences
from harness.corpus import Case
from harness.yamlio import load_text

STATE = {
    "game": {"turn": 2, "step": "end", "day_night": "night", "stack": [
        {"kind": "ability", "name": "Nightpack Ambusher", "source": "ambusher", "controller": "alice"}]},
    "players": {"alice": {"life": 19, "mana_pool": {"G": 2}}, "bob": {"life": 20, "mana_pool": {}}},
    "objects": [
        {"label": "bolt", "name": "Lightning Bolt", "zone": "graveyard", "owner": "alice"},
        {"label": None, "name": "Forest", "zone": "library", "owner": "alice"},
        {"label": None, "name": "Swamp", "zone": "library", "owner": "alice"},
        {"label": "ambusher", "name": "Nightpack Ambusher", "zone": "battlefield", "owner": "alice",
         "controller": "alice", "power": 4, "toughness": 4, "counters": {"+1/+1": 1},
         "subtypes": ["Wolf"], "keywords": ["Flash"], "tapped": False},
        {"label": None, "name": "Wolf", "zone": "battlefield", "owner": "alice", "controller": "alice",
         "token": True, "power": 3, "toughness": 3, "subtypes": ["Wolf"]},
    ],
}


def check(expect: dict) -> list:
    case = Case(Path("cases/t/x.yaml"), load_text("expect: {}\n", Path("x.yaml")), "t/x.yaml")
    return Checker(case, "at the end", ["expect"]).check(expect, STATE)


def paths(expect: dict) -> list[str]:
    return [m.path for m in check(expect)]


def test_matching_expectations_pass() -> None:
    assert check({
        "game": {"turn": 2, "day_night": "night", "stack": [{"kind": "ability", "source": "ambusher"}]},
        "players": {"alice": {"life": 19, "mana_pool": "{G}{G}", "graveyard": ["Lightning Bolt"],
                              "library": ["Forest", "Swamp"], "hand": 0}},
        "objects": {"ambusher": {"power": 4, "counters": {"+1/+1": 1}, "keywords": {"includes": ["flash"]}}},
        "select": [{"where": {"name": "Wolf", "token": True}, "count": 1, "each": {"power": 3}}],
    }) == []


@pytest.mark.parametrize("expect, path", [
    ({"game": {"turn": 3}}, "$.expect.game.turn"),
    ({"game": {"stack": 0}}, "$.expect.game.stack"),
    ({"players": {"alice": {"mana_pool": "{G}"}}}, "$.expect.players.alice.mana_pool"),
    ({"players": {"bob": {"mana_pool": "{G}"}}}, "$.expect.players.bob.mana_pool"),
    ({"players": {"alice": {"library": ["Swamp", "Forest"]}}}, "$.expect.players.alice.library"),
    ({"players": {"alice": {"graveyard": {"excludes": ["Lightning Bolt"]}}}}, "$.expect.players.alice.graveyard.excludes"),
    ({"objects": {"ambusher": {"counters": {}}}}, "$.expect.objects.ambusher.counters"),
    ({"objects": {"ambusher": {"subtypes": ["Wolf", "Werewolf"]}}}, "$.expect.objects.ambusher.subtypes"),
    ({"objects": {"ambusher": {"keywords": {"excludes": ["Flash"]}}}}, "$.expect.objects.ambusher.keywords"),
    ({"objects": {"ghost": {"zone": "battlefield"}}}, "$.expect.objects.ghost.zone"),
    ({"select": [{"where": {"name": "Wolf"}, "count": 2}]}, "$.expect.select[0].count"),
    ({"select": [{"where": {"name": "Wolf"}, "each": {"power": 2}}]}, "$.expect.select[0].each.power"),
])
def test_each_mismatch_is_reported_at_its_path(expect: dict, path: str) -> None:
    assert paths(expect) == [path]


def test_missing_object_reports_it_no_longer_exists() -> None:
    (mismatch,) = check({"objects": {"ghost": {"zone": "battlefield"}}})
    assert mismatch.observed == "(the object no longer exists)"
    assert check({"objects": {"ghost": {"exists": False}}}) == []


def test_state_differences() -> None:
    before = {"a": 1, "b": [1, 2], "c": {"d": True}}
    after = {"a": 1, "b": [1, 2, 3], "c": {"d": False}}
    assert state_differences(before, after) == ["$.b (length 2 -> 3)", "$.c.d: True -> False"]
    assert state_differences(before, before) == []


def test_state_differences_between_equal_values_of_other_types() -> None:
    """== takes 1 for true and 1.0: the shortcut for equal states must not hide such a change."""
    before = {"a": 1, "b": [0, {"c": 2}], "d": {"x": 1, "y": None}}
    assert state_differences(before, {"a": True, "b": [0, {"c": 2}], "d": {"x": 1, "y": None}}) == ["$.a"]
    assert state_differences(before, {"a": 1, "b": [False, {"c": 2.0}], "d": {"x": 1, "y": None}}) == [
        "$.b[0]", "$.b[1].c"]
    assert state_differences(before, {"d": {"y": None, "x": 1}, "b": [0, {"c": 2}], "a": 1}) == []
    assert state_differences({"z": -0.0}, {"z": 0.0}) == []
    marker = object()  # not plain data (marshal can't write it): walked
    assert state_differences({"o": marker, "a": 1}, {"o": marker, "a": True}) == ["$.a"]
