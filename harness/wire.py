"""What an engine receives for a case: the setup with defaults filled in, the actions without any
expectation, the checkpoints to observe, and the Oracle data of every card the case uses.

The expected outcome never leaves the harness.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from engine_kit.vocabulary import PLAYER_DEFAULTS, PLAYER_ZONES, SETUP_DEFAULTS
from harness.corpus import Case, Corpus

ACTION_ONLY_KEYS = ("expect", "note")  # what an engine is not sent of an action
#: "Create a Wurmcoil Engine token and a Wurmcoil Larva token": a token created by name takes that
#: card's characteristics (rule 111.11). The instruction runs to the end of its sentence.
CREATE_INSTRUCTION = re.compile(r"\b[Cc]reate ([^.]+)")
TOKEN_BY_NAME = re.compile(r"\b(?:an?|one|two|three) (.+?) tokens?\b")
#: "Choose a card name ... from among Disenchant, ..., and Black Lotus. Create a copy of the card with the
#: chosen name": the copy has that card's characteristics from the Oracle card reference (rule 707.13).
COPY_BY_NAME = re.compile(r"from among ([^.]+)\. Create a copy of the card with the chosen name")


def engine_case(case: Case, corpus: Corpus) -> dict[str, Any]:
    data = case.data
    cards: dict[str, Any] = {}
    setup = _normalize_setup(data["setup"], corpus, cards)
    _add_cards_tokens_are_named_after(corpus, cards)
    _add_cards_copied_by_name(corpus, cards)
    actions = [{k: v for k, v in action.items() if k not in ACTION_ONLY_KEYS} for action in data["actions"]]
    return {
        "id": case.id,
        "setup": setup,
        "actions": actions,
        "checkpoints": checkpoints(data["actions"]),
        "cards": cards,
    }


def checkpoints(actions: list[dict[str, Any]]) -> list[int]:
    """Indexes after which the state is observed: -1 is the initial state. An action expected to be
    rejected also needs the state before it, to show that nothing changed."""
    points: set[int] = set()
    for index, action in enumerate(actions):
        expect = action.get("expect")
        if expect:
            points.add(index)
            if expect.get("rejected"):
                points.add(index - 1)
    points.add(len(actions) - 1)
    return sorted(points)


def _normalize_setup(setup: dict[str, Any], corpus: Corpus, cards: dict[str, Any]) -> dict[str, Any]:
    out = {key: setup.get(key, default) for key, default in SETUP_DEFAULTS.items()}
    players = setup["players"]
    out["active"] = setup.get("active", next(iter(players)))
    out["players"] = {}
    for name, state in players.items():
        player = {key: state.get(key, default) for key, default in PLAYER_DEFAULTS.items()}
        for zone in PLAYER_ZONES:
            player[zone] = [_normalize_entry(entry, corpus, cards, zone) for entry in state.get(zone, [])]
        out["players"][name] = player
    return out


def _add_cards_tokens_are_named_after(corpus: Corpus, cards: dict[str, Any]) -> None:
    """The Oracle data of a card that a card of the case creates a token of by name ('create a
    Wurmcoil Engine token', rule 111.11) is sent too: the engine needs it to know what the token is."""
    for data in list(cards.values()):
        for face in data.get("faces", []):
            for name in _token_names(face.get("oracle_text") or ""):
                card = corpus.card(name)
                if card is not None:
                    cards.setdefault(card.name, card.data)


@lru_cache(maxsize=4096)
def _token_names(oracle_text: str) -> tuple[str, ...]:
    """The names of the tokens a text creates by name: read once per card text, not once per case."""
    return tuple(match.group(1) for instruction in CREATE_INSTRUCTION.finditer(oracle_text)
                 for match in TOKEN_BY_NAME.finditer(instruction.group(1)))


def _copy(value: Any) -> Any:
    """A copy of plain data (a validated case holds nothing else): what an engine does to its message
    never reaches the corpus. A tenth of copy.deepcopy's time, which the message's every entry took."""
    kind = type(value)
    if kind is dict:
        return {key: _copy(child) for key, child in value.items()}
    if kind is list:
        return [_copy(child) for child in value]
    return value


def _add_cards_copied_by_name(corpus: Corpus, cards: dict[str, Any]) -> None:
    """The Oracle data of the cards a card of the case may create a copy of by name (707.13)."""
    for data in list(cards.values()):
        for face in data.get("faces", []):
            for match in COPY_BY_NAME.finditer(" ".join((face.get("oracle_text") or "").split())):
                for name in re.split(r",? and |, ", match.group(1)):
                    card = corpus.card(name.strip())
                    if card is not None:
                        cards.setdefault(card.name, card.data)


def _normalize_entry(entry: Any, corpus: Corpus, cards: dict[str, Any], zone: str) -> Any:
    entry = {"card": entry} if isinstance(entry, str) else _copy(entry)
    key = "from" if zone == "emblems" else "card"
    if key in entry:
        card = corpus.card(entry[key])
        if card is not None:
            cards[card.name] = card.data
            if key == "card":
                entry["card"] = card.name
    return entry
