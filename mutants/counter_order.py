"""Mutants for the order of replacement effects on putting counters (rules 616.1, 616.1e): each named for
the rule it breaks (cases/replacement-order/counters-*)."""

from __future__ import annotations

from mutants.patching import Patcher, mutant


@mutant("counter-replacements-in-fixed-order", "several replacement effects on putting counters are applied in "
        "timestamp order, the affected permanent's controller never choosing which applies first", ["616.1", "616.1e"])
def _fixed_order(p: Patcher) -> None:
    from reference_engine import counter_replacements

    def choose(game, obj, kind, amount, by, *, by_effect):
        yield from ()
        return counter_replacements.outcome(counter_replacements.applicable(game, obj, kind, by, by_effect=by_effect),
                                            amount)
    p.replace("counter_replacements", "choose", choose)


@mutant("counter-doubling-before-other-replacements", "'if an effect would put counters, it puts twice that many "
        "instead' is applied before the other replacement effects on putting counters, as a multiplier, not as one "
        "effect among those whose order is chosen", ["616.1", "616.1e"])
def _doubling_first(p: Patcher) -> None:
    from reference_engine import counter_replacements

    def wrapper(original):
        def choose(game, obj, kind, amount, by, *, by_effect):
            effects = counter_replacements.applicable(game, obj, kind, by, by_effect=by_effect)
            doublings = [e for e in effects if e.spec.get("by_effect")]
            if not doublings or len(effects) == len(doublings):
                return (yield from original(game, obj, kind, amount, by, by_effect=by_effect))
            doubled = counter_replacements.outcome(doublings, amount)
            others = [e for e in effects if not e.spec.get("by_effect")]
            return counter_replacements.outcome(others, doubled)
        return choose
    p.wrap("counter_replacements", "choose", wrapper)


@mutant("counter-replacement-order-chosen-by-source-controller", "the order of replacement effects on putting "
        "counters on a permanent is chosen by the controller of one of the effects' sources, not by the "
        "permanent's controller", ["616.1"])
def _source_controller_chooses(p: Patcher) -> None:
    from reference_engine import counter_replacements
    from reference_engine.layers import characteristics
    from reference_engine.replacement import choose_order

    def choose(game, obj, kind, amount, by, *, by_effect):
        effects = counter_replacements.applicable(game, obj, kind, by, by_effect=by_effect)
        if len(effects) <= 1:
            return counter_replacements.outcome(effects, amount)
        affected = counter_replacements.affected_player(game, obj)
        player = affected
        for effect in effects:
            source = game.state.find_uid(effect.source_uid)
            if source is not None and characteristics(game.state, source).controller != affected:
                player = characteristics(game.state, source).controller
                break
        order = yield from choose_order(game, player, effects, lambda o: counter_replacements.outcome(o, amount),
                                        "the counters")
        return counter_replacements.outcome(order, amount)
    p.replace("counter_replacements", "choose", choose)


@mutant("counter-replacement-order-always-asked", "the permanent's controller is asked which replacement effect on "
        "putting counters applies first even when only one applies or the order can't change the result",
        ["616.1"])
def _always_asked(p: Patcher) -> None:
    from reference_engine import counter_replacements
    from reference_engine.replacement import _ask_first

    def choose(game, obj, kind, amount, by, *, by_effect):
        effects = counter_replacements.applicable(game, obj, kind, by, by_effect=by_effect)
        if not effects:
            return amount
        first = yield from _ask_first(game, counter_replacements.affected_player(game, obj), effects, "the counters")
        return counter_replacements.outcome([first] + [e for e in effects if e is not first], amount)
    p.replace("counter_replacements", "choose", choose)
