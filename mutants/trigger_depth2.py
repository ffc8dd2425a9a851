"""More mutants for the depth of triggered abilities and replacement effects (rules 603 and 614:
issue 21), each named for the rule it breaks."""

from __future__ import annotations

from mutants.patching import Patcher, mutant


# --- a cost paid any number of times (603.12a) -----------------------------------------------------
@mutant("reflexive-triggers-per-payment", "a reflexive ability that triggers 'when you pay this cost one or more "
        "times' triggers once for each time the cost was paid, not once", ["603.12a"])
def _reflexive_per_payment(p: Patcher) -> None:
    def wrapper(original):
        def paid_times(game, ctx, then, times):
            for _ in range(times):
                yield from original(game, ctx, then, times)
        return paid_times
    p.wrap("optional_effects", "paid_times", wrapper)


@mutant("reflexive-triggers-on-zero-payments", "a reflexive ability that triggers 'when you pay this cost one or "
        "more times' triggers when the cost was paid zero times", ["603.12a"])
def _reflexive_on_zero(p: Patcher) -> None:
    from reference_engine.model import DecisionKind

    def wrapper(original):
        def may_pay(game, ctx, params):
            steps = original(game, ctx, params)
            try:
                decision = next(steps)
                while True:
                    move = yield decision
                    if decision.kind == DecisionKind.NUMBER and move.number == 0:
                        steps.close()
                        from reference_engine.optional_effects import paid_times

                        yield from paid_times(game, ctx, params["then"], 0)
                        return
                    decision = steps.send(move)
            except StopIteration:
                return
        return may_pay
    from reference_engine.effects import EFFECTS

    p.set_item(EFFECTS, "may_pay_any_number_of_times", wrapper(EFFECTS["may_pay_any_number_of_times"]))
