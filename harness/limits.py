"""The bounds every input lives within: a file's size, how deep it nests, how many values it holds
(aliases counted as often as they repeat what they point to), how many digits an integer has, and how
much of a bad value an error message quotes.

Beyond them a file is refused with a message saying which limit it broke, before any code that walks
the data (the schema check, the engine message, a report) could take too long or too deep a recursion.
Engine replies get the same bounds (plain_data_problem): an engine can't break the run with its answer.
"""

from __future__ import annotations

import reprlib
from typing import Any

MAX_FILE_BYTES = 4 * 1024 * 1024  # a case is a few KiB; rulings.yaml tens of KiB
MAX_DEPTH = 48  # cases nest about 10 deep
MAX_VALUES = 200_000  # values in one document or reply, aliases expanded
#: Integers have at most 15 digits, so every engine reads them exactly (doubles hold 2**53, about 9e15).
MAX_INT_DIGITS = 15
MAX_INT = 10**MAX_INT_DIGITS - 1
EXCERPT_CHARS = 80  # of a bad value quoted in a message


def excerpt(value: Any, limit: int = EXCERPT_CHARS) -> str:
    """repr(value), cut short: a message never quotes a megabyte of a bad value."""
    if isinstance(value, (str, bytes)) and len(value) > limit:
        return repr(value[:limit]) + f"... ({len(value)} characters)"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT:
        return f"an integer of more than {MAX_INT_DIGITS} digits"
    try:
        text = _REPR.repr(value)
    except Exception:  # pragma: no cover (a value whose repr fails)
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit * 2 else text[:limit * 2] + "..."


class _BoundedRepr(reprlib.Repr):
    def __init__(self) -> None:
        super().__init__()
        self.maxstring = EXCERPT_CHARS
        self.maxother = EXCERPT_CHARS
        self.maxlong = EXCERPT_CHARS
        self.maxdict = self.maxlist = 6
        self.maxlevel = 3


_REPR = _BoundedRepr()


def bounded(text: str, limit: int = 1000) -> str:
    """A message cut to `limit` characters."""
    return text if len(text) <= limit else text[:limit] + f"... ({len(text) - limit} more characters)"


def plain_data_problem(value: Any, what: str = "the reply") -> str | None:
    """Why `value` is not plain JSON data within the limits (None if it is): only objects with string
    keys, arrays, strings, finite numbers, booleans and null; integers of at most MAX_INT_DIGITS digits;
    at most MAX_DEPTH levels and MAX_VALUES values. Walked without recursion, so any depth is safe."""
    return plain_data_scan(value, what)[0]


def plain_data_scan(value: Any, what: str = "the reply") -> tuple[str | None, bool]:
    """(plain_data_problem(value, what), whether `value` holds a float), in one walk when all is well:
    it runs on every reply, and a reply with a float is left to jsonschema (schemas.surely_valid), so
    the reply is not walked again to find out. Where a problem is is found by a second walk."""
    fine, floats = _scan(value)
    if fine:
        return None, floats
    problem = _first_problem(value, what)
    assert problem is not None, "_scan and _first_problem disagree"  # a harness bug, never the engine's
    where = _where(value, problem[1])
    return (f"{where}: {problem[0]}" if where else problem[0]), floats


_PLAIN = (str, bool, type(None))


def _scan(value: Any) -> tuple[bool, bool]:
    """(whether `value` is within the limits, whether it holds a float): what _first_problem decides,
    as a tight loop. Level by level, so each value is a type test and nothing is pushed but containers'
    children; the count is checked after every container, so aliases can't make a level huge."""
    level = [value]
    depth = 1
    count = 0
    floats = False
    while level:
        count += len(level)
        following: list[Any] = []
        extend = following.extend
        for item in level:
            kind = type(item)
            if kind is str or kind is bool or item is None:
                continue
            if kind is dict:
                for key in item:
                    if type(key) is not str:
                        return False, floats
                children: Any = item.values()
            elif kind is list:
                children = item
            elif kind is int:
                if -MAX_INT <= item <= MAX_INT:
                    continue
                return False, floats
            elif kind is float:
                if item - item == 0.0:  # NaN and the infinities give NaN
                    floats = True
                    continue
                return False, floats
            else:
                return False, floats
            if depth >= MAX_DEPTH:
                return False, floats
            extend(children)
            if count + len(following) > MAX_VALUES:
                return False, floats
        level = following
        depth += 1
    return True, floats


def _first_problem(value: Any, what: str) -> tuple[str, Any] | None:
    """(the problem, the offending item) of the first problem found, None if there is none."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    count = 0
    while stack:
        item, depth = stack.pop()
        count += 1
        kind = type(item)
        if kind in _PLAIN:
            continue
        if kind is int:
            if -MAX_INT <= item <= MAX_INT:
                continue
            return f"{excerpt(item)}: integers have at most {MAX_INT_DIGITS} digits", item
        if kind is float:
            if item - item == 0.0:  # NaN and the infinities give NaN
                continue
            return f"{item!r} is not a JSON number", item
        if kind is dict or kind is list:
            if depth >= MAX_DEPTH:
                return f"{what} nests deeper than {MAX_DEPTH} levels", item
            children = item.values() if kind is dict else item
            if kind is dict:
                for key in item:
                    if type(key) is not str:
                        return f"the key {excerpt(key)} is not a string", item
            for child in children:
                if type(child) in _PLAIN:
                    count += 1
                else:
                    stack.append((child, depth + 1))
            if count + len(stack) > MAX_VALUES:
                return f"{what} holds more than {MAX_VALUES} values", None
            continue
        return f"a {kind.__name__} is not JSON data", item
    return None


def _where(value: Any, target: Any) -> str:
    """The path of `target` (by identity) in `value`, as $.a[0].b; '' if it isn't there."""
    if target is None:
        return ""
    stack: list[tuple[Any, str]] = [(value, "$")]
    while stack:
        item, path = stack.pop()
        if item is target:
            return path[:200]
        if isinstance(item, dict):
            stack.extend((child, f"{path}.{key}") for key, child in item.items())
        elif isinstance(item, list):
            stack.extend((child, f"{path}[{index}]") for index, child in enumerate(item))
    return ""
