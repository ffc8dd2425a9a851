"""Game objects as data: zones, steps, card definitions, objects, players, stack items, effects."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Mapping

from engine_kit.values import value_class
from reference_engine.mana import Counts, ManaCost
from reference_engine.saving import Shared


class Zone(StrEnum):
    LIBRARY = "library"
    HAND = "hand"
    BATTLEFIELD = "battlefield"
    GRAVEYARD = "graveyard"
    STACK = "stack"
    EXILE = "exile"
    COMMAND = "command"


class Step(StrEnum):
    UNTAP = "untap"
    UPKEEP = "upkeep"
    DRAW = "draw"
    PRECOMBAT_MAIN = "precombat-main"
    BEGINNING_OF_COMBAT = "beginning-of-combat"
    DECLARE_ATTACKERS = "declare-attackers"
    DECLARE_BLOCKERS = "declare-blockers"
    FIRST_STRIKE_DAMAGE = "first-strike-damage"
    COMBAT_DAMAGE = "combat-damage"
    END_OF_COMBAT = "end-of-combat"
    POSTCOMBAT_MAIN = "postcombat-main"
    END = "end"
    CLEANUP = "cleanup"


class AbilityKind(StrEnum):
    """The kinds of ability a card definition names (reference_engine/cards/). Ability.kind holds the
    value as a plain string: it is compared in the engine's hottest loops, where a str is faster."""

    KEYWORD = "keyword"
    MANA = "mana"
    ACTIVATED = "activated"
    LOYALTY = "loyalty"
    TRIGGERED = "triggered"
    STATIC = "static"
    REPLACEMENT = "replacement"
    SPELL = "spell"
    RULE = "rule"  # a rule change, such as 'triggers an additional time'


class DecisionKind(StrEnum):
    """What a player is asked (moves.Decision). Priority and the two combat declarations are answered
    by their own moves, every other kind by a Choose."""

    PRIORITY = "priority"
    ATTACKERS = "attackers"
    BLOCKERS = "blockers"
    ORDER_TRIGGERS = "order_triggers"
    ORDER_CARDS = "order_cards"  # the order of a melded permanent's two cards put into a library (712.21a)
    REPLACEMENT = "replacement"  # which replacement or prevention effect applies first (616.1)
    DAMAGE = "damage"  # how the player's creatures assign their combat damage (510.1)
    TARGETS = "targets"
    MODES = "modes"  # the modes of a modal triggered ability (603.3c)
    OPTION = "option"  # one of the words a card offers as it enters (614.12c)
    MAY = "may"
    OBJECTS = "objects"
    COLOR = "color"
    MANA = "mana"
    COUNTER = "counter"
    NUMBER = "number"  # how many times to pay a cost ('any number of times', 603.12a)


class Layer(StrEnum):
    """The layers and sublayers continuous effects apply in, in order (rule 613.1, 613.4); the values
    sort in that order."""

    COPY = "1"
    CONTROL = "2"
    TEXT = "3"
    TYPE = "4"
    COLOR = "5"
    ABILITY = "6"
    PT_DEFINING = "7a"
    PT_SETTING = "7b"
    PT_MODIFYING = "7c"
    PT_SWITCHING = "7d"


class Duration(StrEnum):
    """How long a resolved effect lasts (rule 611.2a-b)."""

    END_OF_TURN = "end_of_turn"
    UNTIL_YOUR_NEXT_TURN = "until_your_next_turn"
    WHILE_YOU_CONTROL_SOURCE = "while_you_control_source"  # 'for as long as you control [it]'
    PERMANENT = "permanent"


#: Steps in turn order (rule 500.1).
STEPS: tuple[Step, ...] = tuple(Step)
MAIN_PHASES = (Step.PRECOMBAT_MAIN, Step.POSTCOMBAT_MAIN)
COMBAT_STEPS = (Step.BEGINNING_OF_COMBAT, Step.DECLARE_ATTACKERS, Step.DECLARE_BLOCKERS,
                Step.FIRST_STRIKE_DAMAGE, Step.COMBAT_DAMAGE, Step.END_OF_COMBAT)


class _Immutable(Shared):
    """Shared, never-mutated definitions are not copied when a game state is saved or snapshotted."""


@dataclass(frozen=True, eq=False)
class Ability(_Immutable):
    """One ability of a face, as defined in reference_engine/cards/: its kind and its data.

    kind is an AbilityKind's value.
    """

    kind: str
    data: Mapping[str, Any]
    keyword: str | None = None
    cost: Any = None  # a Cost (reference_engine/costs.py), parsed from data["cost"]
    additional_cost: Any = None  # a ManaCost: an optional additional cost such as buyback (rule 601.2b)
    cast_cost: Any = None  # a ManaCost paid rather than the mana cost, such as disturb's (702.146a)
    extra_cost: Any = None  # a ManaCost: the price of flash, 'if you pay {2} more' (rule 601.3c)
    alternative_cost: Any = None  # a ManaCost paid 'rather than pay its mana cost' (rule 118.9)
    text: str | None = None  # its Oracle text (or the quoted text of the effect granting it), if known

    @property
    def is_activated(self) -> bool:
        """Counts for activate.ability indexes: activated, mana and loyalty abilities, level up."""
        return self.kind in ("mana", "activated", "loyalty") or (
            self.kind == "keyword" and "cost" in self.data)

    def __repr__(self) -> str:
        return f"Ability({self.keyword or self.kind})"


@dataclass(frozen=True, eq=False)
class Face(_Immutable):
    """Printed characteristics of one face (rule 109.3) and its abilities."""

    name: str
    mana_cost: ManaCost | None
    color_indicator: frozenset[str] | None
    supertypes: tuple[str, ...]
    types: tuple[str, ...]
    subtypes: tuple[str, ...]
    power: str | None
    toughness: str | None
    loyalty: str | None
    abilities: tuple[Ability, ...]
    text: str = ""

    @property
    def colors(self) -> frozenset[str]:
        """Rule 202.2 / 204: a color indicator defines the colors, otherwise the mana cost does."""
        if self.color_indicator is not None:
            return self.color_indicator
        return self.mana_cost.colors() if self.mana_cost else frozenset()


@dataclass(frozen=True, eq=False)
class CardDef(_Immutable):
    """A card (or a token's definition): one face, or a front and a back face."""

    name: str
    layout: str
    faces: tuple[Face, ...]
    #: Characteristics off the battlefield, which depend only on the card (layers.characteristics).
    printed_cache: dict = field(default_factory=dict, compare=False, repr=False)
    #: What each face says as layers.printed reads it, by (face, mana-value face, X); the same for any card.
    printed_parts: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def double_faced(self) -> bool:
        return len(self.faces) > 1

    @property
    def front(self) -> Face:
        return self.faces[0]


@value_class
class Target:
    """A chosen target: a player (by name) or an object (by id)."""

    kind: str  # "player" | "object" | "ability" (an activated or triggered ability on the stack, by stack id)
    value: str | int

    @property
    def object_id(self) -> int:
        """The id of the object (or of the ability on the stack) a target that isn't a player names."""
        assert isinstance(self.value, int), self
        return self.value

    @property
    def player(self) -> str:
        assert isinstance(self.value, str), self
        return self.value


@dataclass(eq=False)
class GameObject:
    """A card, token, copy or spell in some zone. A new object each time it changes zones (rule 400.7)."""

    id: int
    uid: int  # the physical card or token this object is, kept across zone changes
    card: CardDef
    owner: str
    controller: str
    zone: Zone
    is_token: bool = False
    face: int = 0
    timestamp: int = 0
    spell_copy: bool = False  # a copy of a spell (rule 707.10): it ceases to exist off the stack (704.5e)
    # (The fields above are the ones a new object is made with, in this order: state.add_object and
    # state.move pass them by position, which is a third cheaper than by keyword with this many fields.)
    tapped: bool = False
    summoning_sick: bool = False
    counters: Counter[str] = field(default_factory=Counts)
    damage: int = 0
    deathtouch_damage: bool = False
    counter_times: dict[str, int] = field(default_factory=dict)  # kind -> timestamp (rule 613.7c)
    transform_count: int = 0
    copy_token: bool = False  # a token created as a copy of something (rule 202.3b)
    face_down: bool = False  # a face-down permanent (rule 708): a 2/2 creature with no other characteristics
    # Phased out (702.26): treated as though it doesn't exist, and under whose control it phased out.
    phased_out: bool = False
    phased_out_controller: str | None = None
    # A melded permanent (rule 712.4a): the other card that represents it, as (uid, card).
    meld_partner: tuple[int, "CardDef"] | None = None
    # The object the other card of a melded permanent became as they left the battlefield (712.21c).
    arrived_with: int | None = None
    attached_to: int | None = None  # the permanent this Equipment or Aura is attached to (rule 301.5)
    attached_player: str | None = None  # the player an Aura with 'enchant player' is attached to (303.4, 702.5)
    chosen: dict[str, Any] = field(default_factory=dict)  # 'as this enters, choose ...' (rule 614.12a)
    # As a spell on the stack:
    x: int | None = None
    targets: tuple[Target, ...] = ()
    modes: tuple[int, ...] = ()
    spell_rules: frozenset[str] = frozenset()  # e.g. 'cant_be_countered', from 'the next spell you cast' (611.2f)
    # The X of the spell this permanent was, for its enters abilities (rule 107.3m).
    spell_x: int | None = None
    loyalty_turn: int | None = None  # turn a loyalty ability of it was last activated (rule 606.3)
    activated_turns: dict[int, int] = field(default_factory=dict)  # 'only once each turn' (602.1b): index -> turn
    class_level: int = 1  # a Class's level (rule 716.2): a designation, not level counters (711.7)

    @property
    def face_def(self) -> Face:
        return self.card.faces[self.face]


@dataclass(eq=False)
class StackItem:
    """A spell (object_id) or an activated or triggered ability on the stack."""

    id: int
    controller: str
    object_id: int | None = None  # set for spells
    ability: Ability | None = None
    source_id: int | None = None
    source_uid: int | None = None
    source_name: str = ""
    targets: tuple[Target, ...] = ()
    x: int | None = None
    event: dict[str, Any] = field(default_factory=dict)
    source_transform_count: int = 0  # rule 701.27f
    source_snapshot: Any = None  # last known information of the source
    optional_costs_paid: tuple[str, ...] = ()  # keywords whose optional additional cost was paid (buyback)
    alternative_cost_paid: str | None = None  # the alternative cost paid for a spell (118.9), e.g. its dash cost
    targets_wait_for_costs: bool = False  # 601.5: announced targets checked again once costs are paid
    division: tuple[int, ...] = ()  # 601.2d: how the spell's damage is divided among its targets, in their order
    #: steps a permission it was cast with runs as it enters ('it gains haste until end of turn', 611.3d)
    permission_on_enter: tuple[dict[str, Any], ...] = ()
    permission_source_id: int | None = None  # the permanent whose permission it was cast with

    @property
    def is_spell(self) -> bool:
        return self.object_id is not None

    @property
    def spell_id(self) -> int:
        """The spell's object id (a spell's item only)."""
        assert self.object_id is not None, "an ability on the stack is no object"
        return self.object_id


@dataclass(eq=False)
class ContinuousEffect:
    """An effect from a resolved spell or ability (rule 611), applied in its layer (rule 613)."""

    layer: Layer | str
    timestamp: int
    modifier: str
    params: dict[str, Any]
    affected: frozenset[int]
    controller: str
    duration: Duration | str = Duration.END_OF_TURN
    source_id: int | None = None  # the object 'for as long as you control [it]' refers to


@dataclass(eq=False)
class Emblem:
    """An emblem in the command zone (rule 114)."""

    id: int
    uid: int
    controller: str
    source_name: str
    abilities: tuple[Ability, ...]
    timestamp: int


@dataclass(eq=False)
class Player:
    name: str
    life: int = 20
    pool: Counter[str] = field(default_factory=Counts)
    #: Mana of the pool that can be spent only on certain spells (106.6): (type, filter), one per mana.
    restricted: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    #: Mana of the pool produced by a snow source (107.4h), by type: what can pay {S}.
    snow: Counter[str] = field(default_factory=Counts)
    lost: bool = False
    loss_reason: str = ""
    lands_played: int = 0
    drew_from_empty_library: bool = False
    poison: int = 0  # poison counters (rule 122.1f)
    #: Counters of other kinds the player has (rule 122.1), by kind: rad counters (122.1i, 728).
    counters: Counter[str] = field(default_factory=Counts)
    speed: int | None = None  # no speed until a rule or effect sets it (702.179b)
