"""Applying and undoing a mutant's patches on the reference engine's modules.

Open the engine inside `applied(...)`: an engine opened before keeps what it already computed under
the old rules (card definitions cache their printed characteristics for the whole session)."""

from __future__ import annotations

import importlib
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator

ENGINE_PACKAGE = "reference_engine"


@dataclass(frozen=True)
class Mutant:
    name: str
    breaks: str  # the rule it breaks, in plain words
    rules: tuple[str, ...]  # Comprehensive Rules numbers
    apply: Callable[["Patcher"], None]


MUTANTS: dict[str, Mutant] = {}


def mutant(name: str, breaks: str, rules: tuple[str, ...] | list[str]):
    """Register a function that patches the engine (through a Patcher) as the mutant `name`."""
    def register(fn: Callable[["Patcher"], None]) -> Callable[["Patcher"], None]:
        if name in MUTANTS:
            raise ValueError(f"mutant {name!r} defined twice")
        MUTANTS[name] = Mutant(name, breaks, tuple(rules), fn)
        return fn
    return register


class Patcher:
    """Replaces functions and values, everywhere the engine's modules refer to them, until undone."""

    def __init__(self) -> None:
        self._undo: list[Callable[[], None]] = []
        self.replaced: list[Any] = []  # what was replaced (for mutants.reach: which cases a mutant can change)

    def original(self, module: str, attr: str) -> Any:
        return getattr(importlib.import_module(f"{ENGINE_PACKAGE}.{module}"), attr)

    def replace(self, module: str, attr: str, new: Any) -> None:
        """Rebind `module.attr` and every engine module that imported the same object by name."""
        old = self.original(module, attr)
        self.replaced.append(old)
        for mod in list(sys.modules.values()):
            name = getattr(mod, "__name__", "")
            if not (name == ENGINE_PACKAGE or name.startswith(ENGINE_PACKAGE + ".")):
                continue
            for key, value in list(vars(mod).items()):
                if value is old:
                    setattr(mod, key, new)
                    self._undo.append(lambda mod=mod, key=key, old=old: setattr(mod, key, old))

    def replace_in(self, module: str, attr: str, new: Any) -> None:
        """Rebind a name in one module only (when other modules must keep the original)."""
        mod = importlib.import_module(f"{ENGINE_PACKAGE}.{module}")
        old = getattr(mod, attr)
        self.replaced.append(old)
        setattr(mod, attr, new)
        self._undo.append(lambda: setattr(mod, attr, old))

    def wrap(self, module: str, attr: str, wrapper: Callable[[Callable], Callable]) -> None:
        self.replace(module, attr, wrapper(self.original(module, attr)))

    def set_attr(self, owner: Any, name: str, value: Any) -> None:
        """Set an attribute of a class or object (e.g. a method of GameState) until undone."""
        old = getattr(owner, name)
        self.replaced.append(old)
        setattr(owner, name, value)
        self._undo.append(lambda: setattr(owner, name, old))

    def set_item(self, mapping: dict, key: Any, value: Any) -> None:
        missing = object()
        old = mapping.get(key, missing)
        self.replaced.append(old)  # a key added (old is `missing`, no function) can change anything
        mapping[key] = value
        self._undo.append(lambda: mapping.pop(key) if old is missing else mapping.__setitem__(key, old))

    def undo(self) -> None:
        while self._undo:
            self._undo.pop()()


@contextmanager
def applied(name: str) -> Iterator[Mutant]:
    if name not in MUTANTS:
        import difflib

        close = difflib.get_close_matches(name, list(MUTANTS), n=3)
        raise KeyError(f"no mutant named {name!r}" + (f"; did you mean {', '.join(close)}?" if close else ""))
    patcher = Patcher()
    try:
        MUTANTS[name].apply(patcher)
        yield MUTANTS[name]
    finally:
        patcher.undo()
