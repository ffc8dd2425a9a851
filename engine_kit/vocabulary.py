"""The case format's closed vocabularies, as engines and the harness both need them.

schema/case.schema.json is normative; tests/test_engine_kit.py checks every tuple here against it.
"""

from __future__ import annotations

from typing import Any, Final

#: Capability tags (the `capability` enum of the case schema): what a case may require of an engine.
CAPABILITIES: Final = (
    "stack", "priority", "combat", "mana-abilities", "triggers", "replacement", "replacement-order", "layers", "counters",
    "tokens", "marked-damage", "day-night", "transform", "loyalty", "emblems", "copy", "level-up",
    "legend-rule", "choices", "color-identity",
    # protocol 1.1 (docs/case-format.md): `nth` in selectors; the `assign` action; `{stack: N}` targets;
    # observed ability texts; Auras and Equipment attached in setup
    "object-order", "damage-assignment", "stack-targets", "ability-text", "attachments",
    # protocol 1.2: an object's loyalty observed, in any zone (rule 306.5)
    "loyalty-value",
    # protocol 1.3: players' counters (poison, rad) set up and observed (rule 122.1)
    "player-counters",
    # protocol 1.4: permanents set up phased out (rule 702.26)
    "phasing",
)

#: Steps of a turn in order (rule 500.1), as the case format names them.
STEPS: Final = (
    "untap", "upkeep", "draw", "precombat-main", "beginning-of-combat", "declare-attackers",
    "declare-blockers", "first-strike-damage", "combat-damage", "end-of-combat", "postcombat-main",
    "end", "cleanup",
)

#: Zones an observed object can be in.
ZONES: Final = ("library", "hand", "battlefield", "graveyard", "stack", "exile", "command")

#: The verbs of an action: each action names exactly one.
ACTION_VERBS: Final = ("play", "cast", "activate", "pass", "resolve", "advance", "attack", "block", "assign",
                       "choose")
#: The other keys an action may have: who acts, what the harness expects (never sent), a note.
ACTION_MODIFIERS: Final = ("by", "expect", "note")

#: Defaults the harness fills in before sending a case: the game's and each player's.
SETUP_DEFAULTS: Final[dict[str, Any]] = {"turn": 2, "step": "precombat-main", "day_night": "neither"}
PLAYER_DEFAULTS: Final[dict[str, Any]] = {"life": 20, "mana_pool": "", "spells_cast_this_turn": 0,
                                          "lands_played_this_turn": 0, "counters": {}}
#: The lists of objects in a player's setup (the harness sends each, empty if the case has none).
PLAYER_ZONES: Final = ("battlefield", "hand", "library", "graveyard", "exile", "emblems")


def verb_of(action: dict[str, Any]) -> str:
    """The verb an action names (its one key that is not a modifier)."""
    for key in action:
        if key not in ACTION_MODIFIERS:
            return key
    raise ValueError(f"the action {action!r} names no verb")
