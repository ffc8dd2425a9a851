"""Comparing what an engine observed with what a case expects.

Expectations are partial: only the fields a case lists are checked. Each check is a small function
registered by field name, so adding an observable is one function.
"""

from __future__ import annotations

import marshal
import re
from collections import Counter
from typing import Any, Callable, Iterable

from harness.corpus import Case
from harness.results import Check, Mismatch
from harness.yamlio import format_path

MISSING = object()
_SYMBOL = re.compile(r"\{([WUBRGC])\}")


class Checker:
    """Collects mismatches between one observed state and one expectation block, and every check
    made (met or not), with the value observed."""

    def __init__(self, case: Case, when: str, base: list[str | int]) -> None:
        self.case = case
        self.when = when
        self.base = base
        self.mismatches: list[Mismatch] = []
        self.checks: list[Check] = []

    def fail(self, path: list[str | int], expected: Any, observed: Any, note: str = "") -> None:
        full = self.base + path
        self.mismatches.append(Mismatch(self.when, format_path(full), self.case.line_of(full), expected, observed, note))
        self.checks.append(Check(self.when, format_path(full), expected, observed, False))

    def met(self, path: list[str | int], expected: Any, observed: Any) -> None:
        self.checks.append(Check(self.when, format_path(self.base + path), expected, observed, True))

    def judge(self, ok: bool, path: list[str | int], expected: Any, observed: Any, note: str = "") -> None:
        if ok:
            self.met(path, expected, observed)
        else:
            self.fail(path, expected, observed, note)

    # --- the whole block ---------------------------------------------------------------------
    def check(self, expect: dict[str, Any], state: dict[str, Any]) -> list[Mismatch]:
        if "game" in expect:
            self.check_game(expect["game"], state.get("game", {}))
        for player, expected in expect.get("players", {}).items():
            self.check_player(player, expected, state)
        objects = state.get("objects", [])
        for label, expected in expect.get("objects", {}).items():
            observed = next((o for o in objects if o.get("label") == label), None)
            self.check_object(["objects", label], expected, observed if observed is not None else {"exists": False})
        for index, group in enumerate(expect.get("select", [])):
            found = [o for o in objects if selected(o, group["where"])]
            if "count" in group:
                self.judge(len(found) == group["count"], ["select", index, "count"], group["count"], len(found),
                           f"objects matching {group['where']}: " + ", ".join(_describe(o) for o in found))
            for item in found if "each" in group else []:
                self.check_object(["select", index, "each"], group["each"], item)
        return self.mismatches

    def check_game(self, expected: dict[str, Any], game: dict[str, Any]) -> None:
        for key, value in expected.items():
            observed = game.get(key, MISSING)
            if key == "stack":
                self.check_stack(value, observed if isinstance(observed, list) else [])
            else:
                self.judge(observed == value, ["game", key], value, _shown(observed))

    def check_stack(self, expected: Any, stack: list[dict[str, Any]]) -> None:
        note = "stack (top first): " + _stack_text(stack)
        if isinstance(expected, int):
            self.judge(len(stack) == expected, ["game", "stack"], expected, len(stack), note)
            return
        if len(stack) != len(expected):
            self.fail(["game", "stack"], f"{len(expected)} object(s)", f"{len(stack)} object(s)", note)
            return
        for index, (want, have) in enumerate(zip(expected, stack)):
            for key, value in want.items():
                self.judge(have.get(key) == value, ["game", "stack", index, key], value, have.get(key), note)

    def check_player(self, player: str, expected: dict[str, Any], state: dict[str, Any]) -> None:
        observed = state.get("players", {}).get(player, {})
        objects = state.get("objects", [])
        for key, value in expected.items():
            path: list[str | int] = ["players", player, key]
            if key in ("hand", "library", "graveyard", "exile"):
                cards = [o["name"] for o in objects if o.get("owner") == player and o.get("zone") == key]
                self.check_zone(path, value, cards, ordered=key == "library")
            elif key == "mana_pool":
                want = Counter(_SYMBOL.findall(value))
                have = Counter({k: v for k, v in (observed.get("mana_pool") or {}).items() if v})
                self.judge(want == have, path, value or "(empty)", _pool_text(have) or "(empty)")
            elif key == "counters":  # compared exactly, as an object's
                problem = _counters(value, observed.get(key, MISSING))
                if problem is not None:
                    self.fail(path, value, *problem)
                else:
                    self.met(path, value, _shown(observed.get(key)))
            else:
                self.judge(observed.get(key, MISSING) == value, path, value, _shown(observed.get(key, MISSING)))

    def check_zone(self, path: list[str | int], expected: Any, cards: list[str], *, ordered: bool) -> None:
        if isinstance(expected, int):
            self.judge(len(cards) == expected, path, f"{expected} card(s)", f"{len(cards)} card(s)", _cards_text(cards))
        elif isinstance(expected, list):
            self.judge(cards == expected if ordered else Counter(cards) == Counter(expected), path, expected, cards)
        else:
            if "count" in expected:
                self.judge(len(cards) == expected["count"], path + ["count"], expected["count"], len(cards),
                           _cards_text(cards))
            for name in expected.get("includes", []):
                self.judge(name in cards, path + ["includes"], f"includes {name}", cards)
            for name in expected.get("excludes", []):
                self.judge(name not in cards, path + ["excludes"], f"excludes {name}", cards)

    def check_object(self, path: list[str | int], expected: dict[str, Any], observed: dict[str, Any]) -> None:
        exists = observed.get("exists", True)
        for key, value in expected.items():
            if key != "exists" and not exists:
                self.fail(path + [key], value, "(the object no longer exists)")
                continue
            check = OBJECT_CHECKS.get(key, _equal)
            seen = observed.get(key, MISSING if key != "exists" else exists)
            problem = check(value, seen)
            if problem is not None:
                self.fail(path + [key], value, *problem)
            else:
                self.met(path + [key], value, _shown(seen))


# --- object field checks: (expected, observed) -> None if fine, else (observed shown, note) ------------
FieldCheck = Callable[[Any, Any], "tuple[Any, str] | None"]
OBJECT_CHECKS: dict[str, FieldCheck] = {}


def field_check(*names: str):
    def register(fn: FieldCheck) -> FieldCheck:
        for name in names:
            OBJECT_CHECKS[name] = fn
        return fn
    return register


def _equal(expected: Any, observed: Any) -> tuple[Any, str] | None:
    return None if observed == expected else (_shown(observed), "")


@field_check("counters")
def _counters(expected: dict[str, int], observed: Any) -> tuple[Any, str] | None:
    have = {k: v for k, v in (observed if isinstance(observed, dict) else {}).items() if v}
    want = {k: v for k, v in expected.items() if v}
    return None if have == want else (have, "counters are compared exactly")


@field_check("colors", "color_identity", "types", "subtypes", "supertypes", "keywords")
def _name_set(expected: Any, observed: Any) -> tuple[Any, str] | None:
    if observed is MISSING:
        return _shown(observed), ""
    have = [str(x) for x in observed] if isinstance(observed, list) else []
    folded = {x.casefold() for x in have}
    if isinstance(expected, list):
        if {x.casefold() for x in expected} != folded:
            return _short(have), ""
        return None
    missing = [x for x in expected.get("includes", []) if x.casefold() not in folded]
    present = [x for x in expected.get("excludes", []) if x.casefold() in folded]
    if missing or present:
        note = "; ".join(filter(None, [f"missing {missing}" if missing else "", f"present {present}" if present else ""]))
        return _short(have), note
    return None


def ability_text(text: str) -> str:
    """An ability's text as compared: reminder text gone, spacing and case folded, no final period."""
    text = re.sub(r"\([^)]*\)", "", text)
    return " ".join(text.split()).rstrip(".").casefold()


@field_check("abilities")
def _abilities(expected: dict[str, list[str]], observed: Any) -> tuple[Any, str] | None:
    """Non-keyword abilities, by text: only includes and excludes (docs/case-format.md)."""
    if observed is MISSING:
        return _shown(observed), ""
    have = [str(x) for x in observed] if isinstance(observed, list) else []
    folded = {ability_text(x) for x in have}
    missing = [x for x in expected.get("includes", []) if ability_text(x) not in folded]
    present = [x for x in expected.get("excludes", []) if ability_text(x) in folded]
    if missing or present:
        note = "; ".join(filter(None, [f"missing {missing}" if missing else "", f"present {present}" if present else ""]))
        return _short(have), note
    return None


def selected(obj: dict[str, Any], where: dict[str, Any]) -> bool:
    for key, value in where.items():
        if key in ("types", "subtypes"):
            if not all(v in obj.get(key, []) for v in value):
                return False
        elif obj.get(key) != value:
            return False
    return True


def _short(items: list[str], limit: int = 12) -> list[str] | str:
    return items if len(items) <= limit else f"{items[:limit]} and {len(items) - limit} more"


def _shown(value: Any) -> Any:
    return "(not reported)" if value is MISSING else value


def _describe(obj: dict[str, Any]) -> str:
    return f"{obj.get('name')} ({obj.get('zone')}, {obj.get('controller') or obj.get('owner')})"


def _stack_text(stack: list[dict[str, Any]]) -> str:
    return "; ".join(f"{s.get('kind')} {s.get('name')}" for s in stack) or "(empty)"


def _cards_text(cards: Iterable[str]) -> str:
    cards = list(cards)
    return ", ".join(cards) if cards else "(none)"


def _pool_text(pool: Counter) -> str:
    return "".join(f"{{{m}}}" * pool[m] for m in "WUBRGC" if pool[m])


def state_differences(before: Any, after: Any, path: str = "$") -> list[str]:
    """Paths where two observed states differ (for 'rejected, state unchanged'). Most are the same:
    equal, and written the same by marshal too (== alone takes 1 for true and 1.0; marshal's version 0
    writes each value by its type and value alone), they have no difference, and are not walked."""
    if before == after:
        written = _written(before)
        if written is not None and written == _written(after):
            return []
    return _differences(before, after, path)


def _written(value: Any) -> bytes | None:
    try:
        return marshal.dumps(value, 0)
    except ValueError:  # not plain data (never an observed state): walked
        return None


def _differences(before: Any, after: Any, path: str) -> list[str]:
    if type(before) is not type(after):
        return [path]
    if isinstance(before, dict):
        out = []
        for key in sorted(set(before) | set(after), key=str):
            out.extend(_differences(before.get(key), after.get(key), f"{path}.{key}"))
        return out
    if isinstance(before, list):
        if len(before) != len(after):
            return [f"{path} (length {len(before)} -> {len(after)})"]
        out = []
        for index, (a, b) in enumerate(zip(before, after)):
            out.extend(_differences(a, b, f"{path}[{index}]"))
        return out
    return [] if before == after else [f"{path}: {before!r} -> {after!r}"]
