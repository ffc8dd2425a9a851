"""python-mtg's view of the corpus's cards, and the cards it can't play.

python-mtg doesn't parse Oracle text at run time: it ships the Datalog facts its transpiler made from
its own Oracle corpus, keyed by card. The printed characteristics are taken from our card data (in the
record shape of python-mtg's corpus); the abilities can only be the engine's own translation. A card
is unsupported when the engine has no translation of its rules text, when its bridge reports clauses
it abstained from (`card_facts` returns them as dropped), when it makes no ability at all of text that
is more than keywords (silently), or when the engine's Oracle text for the card is not the corpus's
(its abilities would be another card's).
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

_REMINDER = re.compile(r"\s*\([^)]*\)")


def records(card: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """python-mtg corpus records for a card: one per face, the front named by the card's full name."""
    out: dict[str, dict[str, Any]] = {}
    faces = card["faces"]
    for index, face in enumerate(faces):
        record = {
            "name": card["name"] if index == 0 else face["name"],
            "manaCost": face.get("mana_cost"),
            "type": face["type_line"],
            "types": list(face["types"]),
            "subtypes": list(face["subtypes"]),
            "supertypes": list(face["supertypes"]),
            "keywords": list(face.get("keywords") or []) or None,
            "power": face.get("power"),
            "toughness": face.get("toughness"),
            "loyalty": face.get("loyalty"),
            "text": face.get("oracle_text", ""),
            "layout": card["layout"],
            "colorIdentity": list(card["color_identity"]),
        }
        if len(faces) > 1:
            if index == 0:
                record["back"] = faces[1]["name"]
            else:
                record.update({"face": "back", "front": faces[0]["name"]})
        out[record["name"]] = record
    return out


def rules_text(text: str) -> str:
    """Oracle text without reminder text, to compare two copies of it."""
    return "\n".join(line for line in (_REMINDER.sub("", raw).strip() for raw in text.splitlines()) if line)


@cache
def engine_data() -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The engine's card facts (by slug) and its own Oracle corpus (by name); loading takes a second or two."""
    from mtg import _corpus, sim

    return sim.load_db(), {c["name"]: c for c in _corpus.load_cards()}


def problems(card: dict[str, Any], db: dict[str, Any], own: dict[str, dict[str, Any]]) -> list[str]:
    """Why python-mtg can't play this card as printed: empty if it can."""
    from mtg import bridge_to_engine
    from mtg._text import slug

    found: list[str] = []
    corpus = records(card)
    for name, record in corpus.items():
        text = rules_text(record["text"])
        engine_record = own.get(name)
        if engine_record is not None and rules_text(engine_record.get("text") or "") != text:
            found.append(f"its Oracle text for {name} differs from the corpus's")
        if text and slug(name) not in db:
            found.append(f"it has no rules for {name}")
            continue
        facts, dropped = bridge_to_engine.card_facts(name, "alice", f"{slug(name)}_probe", db, corpus)
        found.extend(f"it drops {kind} {detail!r}" for kind, detail in dropped)
        silent = [] if dropped or set(facts) - CHARACTERISTICS - KEYWORD_FACTS else ability_lines(record)
        if silent:
            found.append(f"it makes no ability of {name}'s {silent[0]!r}, and reports nothing dropped")
    return list(dict.fromkeys(found))


#: Facts python-mtg makes of a card's printed characteristics and keywords: any other fact is an ability.
CHARACTERISTICS = frozenset({"card_color", "card_type", "card_subtype", "card_supertype", "card_power",
                             "card_toughness", "card_loyalty", "has_supertype", "instance_of", "printed_control",
                             "transform_target"})
KEYWORD_FACTS = frozenset({"card_keyword", "keyword_param"})


def ability_lines(record: dict[str, Any]) -> list[str]:
    """Lines of rules text that are more than keywords ("Flying, vigilance"; "Buyback {3}"): those need
    an ability fact. python-mtg's bridge can make none of a line without saying it dropped anything
    (Clone's copy, Clockspinning's counter, a leveler's level bands)."""
    keywords = [k.casefold() for k in record.get("keywords") or []]
    lines = []
    for line in rules_text(record["text"]).splitlines():
        parts = [part.strip().casefold() for part in line.split(",")]
        if not all(any(part.startswith(k) for k in keywords) for part in parts if part):
            lines.append(line)
    return lines
