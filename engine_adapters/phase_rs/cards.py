"""phase.rs card faces built from the corpus's Oracle data (the `cards` of a case), not from MTGJSON.

phase.rs parses Oracle text into abilities. It reads MTGJSON-style records: this module writes one
per face from our card data, lets the engine build its faces (`phase.gen.process_group`, as its own
card-data generator does), and finds the text the engine's parser could not turn into abilities
(`Unimplemented` effects, `Unknown` triggers), so such a card is reported as unsupported.
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterator

_SYMBOL = re.compile(r"\{([^}]+)\}")
#: A blank card that fills an empty deck (phase.rs can't start a game with one); its objects are removed.
FILLER = "Mtg Conformance Filler"
_FILLER_CARD = {"name": FILLER, "layout": "normal", "color_identity": [], "faces": [{
    "name": FILLER, "colors": [], "type_line": "Land", "supertypes": [], "types": ["Land"], "subtypes": [],
    "keywords": [], "oracle_text": ""}]}
_ORACLE_NAMESPACE = uuid.UUID("6c1b5b0e-4a7e-4a39-9d0f-6a3b8b0a3c11")


def mana_value(cost: str | None) -> int:
    """Rule 202.3 on a printed cost: numbers count their value, X counts 0, any other symbol 1."""
    total = 0
    for symbol in _SYMBOL.findall(cost or ""):
        if symbol.isdigit():
            total += int(symbol)
        elif symbol not in ("X", "Y", "Z"):
            total += 1
    return total


def mtgjson_faces(card: dict[str, Any]) -> list[dict[str, Any]]:
    """One MTGJSON AtomicCards-style record per face. Both faces of a double-faced card share the
    oracle id, or the engine never links the back face to the front."""
    oracle_id = str(uuid.uuid5(_ORACLE_NAMESPACE, card["name"]))
    double = len(card["faces"]) > 1
    front_cost = card["faces"][0].get("mana_cost")
    records = []
    for index, face in enumerate(card["faces"]):
        record: dict[str, Any] = {
            "name": card["name"],
            "layout": card["layout"],
            "identifiers": {"scryfallOracleId": oracle_id},
            "manaValue": mana_value(front_cost),
            "colors": list(face["colors"]),
            "colorIdentity": list(card["color_identity"]),
            "type": face["type_line"],
            "types": list(face["types"]),
            "subtypes": list(face["subtypes"]),
            "supertypes": list(face["supertypes"]),
            "text": face.get("oracle_text", ""),
            "legalities": {},
        }
        if face.get("mana_cost"):
            record["manaCost"] = face["mana_cost"]
        if face.get("color_indicator"):
            record["colorIndicator"] = list(face["color_indicator"])
        for key in ("power", "toughness", "loyalty"):
            if face.get(key) is not None:
                record[key] = str(face[key])
        if face.get("keywords"):
            record["keywords"] = list(face["keywords"])
        if double:
            record["side"] = "ab"[index]
            record["faceName"] = face["name"]
            record["faceManaValue"] = mana_value(face.get("mana_cost"))
        records.append(record)
    return records


def unparsed(face: dict[str, Any]) -> list[str]:
    """The parts of a built face the engine's Oracle parser could not turn into abilities."""
    found = []
    for node in nodes(face):
        if node.get("type") == "Unimplemented":
            found.append(str(node.get("description") or node.get("name") or "unimplemented"))
        for key in ("Unknown", "Unimplemented"):
            if key in node:
                found.append(str(node[key]))
    return list(dict.fromkeys(found))


def nodes(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from nodes(item)
    elif isinstance(value, list):
        for item in value:
            yield from nodes(item)


@dataclass(frozen=True)
class CardDatabase:
    """The engine's card data for one case (the JSON that Engine.from_json loads), and what it lacks."""

    json: str
    faces: dict[str, dict[str, Any]]  # built faces by lower-case face name
    unsupported: dict[str, list[str]]  # card name -> text the engine could not parse


def build_database(cards: dict[str, dict[str, Any]]) -> CardDatabase:
    faces: dict[str, dict[str, Any]] = {}
    unsupported: dict[str, list[str]] = {}
    for name, card in sorted({**cards, FILLER: _FILLER_CARD}.items()):
        built, problems = _build_card(json.dumps(card, sort_keys=True))
        if problems:
            unsupported[name] = list(problems)
        faces.update(json.loads(built))
    return CardDatabase(json.dumps(faces, separators=(",", ":"), sort_keys=True), faces, unsupported)


@lru_cache(maxsize=1024)
def _build_card(card_json: str) -> tuple[str, tuple[str, ...]]:
    """The engine's faces of one card (as JSON, so the cached value can't be changed) and what it
    could not parse. Building faces is the slow part of a case's set-up, and cards repeat."""
    from phase import gen

    card = json.loads(card_json)
    built: dict[str, dict[str, Any]] = {}
    gen.process_group(mtgjson_faces(card), built)
    missing = [f for f in (face["name"].lower() for face in card["faces"]) if f not in built]
    if missing:
        return json.dumps(built), (f"the engine built no face named {', '.join(missing)}",)
    return json.dumps(built), tuple(text for face in built.values() for text in unparsed(face))
