"""A copy effect from a replacement effect with a triggered ability linked to it in the same paragraph
(603.11): 'You may have this creature enter as a copy of any creature on the battlefield, except ...
When you do, tap the copied creature ...' (Wall of Stolen Identity), written
`as_enters_copy: {..., when_you_do: <triggered ability>}`.

The linked ability triggers when that copy effect is applied, and 'the copied creature' is the object
chosen. If another copy effect is applied to the permanent after it (it copied a Clone that copied
nothing, and so gained Clone's 'enter as a copy' ability, 707.9e), the ability doesn't trigger (707.9g):
only the last copy effect applied as it enters may bring a linked trigger.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from reference_engine.game import Game
    from reference_engine.model import GameObject

KEY = "linked_copy_trigger"


def note_linked_trigger(entry, spec: dict[str, Any], copied: int) -> None:
    """Record the linked trigger of the copy effect just applied, replacing that of an earlier one."""
    choices = dict(entry.choices or {})
    choices.pop(KEY, None)
    if spec.get("when_you_do"):
        choices[KEY] = (spec["when_you_do"], copied)
    entry.choices = choices or None


def linked_trigger_triggers(game: Game, new: GameObject) -> None:
    """The permanent has entered as a copy: its copy effect's linked ability triggers, 'the copied
    creature' being `it` (a triggered ability, put on the stack the next time a player would receive
    priority, 603.3)."""
    found = new.chosen.pop(KEY, None)
    if found is None:
        return
    from reference_engine.carddefs import parse_ability
    from reference_engine.layers import characteristics
    from reference_engine.state import PendingTrigger

    raw, copied = found
    state = game.state
    chars = characteristics(state, new)
    state.pending_triggers.append(PendingTrigger(chars.controller, new.id, new.uid, new.card.name, parse_ability(raw),
                                                 {"memory": {"it": [copied]}}, state.new_timestamp()))
