"""The null engine: accepts every action and changes nothing, reporting the setup as printed.

Every case must fail against it: a case that passes on an engine that applies no rules at all
asserts nothing about the rules. It uses only the Oracle data sent with the case, none of the
reference engine.
"""

from __future__ import annotations

import re
from typing import Any

from engine_kit import CAPABILITIES, PROTOCOL_VERSION

ZONES = ("library", "hand", "graveyard", "exile")


class NullEngine:
    def start(self, request: dict[str, Any] | None = None) -> dict[str, Any]:
        return {"version": PROTOCOL_VERSION,
                "engine": {"name": "null", "version": "0", "language": "python",
                           "issues": "https://github.com/mtg-conformance/mtg-conformance/issues",
                           "details": {"does": "accepts every action and applies no rules"}},
                "capabilities": list(CAPABILITIES)}  # it claims to do everything

    def run(self, case: dict[str, Any]) -> dict[str, Any]:
        state = observe_setup(case)
        actions = [{"status": "ok"} for _ in case["actions"]]
        last = len(case["actions"]) - 1
        points = sorted(set(case.get("checkpoints", [])) | {last})
        return {"result": {"actions": actions, "observations": [{"after": p, "state": state} for p in points]}}

    def stop(self) -> None:
        pass


def _face(cards: dict[str, Any], name: str, face: str = "front") -> dict[str, Any]:
    faces = cards[name]["faces"]
    return faces[1] if face == "back" and len(faces) > 1 else faces[0]


def _number(value: str | None) -> int | None:
    return int(value) if value is not None and value.lstrip("-").isdigit() else None


def _mana_value(cost: str | None) -> int:
    total = 0
    for symbol in re.findall(r"\{([^}]+)\}", cost or ""):
        total += int(symbol) if symbol.isdigit() else (0 if symbol == "X" else 1)
    return total


def _object(cards: dict[str, Any], entry: Any, player: str, zone: str) -> dict[str, Any]:
    entry = {"card": entry} if isinstance(entry, str) else entry
    if "token" in entry:
        token = entry["token"]
        face = {"name": token["name"], "types": token.get("types", []), "subtypes": token.get("subtypes", []),
                "supertypes": token.get("supertypes", []), "colors": token.get("colors", []),
                "keywords": token.get("keywords", []), "power": str(token.get("power")),
                "toughness": str(token.get("toughness"))}
        identity: list[str] = []
    else:
        face = _face(cards, entry["card"], entry.get("face", "front") if zone == "battlefield" else "front")
        identity = cards[entry["card"]].get("color_identity", [])
    out = {
        "label": entry.get("label"), "name": face["name"], "zone": zone, "owner": entry.get("owner", player),
        "controller": player, "token": "token" in entry, "face": entry.get("face", "front"),
        "types": face["types"], "subtypes": face["subtypes"], "supertypes": face["supertypes"],
        "colors": face["colors"], "keywords": face["keywords"], "color_identity": identity,
        "mana_value": _mana_value(_face(cards, entry["card"]).get("mana_cost")) if "card" in entry else 0,
        "power": _number(face.get("power")), "toughness": _number(face.get("toughness")),
    }
    if zone == "battlefield":
        out.update({"tapped": entry.get("tapped", False), "summoning_sick": entry.get("summoning_sick", False),
                    "counters": entry.get("counters", {}), "damage": entry.get("damage", 0), "attacking": False})
    return out


def observe_setup(case: dict[str, Any]) -> dict[str, Any]:
    setup, cards = case["setup"], case["cards"]
    objects = []
    for player, state in setup["players"].items():
        for zone in ZONES:
            objects.extend(_object(cards, entry, player, zone) for entry in state.get(zone, []))
    for player, state in setup["players"].items():
        objects.extend(_object(cards, entry, player, "battlefield") for entry in state.get("battlefield", []))
    pools = {}
    for player, state in setup["players"].items():
        pool: dict[str, int] = {}
        for symbol in re.findall(r"\{([WUBRGC])\}", state.get("mana_pool", "")):
            pool[symbol] = pool.get(symbol, 0) + 1
        pools[player] = pool
    return {
        "game": {"turn": setup["turn"], "active": setup["active"], "step": setup["step"],
                 "day_night": setup["day_night"], "priority": setup["active"], "stack": [], "over": False},
        "players": {p: {"life": s.get("life", 20), "lost": False, "mana_pool": pools[p],
                        "emblems": len(s.get("emblems", [])),
                        "counters": {k: n for k, n in (s.get("counters") or {}).items() if n}} for p, s in setup["players"].items()},
        "objects": objects,
    }
