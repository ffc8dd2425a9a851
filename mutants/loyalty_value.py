"""Mutants for an object's loyalty as a characteristic (rule 306.5) and for an effect that sets card
types (205.1a): each breaks one rule the way a real engine might."""

from __future__ import annotations

from mutants.patching import Patcher, mutant


@mutant("loyalty-of-non-planeswalkers", "an object that isn't a planeswalker has loyalty: its loyalty counters on "
        "the battlefield, its printed loyalty elsewhere", ["306.5"])
def _loyalty_of_non_planeswalkers(p: Patcher) -> None:
    def loyalty(state, obj):
        from reference_engine.layers import characteristics
        from reference_engine.model import Zone

        if obj.zone is Zone.BATTLEFIELD and "loyalty" in obj.counters:
            return obj.counters["loyalty"]
        printed = obj.card.faces[obj.face].loyalty
        return int(printed) if printed is not None and printed.isdigit() else characteristics(state, obj).loyalty
    p.replace("loyalty", "loyalty", loyalty)


@mutant("loyalty-counted-off-the-battlefield", "a planeswalker card off the battlefield has as much loyalty as it has "
        "loyalty counters (none), not its printed loyalty", ["306.5a"])
def _loyalty_counted_everywhere(p: Patcher) -> None:
    def wrapper(original):
        def loyalty(state, obj):
            found = original(state, obj)
            return None if found is None else obj.counters.get("loyalty", 0)
        return loyalty
    p.wrap("loyalty", "loyalty", wrapper)


@mutant("printed-loyalty-on-the-battlefield", "a planeswalker on the battlefield has its printed loyalty, not the "
        "number of loyalty counters on it", ["306.5c"])
def _printed_loyalty_everywhere(p: Patcher) -> None:
    def wrapper(original):
        def loyalty(state, obj):
            from reference_engine.layers import characteristics

            found = original(state, obj)
            return None if found is None else characteristics(state, obj).loyalty
        return loyalty
    p.wrap("loyalty", "loyalty", wrapper)


@mutant("lost-card-type-keeps-its-subtypes", "an effect that sets an object's card types leaves it the subtypes of "
        "the card types it lost", ["205.1a"])
def _lost_type_keeps_subtypes(p: Patcher) -> None:
    from reference_engine import layers

    layer, original = layers.MODIFIERS["set_types"]

    def set_types(chars, params):
        subtypes = list(chars.subtypes)
        original(chars, params)
        chars.subtypes = subtypes
    p.set_item(layers.MODIFIERS, "set_types", (layer, set_types))
