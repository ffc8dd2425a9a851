"""A case's starting state as a phase.rs game.

phase.rs has no constructor for an arbitrary position, but it saves and resumes games as a state
dict (`Game.state()` / `Engine.load_game`). So: start a game whose two decks hold exactly the case's
cards (the engine builds every card object itself), keep both hands, then edit the saved state (zones,
tapped, counters, damage, summoning sickness, life, mana pool, turn, step, day/night) and resume it.
The engine recomputes continuous effects on load. A back face up is set with the engine's own debug
action (setting `transformed` in the dict is ignored by the engine).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from engine_adapters.phase_rs import names
from engine_adapters.phase_rs.cards import FILLER, nodes
from engine_kit import Case
from engine_kit.session import Unsupported

KEEP = {"type": "MulliganDecision", "data": {"choice": {"type": "Keep"}}}
SEED = 1
HIDDEN_ZONES = ("hand", "library", "graveyard")
#: Per-turn bookkeeping of a player, reset for a case that starts mid-turn.
PLAYER_TURN_RESET = {
    "has_drawn_this_turn": False, "life_gained_this_turn": 0, "life_lost_this_turn": 0,
    "cards_drawn_this_turn": 0, "cards_drawn_this_step": 0, "descended_this_turn": False,
    "crimes_committed_this_turn": 0,
}
#: A spell cast earlier in the turn, as the engine records one: the case says only how many there were.
UNKNOWN_SPELL = {"core_types": [], "supertypes": [], "subtypes": [], "keywords": [], "colors": [], "mana_value": 0}


@dataclass
class Built:
    """The resumed game, each label's object id, and the seats."""

    game: Any
    labels: dict[str, int]
    seats: dict[str, int]


def build(engine: Any, case: Case, cards: dict[str, dict[str, Any]],
          faces: dict[str, dict[str, Any]]) -> Built:
    """`faces` are the engine's built card faces (by lower-case face name): a starting emblem is made
    from the ability of its card that creates it."""
    from phase import GameAction

    setup = case.setup
    players = list(setup["players"])
    seats = {name: seat for seat, name in enumerate(players)}
    decks = _decks(setup, cards, seats)
    game = engine.new_game(*[deck or [FILLER] for deck in decks], seed=SEED, first_player=seats[setup["active"]])
    while game.waiting_for()["type"] == "MulliganDecision":
        pending = game.waiting_for()["data"]["pending"]
        game.apply(pending[0]["player"], GameAction.from_dict(KEEP))
    saved = game.state()
    labels, faces_up = _edit(saved["state"], setup, cards, seats)
    _emblems(saved["state"], setup, cards, faces, seats)
    if faces_up:
        saved["state"]["format_config"]["allow_debug_actions"] = True
        saved["state"]["debug_mode"] = True
    game = engine.load_game(saved)
    if faces_up:
        game = _turn_faces_up(engine, game, faces_up)
    return Built(game, labels, seats)


def _decks(setup: dict[str, Any], cards: dict[str, dict[str, Any]], seats: dict[str, int]) -> list[list[str]]:
    decks: list[list[str]] = [[] for _ in seats]
    for name, player in setup["players"].items():
        for zone in HIDDEN_ZONES + ("exile", "battlefield"):
            for entry in player.get(zone, []):
                if "card" in entry:
                    owner = entry.get("owner", name)
                    decks[seats[owner]].append(names.deck_name(cards[entry["card"]]))
    return decks


def _edit(state: dict[str, Any], setup: dict[str, Any], cards: dict[str, dict[str, Any]],
          seats: dict[str, int]) -> tuple[dict[str, int], list[int]]:
    """Put each object where the case says; drop the filler objects. Returns the labels, and the
    objects to turn back face up."""
    objects = state["objects"]
    pool: dict[tuple[int, str], list[int]] = {}
    for key in sorted(objects, key=int):
        obj = objects[key]
        pool.setdefault((obj["owner"], obj["name"]), []).append(int(key))
    turn = setup["turn"]
    labels: dict[str, int] = {}
    faces_up: list[int] = []
    state["battlefield"], state["exile"], state["stack"] = [], [], []

    def take(owner: int, card_name: str) -> dict[str, Any]:
        ids = pool.get((owner, names.deck_name(cards[card_name])))
        if not ids:
            raise RuntimeError(f"phase.rs made no object for {card_name!r} in seat {owner}'s deck")
        return objects[str(ids.pop(0))]

    for name, player in setup["players"].items():
        seat = seats[name]
        record = state["players"][seat]
        for zone in HIDDEN_ZONES:
            record[zone] = []
            for entry in player.get(zone, []):
                obj = take(seat, entry["card"])
                obj["zone"] = zone.capitalize()
                record[zone].append(obj["id"])
                _label(labels, entry, obj)
        for entry in player.get("exile", []):
            obj = take(seat, entry["card"])
            obj["zone"] = "Exile"
            state["exile"].append(obj["id"])
            _label(labels, entry, obj)
        for entry in player.get("battlefield", []):
            if "token" in entry:
                obj = _token(state, seats[entry.get("owner", name)], entry["token"])
            else:
                obj = take(seats[entry.get("owner", name)], entry["card"])
            _permanent(obj, entry, seat, turn)
            state["battlefield"].append(obj["id"])
            if entry.get("face") == "back":
                if len(cards.get(entry.get("card"), {}).get("faces", [])) < 2:
                    raise RuntimeError(f"{entry.get('card')} has no back face")
                faces_up.append(obj["id"])
            _label(labels, entry, obj)
        record["life"] = player["life"]
        record["lands_played_this_turn"] = player["lands_played_this_turn"]
        record.update(PLAYER_TURN_RESET)
        record["mana_pool"] = {"mana": [_mana_unit(state, color) for color in names.mana_symbols(player["mana_pool"])]}
    for ids in pool.values():  # the filler and nothing else: every case card was taken
        for leftover in ids:
            del objects[str(leftover)]
    _game_fields(state, setup, seats)
    return labels, faces_up


def _label(labels: dict[str, int], entry: dict[str, Any], obj: dict[str, Any]) -> None:
    if entry.get("label"):
        labels[entry["label"]] = obj["id"]


def _permanent(obj: dict[str, Any], entry: dict[str, Any], controller: int, turn: int) -> None:
    obj["zone"] = "Battlefield"
    obj["controller"] = obj["base_controller"] = controller
    obj["tapped"] = bool(entry.get("tapped", False))
    obj["damage_marked"] = int(entry.get("damage", 0))
    counters = dict(entry.get("counters") or {})
    if "loyalty" in counters:  # phase.rs keeps loyalty both as a counter and as a number on the object
        obj["loyalty"] = counters["loyalty"]
    obj["counters"] = {names.ENGINE_COUNTERS.get(kind, kind): n for kind, n in counters.items() if n}
    if entry.get("phased_out"):  # phased out under its controller's control (702.26b), as the engine records it
        obj["phase_status"] = {"status": "PhasedOut", "cause": "Directly"}
    if entry.get("summoning_sick"):
        obj["entered_battlefield_turn"] = turn
        obj["summoning_sick"] = True
    else:
        obj["entered_battlefield_turn"] = max(turn - 1, 0)
        obj.pop("summoning_sick", None)


def _mana_unit(state: dict[str, Any], color: str) -> dict[str, Any]:
    pip = state["next_pip_id"]
    state["next_pip_id"] += 1
    return {"color": names.ENGINE_MANA[color], "source_id": 0, "pip_id": pip, "snow": False, "restrictions": []}


def _token(state: dict[str, Any], owner: int, token: dict[str, Any]) -> dict[str, Any]:
    """A token object in the engine's own shape, as its token-creating effects make them."""
    object_id = state["next_object_id"]
    state["next_object_id"] += 1
    timestamp = state["next_timestamp"]
    state["next_timestamp"] += 1
    types = {"supertypes": list(token.get("supertypes", [])), "core_types": list(token["types"]),
             "subtypes": list(token.get("subtypes", []))}
    colors = [names.ENGINE_COLORS[c] for c in token.get("colors", [])]
    power, toughness = token.get("power"), token.get("toughness")
    keywords = list(token.get("keywords", []))
    obj = {
        "id": object_id, "card_id": 0, "owner": owner, "base_controller": owner, "controller": owner,
        "zone": "Battlefield", "tapped": False, "face_down": False, "flipped": False, "transformed": False,
        "damage_marked": 0, "dealt_deathtouch_damage": False, "attached_to": None, "attachments": [],
        "counters": {}, "name": token["name"], "power": power, "toughness": toughness, "loyalty": None,
        "card_types": types, "mana_cost": {"type": "NoCost"}, "keywords": keywords,
        "abilities": [], "trigger_definitions": [], "replacement_definitions": [], "static_definitions": [],
        "color": colors, "base_power": power, "base_toughness": toughness, "base_name": token["name"],
        "base_card_types": copy.deepcopy(types), "base_mana_cost": {"type": "NoCost"}, "base_keywords": keywords,
        "base_abilities": [], "base_color": list(colors), "base_characteristics_initialized": True,
        "timestamp": timestamp, "incarnation": 1, "is_token": True,
    }
    state["objects"][str(object_id)] = obj
    return obj


@cache
def creature_types() -> tuple[str, ...]:
    """Rule 205.3m's list. phase.rs collects "every creature type" (changeling) from its card database;
    a case loads only a few cards, so the engine is given the whole list."""
    text = resources.files("engine_adapters").joinpath("data/creature_types.txt").read_text(encoding="utf-8")
    return tuple(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


def _game_fields(state: dict[str, Any], setup: dict[str, Any], seats: dict[str, int]) -> None:
    active = seats[setup["active"]]
    state["all_creature_types"] = sorted(set(state.get("all_creature_types") or []) | set(creature_types()))
    step = names.ENGINE_STEPS[setup["step"]]
    state["turn_number"] = setup["turn"]
    state["active_player"] = active
    state["priority_player"] = active
    state["phase"] = step
    state["waiting_for"] = {"type": "Priority", "data": {"player": active}}
    state["day_night"] = names.ENGINE_DAY_NIGHT[setup["day_night"]]
    state["steps_started_this_turn"] = {step: 1}
    state["priority_pass_count"] = 0
    state["priority_passes"] = []
    state["zone_changes_this_turn"] = []
    spells = {str(seats[name]): p["spells_cast_this_turn"] for name, p in setup["players"].items()
              if p["spells_cast_this_turn"]}
    # The engine keeps a record of each spell cast (its characteristics as cast); the case gives only
    # how many, so each is a spell with none.
    state["spells_cast_this_turn_by_player"] = {seat: [dict(UNKNOWN_SPELL) for _ in range(n)]
                                                for seat, n in spells.items()}
    state["spells_cast_this_turn"] = sum(spells.values())
    state["spells_cast_this_game"] = dict(spells)
    state["spells_cast_this_game_by_player"] = copy.deepcopy(state["spells_cast_this_turn_by_player"])
    lands = {str(seats[name]): p["lands_played_this_turn"] for name, p in setup["players"].items()
             if p["lands_played_this_turn"]}
    state["lands_played_this_turn_by_player"] = lands
    state["lands_played_this_turn"] = lands.get(str(active), 0)
    for seat in seats.values():  # turns each player has begun, the current one included
        state["players"][seat]["turns_taken"] = (setup["turn"] + (1 if seat == active else 0)) // 2


def _turn_faces_up(engine: Any, game: Any, object_ids: list[int]) -> Any:
    """Transform each object to its back face with the engine's debug action (the host, seat 0, grants
    itself the permission), then turn debugging off."""
    from phase import GameAction

    host = 0
    game.apply(host, GameAction.from_dict({"type": "GrantDebugPermission", "data": {"player_id": host}}))
    for object_id in object_ids:
        game.apply(host, GameAction.from_dict({"type": "Debug", "data": {"type": "SetFaceState", "data": {
            "object_id": object_id, "face_down": None, "transformed": True, "flipped": None}}}))
    saved = game.state()
    state = saved["state"]
    state["format_config"]["allow_debug_actions"] = False
    state["debug_mode"] = False
    state["debug_permitted"] = []
    state["waiting_for"] = {"type": "Priority", "data": {"player": state["active_player"]}}
    return engine.load_game(saved)


def _emblems(state: dict[str, Any], setup: dict[str, Any], cards: dict[str, dict[str, Any]],
             faces: dict[str, dict[str, Any]], seats: dict[str, int]) -> None:
    """Each starting emblem as the engine makes one when the ability creating it resolves: an object
    named Emblem in the command zone with that ability's static and triggered abilities."""
    for name, player in setup["players"].items():
        for entry in player.get("emblems", []):
            statics, triggers = _emblem_abilities(entry["from"], cards, faces)
            object_id = state["next_object_id"]
            state["next_object_id"] += 1
            timestamp = state["next_timestamp"]
            state["next_timestamp"] += 1
            seat = seats[name]
            types: dict[str, list[str]] = {"supertypes": [], "core_types": [], "subtypes": []}
            no_cost = {"type": "Cost", "shards": [], "generic": 0}
            state["objects"][str(object_id)] = {
                "id": object_id, "card_id": 0, "owner": seat, "base_controller": seat, "controller": seat,
                "zone": "Command", "is_emblem": True, "tapped": False, "face_down": False, "flipped": False,
                "transformed": False, "damage_marked": 0, "dealt_deathtouch_damage": False, "attached_to": None,
                "attachments": [], "counters": {}, "name": "Emblem", "base_name": "Emblem", "power": None,
                "toughness": None, "base_power": None, "base_toughness": None, "loyalty": None,
                "card_types": types, "base_card_types": copy.deepcopy(types), "mana_cost": no_cost,
                "base_mana_cost": dict(no_cost), "keywords": [], "base_keywords": [], "color": [], "base_color": [],
                "abilities": [], "base_abilities": [], "replacement_definitions": [],
                "static_definitions": statics, "base_static_definitions": copy.deepcopy(statics),
                "trigger_definitions": triggers, "base_trigger_definitions": copy.deepcopy(triggers),
                "base_characteristics_initialized": True, "timestamp": timestamp, "incarnation": 1,
                "entered_battlefield_turn": None,
            }
            state.setdefault("command_zone", []).append(object_id)


def _emblem_abilities(source: str, cards: dict[str, dict[str, Any]],
                      faces: dict[str, dict[str, Any]]) -> tuple[list[Any], list[Any]]:
    """The statics and triggers of the emblem that `source` (a card or a face name) creates, from the
    engine's own parse of the card."""
    card = next((c for c in cards.values() if source in (c["name"], *(f["name"] for f in c["faces"]))), None)
    if card is None:
        raise RuntimeError(f"the case's cards hold no card named {source!r}")
    face_names = [source] if any(f["name"] == source for f in card["faces"]) else [f["name"] for f in card["faces"]]
    found = [node for name in face_names for node in nodes(faces.get(name.lower()))
             if node.get("type") == "CreateEmblem"]
    if not found:
        raise Unsupported(f"phase.rs made no ability of {source} that creates an emblem")
    if any(node != found[0] for node in found[1:]):
        raise RuntimeError(f"{source} has several abilities that create different emblems")
    statics = copy.deepcopy(found[0].get("statics") or [])
    for static in statics:  # as the engine's emblems have them: they function from the command zone
        static["active_zones"] = static.get("active_zones") or ["Command"]
    return statics, copy.deepcopy(found[0].get("triggers") or [])

