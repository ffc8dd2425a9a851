"""Which cases a mutant can change, so the kill matrix runs a mutant only on those.

A mutant replaces functions of the reference engine (mutants.patching). A case whose run on the
reference engine never calls any of them runs the same under the mutant, call for call, so it passes
there too: the mutant needn't run it. Each case is traced in a session of its own, so no cache filled
by an earlier case hides a call; a mutant that replaces anything but plain functions (a value, a
cached function, a class) can change anything, and runs on every case.
"""

from __future__ import annotations

import sys
import types
from typing import Any, Iterable

from mutants.patching import MUTANTS, Patcher


def _codes(value: Any) -> set[types.CodeType] | None:
    """The code objects of a replaced value: a function, or a tuple holding functions (a matcher
    entry is (event kinds, function)); None if it is anything else."""
    if isinstance(value, types.FunctionType):
        return {value.__code__}
    if isinstance(value, tuple):
        found = [_codes(v) for v in value if callable(v)]
        if found and all(f is not None for f in found) and all(
                callable(v) or isinstance(v, (str, tuple, frozenset)) for v in value):
            return set().union(*found)
    return None


def touched(name: str) -> frozenset[types.CodeType] | None:
    """The code of every engine function mutant `name` replaces; None if it replaces anything else."""
    patcher = Patcher()
    try:
        MUTANTS[name].apply(patcher)
        replaced = list(patcher.replaced)
    finally:
        patcher.undo()
    codes: set[types.CodeType] = set()
    for value in replaced:
        found = _codes(value)
        if found is None:
            return None
        codes |= found
    return frozenset(codes)


def reached(messages: Iterable[dict[str, Any]]) -> list[frozenset[types.CodeType]]:
    """For each case (the message an engine receives), the code of every Python function its run on
    the reference engine calls, in a fresh session."""
    from reference_engine.adapter import ReferenceEngine

    out = []
    for message in messages:
        engine = ReferenceEngine()
        engine.start({})
        calls: set[types.CodeType] = set()

        def profile(frame, event, arg, calls=calls):
            if event == "call":
                calls.add(frame.f_code)
        sys.setprofile(profile)
        try:
            engine.run(message)
        finally:
            sys.setprofile(None)
            engine.stop()
        out.append(frozenset(calls))
    return out
