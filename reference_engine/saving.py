"""Saving a game state so that an illegal move can be undone exactly.

Every cast, activation and land play saves the state first, and almost none is rejected: saving must
be cheap, restoring only correct. A saved state is the state pickled (pickle walks the objects in C,
several times faster than copy.deepcopy, and no object is built until a move is rejected). Card
definitions, faces and abilities never change during a game: a saved state refers to them instead of
copying them, as deepcopy did (see Shared).
"""

from __future__ import annotations

import pickle
import threading
from dataclasses import dataclass
from typing import Any

_saving = threading.local()  # the shared objects of the state being saved or loaded, in this thread


class Shared:
    """A definition that is never changed once built: copies and saved states share it."""

    def __deepcopy__(self, memo: dict) -> "Shared":
        return self

    def __copy__(self) -> "Shared":
        return self

    def __reduce_ex__(self, protocol: Any) -> Any:
        table = getattr(_saving, "table", None)
        if table is None:  # pickled for another reason: by value, as usual
            return super().__reduce_ex__(protocol)
        table.append(self)  # pickle remembers it: a second reference to it is not reduced again
        return _shared, (len(table) - 1,)


def _shared(index: int) -> Shared:
    return _saving.table[index]


@dataclass(frozen=True, eq=False)
class Saved:
    """A saved set of values: their pickle, and the shared definitions it refers to by position."""

    data: bytes
    shared: tuple[Shared, ...]


def save(values: Any) -> Saved:
    table: list[Any] = []
    _saving.table = table
    try:
        data = pickle.dumps(values, pickle.HIGHEST_PROTOCOL)
    finally:
        _saving.table = None
    return Saved(data, tuple(table))


def load(saved: Saved) -> Any:
    """New objects equal to the saved ones (each load makes new ones; shared definitions are reused)."""
    _saving.table = list(saved.shared)
    try:
        return pickle.loads(saved.data)
    finally:
        _saving.table = None
