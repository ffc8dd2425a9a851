"""'If a creature an opponent controls would die, exile it instead. When you do, [effect]' (Nemata,
Primeval Warden): a replacement effect of a permanent's static ability (614.1a), written
`replacement: {dies_exile_instead: {filter, when_you_do: <triggered ability>}}`, the filter judged from
that permanent's controller.

The 'When you do' ability is a delayed triggered ability the replacement effect creates as it is
applied (603.7): its source is the permanent with the static ability, and its controller is whoever
controlled that permanent when the replacement effect was applied, even if control of it changes before
the ability resolves (603.7f). With other effects on where the creature goes, its controller chooses
the order (616.1): zone_replacements.py applies them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reference_engine.filters import FilterContext, matches
from reference_engine.layers import abilities_on_battlefield, characteristics

if TYPE_CHECKING:
    from reference_engine.game import Game
    from reference_engine.model import GameObject


def dies_replacements(game: Game, obj: GameObject) -> list[tuple[GameObject, str, dict[str, Any]]]:
    """The permanents whose 'would die, exile it instead' applies to `obj`: (permanent, controller, spec)."""
    state = game.state
    found = []
    for source, chars, ability in abilities_on_battlefield(state, "replacement"):
        spec = ability.data.get("dies_exile_instead")
        if spec is not None and matches(state, obj, spec.get("filter"), FilterContext(chars.controller, source.id, source.uid)):
            found.append((source, chars.controller, spec))
    return found


def create_delayed_trigger(game: Game, source: GameObject, controller: str, raw: dict[str, Any]) -> None:
    """603.7f: the source is the object with the static ability, the controller its controller now."""
    from reference_engine.carddefs import parse_ability
    from reference_engine.state import PendingTrigger

    state = game.state
    state.pending_triggers.append(PendingTrigger(controller, source.id, source.uid, characteristics(state, source).name,
                                                 parse_ability(raw), {"from_replacement": True},
                                                 state.new_timestamp()))
