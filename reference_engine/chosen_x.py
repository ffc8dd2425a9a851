"""An X that no cost of the spell or ability defines, chosen by its controller as it resolves (rule 107.3f).

    may_pay_x: {cost: "{X}", then: [steps]}
        'You may pay {X}. If you do, you gain X life.' (Vigil for the Lost): X appears in the ability's
        text but in no mana, alternative, additional or activation cost, so its controller chooses it as
        the ability resolves, paying the cost with that X; `then` reads X as the value chosen. The answer
        is {number: X, pay: [mana abilities to activate]}; 0 pays nothing more than {0}.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from reference_engine.effects import Ctx, effect, run
from reference_engine.mana import ManaCost
from reference_engine.model import DecisionKind
from reference_engine.moves import Decision, Procedure
from reference_engine.optional_effects import number_and_payment

if TYPE_CHECKING:
    from reference_engine.game import Game


@effect("may_pay_x")
def _may_pay_x(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    cost = ManaCost.parse(params["cost"])
    assert cost is not None
    decision = Decision(ctx.controller, DecisionKind.NUMBER,
                        f"choose X and pay {cost} for {ctx.source_name}'s ability (rule 107.3f)", {"cost": str(cost)})
    x = yield from number_and_payment(game, ctx.controller, decision, "choose the value of X: a number, 0 or more",
                                      cost.with_x)
    yield from run(game, chosen_x(ctx, x), params["then"])


def chosen_x(ctx: Ctx, x: int) -> Ctx:
    """The resolving ability's context with X the value its controller chose (107.3f)."""
    return replace(ctx, x=x)
