"""A phase.rs game state, read from the engine's saved state dict, as the protocol's observation.

Everything comes from the engine: characteristics after its continuous effects, zones, counters,
damage, the stack, the mana pool. Two fields are derived here from what the engine holds, because
it keeps no field for them: `mana_value` (from the engine's mana cost, counting X only on the stack,
rule 202.3e) and `summoning_sick` (the engine's own flag on the permanent).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from engine_adapters.phase_rs import names

OWNED_ZONES = ("library", "hand", "graveyard")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


class Observer:
    """Reads one saved state; `labels` maps case labels to object ids, `players` seats to names."""

    def __init__(self, state: dict[str, Any], labels: dict[str, int], players: list[str],
                 last_known: dict[tuple[int, int], str] | None = None) -> None:
        self.state = state
        self.last_known = last_known or {}
        self.by_id = {object_id: label for label, object_id in labels.items()}
        self.players = players
        attackers = (state.get("combat") or {}).get("attackers") or []
        self.attacking = {a.get("object_id", a.get("attacker_id")) if isinstance(a, dict) else a for a in attackers}

    def player(self, seat: int) -> str:
        return self.players[seat]

    def object_ids(self) -> list[int]:
        """Every object, each player's hidden zones in order (library top first), then exile, the
        battlefield and the stack."""
        state = self.state
        ids: list[int] = []
        for record in state["players"]:
            for zone in OWNED_ZONES:
                ids.extend(record[zone])
        ids.extend(state["exile"])
        ids.extend(state["battlefield"])
        ids.extend(entry["source_id"] for entry in state["stack"]
                   if entry["kind"]["type"] == "Spell" and str(entry["source_id"]) in state["objects"])
        return [i for i in dict.fromkeys(ids) if str(i) in state["objects"]]

    def views(self) -> list[tuple[int, dict[str, Any]]]:
        return [(i, self.view(self.state["objects"][str(i)])) for i in self.object_ids()]

    def view(self, obj: dict[str, Any]) -> dict[str, Any]:
        zone = obj["zone"].lower()
        types = obj["card_types"]
        in_play = zone in ("battlefield", "stack")
        out: dict[str, Any] = {
            "label": self.by_id.get(obj["id"]),
            "name": obj["name"],
            "zone": zone,
            "owner": self.player(obj["owner"]),
            "controller": self.player(obj["controller"] if in_play else obj["owner"]),
            "token": bool(obj.get("is_token")),
            "face": "back" if obj.get("transformed") else "front",
            "types": list(types["core_types"]),
            "subtypes": list(types["subtypes"]),
            "supertypes": list(types["supertypes"]),
            "colors": names.case_colors(obj.get("color") or []),
            "keywords": [keyword_name(k) for k in obj.get("keywords") or []],
            "mana_value": mana_value(obj, on_stack=zone == "stack"),
        }
        if "Creature" in types["core_types"]:
            out["power"] = obj.get("power")
            out["toughness"] = obj.get("toughness")
        out["loyalty"] = obj.get("loyalty")  # the engine's own value, in every zone (loyalty-value)
        if zone == "battlefield":
            counters = {names.case_counter(k): n for k, n in (obj.get("counters") or {}).items() if n}
            if obj.get("loyalty") and "Planeswalker" in types["core_types"]:
                counters.setdefault("loyalty", obj["loyalty"])
            out.update({
                "tapped": bool(obj.get("tapped")),
                "summoning_sick": bool(obj.get("summoning_sick")),
                "counters": counters,
                "damage": obj.get("damage_marked", 0),
                "attacking": obj["id"] in self.attacking,
            })
        return out

    def observe(self, pending_player: int | None) -> dict[str, Any]:
        state = self.state
        return {
            "game": {
                "turn": state["turn_number"],
                "active": self.player(state["active_player"]),
                "step": names.CASE_STEPS.get(state["phase"], state["phase"]),
                "day_night": names.CASE_DAY_NIGHT.get(state.get("day_night"), str(state.get("day_night"))),
                "priority": self.player(pending_player) if pending_player is not None else None,
                "stack": [self.stack_item(entry) for entry in reversed(state["stack"])],
            },
            "players": {self.player(record["id"]): self.player_view(record) for record in state["players"]},
            "objects": [view for _, view in self.views()],
        }

    def stack_item(self, entry: dict[str, Any]) -> dict[str, Any]:
        source = self.state["objects"].get(str(entry["source_id"]))
        name = source["name"] if source else None
        ability = (entry["kind"].get("data") or {}).get("ability") or {}
        incarnation = ability.get("source_incarnation")
        if source and incarnation is not None and source.get("incarnation") != incarnation:
            # The source has left the zone it was in (a new object, rule 400.7): named as it last existed.
            name = self.last_known.get((entry["source_id"], incarnation), name)
        return {
            "kind": "spell" if entry["kind"]["type"] == "Spell" else "ability",
            "name": name,
            "source": self.by_id.get(entry["source_id"]),
            "controller": self.player(entry["controller"]),
        }

    def player_view(self, record: dict[str, Any]) -> dict[str, Any]:
        pool = Counter(names.CASE_MANA.get(unit["color"], unit["color"]) for unit in record["mana_pool"]["mana"])
        emblems = [o for o in self.state["objects"].values()
                   if o.get("zone") == "Command" and o.get("owner") == record["id"] and o.get("is_emblem")]
        return {
            "life": record["life"],
            "lost": bool(record.get("is_eliminated")) or record.get("status", {}).get("type") not in (None, "Active"),
            "mana_pool": dict(pool),
            "emblems": len(emblems),
        }


def keyword_name(keyword: Any) -> str:
    """'Flash' -> 'Flash'; 'FirstStrike' -> 'First strike'; {'LevelUp': cost} -> 'Level up'."""
    if isinstance(keyword, dict):
        keyword = next(iter(keyword), "")
    words = _CAMEL.split(str(keyword))
    return " ".join([words[0]] + [w.lower() for w in words[1:]])


def mana_value(obj: dict[str, Any], *, on_stack: bool) -> int:
    cost = obj.get("mana_cost") or {}
    if cost.get("type") != "Cost":
        return 0
    shards = cost.get("shards") or []
    xs = sum(1 for s in shards if s == "X")
    x_paid = obj.get("cost_x_paid") or 0 if on_stack else 0
    return cost.get("generic", 0) + len(shards) - xs + xs * x_paid
