"""A case's setup as a board people can read: each player's zones with their cards, tapped or not,
counters, damage, the face that is up and the labels actions refer to. Built from the case data and
the corpus's Oracle data; the templates draw it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from harness.corpus import Corpus
from harness.wire import PLAYER_DEFAULTS, SETUP_DEFAULTS

#: The zones in the order a board shows them, with their headings and what their order means.
ZONES = (("battlefield", "Battlefield", ""), ("hand", "Hand", ""), ("library", "Library", "top card first"),
         ("graveyard", "Graveyard", "oldest first"), ("exile", "Exile", ""), ("emblems", "Command zone: emblems", ""))


@dataclass
class CardView:
    name: str  # the name of the face that is up (a token's name)
    label: str = ""
    full_name: str = ""  # 'Front // Back' for a double-faced card
    face: str = "front"
    type_line: str = ""
    mana_cost: str = ""
    power_toughness: str = ""
    loyalty: str = ""
    oracle_text: str = ""
    token: bool = False
    tapped: bool = False
    summoning_sick: bool = False
    counters: dict[str, int] = field(default_factory=dict)
    damage: int = 0
    owner: str = ""  # when it isn't the player it is listed under
    emblem: bool = False
    known: bool = True  # False: the card is not in the corpus's Oracle data

    @property
    def double_faced(self) -> bool:
        """A double-faced card, whose face up is worth saying (an emblem has no face)."""
        return " // " in self.full_name and not self.emblem


@dataclass
class ZoneView:
    key: str
    title: str
    order: str
    cards: list[CardView]


@dataclass
class PlayerView:
    name: str
    active: bool
    life: int
    mana_pool: str
    spells_cast: int
    lands_played: int
    zones: list[ZoneView]


@dataclass
class BoardView:
    turn: int
    step: str
    active: str
    day_night: str
    players: list[PlayerView]


def board(setup: dict[str, Any], corpus: Corpus) -> BoardView:
    players = setup.get("players") or {}
    active = setup.get("active") or next(iter(players), "")
    views = []
    for name, state in players.items():
        state = state or {}
        zones = []
        for key, title, order in ZONES:
            entries = state.get(key) or []
            cards = [_card(entry, key, name, corpus) for entry in entries]
            zones.append(ZoneView(key, title, order, cards))
        views.append(PlayerView(name, name == active, state.get("life", PLAYER_DEFAULTS["life"]),
                                state.get("mana_pool", ""), state.get("spells_cast_this_turn", 0),
                                state.get("lands_played_this_turn", 0), zones))
    return BoardView(setup.get("turn", SETUP_DEFAULTS["turn"]), setup.get("step", SETUP_DEFAULTS["step"]), active,
                     setup.get("day_night", SETUP_DEFAULTS["day_night"]), views)


def _card(entry: Any, zone: str, player: str, corpus: Corpus) -> CardView:
    if isinstance(entry, str):
        entry = {"card": entry}
    if zone == "emblems":
        source = str(entry.get("from", "?"))
        card = corpus.card(source)
        face = _face_named(card.data, source) if card else None
        return CardView(f"Emblem from {source}", entry.get("label", ""), card.name if card else source, emblem=True,
                        type_line="Emblem", oracle_text=_emblem_text(face) if face else "", known=card is not None)
    view = CardView("", entry.get("label", ""), tapped=bool(entry.get("tapped", False)),
                    summoning_sick=bool(entry.get("summoning_sick", False)),
                    counters={k: v for k, v in (entry.get("counters") or {}).items() if v},
                    damage=int(entry.get("damage", 0) or 0), face=entry.get("face", "front"))
    if entry.get("owner") and entry["owner"] != player:
        view.owner = entry["owner"]
    if "token" in entry:
        token = entry["token"] or {}
        view.token = True
        view.name = view.full_name = str(token.get("name", "Token"))
        view.type_line = _type_line(token)
        if "power" in token or "toughness" in token:
            view.power_toughness = f"{token.get('power', '?')}/{token.get('toughness', '?')}"
        view.oracle_text = ", ".join(token.get("keywords") or [])
        return view
    name = str(entry.get("card", "?"))
    card = corpus.card(name)
    if card is None:
        view.name = view.full_name = name
        view.known = False
        return view
    faces = card.faces
    face = faces[1] if view.face == "back" and len(faces) > 1 else _face_named(card.data, name) or faces[0]
    view.full_name = card.name
    view.name = face.get("name", card.name)
    view.type_line = face.get("type_line", "")
    view.mana_cost = face.get("mana_cost", "") or ""
    if face.get("power") is not None or face.get("toughness") is not None:
        view.power_toughness = f"{face.get('power', '?')}/{face.get('toughness', '?')}"
    if face.get("loyalty") is not None:
        view.loyalty = str(face["loyalty"])
    view.oracle_text = face.get("oracle_text", "") or ""
    return view


def _face_named(data: dict[str, Any], name: str) -> dict[str, Any] | None:
    return next((f for f in data.get("faces", []) if f.get("name") == name), None)


def _emblem_text(face: dict[str, Any]) -> str:
    """The emblem's text as the card's ability gives it: what follows 'an emblem with' in quotes."""
    text = face.get("oracle_text", "") or ""
    start = text.find('emblem with "')
    if start < 0:
        return ""
    rest = text[start + len('emblem with "'):]
    return rest[:rest.find('"')] if '"' in rest else rest


def _type_line(token: dict[str, Any]) -> str:
    left = " ".join([*(token.get("supertypes") or []), "Token", *(token.get("types") or [])])
    subtypes = " ".join(token.get("subtypes") or [])
    return f"{left} — {subtypes}" if subtypes else left
