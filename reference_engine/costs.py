"""Activation costs as written in Oracle text, parsed once when a card definition loads (rule 602.1a)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from reference_engine.mana import ManaCost

_MANA_ONLY = re.compile(r"^(\{[0-9WUBRGCXSP/]+\})+$")
_SACRIFICE_A = re.compile(r"^Sacrifice (?:a|an|another) (.+)$")
_SACRIFICE_N = re.compile(r"^Sacrifice (two|three) (.+)s$")  # 'Sacrifice two Saprolings'
_NUMBERS = {"two": 2, "three": 3}
_PAY_LIFE = re.compile(r"^Pay (\d+) life$")
_REMOVE_COUNTER = re.compile(r"^Remove an? (.+) counter from (?:this|~)$")


@dataclass(frozen=True)
class Cost:
    """A parsed activation cost."""

    mana: ManaCost | None = None
    tap: bool = False
    untap: bool = False
    sacrifice_self: bool = False
    sacrifice: tuple[str, ...] | None = None  # 'Sacrifice a creature': the types or subtypes to choose from
    sacrifice_count: int = 1  # 'Sacrifice two Saprolings'
    sacrifice_other: bool = False
    discard: int = 0  # 'Discard a card' (choosing the card is not modelled: activating it is an engine limit)
    exile_self: bool = False  # 'Exile this creature:' (rule 118.3: a cost that moves its own source)
    life: int = 0
    discard_hand: bool = False  # 'Discard your hand'
    loyalty: int | None = None  # +N or -N loyalty counters (rule 606.4)
    remove_counter: str | None = None  # 'Remove a [kind] counter from this'

    @classmethod
    def parse(cls, text: str) -> "Cost":
        fields: dict = {}
        for part in (p.strip() for p in text.split(",")):
            if not part:
                continue
            if part == "{T}":
                fields["tap"] = True
            elif part == "{Q}":
                fields["untap"] = True
            elif _MANA_ONLY.match(part):
                fields["mana"] = ManaCost.parse(part)
            elif part.startswith("Sacrifice this") or part.startswith("Sacrifice ~"):
                fields["sacrifice_self"] = True
            elif part == "Discard a card":
                fields["discard"] = 1
            elif part.startswith("Exile this"):
                fields["exile_self"] = True
            elif match := _SACRIFICE_N.match(part):
                fields["sacrifice"] = (match.group(2),)
                fields["sacrifice_count"] = _NUMBERS[match.group(1)]
            elif match := _SACRIFICE_A.match(part):
                fields["sacrifice"] = tuple(match.group(1).split(" or "))
                fields["sacrifice_other"] = part.startswith("Sacrifice another")
            elif part == "Discard your hand":
                fields["discard_hand"] = True
            elif match := _PAY_LIFE.match(part):
                fields["life"] = int(match.group(1))
            elif match := _REMOVE_COUNTER.match(part):
                fields["remove_counter"] = match.group(1)
            else:
                raise ValueError(f"cost not understood: {part!r} in {text!r}")
        return cls(**fields)

    @classmethod
    def loyalty_cost(cls, amount: int) -> "Cost":
        return cls(loyalty=amount)

    @property
    def has_x(self) -> bool:
        return bool(self.mana and self.mana.x_count)
