"""The bounds every input lives within: a file's size, how deep it nests, how many values it holds
(aliases counted as often as they repeat what they point to), how many digits an integer has, and how
much of a bad value an error message quotes.

Beyond them a file is refused with a message saying which limit it broke, before any code that walks
the data (the schema check, the engine message, a report) could take too long or too deep a recursion.
Engine replies get the same bounds (plain_data_problem): an engine can't break the run with its answer.
"""

from __future__ import annotations

import math
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
    stack: list[tuple[Any, int, str]] = [(value, 1, "$")]
    count = 0
    while stack:
        item, depth, where = stack.pop()
        count += 1
        if count > MAX_VALUES:
            return f"{what} holds more than {MAX_VALUES} values"
        if depth > MAX_DEPTH:
            return f"{what} nests deeper than {MAX_DEPTH} levels (at {where[:200]})"
        if item is None or isinstance(item, (str, bool)):
            continue
        if isinstance(item, int):
            if abs(item) > MAX_INT:
                return f"{where[:200]}: {excerpt(item)} (more than {MAX_INT_DIGITS} digits)"
            continue
        if isinstance(item, float):
            if not math.isfinite(item):
                return f"{where[:200]}: {item!r} is not a JSON number"
            continue
        if isinstance(item, dict):
            for key, child in item.items():
                if not isinstance(key, str):
                    return f"{where[:200]}: the key {excerpt(key)} is not a string"
                stack.append((child, depth + 1, f"{where}.{key}"))
            continue
        if isinstance(item, list):
            stack.extend((child, depth + 1, f"{where}[{index}]") for index, child in enumerate(item))
            continue
        return f"{where[:200]}: a {type(item).__name__} is not JSON data"
    return None
