"""Replacement effects on putting counters on a permanent (rules 614.1a, 616.1, 122.6).

Each is a static ability of a permanent, `replacement: {counters_placed: {...}}`:
- `kind`: only counters of that kind ('if one or more +1/+1 counters would be put ...');
- `affects`: a filter on the permanent ('on a creature you control'; 'you' is the source's controller);
- `by: you | opponent`: only counters that player puts (Vorinclex; who puts them: 122.6a);
- `by_effect: true`: only counters an effect puts, not a cost's (Doubling Season: 'if an effect would
  put one or more counters ...');
- what it does instead: `times` (twice that many), `plus` (that many plus one), `halve` (half that
  many, rounded down).

When more than one applies to one event, the controller of the permanent chooses one to apply, then
another among those still applicable, each once (616.1, 616.1e); the player is asked only while the
order changes how many counters are put (choose_order).
"""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING, Any, Sequence

from reference_engine.filters import FilterContext, matches
from reference_engine.layers import abilities_on_battlefield, characteristics
from reference_engine.limits import EngineLimit
from reference_engine.model import GameObject
from reference_engine.moves import Procedure
from reference_engine.replacement import Applicable, choose_order

if TYPE_CHECKING:
    from reference_engine.game import Game


def applicable(game: Game, obj: GameObject, kind: str, by: str, *, by_effect: bool) -> list[Applicable]:
    """The replacement effects that would modify player `by` putting counters of `kind` on `obj`
    (`by_effect`: an effect puts them, not a cost), in timestamp order."""
    state = game.state
    found = []
    for source, chars, ability in abilities_on_battlefield(state, "replacement"):
        spec: Any = ability.data.get("counters_placed")
        if not spec or spec.get("kind", kind) != kind or (spec.get("by_effect") and not by_effect):
            continue
        if "by" in spec and (spec["by"] == "you") != (by == chars.controller):
            continue
        if matches(state, obj, spec.get("affects"), FilterContext(chars.controller, source.id)):
            found.append(Applicable(source.uid, chars.name, source.timestamp, spec))
    return sorted(found, key=lambda e: e.timestamp)


def apply(spec: dict[str, Any], amount: int) -> int:
    """How many counters are put once one effect has replaced putting `amount` of them."""
    amount = amount * int(spec.get("times", 1)) + int(spec.get("plus", 0))
    return amount // 2 if spec.get("halve") else amount


def outcome(order: Sequence[Applicable], amount: int) -> int:
    """The counters put after the effects in `order`; once none would be put, the others have nothing
    left to modify (614.7, 616.1f)."""
    for effect in order:
        if amount <= 0:
            break
        amount = apply(effect.spec, amount)
    return amount


def affected_player(game: Game, obj: GameObject) -> str:
    """616.1: the controller of the permanent the counters would be put on."""
    return characteristics(game.state, obj).controller


def choose(game: Game, obj: GameObject, kind: str, amount: int, by: str, *, by_effect: bool) -> Procedure:
    """The number of counters put, the permanent's controller choosing the order of the effects that
    apply when it matters (616.1, 616.1e)."""
    effects = applicable(game, obj, kind, by, by_effect=by_effect)
    if len(effects) <= 1:
        return outcome(effects, amount)
    name = characteristics(game.state, obj).name
    order = yield from choose_order(game, affected_player(game, obj), effects,
                                    lambda order: outcome(order, amount), f"the {kind} counters put on {name}")
    return outcome(order, amount)


def without_asking(game: Game, obj: GameObject, kind: str, amount: int, by: str, *, by_effect: bool) -> int:
    """The number of counters put where no player can be asked: only when the order of the effects
    that apply can't change it."""
    effects = applicable(game, obj, kind, by, by_effect=by_effect)
    if len(effects) > 1 and len({outcome(order, amount) for order in permutations(effects)}) > 1:
        raise EngineLimit("several replacement effects apply to putting these counters and their order (616.1) "
                          "matters, but they are put where no choice can be asked")
    return outcome(effects, amount)

