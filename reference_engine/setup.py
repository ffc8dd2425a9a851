"""Build a game state from a case's setup (as the harness sends it, with defaults filled in)."""

from __future__ import annotations

from typing import Any

from engine_kit import CaseError
from reference_engine.carddefs import token_card
from reference_engine.mana import parse_mana
from reference_engine.model import Ability, CardDef, Counts, Emblem, GameObject, Player, Step, Zone
from reference_engine.state import GameState

STEPS_BY_NAME = {step.value: step for step in Step}
ZONE_KEYS = (("library", Zone.LIBRARY), ("hand", Zone.HAND), ("graveyard", Zone.GRAVEYARD), ("exile", Zone.EXILE))


class SetupError(CaseError):
    """The setup asks for something the engine can't build (reported as an error of the case)."""


def _entry(entry: Any) -> tuple[str, str | None]:
    return (entry, None) if isinstance(entry, str) else (entry["card"], entry.get("label"))


def build(setup: dict[str, Any], cards: dict[str, CardDef]) -> tuple[GameState, dict[str, int]]:
    """The state, and each label's uid (the physical card or token it names, whatever zone it moves to)."""
    players = {name: Player(name, p.get("life", 20), Counts(parse_mana(p.get("mana_pool", ""))),
                            lands_played=p.get("lands_played_this_turn", 0))
               for name, p in setup["players"].items()}
    # players, turn, active, step, priority, day night (GameState's first fields, by position: it has forty)
    state = GameState(players, setup["turn"], setup["active"], STEPS_BY_NAME[setup["step"]], None,
                      None if setup["day_night"] == "neither" else setup["day_night"])
    state.priority = state.active
    state.oracle = dict(cards)  # the Oracle card reference, for a token created by name (111.11)
    labels: dict[str, int] = {}
    attached: list[tuple[GameObject, str]] = []  # Auras and Equipment, attached once every permanent is there

    def card(name: str) -> CardDef:
        if name not in cards:
            raise SetupError(f"no card data sent for {name!r}")
        return cards[name]

    for name, p in setup["players"].items():
        state.spells_cast[name] = p.get("spells_cast_this_turn", 0)
        for kind, count in p.get("counters", {}).items():  # a player's counters (122.1): poison, rad
            if kind == "poison":
                players[name].poison = count
            elif count:
                players[name].counters[kind] = count
        for key, zone in ZONE_KEYS:
            for entry in p.get(key, []):
                card_name, label = _entry(entry)
                obj = state.add_object(card(card_name), name, zone)
                if label:
                    labels[label] = obj.uid
        for entry in p.get("battlefield", []):
            definition = token_card(entry["token"]) if "token" in entry else card(entry["card"])
            face = 1 if entry.get("face") == "back" else 0
            if face and not definition.double_faced:
                raise SetupError(f"{definition.name} has no back face")
            obj = state.add_object(definition, entry.get("owner", name), Zone.BATTLEFIELD, controller=name,
                                   is_token="token" in entry, face=face)
            obj.tapped = entry.get("tapped", False)
            obj.summoning_sick = entry.get("summoning_sick", False)
            obj.damage = entry.get("damage", 0)
            obj.counters.update(entry.get("counters", {}))
            if entry.get("phased_out"):  # 702.26b: under this player's control, phasing in at their untap step
                obj.phased_out = True
                obj.phased_out_controller = name
            if entry.get("label"):
                labels[entry["label"]] = obj.uid
            if "attached_to" in entry:
                attached.append((obj, entry["attached_to"]))
        for entry in p.get("emblems", []):
            emblem = Emblem(state.new_id(), state.new_id(), name, entry["from"], _emblem_abilities(cards, entry["from"]),
                            state.new_timestamp())
            state.emblems.append(emblem)
            if entry.get("label"):
                labels[entry["label"]] = emblem.uid
    state.touch()
    for obj, host_label in attached:  # rules 301.5, 303.4: whether it may stay attached is for the SBAs (704.5m-n)
        if host_label in state.players:  # an Aura that enchants a player (303.4)
            obj.attached_player = host_label
            continue
        host = state.find_uid(labels[host_label]) if host_label in labels else None
        if host is None or host.zone is not Zone.BATTLEFIELD:
            raise SetupError(f"{obj.card.name} is attached to {host_label!r}, which is no permanent of the setup")
        obj.attached_to = host.id
    return state, labels


def _emblem_abilities(cards: dict[str, CardDef], source: str) -> tuple[Ability, ...]:
    """The abilities of the emblem a card's ability creates ('You get an emblem with ...')."""
    for card in cards.values():
        for face in card.faces:
            if face.name != source and card.name != source:
                continue
            for ability in face.abilities:
                for step in ability.data.get("effect", []) or []:
                    if "create_emblem" in step:
                        return tuple(step["create_emblem"]["abilities"])
    raise SetupError(f"{source} has no ability that creates an emblem")
