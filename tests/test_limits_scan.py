"""The one walk of a reply (limits.plain_data_scan): it decides as the walk that finds where a problem
is (limits._first_problem) does, on every kind of value, says whether a float was seen as the schema
module's own walk does, and its problems read as they always did."""

from __future__ import annotations

import enum

from hypothesis import given, settings
from hypothesis import strategies as st

from harness import schemas
from harness.limits import MAX_DEPTH, MAX_INT, MAX_VALUES, _first_problem, plain_data_problem, plain_data_scan


class Colour(enum.StrEnum):
    RED = "R"


scalars = st.one_of(
    st.integers(), st.sampled_from([MAX_INT, -MAX_INT, MAX_INT + 1, -MAX_INT - 1, 3**2000]),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([3.0, 1e16, -0.0]),
    st.booleans(), st.none(), st.text(max_size=5),
    st.sampled_from([Colour.RED, (1, 2), {1}, frozenset(), b"x", 1j, object()]),
)
keys = st.one_of(st.text(max_size=3), st.sampled_from([1, None, True, 2.5, ("a",), Colour.RED]))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4)), max_leaves=12)


def deep(depth: int, leaf=0):
    """`depth` containers, objects and arrays in turn, around `leaf`."""
    value = leaf
    for level in range(depth):
        value = {"x": value} if level % 2 else [value]
    return value


@settings(derandomize=True, database=None, max_examples=600)
@given(values)
def test_the_scan_decides_as_the_problem_walk(value) -> None:
    problem, floats = plain_data_scan(value)
    assert (problem is None) == (_first_problem(value, "the reply") is None)
    if problem is None:
        assert floats == schemas._has_float(value)


def test_the_limits_are_where_they_were() -> None:
    assert plain_data_scan(deep(MAX_DEPTH - 1)) == (None, False)
    assert plain_data_scan(deep(MAX_DEPTH - 1, 0.5)) == (None, True)
    for depth in (MAX_DEPTH, MAX_DEPTH + 1, 10_000):
        assert "deeper than" in plain_data_problem(deep(depth))
    assert plain_data_problem(list(range(MAX_VALUES - 1))) is None
    assert "more than" in plain_data_problem(list(range(MAX_VALUES)))
    shared = [0] * 1000
    assert "more than" in plain_data_problem([shared] * 1000)  # aliases count as often as they repeat
    looped: list = []
    looped.append(looped)
    assert "deeper than" in plain_data_problem(looped)


def test_problems_read_as_before() -> None:
    assert plain_data_problem({"a": [1, float("nan")]}) == "$.a[1]: nan is not a JSON number"
    assert plain_data_problem({"a": {"b": float("-inf")}}) == "$.a.b: -inf is not a JSON number"
    assert plain_data_problem({"a": {1: 2}}) == "$.a: the key 1 is not a string"
    assert plain_data_problem({"a": (1,)}) == "$.a: a tuple is not JSON data"
    assert plain_data_problem({"a": [Colour.RED]}) == "$.a[0]: a Colour is not JSON data"
    assert plain_data_problem([10**15]) == "$[0]: an integer of more than 15 digits: integers have at most 15 digits"
    assert plain_data_problem({1}, "the case") == "$: a set is not JSON data"
    assert plain_data_problem({"seq": 1, "x": deep(60)}, "the case") == "$.x" + ".x[0]" * 23 + \
        ": the case nests deeper than 48 levels"


def test_a_reply_with_a_float_still_goes_to_jsonschema() -> None:
    reply = {"seq": 1, "result": {"actions": [], "observations": [
        {"after": -1, "state": {"players": {"alice": {"life": 3.0}}}}]}}
    problem, floats = plain_data_scan(reply)
    assert problem is None and floats
    assert not schemas.surely_valid("protocol/run-reply", reply, floats=floats)
    assert schemas.surely_valid("protocol/run-reply", {**reply, "result": {"actions": [], "observations": []}},
                                floats=False)
