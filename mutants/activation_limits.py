"""Mutants for restrictions on activating an ability (rules 602.1b, 602.5c): 'Activate only once' and
an identically worded ability acquired from another object. Each breaks one rule the way a real
engine might."""

from __future__ import annotations

from mutants.patching import Patcher, mutant


@mutant("identical-acquired-abilities-share-a-restriction", "an ability's restriction on its use ('Activate only "
        "once') is kept by its wording, so it applies to every identically worded ability the object acquired "
        "from other objects", ["602.5c"])
def _restriction_by_wording(p: Patcher) -> None:
    def wrapper(original):
        def check_once_each_turn(game, obj, index, data):
            from reference_engine.casting import _activated
            from reference_engine.layers import characteristics

            chars = characteristics(game.state, obj)
            text = _activated(chars, index).text
            first = next(i for i in range(index + 1) if _activated(chars, i).text == text)
            return original(game, obj, first, data)
        return check_once_each_turn
    p.wrap("casting", "_check_once_each_turn", wrapper)


@mutant("activate-only-once-ignored", "an ability that says 'Activate only once' can be activated again",
        ["602.1b"])
def _only_once_ignored(p: Patcher) -> None:
    def wrapper(original):
        def check_once_each_turn(game, obj, index, data):
            if data.get("limit") == "once":
                return None
            return original(game, obj, index, data)
        return check_once_each_turn
    p.wrap("casting", "_check_once_each_turn", wrapper)
