"""Object filters used by card definitions ('other Wolves and Werewolves you control', ...).

A filter is a mapping of conditions; every condition must hold. Each condition is a plain function
with one signature, registered by key, so card data can combine them freely.
"""

from __future__ import annotations

from typing import Any, Callable

from engine_kit.values import value_class
from reference_engine.model import GameObject
from reference_engine.state import GameState


@value_class
class FilterContext:
    """Who 'you' are and which object 'this' is, for the filter being evaluated."""

    you: str
    source_id: int | None = None
    source_uid: int | None = None


#: (state, the object or None when only its characteristics remain, the condition's value, context, characteristics)
Condition = Callable[[GameState, GameObject | None, Any, FilterContext, Any], bool]
CONDITIONS: dict[str, Condition] = {}


def condition(name: str) -> Callable[[Condition], Condition]:
    def register(fn: Condition) -> Condition:
        if name in CONDITIONS:  # two definitions of one name: the later would silently win
            raise ValueError(f"{name!r} is registered twice ({CONDITIONS[name].__module__} and {fn.__module__})")
        CONDITIONS[name] = fn
        return fn
    return register


def matches(state: GameState, obj: GameObject | None, filt: dict[str, Any] | None, ctx: FilterContext,
            chars: Any = None) -> bool:
    """True if `obj` meets every condition of `filt`. `chars` overrides its characteristics (layers)."""
    if not filt:
        return True
    if chars is None:
        assert obj is not None, "matches() needs the object or its characteristics"
        chars = layers.characteristics(state, obj)
    for key, value in filt.items():
        check = CONDITIONS.get(key)
        if check is None:
            raise KeyError(f"unknown filter condition {key!r}")
        if not check(state, obj, value, ctx, chars):
            return False
    return True


@condition("types")
def _types(state, obj, value, ctx, chars) -> bool:
    types = chars.types
    for card_type in value:
        if card_type not in types:
            return False
    return True


@condition("types_any")
def _types_any(state, obj, value, ctx, chars) -> bool:
    return any(chars.has_type(t) for t in value)


@condition("not_types")
def _not_types(state, obj, value, ctx, chars) -> bool:
    return not any(chars.has_type(t) for t in value)


@condition("subtypes")
def _subtypes(state, obj, value, ctx, chars) -> bool:
    return all(chars.has_subtype(t) for t in value)


@condition("subtypes_any")
def _subtypes_any(state, obj, value, ctx, chars) -> bool:
    return any(chars.has_subtype(t) for t in value)


@condition("supertypes")
def _supertypes(state, obj, value, ctx, chars) -> bool:
    return all(t in chars.supertypes for t in value)


@condition("transformed")
def _transformed(state, obj, value, ctx, chars) -> bool:
    """'a transformed permanent': a double-faced permanent with its back face up, never one front face
    up again after transforming back (701.27g)."""
    return (obj.card.double_faced and obj.face == 1) == bool(value)


@condition("not_supertypes")
def _not_supertypes(state, obj, value, ctx, chars) -> bool:
    """'nonlegendary': none of these supertypes."""
    return not any(t in chars.supertypes for t in value)


@condition("controller")
def _controller(state, obj, value, ctx, chars) -> bool:
    if value == "you":
        return chars.controller == ctx.you
    if value == "opponent":
        return chars.controller != ctx.you
    return chars.controller == value


@condition("owner")
def _owner(state, obj, value, ctx, chars) -> bool:
    return obj.owner == (ctx.you if value == "you" else value)


@condition("other")
def _other(state, obj, value, ctx, chars) -> bool:
    return (obj.id != ctx.source_id) == bool(value)


@condition("self")
def _self(state, obj, value, ctx, chars) -> bool:
    return (obj.id == ctx.source_id) == bool(value)


@condition("token")
def _token(state, obj, value, ctx, chars) -> bool:
    return obj.is_token == bool(value)


@condition("name")
def _name(state, obj, value, ctx, chars) -> bool:
    return chars.name == value


@condition("mana_cost_has_x")
def _mana_cost_has_x(state, obj, value, ctx, chars) -> bool:
    """'a spell with {X} in its mana cost'."""
    has_x = chars.mana_cost is not None and chars.mana_cost.x_count > 0
    return has_x == bool(value)


@condition("mana_value_min")
def _mana_value_min(state, obj, value, ctx, chars) -> bool:
    return chars.mana_value >= value


@condition("mana_value_max")
def _mana_value_max(state, obj, value, ctx, chars) -> bool:
    return chars.mana_value <= value


@condition("tapped")
def _tapped(state, obj, value, ctx, chars) -> bool:
    return obj.tapped == bool(value)


@condition("zone")
def _zone(state, obj, value, ctx, chars) -> bool:
    return obj.zone == value


@condition("double_faced")
def _double_faced(state, obj, value, ctx, chars) -> bool:
    return obj.card.double_faced == bool(value)


@condition("has_keyword")
def _has_keyword(state, obj, value, ctx, chars) -> bool:
    return chars.has_keyword(value)


@condition("lacks_keywords")
def _lacks_keywords(state, obj, value, ctx, chars) -> bool:
    return not any(chars.has_keyword(k) for k in value)


@condition("colors")
def _colors(state, obj, value, ctx, chars) -> bool:
    """'Green creatures': has each of these colors, whatever others it has (rule 608.2j)."""
    return all(c in chars.colors for c in value)


@condition("not_colors")
def _not_colors(state, obj, value, ctx, chars) -> bool:
    """'Nonblack': none of these colors."""
    return not any(c in chars.colors for c in value)


@condition("mana_value_parity")
def _mana_value_parity(state, obj, value, ctx, chars) -> bool:
    """'Spells with even mana values' (zero is even); a spell on the stack counts its X (202.3e)."""
    return (chars.mana_value % 2 == 0) == (value == "even")


@condition("colorless")
def _colorless(state, obj, value, ctx, chars) -> bool:
    return (not chars.colors) == bool(value)


@condition("attacking")
def _attacking(state, obj, value, ctx, chars) -> bool:
    """'target attacking creature'."""
    return (state.combat is not None and obj is not None and obj.id in state.combat.attackers) == bool(value)


@condition("colors_any")
def _colors_any(state, obj, value, ctx, chars) -> bool:
    """'a red source': at least one of these colors."""
    return any(c in chars.colors for c in value)


@condition("not_subtypes")
def _not_subtypes(state, obj, value, ctx, chars) -> bool:
    """Has none of these subtypes ('creatures other than Werewolves and Wolves')."""
    return not any(chars.has_subtype(t) for t in value)


@condition("attached_to_source")
def _attached_to_source(state, obj, value, ctx, chars) -> bool:
    """'Equipped creature' / 'enchanted creature': the permanent the source is attached to (301.5, 303.4)."""
    source = state.objects.get(ctx.source_id) if ctx.source_id is not None else None
    attached = source is not None and source.attached_to == obj.id
    return attached == bool(value)


@condition("power_min")
def _power_min(state, obj, value, ctx, chars) -> bool:
    """'A creature with power 3 or greater'."""
    return chars.power is not None and chars.power >= value


@condition("enchanted")
def _enchanted(state, obj, value, ctx, chars) -> bool:
    """'An enchanted creature': a permanent with an Aura attached to it (303.4)."""
    enchanted = any(other.attached_to == obj.id and "Aura" in layers.characteristics(state, other).subtypes
                    for other in state.battlefield())
    return enchanted == bool(value)


# The layers build on filters (static abilities name what they affect with one): bound here, at the
# end, so that either module can be imported first; read when called.
from reference_engine import layers  # noqa: E402
