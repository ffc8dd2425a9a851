"""Effects that ask a player while they resolve: 'you may', 'you may pay {R}. If you do, ...', and
'you may put a card from among them into your hand'.

The engine never answers for the player: each of these yields a Decision and waits for a Choose.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Callable

from reference_engine import ops
from reference_engine.effects import Ctx, effect, objects, run
from reference_engine.filters import FilterContext, matches
from reference_engine.layers import characteristics
from reference_engine.mana import ManaCost, format_pool, pay
from reference_engine.model import DecisionKind, Zone
from reference_engine.moves import Decision, Illegal, Procedure, yes_or_no

if TYPE_CHECKING:
    from reference_engine.game import Game


@effect("may")
def _may(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """{prompt, then: [...]}: 'you may [then]'."""
    decision = Decision(ctx.controller, "may", f"{params.get('prompt', 'do it')} ({ctx.source_name})? yes or no")
    while True:
        move = yield decision
        if move.yes is not None:
            break
        game.state.rejection = "answer yes or no"
    if move.yes:
        ability = ctx.item.ability if ctx.item is not None else None
        if ability is not None and ability.data.get("once_each_turn"):
            game.state.this_turn.add(done_key(ctx.source_uid, ability))  # 603.2h: the action was taken
        yield from run(game, ctx, params["then"])


def done_key(source_uid, ability) -> str:
    """'Do this only once each turn' (603.2h): that this source's controller took the action this turn."""
    return f"done:{source_uid}:{id(ability)}"


@effect("may_pay")
def _may_pay(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """{cost: "{R}", then: [...]}: 'you may pay {R}. If you do, [then]' (an optional cost paid as the
    ability resolves). The answer is {yes: true, pay: [mana abilities to activate]} or {yes: false}; a
    payment that fails is rejected and leaves the game as it was. `cost: event_spell_mana_cost` is the
    mana cost of the spell whose casting triggered the ability, and `by: other_than_caster` asks the
    players other than its caster, in turn order, until one pays ('any other player may pay that
    spell's mana cost. If a player does, ...')."""
    cost = cost_to_pay(game, ctx, params["cost"])
    for payer in _payers(game, ctx, params.get("by")):
        decision = Decision(payer, "may", f"pay {cost} for {ctx.source_name}'s ability? yes or no",
                            {"cost": str(cost)})
        move = yield from yes_paying(game, payer, decision, cost)
        if move is not None:
            yield from _pay(game, payer, cost, move.payments)
            yield from run(game, ctx, params["then"])
            return


def yes_paying(game: Game, player: str, decision: Decision, cost: ManaCost) -> Procedure:
    """Ask `decision`, a 'you may pay ...' answered {yes: true, pay: [...]} or {yes: false}: returns the
    move if it is yes with mana abilities that pay `cost`, None if it is no. A payment that fails is
    rejected, and asked again."""
    return (yield from yes_or_no(game.state, decision, lambda move: _payment_problem(game, player, cost, move.payments),
                                 "answer yes (with what pays the cost) or no"))


@effect("may_pay_any_number_of_times")
def _may_pay_any_number_of_times(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """{cost: "{1}{W}", then: [...]}: 'you may pay {1}{W} any number of times. When you pay this cost one
    or more times, [then]'. The answer is {number: N, pay: [...]}: the cost paid N times over, at once;
    0 pays nothing. `then` (a reflexive ability) happens once however many times the cost was paid
    (603.12a), and 'that many' is N (the `event_amount` of the reflexive ability)."""
    cost = cost_to_pay(game, ctx, params["cost"])
    decision = Decision(ctx.controller, DecisionKind.NUMBER,
                        f"how many times to pay {cost} for {ctx.source_name}'s ability (0 for none)", {"cost": str(cost)})
    times = yield from number_and_payment(game, ctx.controller, decision,
                                          "choose how many times to pay the cost: a number, 0 for none",
                                          lambda n: ManaCost(cost.symbols * n) if n else None)
    if times:
        yield from paid_times(game, ctx, params["then"], times)


def number_and_payment(game: Game, player: str, decision: Decision, not_a_number: str,
                       total_for: Callable[[int], ManaCost | None]) -> Procedure:
    """Ask `decision` until the answer is a number N (0 or more) whose cost `total_for(N)` the mana
    abilities named with it can pay, then pay it; returns N. A cost of None is nothing to pay."""
    while True:
        move = yield decision
        number = move.number
        if number is None or number < 0:
            game.state.rejection = not_a_number
            continue
        total = total_for(number)
        if total is None:
            return number
        problem = _payment_problem(game, player, total, move.payments)
        if problem is None:
            break
        game.state.rejection = problem
    yield from _pay(game, player, total, move.payments)
    return number


def paid_times(game: Game, ctx: Ctx, then: list[dict[str, Any]], times: int) -> Procedure:
    """What paying a cost `times` (one or more) times does: `then` once, knowing how many (603.12a)."""
    ctx.memory["reflexive_event"] = {"amount": times}
    yield from run(game, ctx, then)


def _payers(game: Game, ctx: Ctx, by: str | None) -> list[str]:
    if by == "other_than_caster":
        caster = ctx.event.get("player")
        return [p for p in game.state.apnap() if p != caster]
    return [ctx.controller]


def cost_to_pay(game: Game, ctx: Ctx, expr: str) -> ManaCost:
    """The cost an effect asks for. A spell's mana cost with {X} in it is paid with the X chosen as it was
    cast while it is a spell on the stack, and with X = 0 otherwise (rule 107.3h)."""
    if expr != "event_spell_mana_cost":
        return ManaCost.parse(expr)  # type: ignore[return-value]
    spell = game.state.objects.get(ctx.event.get("object_id", -1))
    mana_cost = characteristics(game.state, spell).mana_cost if spell is not None else None
    if mana_cost is None:
        return ManaCost(())
    return mana_cost.with_x(spell.x or 0 if spell.zone is Zone.STACK else 0)  # type: ignore[union-attr]


def _pay(game: Game, player: str, cost: ManaCost, payments) -> Procedure:
    from reference_engine.casting import pay_mana

    yield from pay_mana(game, player, cost, 0, payments)


def _without_choices(steps: Procedure) -> None:
    """Run a generator that must not ask anything (a trial payment)."""
    from reference_engine.limits import EngineLimit

    for _ in steps:
        raise EngineLimit("trying this payment would ask the order of replacement effects on the mana "
                          "(rule 616.1); a trial payment that asks a choice is not modelled")


def _payment_problem(game: Game, player: str, cost: ManaCost, payments) -> str | None:
    """Why paying would fail, or None. Paying from the pool alone is checked on a copy of the pool;
    activating mana abilities is tried on a copy of the whole state."""
    if not payments:
        pool = game.state.players[player].pool
        if pay(Counter(pool), cost.with_x(0)) is None:
            return f"the cost {cost} can't be paid with the mana available ({format_pool(pool) or 'none'})"
        return None
    return _trial(game, lambda: _without_choices(_pay(game, player, cost, payments)))


def _trial(game: Game, attempt) -> str | None:
    """Try `attempt` on a copy of the state: the reason it is illegal, or None (then do it for real).
    Mid-resolution, the live state can't be restored from a snapshot: the resolving stack item and
    other references held by the resolution would go stale."""
    real = game.state
    game.state = real.snapshot()
    try:
        attempt()
        return None
    except Illegal as exc:
        return str(exc)
    finally:
        game.state = real


@effect("choose_to_hand")
def _choose_to_hand(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """{among: it, filter: {...}, what: 'permanent card'}: 'you may put a [what] from among them into your
    hand'."""
    state = game.state
    fctx = FilterContext(ctx.controller, ctx.source_id)
    options = [o.id for o in objects(game, ctx, params.get("among", "it"))
               if o.zone is not Zone.BATTLEFIELD and matches(state, o, params.get("filter"), fctx)]
    if not options:
        return
    decision = Decision(ctx.controller, "objects", f"choose up to one card to put into your hand ({ctx.source_name})",
                        {"candidates": options, "min": 0, "max": 1})
    while True:
        move = yield decision
        chosen = move.objects or ()
        wrong = next((c for c in chosen if c not in options), None)
        if len(chosen) <= 1 and wrong is None:
            break
        what = _name(game, wrong) if wrong is not None else "more than one card"
        state.rejection = f"{what} can't be chosen: choose at most one {params.get('what', 'card')} from among them"
    for object_id in chosen:
        ops.move(game, state.objects[object_id], Zone.HAND)


def _name(game: Game, object_id: int) -> str:
    obj = game.state.objects.get(object_id)
    return characteristics(game.state, obj).name if obj is not None else "that object"
