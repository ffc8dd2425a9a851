"""Facts read off the Oracle data sent with a case: activated abilities and the indexes cases number
them by (`activate: {ability: N}`), levelers, planeswalkers, granted abilities. The harness checks
cases with them; an adapter can find the ability a case means with `activated_abilities`."""

from __future__ import annotations

import math
import re
from typing import Any

#: Intrinsic mana abilities of basic land types (rule 305.6).
BASIC_LAND_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
#: Keyword abilities that are activated abilities (rule 702), written 'Keyword cost'.
ACTIVATED_KEYWORDS = ("Level up", "Equip", "Cycling", "Reconfigure", "Fortify", "Outlast", "Unearth")

_REMINDER = re.compile(r"\s*\([^)]*\)")
_LOYALTY = re.compile(r"^\[[+−\-]?[0-9X]+\]:")
_TRIGGER_WORDS = ("When ", "Whenever ", "At ")


def activated_abilities(face: dict[str, Any]) -> list[str]:
    """The face's activated abilities in printed order: the indexes cases use in `activate.ability`.

    Intrinsic mana abilities of basic land types come first (they are implied by the type line);
    abilities of level bands are not counted, since the card has them only at some levels.
    """
    found = [f"{{T}}: Add {{{BASIC_LAND_MANA[t]}}}." for t in face.get("subtypes", []) if t in BASIC_LAND_MANA]
    return found + _activated_in(_level_bands(face)[0])


def activated_ability_count(face: dict[str, Any]) -> float:
    """How many activated abilities the face can have at once: its own, plus those of its richest
    level band (a leveler has a band's abilities after its own, while the band applies: rule 711.2).
    A face that may become a copy (Clone) can have any number: those of what it copies."""
    if may_become_a_copy(face):
        return math.inf
    bands = _level_bands(face)[1:]
    return len(activated_abilities(face)) + max((len(_activated_in(band)) for band in bands), default=0)


def _level_bands(face: dict[str, Any]) -> list[list[str]]:
    """The Oracle text's lines before the first LEVEL line, then the lines of each level band."""
    bands: list[list[str]] = [[]]
    for raw in face.get("oracle_text", "").splitlines():
        if raw.startswith("LEVEL "):
            bands.append([])
        else:
            bands[-1].append(raw)
    return bands


def _activated_in(lines: list[str]) -> list[str]:
    found = []
    for raw in lines:
        line = _REMINDER.sub("", raw).strip()
        if not line or line.startswith(("•", "Choose ")):
            continue
        if _LOYALTY.match(line) or line.startswith(ACTIVATED_KEYWORDS):
            found.append(line)
            continue
        head, colon, _ = line.partition(":")
        if colon and '"' not in head and not head.startswith(_TRIGGER_WORDS) and "—" not in head:
            found.append(line)
    return found


def has_level_up(face: dict[str, Any]) -> bool:
    return any(line.startswith("Level up") for line in face.get("oracle_text", "").splitlines())


def may_become_a_copy(face: dict[str, Any]) -> bool:
    """A face such as Clone's ('enter as a copy of any creature') may end up with another card's abilities."""
    return bool(re.search(r"\bas a copy of\b|\bbecomes? a copy of\b", face.get("oracle_text", "")))


def is_planeswalker_face(face: dict[str, Any]) -> bool:
    return "Planeswalker" in face.get("types", [])


def grants_abilities(face: dict[str, Any]) -> bool:
    """Whether the face's text gives abilities to other objects or emblems: such abilities are written
    in quotation marks ('You get an emblem with "..."', 'creatures gain "{T}: ..."')."""
    return '"' in _REMINDER.sub("", face.get("oracle_text", ""))
