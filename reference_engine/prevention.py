"""Prevention effects (rule 615) from resolved spells and abilities.

'Prevent all [combat] damage that would be dealt [this turn] by ...' (PreventionEffect) and 'prevent
the next N damage that would be dealt to [target] this turn' (Shield, 615.7) watch damage events for as
long as they last; they are not characteristics of any object. Which sources a PreventionEffect covers
is decided as each damage event would happen, from the source's characteristics then: the set of
creatures is not locked in as the effect begins (rule 611.2c applies only to effects that change
objects' characteristics). A shield is used up as it prevents damage (615.3). Prevented damage is never
dealt, so nothing that triggers on it triggers (603.2g). damage.py applies them with replacement effects.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from reference_engine.filters import FilterContext, matches
from reference_engine.layers import characteristics
from reference_engine.model import Target, Zone

if TYPE_CHECKING:
    from reference_engine.game import Game


@dataclass(eq=False)
class PreventionEffect:
    """`source`: a filter on the source of the damage; `combat_only`: only combat damage."""

    source: dict[str, Any]
    combat_only: bool
    controller: str
    timestamp: int
    duration: str = "end_of_turn"  # end_of_turn | permanent
    source_uid: int | None = None  # the spell or ability's source, which names the effect (616.1)
    source_name: str = ""
    to_you: bool = False  # 'prevent all damage that would be dealt to you'


@dataclass(eq=False)
class Shield:
    """'Prevent the next N damage that would be dealt to [target] this turn' (615.7): `remaining` of it."""

    target: Target
    remaining: int
    controller: str
    timestamp: int
    source_uid: int | None = None
    source_name: str = ""
    duration: str = "end_of_turn"
    combat_only: bool = False
    rider: dict[str, Any] | None = None  # what the rest of the effect does with the damage prevented (615.5)


@dataclass(eq=False)
class NextInstance:
    """'The next time [source] would deal damage this turn, prevent that damage' (615.8): the next damage
    event from that object, however much, then it is used up."""

    source_object: int
    controller: str
    timestamp: int
    source_uid: int | None = None
    source_name: str = ""
    duration: str = "end_of_turn"
    combat_only: bool = False
    rider: dict[str, Any] | None = None
    used: bool = False
    source_filter: dict[str, Any] | None = None  # 'a red source of your choice': rechecked as it would deal damage (615.9)
    to_player: str | None = None  # 'would deal damage to you'


@dataclass(eq=False)
class Redirect:
    """'All combat damage that would be dealt to you this turn is dealt to target attacking creature
    instead' (a redirection effect, 614.9): a replacement effect kept with the prevention effects, since
    it too watches damage events for a duration."""

    to_object: int
    controller: str
    timestamp: int
    combat_only: bool = False
    duration: str = "end_of_turn"


def redirected(game: Game, target: Target, *, combat: bool) -> Target:
    """Where damage to `target` is dealt: a redirection applies only while the permanent it redirects to is
    still on the battlefield and still a creature, planeswalker or battle (614.9)."""
    state = game.state
    for effect in state.prevention:
        if not isinstance(effect, Redirect) or (effect.combat_only and not combat):
            continue
        if target.kind != "player" or target.value != effect.controller:
            continue
        obj = state.objects.get(effect.to_object)
        if obj is None or obj.zone is not Zone.BATTLEFIELD:
            continue
        if not {"Creature", "Planeswalker", "Battle"} & set(characteristics(state, obj).types):
            continue
        return Target("object", obj.id)
    return target


def add(game: Game, effect: PreventionEffect | Shield | NextInstance | Redirect) -> None:
    game.state.prevention.append(effect)


def preventing(game: Game, source, target: Target, *, combat: bool) -> list[PreventionEffect]:
    """The 'prevent all' effects that would prevent damage from `source` to `target` (615.1a)."""
    state = game.state
    found = []
    obj = state.objects.get(source.object_id) if source.object_id is not None else None
    for effect in state.prevention:
        if not isinstance(effect, PreventionEffect) or (effect.combat_only and not combat):
            continue
        if effect.to_you and not (target.kind == "player" and target.value == effect.controller):
            continue
        if matches(state, obj, effect.source, FilterContext(effect.controller), chars=source.chars):
            found.append(effect)
    return found


def prevents(game: Game, source, target: Target, amount: int, *, combat: bool) -> bool:
    """True if some prevention effect prevents all of this damage (615.1a)."""
    return bool(preventing(game, source, target, combat=combat))


def shields(game: Game, target: Target) -> list[Shield]:
    """The shields left on a player or permanent (615.7)."""
    return [e for e in game.state.prevention if isinstance(e, Shield) and e.target == target and e.remaining > 0]


def next_instances(game: Game, source, target: Target) -> list[NextInstance]:
    """The 'next time [it] would deal damage' effects waiting for this source (615.8). One that names the
    source's properties ('a red source of your choice') applies only if the source still has them as it
    would deal the damage; if not, it isn't used up (615.9, 609.7b)."""
    state = game.state
    obj = state.objects.get(source.object_id) if source.object_id is not None else None
    return [e for e in state.prevention
            if isinstance(e, NextInstance) and not e.used and e.source_object == source.object_id
            and (e.to_player is None or (target.kind == "player" and target.value == e.to_player))
            and (e.source_filter is None or matches(state, obj, e.source_filter, FilterContext(e.controller),
                                                    chars=source.chars))]


def end_of_turn(game: Game) -> None:
    """Rule 514.2: 'this turn' prevention effects end in the cleanup step."""
    state = game.state
    state.prevention = [e for e in state.prevention if e.duration != "end_of_turn"]
