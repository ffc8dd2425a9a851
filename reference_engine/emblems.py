"""What an emblem is as a source (rule 114): an object with its abilities and nothing else."""

from __future__ import annotations

from reference_engine.layers import Characteristics
from reference_engine.model import CardDef, Emblem, Face


def emblem_characteristics(emblem: Emblem) -> Characteristics:
    """Rule 114.3: an emblem has no characteristics other than the abilities the effect that created
    it defines: no name, no types, no mana cost, no color. Used when one of its abilities deals
    damage or is looked at as the source of that ability."""
    face = Face(name="", mana_cost=None, color_indicator=None, supertypes=(), types=(), subtypes=(),
                power=None, toughness=None, loyalty=None, abilities=emblem.abilities)
    return Characteristics(name="", mana_cost=None, colors=set(), supertypes=[], types=[], subtypes=[],
                           abilities=list(emblem.abilities), power=None, toughness=None, loyalty=None,
                           controller=emblem.controller, mana_value=0, copiable=face,
                           card=CardDef("", "emblem", (face,)))
