"""The game state: players, objects by zone, the stack, effects, the turn and what happened in it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any, Iterator

from reference_engine import saving
from reference_engine.model import (CardDef, ContinuousEffect, Counts, Emblem, GameObject, Player, StackItem,
                                    Step, Zone)
from reference_engine.saving import Saved

@dataclass
class Derived:
    """Values that follow from one version of the state (GameState.version), computed when first
    needed and kept until the version changes: never saved, and dropped when a saved state comes back."""

    version: int = -1
    characteristics: dict[int, Any] | None = None  # of the battlefield, by object id (layers.py)
    trigger_sources: list[Any] | None = None  # permanents with triggered abilities (triggers.py)
    day_night_enforced: bool = False  # daybound and nightbound hold (daynight.py)
    battlefield: tuple[Any, ...] | None = None  # the permanents, phased-out ones left out (GameState.battlefield)
    copy_sources: tuple[Any, ...] | None = None  # permanents with a chosen creature to copy (copy_statics.py)
    keywords: dict[str, frozenset[str]] | None = None  # keyword -> controllers of permanents with it (layers.py)
    controllers_looked_at: bool = False  # control changes were noticed (sba.control_changes)
    abilities: dict[str, list[Any]] | None = None  # the permanents' abilities by kind (layers.py)


DERIVED = ("derived",)  # GameState fields that saving leaves out: recomputed after restoring
#: GameState fields set up once and never changed during a game: a saved state shares them rather than
#: copying them (the Oracle reference is an eighth of what every cast or activation used to pickle).
FIXED = ("oracle",)
_NOT_SAVED = DERIVED + FIXED

#: Zones kept per player; the battlefield, the stack and the command zone are shared.
OWNED_ZONES = (Zone.LIBRARY, Zone.HAND, Zone.GRAVEYARD, Zone.EXILE)
_BATTLEFIELD = (Zone.BATTLEFIELD, None)


@dataclass(eq=False)
class DelayedTrigger:
    """A delayed triggered ability (rule 603.7), created by a resolving spell or ability: it triggers
    once, the next time its event occurs (603.7b). Its source and controller are those of the spell or
    ability that created it (603.7d-e); `memory` holds the objects it refers to ('that creature'), by the
    ids they had then, so a new object those become is not affected (603.7c)."""

    controller: str
    source_id: int | None
    source_uid: int | None
    source_name: str
    ability: Any
    memory: dict[str, Any]


@dataclass(eq=False)
class PendingTrigger:
    """A triggered ability that has triggered but is not on the stack yet (rule 603.3)."""

    controller: str
    source_id: int
    source_uid: int
    source_name: str
    ability: Any
    event: dict[str, Any]
    timestamp: int
    source_transform_count: int = 0
    source_snapshot: Any = None


@dataclass(eq=False)
class Combat:
    """Who attacks whom and who blocks whom, by object id (rules 506-511)."""

    attackers: dict[int, Any] = field(default_factory=dict)  # attacker id -> Target attacked
    blockers: dict[int, list[int]] = field(default_factory=dict)  # blocker id -> attacker ids
    blocked: set[int] = field(default_factory=set)
    first_strike_dealt: set[int] = field(default_factory=set)


@dataclass(eq=False)
class GameState:
    players: dict[str, Player]
    turn: int = 2
    active: str = ""
    step: Step = Step.PRECOMBAT_MAIN
    priority: str | None = None
    day_night: str | None = None  # None (neither), "day", "night" (rule 731)
    objects: dict[int, GameObject] = field(default_factory=dict)
    oracle: dict[str, CardDef] = field(default_factory=dict)  # the cards sent with the case, by name (111.11)
    zones: dict[tuple[Zone, str | None], list[int]] = field(default_factory=dict)
    stack: list[StackItem] = field(default_factory=list)  # bottom first
    emblems: list[Emblem] = field(default_factory=list)
    effects: list[ContinuousEffect] = field(default_factory=list)
    prevention: list[Any] = field(default_factory=list)  # prevention effects (615), see prevention.py
    pending_triggers: list[PendingTrigger] = field(default_factory=list)
    delayed: list[DelayedTrigger] = field(default_factory=list)  # delayed triggered abilities (603.7)
    skips: list[tuple[str, str]] = field(default_factory=list)  # (player, step): 'skips their next ...' (614.10)
    # Rules that a resolved spell changed for this turn: 'damage can't be prevented' (615.12), 'players
    # can't gain life' (614.17). Cleared in the cleanup step.
    this_turn: set[str] = field(default_factory=set)
    # 'If a creature would enter under an opponent's control this turn, it enters under your control
    # instead': (player, filter) of each such effect (614.1, 616.1b). Cleared in the cleanup step.
    entering_control: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    # 'The next [filter] spell you cast this turn [has rule]' (611.2f): (player, turn, filter, rule), waiting
    # for that player to put such a spell on the stack.
    next_spell: list[tuple[str, int, dict[str, Any], str]] = field(default_factory=list)
    regeneration: list[int] = field(default_factory=list)  # ids of permanents with a regeneration shield (614.8)
    combat: Combat | None = None
    spells_cast: Counter[str] = field(default_factory=Counts)  # this turn, per player
    previous_turn_spells: Counter[str] = field(default_factory=Counts)
    previous_active: str | None = None
    lki: dict[int, Any] = field(default_factory=dict)  # last known information by object id
    # Each permanent's controller when last looked at, to notice control changing (603.10d).
    controllers_seen: dict[int, str] = field(default_factory=dict)
    linked: dict[int, list[int]] = field(default_factory=dict)  # source object id -> cards exiled with it (607.2a)
    # Cards each player has drawn in their draw step, by (turn, player): 'the first one they draw in each
    # of their draw steps'.
    draw_step_draws: dict[tuple[int, str], int] = field(default_factory=dict)
    # This turn: creatures that died under each player's control, and how many times each triggered
    # ability counting its resolutions ('when this ability resolves for the third time this turn') resolved.
    died_this_turn: dict[str, int] = field(default_factory=dict)
    resolutions_this_turn: dict[str, int] = field(default_factory=dict)
    # The objects an event now being performed puts onto the battlefield at the same time (614.13a).
    entering_together: frozenset[int] = frozenset()
    # While the triggers of an event moving objects off the battlefield are checked: the permanents with
    # triggered abilities as they were immediately before that event (603.10a), else None.
    lookback: Any = None
    skip_draw: set[tuple[str, int]] = field(default_factory=set)  # (player, turn): 'you skip your draw step this turn'
    next_id: int = 1
    next_timestamp: int = 1
    version: int = 0
    over: bool = False
    rejection: str | None = None
    derived: Derived = field(default_factory=Derived, repr=False)

    def now(self) -> Derived:
        """The derived values of this version of the state (fresh ones once the version changed)."""
        if self.derived.version != self.version:
            self.derived = Derived(self.version)
        return self.derived

    # --- identities and time -----------------------------------------------------------------
    @property
    def combat_now(self) -> Combat:
        """The combat under way, in a step of combat (rule 506) where there is one."""
        assert self.combat is not None, "no combat is under way"
        return self.combat

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id - 1

    def new_timestamp(self) -> int:
        self.next_timestamp += 1
        return self.next_timestamp - 1

    def touch(self) -> None:
        """Something that characteristics depend on changed: recompute them on next read.

        Characteristics of permanents depend on the battlefield (its objects and what is on them),
        continuous effects and emblems; objects elsewhere have their printed characteristics, which
        are not cached. So a card moving between two other zones (drawn, cast, put into a graveyard
        from the stack) changes no version."""
        self.version += 1

    # --- players -----------------------------------------------------------------------------
    @property
    def turn_order(self) -> list[str]:
        return list(self.players)

    def apnap(self) -> list[str]:
        """Players in APNAP order (rule 101.4): the active player first, then in turn order."""
        order = self.turn_order
        start = order.index(self.active)
        return order[start:] + order[:start]

    def next_player(self, name: str) -> str:
        order = self.turn_order
        return order[(order.index(name) + 1) % len(order)]

    def opponents(self, name: str) -> list[str]:
        return [p for p in self.players if p != name]

    # --- zones -------------------------------------------------------------------------------
    def zone_key(self, zone: Zone, owner: str) -> tuple[Zone, str | None]:
        return (zone, owner if zone in OWNED_ZONES else None)

    def zone_ids(self, zone: Zone, owner: str | None = None) -> list[int]:
        return self.zones.setdefault((zone, owner if zone in OWNED_ZONES else None), [])

    def in_zone(self, zone: Zone, owner: str | None = None) -> list[GameObject]:
        return [self.objects[i] for i in self.zone_ids(zone, owner)]

    def battlefield(self) -> list[GameObject]:
        """The permanents: phased-out ones are treated as though they don't exist (702.26b). Read very
        often, so kept per version: whatever puts an object onto the battlefield, takes one off it or
        phases one touches the state. A fresh list each time, which callers may change."""
        derived = self.derived  # self.now(), inlined: read very often
        if derived.version != self.version:
            derived = self.now()
        if derived.battlefield is None:
            objects = self.objects
            found = [objects[i] for i in self.zones.get(_BATTLEFIELD, ())]
            for obj in found:
                if obj.phased_out:
                    found = [obj for obj in found if not obj.phased_out]
                    break
            derived.battlefield = tuple(found)
        return list(derived.battlefield)

    def all_objects(self) -> Iterator[GameObject]:
        return iter(self.objects.values())

    def find_uid(self, uid: int) -> GameObject | None:
        for obj in self.objects.values():
            if obj.uid == uid:
                return obj
        return None

    def add_object(self, card: CardDef, owner: str, zone: Zone, *, controller: str | None = None,
                   is_token: bool = False, uid: int | None = None, position: int | None = None,
                   face: int = 0) -> GameObject:
        obj = GameObject(self.new_id(), uid if uid is not None else self.new_id(), card, owner, controller or owner,
                         zone, is_token, face, self.new_timestamp())
        self.objects[obj.id] = obj
        ids = self.zone_ids(zone, owner)
        ids.insert(len(ids) if position is None else position, obj.id)
        if zone is Zone.BATTLEFIELD:
            self.touch()
        return obj

    def remove_object(self, obj: GameObject) -> None:
        self.zone_ids(obj.zone, obj.owner).remove(obj.id)
        del self.objects[obj.id]
        if obj.zone is Zone.BATTLEFIELD:
            self.touch()

    def move(self, obj: GameObject, to: Zone, *, controller: str | None = None, position: int | None = None,
             face: int = 0) -> GameObject:
        """Move an object to another zone: it becomes a new object with no memory of the old one (400.7)."""
        self.remove_object(obj)
        new = GameObject(self.new_id(), obj.uid, obj.card, obj.owner, controller or obj.owner, to, obj.is_token, face,
                         self.new_timestamp(), obj.spell_copy)
        self.objects[new.id] = new
        ids = self.zone_ids(to, new.owner)
        ids.insert(len(ids) if position is None else position, new.id)
        if to is Zone.BATTLEFIELD:
            self.touch()
        return new

    # --- saving, for rejected actions --------------------------------------------------------
    def save(self) -> Saved:
        """The state as it is now, to restore if the move being made turns out to be illegal. Its fields
        are read one by one, never through `__dict__`: in Python 3.11 an object whose `__dict__` has
        been asked for reads its attributes more slowly from then on."""
        return saving.save(_saved_values(self))

    def restore(self, saved: Saved) -> None:
        """Become the state `saved` again, exactly (the FIXED fields are the same objects throughout)."""
        for name, value in zip(SAVED_FIELDS, saving.load(saved)):
            setattr(self, name, value)
        self.derived = Derived()  # computed for the state being abandoned
        self.touch()

    def snapshot(self) -> "GameState":
        """An independent copy of the state, to try a move on without touching this one."""
        clone = GameState.__new__(GameState)
        clone.restore(self.save())
        for name in FIXED:
            setattr(clone, name, getattr(self, name))
        return clone


#: The fields a saved state holds, in the order `save` reads them.
SAVED_FIELDS = tuple(f.name for f in fields(GameState) if f.name not in _NOT_SAVED)
_saved_values = attrgetter(*SAVED_FIELDS)
