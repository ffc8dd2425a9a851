"""Replacement and prevention effects on one damage event (rules 614.2, 615, 616.1).

Effects that apply to an event are each applied once (614.5), in the order the affected player chooses
when that order changes the result (616.1: the player dealt damage, or the controller of the permanent);
an effect that no longer has anything to modify (the damage is already all prevented) does nothing
(614.7, 616.1f). The kinds of effect:

- a static ability of a permanent, `replacement: {damage_multiply: {factor, source, to}}`: 'if a source
  would deal damage to a permanent or player, it deals double that damage ... instead';
- a static ability of a permanent, `replacement: {damage_add: {amount, source, to}}`: 'it deals that
  much damage plus 2 instead' (`to: {players: opponent, permanents: <filter>}` for 'an opponent or a
  permanent an opponent controls');
- a static ability of a permanent, `replacement: {damage_prevention: {amount, to}}`: 'if a source would
  deal damage to a [filter] you control, prevent N of that damage', applied to each damage event
  separately (615.10);
- a prevention effect from a resolved spell (prevention.py): 'prevent all damage ... by [filter]'
  (615.1a), or a shield 'prevent the next N damage ... to [target]' used up as it prevents (615.7).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reference_engine import prevention
from reference_engine.filters import FilterContext, matches
from reference_engine.layers import abilities_on_battlefield, characteristics
from reference_engine.model import Target, Zone
from reference_engine.moves import Procedure
from reference_engine.limits import EngineLimit
from reference_engine.replacement import Applicable, choose_order

if TYPE_CHECKING:
    from reference_engine.game import Game


def applicable(game: Game, source, target: Target, *, combat: bool) -> list[Applicable]:
    """Every replacement and prevention effect that would modify this damage event, in timestamp order.
    `spec` is (kind, effect): kind 'multiply', 'prevent_n', 'prevent_all' or 'shield'."""
    state = game.state
    found: list[Applicable] = []
    receiver = _receiver(game, target)
    for obj, chars, ability in abilities_on_battlefield(state, "replacement"):
        ctx = FilterContext(chars.controller, obj.id, obj.uid)
        for kind, key in (("multiply", "damage_multiply"), ("add", "damage_add"),
                          ("prevent_n", "damage_prevention")):
            spec = ability.data.get(key)
            if spec is not None and _covers(game, spec, source, target, receiver, ctx):
                found.append(Applicable(obj.uid, chars.name, obj.timestamp, (kind, spec)))
    if prevention.prevents(game, source, target, 0, combat=combat):
        alls: list[Any] = prevention.preventing(game, source, target, combat=combat) or [None]
        found += [Applicable(e.source_uid if e else None, e.source_name if e else "a prevention effect",
                             e.timestamp if e else 0, ("prevent_all", e)) for e in alls]
    found += [Applicable(s.source_uid, s.source_name, s.timestamp, ("shield", s))
              for s in prevention.shields(game, target)]
    found += [Applicable(e.source_uid, e.source_name, e.timestamp, ("next_instance", e))
              for e in prevention.next_instances(game, source, target)]
    if "damage_cant_be_prevented" in state.this_turn:
        # 615.12: prevention effects still apply but prevent nothing, and shields aren't reduced. One with
        # an additional effect ('prevent that damage and remove a +1/+1 counter from it') is kept, to
        # prevent nothing and do the rest, once for the event (615.12a); the others change nothing at all.
        found = [Applicable(e.source_uid, e.source_name, e.timestamp, ("unpreventable", e.spec[1]))
                 if e.spec[0] == "prevent_n" and _additional(e.spec[1]) else e
                 for e in found if e.spec[0] not in PREVENTION_KINDS or
                 (e.spec[0] == "prevent_n" and _additional(e.spec[1]))]
    return sorted(found, key=lambda e: e.timestamp)


PREVENTION_KINDS = ("prevent_n", "prevent_all", "shield", "next_instance")
#: What a static prevention ability does besides preventing (615.12): `then_remove_counter: "+1/+1"`
#: removes one such counter from the permanent the damage would be dealt to.
ADDITIONAL_EFFECTS = ("then_remove_counter",)


def _additional(spec: Any) -> bool:
    return isinstance(spec, dict) and any(key in spec for key in ADDITIONAL_EFFECTS)


def _receiver(game: Game, target: Target):
    if target.kind == "object":
        obj = game.state.objects.get(target.object_id)
        return obj if obj is not None and obj.zone is Zone.BATTLEFIELD else None
    return None


def _covers(game: Game, spec: dict[str, Any], source, target: Target, receiver, ctx: FilterContext) -> bool:
    """The effect's filters on the source ('a red source you control') and on what is dealt damage."""
    state = game.state
    if "source" in spec:
        obj = state.objects.get(source.object_id) if source.object_id is not None else None
        if not matches(state, obj, spec["source"], ctx, chars=source.chars):
            return False
    to = spec.get("to")
    if to is None:
        return True
    if isinstance(to, dict) and ("players" in to or "permanents" in to):  # 'an opponent or a permanent an opponent controls'
        if target.kind == "player":
            return to.get("players") == "opponent" and target.value != ctx.you
        return receiver is not None and "permanents" in to and matches(state, receiver, to["permanents"], ctx)
    if target.kind == "player":
        return to == "player" or (to == "you" and target.value == ctx.you) or \
            (to == "opponent" and target.value != ctx.you)
    return receiver is not None and isinstance(to, dict) and matches(state, receiver, to, ctx)


def _step(effect: Applicable, amount: int, used: dict[int, int]) -> int:
    """The damage after one effect, noting what a shield prevented in `used` (by id of the shield)."""
    kind, spec = effect.spec
    if amount <= 0:
        return 0  # 614.7: nothing left to modify
    if kind == "set":
        return int(spec["amount"])
    if kind == "multiply":
        return amount * int(spec.get("factor", 2))
    if kind == "add":
        return amount + int(spec["amount"])
    if kind == "unpreventable":
        return amount  # 615.12: the effect is applied, but prevents none of the damage
    if kind == "prevent_n":
        return 0 if spec["amount"] == "all" else max(0, amount - int(spec["amount"]))
    if kind == "prevent_all":
        return 0
    if kind == "next_instance":
        used[id(spec)] = amount
        return 0
    left = spec.remaining - used.get(id(spec), 0)
    prevented = min(left, amount)
    used[id(spec)] = used.get(id(spec), 0) + prevented
    return amount - prevented


def _outcome(order: list[Applicable], amount: int) -> tuple[int, tuple[tuple[int, int], ...]]:
    used: dict[int, int] = {}
    for effect in order:
        amount = _step(effect, amount, used)
    return amount, tuple(sorted(used.items()))


def affected_player(game: Game, target: Target) -> str:
    """616.1: the player dealt damage, or the controller of the permanent dealt damage."""
    if target.kind == "player":
        return str(target.value)
    obj = game.state.objects[target.object_id]
    return characteristics(game.state, obj).controller


def choose(game: Game, source, target: Target, amount: int, *, combat: bool,
           self_replacements: tuple[Applicable, ...] = ()) -> Procedure:
    """The order to apply this event's effects in, asked of the affected player when it matters. The
    spell's own self-replacement effects come first (614.15, 616.1a); the player orders the others."""
    effects = applicable(game, source, target, combat=combat)
    if len(effects) <= 1 or amount <= 0:
        return tuple(self_replacements) + tuple(effects)
    order = yield from choose_order(game, affected_player(game, target), effects,
                                    lambda order: _outcome(list(self_replacements) + order, amount), "the damage")
    return tuple(self_replacements) + tuple(order)


def self_replacement(source_uid: int | None, source_name: str, amount: int) -> Applicable:
    """'[This spell] deals 4 damage instead if ...': part of the spell's own effect (614.15)."""
    return Applicable(source_uid, source_name, 0, ("set", {"amount": amount}))


def modified_amount(game: Game, source, target: Target, amount: int, *, combat: bool,
                    order: tuple[Applicable, ...] | None = None) -> int:
    """The damage actually dealt once every effect has been applied in `order` (the effects still
    applicable, 616.1f; the self-replacements in it first); shields used are reduced. Without an order,
    only an event whose result doesn't depend on the order can be modified."""
    selfs = [e for e in order or () if e.spec[0] == "set"]
    effects = selfs + applicable(game, source, target, combat=combat)
    if order is not None:
        keys = {_key(e) for e in effects}
        chosen = [e for e in order if _key(e) in keys]
        effects = chosen + [e for e in effects if _key(e) not in {_key(c) for c in chosen}]
    elif len(effects) > 1 and len({_outcome(list(p), amount) for p in _orders(effects)}) > 1:
        raise EngineLimit("several replacement or prevention effects apply to this damage and their order "
                          "matters, but the damage is dealt where no choice can be asked")
    used: dict[int, int] = {}
    prevented = 0
    applied: list[Applicable] = []
    for effect in effects:
        before = amount
        amount = _step(effect, amount, used)
        if effect.spec[0] in PREVENTION_KINDS:
            prevented += max(0, before - amount)
        if before > 0 and effect.spec[0] in ("prevent_n", "unpreventable") and _additional(effect.spec[1]):
            applied.append(effect)
    for effect in effects:
        kind, spec = effect.spec
        if kind == "shield" and used.get(id(spec)):
            spec.remaining -= used[id(spec)]
        if kind == "next_instance" and id(spec) in used:
            spec.used = True
    _after_prevention(game, target, effects, used, prevented)
    additional_effects(game, target, applied)
    return amount


def additional_effects(game: Game, target: Target, applied: list[Applicable]) -> None:
    """The rest of each static prevention effect applied to the event, done once for it whether or not it
    prevented anything (615.12, 615.12a)."""
    from reference_engine import ops

    receiver = _receiver(game, target)
    for effect in applied:
        kind = effect.spec[1].get("then_remove_counter")
        if kind and receiver is not None:
            ops.remove_counters(game, receiver, str(kind), 1)


def _after_prevention(game: Game, target: Target, effects: list[Applicable], used: dict[int, int], prevented: int) -> None:
    """615.5: the rest of a prevention effect ('for each 1 damage prevented this way, put a +1/+1 counter on
    that creature', 'you gain life equal to the damage prevented this way') happens right after the
    prevention; abilities that trigger on damage being prevented trigger (615.13)."""
    from reference_engine import ops

    state = game.state
    for effect in effects:
        kind, spec = effect.spec
        rider = getattr(spec, "rider", None) if kind in ("shield", "next_instance") else None
        amount = used.get(id(spec), 0)
        if not rider or amount <= 0:
            continue
        if "counters" in rider and target.kind == "object" and target.value in state.objects:
            ops.add_counters_unasked(game, state.objects[target.value], rider["counters"], amount, by_effect=True)
        if rider.get("gain_life"):
            ops.gain_life(game, spec.controller, amount)
    if prevented > 0:
        ops.emit(game, "damage_prevented", target=target, amount=prevented)


def _key(effect: Applicable) -> tuple[str, int | None, int]:
    """The same effect found again: two permanents with the same ability are two effects (614.5)."""
    return effect.spec[0], effect.source_uid, id(effect.spec[1])


def _orders(effects: list[Applicable]):
    from itertools import permutations

    return permutations(effects)
