"""A case's starting state as a python-mtg state: a dict of relations, as the engine's own deck loader
(`bridge_to_engine.make_deck_state`) builds it, with each card's facts from `card_facts`.

What python-mtg has no relation for is refused here as Unsupported with the reason: damage marked
outside combat, a day/night designation, a back face up, emblems, ownership apart from control, and
token keywords.
"""

from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass, field
from typing import Any

from engine_adapters.python_mtg import cards as card_data
from engine_adapters.python_mtg import names
from engine_kit import Case
from engine_kit.session import Unsupported


@dataclass
class Built:
    state: dict[str, Any]
    labels: dict[str, str]
    owners: dict[str, str]  # instance id -> owner (python-mtg keeps only control)
    face_names: dict[str, str] = field(default_factory=dict)  # engine card slug -> face name
    token_names: dict[str, str] = field(default_factory=dict)  # starting tokens' instance ids -> names


def build(case: Case, cards: dict[str, dict[str, Any]]) -> Built:
    from mtg import bridge_to_engine, driver
    from mtg._text import slug

    db, _ = card_data.engine_data()
    corpus: dict[str, dict[str, Any]] = {}
    face_names: dict[str, str] = {}
    for card in cards.values():
        for name, record in card_data.records(card).items():
            corpus[name] = record
            face_names[slug(name)] = card["faces"][0]["name"] if name == card["name"] else name
    setup = case.setup
    _refuse_what_has_no_relation(setup)
    players = list(setup["players"])
    active = setup["active"]
    state: dict[str, Any] = {
        "current_step": {(names.ENGINE_STEPS[setup["step"]],)}, "active_player": {(active,)},
        "is_player": {(p,) for p in players}, "life": {(p, setup["players"][p]["life"]) for p in players},
        "counter": set(), "tapped": set(), "attacks": set(), "blocks": set(), "on_battlefield": set(),
        "in_hand": set(), "in_library": set(), "graveyard": set(), "exile": set(), "command_zone": set(),
        "_commander_owner": set(), "_cmd_casts": {}, "is_commander": set(), "commander_damage": set(),
        "_lib_order": {p: [] for p in players}, "_land_played": set(), "_sick": set(), "_seed": 0,
        "_variant": "two-player", "_turn": setup["turn"], "_explicit_lands": True,
    }
    driver._rng(state)
    labels: dict[str, str] = {}
    owners: dict[str, str] = {}
    token_names: dict[str, str] = {}
    count = 0

    def place(card_name: str, controller: str) -> str:
        nonlocal count
        tid = f"{slug(card_name)}_{count}"
        count += 1
        facts, _ = bridge_to_engine.card_facts(card_name, controller, tid, db, corpus)
        for relation, rows in facts.items():
            state.setdefault(relation, set()).update(rows)
        record = corpus[card_name]
        for card_type in record.get("types") or []:
            state.setdefault("spell_type", set()).add((tid, card_type.lower()))
        state.setdefault("mana_cost", set()).add((tid, bridge_to_engine._mana_value(record.get("manaCost"))))
        bridge_to_engine._register_colored(state, tid, record)
        return tid

    for player, spec in setup["players"].items():
        for zone in ("library", "hand", "graveyard", "exile"):
            for entry in spec.get(zone, []):
                tid = place(entry["card"], player)
                owners[tid] = player
                if zone == "library":
                    state["in_library"].add((player, tid))
                    state["_lib_order"][player].append(tid)
                elif zone == "hand":
                    state["in_hand"].add((player, tid))
                else:
                    state[zone].add((tid,))
                if entry.get("label"):
                    labels[entry["label"]] = tid
        for entry in spec.get("battlefield", []):
            if "token" in entry:
                tid = _token(state, player, entry["token"], count)
                token_names[tid] = entry["token"]["name"]
                count += 1
            else:
                tid = place(entry["card"], player)
            owners[tid] = player
            state["on_battlefield"].add((tid,))
            if entry.get("tapped"):
                state["tapped"].add((tid,))
            if entry.get("summoning_sick"):
                state["_sick"].add((tid,))
            for kind, n in (entry.get("counters") or {}).items():
                if n:
                    state["counter"].add((tid, names.ENGINE_COUNTERS.get(kind, kind), int(n)))
            if entry.get("label"):
                labels[entry["label"]] = tid
        floating = {names.ENGINE_MANA[m]: 0 for m in names.mana_symbols(spec["mana_pool"])}
        for symbol in names.mana_symbols(spec["mana_pool"]):
            floating[names.ENGINE_MANA[symbol]] += 1
        state["floating_mana"] = state.get("floating_mana", set()) | {(player, c, n) for c, n in floating.items()}
        if spec["lands_played_this_turn"]:
            state["_land_played"].add((player,))
    state["_cast_count"] = sum(p["spells_cast_this_turn"] for p in setup["players"].values())
    bridge_to_engine._materialize_printed(state)
    if setup["step"] in ("precombat-main", "postcombat-main"):
        with contextlib.redirect_stdout(io.StringIO()):  # the engine stocks the pool as a main phase begins
            driver._refresh_mana_pool(state, active)
    return Built(state, labels, owners, face_names, token_names)


def _refuse_what_has_no_relation(setup: dict[str, Any]) -> None:
    if setup["day_night"] != "neither":
        raise Unsupported("python-mtg has no day/night designation")
    for name, spec in setup["players"].items():
        if spec.get("emblems"):
            raise Unsupported("python-mtg has no emblems")
        if spec["spells_cast_this_turn"] and len(setup["players"]) > 1 and name != setup["active"]:
            raise Unsupported("python-mtg counts spells cast this turn for all players together")
        for entry in spec.get("battlefield", []):
            if entry.get("damage"):
                raise Unsupported("python-mtg keeps no damage marked on a permanent outside combat")
            if entry.get("face") == "back":
                raise Unsupported("the adapter can't put a double-faced card onto python-mtg's battlefield "
                                  "back face up (an adapter limitation)")
            if entry.get("owner", name) != name:
                raise Unsupported("python-mtg tracks control but not ownership of a permanent")
            if entry.get("token", {}).get("keywords"):
                raise Unsupported("the adapter can't give a starting token keywords in python-mtg "
                                  "(an adapter limitation)")


def _token(state: dict[str, Any], controller: str, token: dict[str, Any], count: int) -> str:
    """A token as the engine's own token maker (driver._create_token) records one."""
    tid = f"token_{count}"
    state.setdefault("printed_control", set()).add((controller, tid))
    state.setdefault("is_token", set()).add((tid,))
    for card_type in token["types"]:
        state.setdefault("printed_type", set()).add((tid, card_type.lower()))
    for subtype in token.get("subtypes", []):
        state.setdefault("printed_subtype", set()).add((tid, subtype.lower()))
    for supertype in token.get("supertypes", []):
        state.setdefault("has_supertype", set()).add((tid, supertype.lower()))
    for color in token.get("colors", []):
        state.setdefault("printed_color", set()).add((tid, names.ENGINE_COLORS[color]))
    if token.get("power") is not None:
        state.setdefault("printed_power", set()).add((tid, int(token["power"])))
        state.setdefault("printed_toughness", set()).add((tid, int(token["toughness"])))
    return tid
