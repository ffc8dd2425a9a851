"""The shapes many mutants share, so that each mutant says in a line or two what it breaks.

Each helper patches the reference engine through a Patcher, as a mutant's own function would; none
registers a mutant."""

from __future__ import annotations

from typing import Any, Callable


def wrap_effect(p, name: str, make: Callable[[Callable], Callable]) -> None:
    """Replace the card-vocabulary effect `name` by `make(original)`."""
    from reference_engine.effects import EFFECTS

    p.set_item(EFFECTS, name, make(EFFECTS[name]))


def effect_with_params(p, name: str, change: Callable[[Any, Any, dict], dict]) -> None:
    """The effect `name` runs with the parameters `change(game, ctx, params)` returns."""
    def make(original):
        def patched(game, ctx, params):
            return original(game, ctx, change(game, ctx, params))
        return patched
    wrap_effect(p, name, make)


def after_effect(p, name: str, after: Callable[[Any, Any, dict], None]) -> None:
    """The effect `name` runs, then `after(game, ctx, params)`."""
    def make(original):
        def patched(game, ctx, params):
            original(game, ctx, params)
            after(game, ctx, params)
        return patched
    wrap_effect(p, name, make)


def this_turn_rule_ignored(p, rule: str) -> None:
    """The `this_turn` effect does nothing for `rule` ('damage can't be prevented this turn', ...)."""
    def make(original):
        return lambda game, ctx, params: None if params == rule else original(game, ctx, params)
    wrap_effect(p, "this_turn", make)


def loss_reason_dropped(p, rule: str) -> None:
    """The state-based action `rule` (e.g. '704.5b') never makes a player lose."""
    def wrapper(original):
        def loss_reason(player):
            reason = original(player)
            return None if reason and rule in reason else reason
        return loss_reason
    p.wrap("sba", "loss_reason", wrapper)


def loss_reason_added(p, loses: Callable[[Any], str | None]) -> None:
    """A player also loses when `loses(player)` gives a reason."""
    def wrapper(original):
        def loss_reason(player):
            return loses(player) or original(player)
        return loss_reason
    p.wrap("sba", "loss_reason", wrapper)


def damage_ignores_shield_counters(p) -> None:
    """Damage is dealt as if the object dealt damage had no shield counter (122.1c); the counter stays."""
    from reference_engine import ops

    original = ops.deal_damage

    def deal_damage(game, source, target, amount, **kwargs):
        obj = game.state.objects.get(target.value) if target.kind == "object" else None
        hidden = obj.counters.pop("shield", 0) if obj is not None else 0
        try:
            return original(game, source, target, amount, **kwargs)
        finally:
            if hidden and obj is not None and obj.id in game.state.objects:
                obj.counters["shield"] = hidden
    p.replace("ops", "deal_damage", deal_damage)


def after_damage(p, after: Callable[..., None]) -> None:
    """Damage is dealt, then `after(game, source, target, dealt)`; the amount dealt is returned as before."""
    from reference_engine import ops

    original = ops.deal_damage

    def deal_damage(game, source, target, amount, **kwargs):
        dealt = original(game, source, target, amount, **kwargs)
        after(game, source, target, dealt)
        return dealt
    p.replace("ops", "deal_damage", deal_damage)


def keeps_timestamp(p, module: str, function: str) -> None:
    """`module.function(game, obj, ...)` leaves `obj` the timestamp it had (613.7e-g)."""
    def wrapper(original):
        def patched(game, obj, *args, **kwargs):
            kept = obj.timestamp
            done = original(game, obj, *args, **kwargs)
            obj.timestamp = kept
            game.state.touch()  # characteristics computed meanwhile are stale
            return done
        return patched
    p.wrap(module, function, wrapper)
