"""A python-mtg state as the protocol's observation.

Characteristics are the engine's derived ones (one evaluation of its rules per observation: control,
power and toughness after its effects, keywords); types, subtypes and colors are the engine's printed
ones, since it has no effects that change them. python-mtg keeps no owner apart from control, so the
owner of a card is the player whose zone the case put it in; mana in the pool is the engine's floating
mana (what its pool holds besides the untapped sources it counts as available).
"""

from __future__ import annotations

import re
from typing import Any

from engine_adapters.python_mtg import names
from engine_adapters.python_mtg.setup import Built
from engine_kit.session import Rejected, Unsupported
from engine_kit.oracle import activated_abilities

_REMINDER = re.compile(r"\s*\([^)]*\)")
_MANA_ABILITY = re.compile(r"\bAdd\b")


class Observer:
    def __init__(self, state: dict[str, Any], labels: dict[str, str], players: list[str], built: Built) -> None:
        from mtg import driver

        self.state = state
        self.by_id = {tid: label for label, tid in labels.items()}
        self.players = players
        self.built = built
        derived = driver.run(state, ["controls", "creature", "power", "eff_toughness", "has_keyword"])
        self.controller = {c: p for (p, c) in derived["controls"]}
        self.creatures = {c for (c,) in derived["creature"]}
        self.power = {c: int(n) for (c, n) in derived["power"]}
        self.toughness = {c: int(n) for (c, n) in derived["eff_toughness"]}
        self.keywords: dict[str, list[str]] = {}
        for (c, k) in derived["has_keyword"]:
            self.keywords.setdefault(c, []).append(names.title(k))
        self.instance_of = dict(state.get("instance_of", set()))

    def rows(self, relation: str) -> dict[str, list[Any]]:
        out: dict[str, list[Any]] = {}
        for row in self.state.get(relation, set()):
            out.setdefault(row[0], []).append(row[1] if len(row) == 2 else row[1:])
        return out

    def zones(self) -> list[tuple[str, str]]:
        """(id, zone) of every object: each player's library (top first), hand, graveyard; exile; the
        battlefield; the stack."""
        out: list[tuple[str, str]] = []
        for player in self.players:
            out.extend((tid, "library") for tid in self.state.get("_lib_order", {}).get(player, [])
                       if (player, tid) in self.state.get("in_library", set()))
            out.extend((tid, "hand") for (p, tid) in sorted(self.state.get("in_hand", set())) if p == player)
        out.extend((tid, "graveyard") for (tid,) in sorted(self.state.get("graveyard", set())))
        out.extend((tid, "exile") for (tid,) in sorted(self.state.get("exile", set())))
        out.extend((tid, "battlefield") for (tid,) in sorted(self.state.get("on_battlefield", set())))
        out.extend((tid, "stack") for (tid, _) in sorted(self.state.get("on_stack", set()), key=lambda r: r[1]))
        return out

    def views(self) -> list[tuple[str, dict[str, Any]]]:
        types, subtypes, colors = self.rows("printed_type"), self.rows("printed_subtype"), self.rows("printed_color")
        supertypes = self.rows("has_supertype")
        counters = self.rows("counter")
        costs = dict(self.state.get("mana_cost", set()))
        attacking = {a for (a, _) in self.state.get("attacks", set())}
        out = []
        for tid, zone in self.zones():
            owner = self.owner(tid)
            view: dict[str, Any] = {
                "label": self.by_id.get(tid),
                "name": self.name(tid),
                "zone": zone,
                "owner": owner,
                "controller": self.controller.get(tid, owner) if zone in ("battlefield", "stack") else owner,
                "token": (tid,) in self.state.get("is_token", set()),
                "face": "back" if self.is_back_face(tid) else "front",
                "types": sorted(names.title(t) for t in types.get(tid, [])),
                "subtypes": sorted(names.title(t) for t in subtypes.get(tid, [])),
                "supertypes": sorted(names.title(t) for t in supertypes.get(tid, [])),
                "colors": names.case_colors(colors.get(tid, [])),
                "keywords": sorted(self.keywords.get(tid, [])),
                "mana_value": costs.get(tid, 0),
            }
            if tid in self.creatures:
                view["power"] = self.power.get(tid)
                view["toughness"] = self.toughness.get(tid)
            if zone == "battlefield":
                view.update({
                    "tapped": (tid,) in self.state.get("tapped", set()),
                    "summoning_sick": (tid,) in self.state.get("_sick", set()),
                    "counters": {names.CASE_COUNTERS.get(kind, kind): n for kind, n in counters.get(tid, []) if n},
                    "attacking": tid in attacking,
                })
            out.append((tid, view))
        return out

    def owner(self, tid: str) -> str | None:
        if tid in self.built.owners:
            return self.built.owners[tid]
        return next((p for (p, c) in self.state.get("printed_control", set()) if c == tid), None)

    def name(self, tid: str) -> str:
        if tid in self.built.token_names:
            return self.built.token_names[tid]
        card = self.instance_of.get(tid)
        if card in self.built.face_names:
            return self.built.face_names[card]
        from mtg.game import _name_from_slug

        return _name_from_slug(card or re.sub(r"_\d+$", "", tid))

    def is_back_face(self, tid: str) -> bool:
        """Transformed: the instance is now an instance of the back face its transform links it to."""
        return (tid, self.instance_of.get(tid)) in self.state.get("transform_target", set())

    def observe(self, priority: str | None) -> dict[str, Any]:
        state = self.state
        floating: dict[str, dict[str, int]] = {p: {} for p in self.players}
        for (p, color, n) in state.get("floating_mana", set()):
            if n:
                floating.setdefault(p, {})[names.CASE_MANA.get(color, color)] = n
        life = dict(state.get("life", set()))
        return {
            "game": {
                "turn": state.get("_turn", 0),
                "active": next(iter(state["active_player"]))[0],
                "step": names.CASE_STEPS.get(next(iter(state["current_step"]))[0]),
                "day_night": "neither",
                "priority": priority,
                "stack": [{"kind": "spell", "name": self.name(tid), "source": self.by_id.get(tid),
                           "controller": self.controller.get(tid)}
                          for (tid, _) in sorted(state.get("on_stack", set()), key=lambda r: -r[1])],
            },
            "players": {p: {"life": life.get(p), "lost": state.get("_loser") == p, "mana_pool": floating[p],
                            "emblems": 0} for p in self.players},
            "objects": [view for _, view in self.views()],
        }

    def ability_id(self, tid: str, index: int, cards: dict[str, dict[str, Any]]) -> str:
        """The engine's id of the object's N-th activated ability (cases count them in printed order,
        mana abilities included); python-mtg numbers a card's abilities by Oracle line, '_a<line>'."""
        face = self.face(tid, cards)
        if face is None:
            raise Rejected(f"{self.name(tid)} has no activated abilities")
        found = activated_abilities(face)
        if index >= len(found):
            raise Rejected(f"{self.name(tid)} has no activated ability {index}")
        if _MANA_ABILITY.search(found[index]):
            raise Unsupported("python-mtg has no mana abilities to activate: it counts untapped mana sources "
                              "as available mana")
        lines = [_REMINDER.sub("", raw).strip() for raw in face.get("oracle_text", "").splitlines()]
        return f"_a{lines.index(found[index])}"

    def face(self, tid: str, cards: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
        name = self.name(tid)
        for card in cards.values():
            for face in card["faces"]:
                if face["name"] == name:
                    return face
        return None
