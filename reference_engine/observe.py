"""The observation of a game state in the protocol's engine-neutral form (docs/protocol.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reference_engine.layers import characteristics, color_identity
from reference_engine.loyalty import loyalty
from reference_engine.mana import MANA_TYPES
from reference_engine.model import GameObject, Zone
from reference_engine.player_counters import counters_of
from reference_engine.state import OWNED_ZONES

if TYPE_CHECKING:
    from reference_engine.game import Game

COLOR_ORDER = "WUBRG"
# Enum values as plain strings: `Zone.HAND.value` is a Python-level property in 3.11, and replies hold
# plain str (the harness refuses str subclasses).
_ZONE_NAMES = {zone: zone.value for zone in Zone}
_BATTLEFIELD, _STACK = Zone.BATTLEFIELD, Zone.STACK
_SHARED_ZONES = ((Zone.BATTLEFIELD, None), (Zone.STACK, None))


def observe(game: Game, labels: dict[str, int]) -> dict[str, Any]:
    state = game.state
    by_uid = {uid: label for label, uid in labels.items()}
    zones, every = state.zones, state.objects
    keys = [(zone, player) for player in state.players for zone in OWNED_ZONES] + list(_SHARED_ZONES)
    objects = [observe_object(game, every[i], by_uid) for key in keys for i in zones.get(key, ())]
    stack = []
    for item in reversed(state.stack):  # top first
        if item.is_spell:
            obj = every[item.spell_id]
            stack.append({"kind": "spell", "name": characteristics(state, obj).name,
                          "source": by_uid.get(obj.uid), "controller": item.controller})
        else:
            source = by_uid.get(item.source_uid) if item.source_uid is not None else None
            stack.append({"kind": "ability", "name": item.source_name, "source": source,
                          "controller": item.controller})
    pending = game.pending
    return {
        "game": {
            "turn": state.turn, "active": state.active, "step": str(state.step),
            "day_night": state.day_night or "neither", "priority": state.priority if pending and pending.kind == "priority" else None,
            "stack": stack,
            "pending": {"player": pending.player, "kind": str(pending.kind), "prompt": pending.prompt} if pending else None,
            "over": state.over,
        },
        "players": {
            name: {"life": p.life, "lost": p.lost,
                   "mana_pool": {m: p.pool[m] for m in MANA_TYPES if p.pool.get(m, 0) > 0} if p.pool else {},
                   "emblems": sum(1 for e in state.emblems if e.controller == name) if state.emblems else 0,
                   "counters": counters_of(p)}
            for name, p in state.players.items()
        },
        "objects": objects,
    }


def observe_object(game: Game, obj: GameObject, by_uid: dict[int, str]) -> dict[str, Any]:
    """One object as observed; `by_uid` gives the label of each labelled card or token."""
    state = game.state
    chars = characteristics(state, obj)
    zone = obj.zone
    colors, identity = chars.colors, color_identity(obj.card)
    out: dict[str, Any] = {
        "label": by_uid.get(obj.uid),
        "name": chars.name,
        "zone": _ZONE_NAMES[zone],
        "owner": obj.owner,
        "controller": chars.controller if zone is _BATTLEFIELD or zone is _STACK else obj.owner,
        "token": obj.is_token,
        "face": "back" if obj.face else "front",
        "types": list(chars.types),
        "subtypes": chars.subtype_list(),
        "supertypes": list(chars.supertypes),
        "colors": [c for c in COLOR_ORDER if c in colors] if colors else [],
        "keywords": chars.keywords(),
        "abilities": [a.text for a in chars.abilities if a.kind != "keyword" and a.text],
        "mana_value": chars.mana_value,
        "color_identity": [c for c in COLOR_ORDER if c in identity] if identity else [],
        "power": chars.power,
        "toughness": chars.toughness,
        "loyalty": loyalty(state, obj),
    }
    if zone is _BATTLEFIELD:
        combat = state.combat
        out["tapped"] = obj.tapped
        out["summoning_sick"] = obj.summoning_sick
        out["counters"] = {k: v for k, v in obj.counters.items() if v > 0} if obj.counters else {}
        out["damage"] = obj.damage
        out["attacking"] = bool(combat and obj.id in combat.attackers)
        out["attached_to"] = obj.attached_player or _label_of(state, obj.attached_to, by_uid)
    return out


def _label_of(state, object_id: int | None, by_uid: dict[int, str]) -> str | None:
    host = state.objects.get(object_id) if object_id is not None else None
    return by_uid.get(host.uid) if host is not None else None
