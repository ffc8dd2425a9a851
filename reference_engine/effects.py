"""Effects of resolving spells and abilities, by name: the small vocabulary card definitions use.

A spell's or ability's `effect` is a list of steps, each {name: params}. Every effect is a plain
function (game, ctx, params); one that needs a player's choice is a generator yielding Decisions.
References in params: 'self' (the source), 'target.N', 'it' (what an earlier step chose or made),
'blighted' (the creature an earlier step blighted), 'event_object' (the object the triggering event
moved, e.g. the card a creature became as it died), 'you', 'that_player' (the player in the
triggering event), or {all: filter} (every matching permanent, fixed as the effect begins: rule 611.2c).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from reference_engine import ops
from reference_engine.carddefs import predefined_token, token_card
from reference_engine.conditions import holds
from reference_engine.filters import FilterContext, matches
from reference_engine.layers import MODIFIERS, characteristics
from reference_engine.model import CardDef, ContinuousEffect, Emblem, GameObject, StackItem, Target, Zone
from reference_engine.moves import Decision, Procedure, choose_one

if TYPE_CHECKING:
    from reference_engine.game import Game


@dataclass
class Ctx:
    """What a resolving spell or ability knows: who controls it, its source, targets, X, the event."""

    controller: str
    source_id: int | None
    source_uid: int | None
    source_name: str
    snapshot: Any = None  # the source's last known characteristics
    targets: tuple[Target, ...] = ()
    legal: tuple[bool, ...] = ()  # which targets are still legal (rule 608.2b)
    x: int = 0
    event: dict[str, Any] = field(default_factory=dict)
    item: StackItem | None = None
    memory: dict[str, Any] = field(default_factory=dict)


Effect = Callable[[Any, Ctx, Any], Any]
EFFECTS: dict[str, Effect] = {}


def effect(name: str) -> Callable[[Effect], Effect]:
    def register(fn: Effect) -> Effect:
        if name in EFFECTS:  # two definitions of one name: the later would silently win
            raise ValueError(f"{name!r} is registered twice ({EFFECTS[name].__module__} and {fn.__module__})")
        EFFECTS[name] = fn
        return fn
    return register


def run(game: Game, ctx: Ctx, steps: list[dict[str, Any]]) -> Procedure:
    for step in steps or []:
        ((name, params),) = step.items()
        fn = EFFECTS.get(name)
        if fn is None:
            raise KeyError(f"unknown effect {name!r}")
        result = fn(game, ctx, params)
        if inspect.isgenerator(result):
            yield from result


# --- references and values -------------------------------------------------------------------
def source(game: Game, ctx: Ctx) -> GameObject | None:
    """The source if it is still the same object (608.2h); None if it has left its zone."""
    obj = game.state.objects.get(ctx.source_id) if ctx.source_id is not None else None
    return obj


def objects(game: Game, ctx: Ctx, ref: Any) -> list[GameObject]:
    state = game.state
    if isinstance(ref, list):  # [target.0, target.1]: 'exile two target ...'
        return [obj for part in ref for obj in objects(game, ctx, part)]
    if ref == "self":
        obj = source(game, ctx)
        return [obj] if obj is not None else []
    if isinstance(ref, str) and ref.startswith("target."):
        index = int(ref.split(".")[1])
        if index >= len(ctx.targets) or not ctx.legal[index] or ctx.targets[index].kind != "object":
            return []
        obj = state.objects.get(ctx.targets[index].object_id)
        return [obj] if obj is not None else []
    if ref in ("it", "blighted"):  # what an earlier step made or chose; the blighted creature (701.68c)
        return [state.objects[i] for i in ctx.memory.get(ref, []) if i in state.objects]
    if ref == "unattached_from":  # 'sacrifice that permanent': what the Equipment became unattached from
        obj = state.objects.get(ctx.event.get("host_id", -1))
        return [obj] if obj is not None and obj.zone is Zone.BATTLEFIELD else []
    if ref == "event_spell":  # 'counter the spell': the spell whose casting triggered the ability
        obj = state.objects.get(ctx.event.get("object_id", -1))
        return [obj] if obj is not None else []
    if ref == "event_object":  # 'return it': the object the triggering event moved (rule 400.7); 'that
        # creature' of an enters trigger: the permanent that entered, whatever its characteristics now (608.2k)
        obj = state.objects.get(ctx.event.get("new_id", ctx.event.get("object_id", -1)))
        return [obj] if obj is not None else []
    if ref == "exiled_with_self":  # 'the exiled card', 'a card exiled with [this]' (linked abilities, 607.2a)
        from reference_engine.linked import exiled_with

        return exiled_with(game, ctx.source_id)
    if isinstance(ref, dict) and "all" in ref:
        fctx = FilterContext(ctx.controller, ctx.source_id)
        return [o for o in state.battlefield() if matches(state, o, ref["all"], fctx)]
    raise KeyError(f"unknown object reference {ref!r}")


def targets_of(game: Game, ctx: Ctx, ref: Any) -> list[Target]:
    """Players or objects: for effects such as damage that can affect either."""
    if isinstance(ref, str) and ref.startswith("target."):
        index = int(ref.split(".")[1])
        if index < len(ctx.targets) and ctx.legal[index]:
            return [ctx.targets[index]]
        return []
    if ref == "you":
        return [Target("player", ctx.controller)]
    if ref == "that_player":
        return [Target("player", ctx.event["player"])]
    return [Target("object", o.id) for o in objects(game, ctx, ref)]


def value(game: Game, ctx: Ctx, expr: Any) -> int:
    if isinstance(expr, int):
        return expr
    if expr == "X":
        return ctx.x
    if expr == "destroyed_count":  # 'for each creature destroyed this way'
        from reference_engine.meld import objects_moved

        return objects_moved(game, ctx.memory.get("destroyed", []))
    if expr == "your_speed":  # a player with no speed has speed 0 for effects that refer to it (702.179f)
        return game.state.players[ctx.controller].speed or 0
    if expr == "event_amount":  # 'that many': the amount in the triggering event
        return int(ctx.event.get("amount", 0))
    if expr == "event_spell_x":  # 'X' of the spell in the triggering event: that spell's value (107.3e)
        return spell_x_of_event(game, ctx)
    if expr == "event_source_mana_value":  # 'that Saga's mana value': the source of the resolved ability
        snap = ctx.event.get("snapshot")
        return snap.mana_value if snap is not None else 0
    if expr == "event_spell_colors":  # 'for each of that spell's colors'
        spell = game.state.objects.get(ctx.event.get("object_id", -1))
        return len(characteristics(game.state, spell).colors) if spell is not None else 0
    if isinstance(expr, dict) and "power_of" in expr:
        found = objects(game, ctx, expr["power_of"])
        if found and found[0].zone is Zone.BATTLEFIELD:
            return characteristics(game.state, found[0]).power or 0
        if expr["power_of"] == "self":
            last = last_known_source(game, ctx)  # 608.2h: as it last existed on the battlefield
            return (last.power or 0) if last is not None else 0
        return 0
    if isinstance(expr, dict) and "count" in expr:  # 'for each creature you control', counted now (611.2d)
        fctx = FilterContext(ctx.controller, ctx.source_id)
        state = game.state
        return sum(1 for o in state.battlefield() if matches(state, o, expr["count"], fctx)) * expr.get("times", 1)
    if isinstance(expr, dict) and "last_known_counters" in expr:  # 'its +1/+1 counters', as it last existed
        return last_known_counters(game, ctx.source_id, expr["last_known_counters"])
    if isinstance(expr, dict) and "last_known_counters_total" in expr:  # 'for each counter on this', of any kind
        return sum(last_known_counters(game, ctx.source_id, kind) for kind in last_known_counter_kinds(game, ctx.source_id))
    if isinstance(expr, dict) and "counters_on" in expr:
        found = objects(game, ctx, expr["counters_on"])
        return found[0].counters.get(expr["kind"], 0) if found else 0
    raise KeyError(f"unknown value {expr!r}")


def spell_x_of_event(game: Game, ctx: Ctx) -> int:
    """Rule 107.3e: an ability that refers to the X in another object's cost uses that object's X,
    here the value chosen for the spell whose casting triggered it (0 if it had none)."""
    spell = game.state.objects.get(ctx.event.get("object_id", -1))
    return (spell.x or 0) if spell is not None else 0


def last_known_counters(game: Game, object_id: int | None, kind: str) -> int:
    """Counters of a kind on an object on the battlefield, or on it as it last existed there (113.7a)."""
    obj = game.state.objects.get(object_id) if object_id is not None else None
    if obj is not None and obj.zone is Zone.BATTLEFIELD:
        return obj.counters.get(kind, 0)
    lki = game.state.lki.get(object_id) if object_id is not None else None
    return lki.counters.get(kind, 0) if lki is not None else 0


def last_known_counter_kinds(game: Game, object_id: int | None) -> list[str]:
    """The kinds of counter on an object on the battlefield, or on it as it last existed there."""
    obj = game.state.objects.get(object_id) if object_id is not None else None
    if obj is not None and obj.zone is Zone.BATTLEFIELD:
        return [k for k, n in obj.counters.items() if n > 0]
    lki = game.state.lki.get(object_id) if object_id is not None else None
    return [k for k, n in lki.counters.items() if n > 0] if lki is not None else []


def last_known_source(game: Game, ctx: Ctx):
    """The source's characteristics as it last existed on the battlefield (113.7a), if it left it
    after the ability was put on the stack; otherwise those it had then."""
    last = ops.last_known(game, ctx.source_id) if ctx.source_id is not None else None
    return last if last is not None else ctx.snapshot


def _damage_source(game: Game, ctx: Ctx) -> ops.DamageSource:
    obj = source(game, ctx)
    if obj is not None:
        return ops.DamageSource.of(game, obj)
    return ops.DamageSource(ctx.source_id, ctx.source_uid, last_known_source(game, ctx))


# --- the effects ------------------------------------------------------------------------------
@effect("damage")
def _damage(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """'[Source] deals N damage to [target]' (or to each of them: {all: filter}). `instead: {if, amount}`:
    '... deals 4 damage instead if you control three or more artifacts', a self-replacement (614.15)."""
    from reference_engine.damage import self_replacement

    amount = value(game, ctx, params["amount"])
    selfs: tuple[Any, ...] = ()
    instead = params.get("instead")
    if instead is not None and holds(game, instead.get("if"), ctx):
        selfs = (self_replacement(ctx.source_uid, ctx.source_name, value(game, ctx, instead["amount"])),)
    for target in targets_of(game, ctx, params["to"]):
        yield from ops.damage(game, _damage_source(game, ctx), target, amount, self_replacements=selfs)


@effect("damage_divided")
def _damage_divided(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """'[Source] deals N damage divided as you choose among one or two targets': each target is dealt the
    share announced for it as the spell was cast (601.2d); a target that became illegal is dealt nothing,
    and the others keep their shares (608.2b)."""
    division = ctx.item.division if ctx.item is not None else ()
    for index, share in enumerate(division):
        for target in targets_of(game, ctx, f"target.{index}"):
            yield from ops.damage(game, _damage_source(game, ctx), target, share)


@effect("destroy")
def _destroy(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """Later steps count what was destroyed ('for each creature destroyed this way': `destroyed_count`).
    Where several replacement effects would send one elsewhere, its controller chooses their order (616.1)."""
    from reference_engine.zone_replacements import choose_orders

    doomed = objects(game, ctx, params["what"])
    can_regenerate = not params.get("cant_be_regenerated")
    orders = yield from choose_orders(game, [o for o in doomed if ops.would_be_destroyed(game, o, can_regenerate)],
                                      Zone.GRAVEYARD)
    moved = ops.destroy_together(game, doomed,  # one event, however many (603.10a)
                                 can_regenerate=can_regenerate, orders=orders, arranged=True)
    from reference_engine.meld import arrange_in_library

    for new in moved:  # a melded permanent an effect put into its owner's library instead: its owner arranges it (712.21a)
        yield from arrange_in_library(game, new)
    ctx.memory["destroyed"] = [o.id for o in moved]


@effect("tap")
def _tap(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """'Tap target permanent'."""
    for obj in objects(game, ctx, params["what"]):
        if obj.zone is Zone.BATTLEFIELD:
            ops.tap(game, obj)


@effect("sacrifice")
def _sacrifice(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    victims = [obj for obj in objects(game, ctx, params["what"]) if obj.zone is Zone.BATTLEFIELD]
    if victims:  # one event, however many (603.10a)
        ops.sacrifice_together(game, victims)


@effect("counter")
def _counter(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """Rule 701.6a: a countered spell or ability is removed from the stack, and none of its effects
    occur; a countered spell is put into its owner's graveyard. A spell that can't be countered stays
    (101.2)."""
    state = game.state
    for target in targets_of(game, ctx, params["what"]):
        if target.kind == "ability":
            item = next((i for i in state.stack if i.id == target.value), None)
            if item is not None:
                state.stack.remove(item)
                ops.emit(game, "ability_countered", controller=item.controller, source_uid=item.source_uid)
    for obj in objects(game, ctx, params["what"]):
        item = next((i for i in state.stack if i.object_id == obj.id), None)
        if item is not None and ("cant_be_countered" in obj.spell_rules or any(
                a.kind == "rule" and a.data.get("cant_be_countered") for a in characteristics(state, obj).abilities)):
            continue  # 'This spell can't be countered' (101.2), printed or given it (611.2f): it does nothing to it
        if item is not None:
            snap = ops.snapshot(game, obj)
            state.stack.remove(item)
            new = ops.move(game, obj, Zone.GRAVEYARD)
            ops.emit(game, "countered", object_id=obj.id, new_id=new.id, controller=item.controller, snapshot=snap)


@effect("return_to_battlefield")
def _return_to_battlefield(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """{what, transformed, counters: {"+1/+1": 1 or X}, is: [effects], under: owner}: '... return it to the battlefield [with a
    +1/+1 counter]'; 'is: [{add_subtypes: ...}]' for 'that creature is a Zombie in addition ...', which
    applies as it enters (611.2e). Later steps call what entered 'it'."""
    from reference_engine.carddefs import parse_ability

    is_effects = [(name, {"abilities": [parse_ability(a) for a in raw]} if name == "grant" else raw)
                  for name, raw in (next(iter(part.items())) for part in params.get("is", []))]
    counters = {kind: value(game, ctx, n) for kind, n in params["counters"].items()} if "counters" in params else None
    made = []
    for obj in objects(game, ctx, params["what"]):
        under = obj.owner if params.get("under") == "owner" else ctx.controller  # '... under its owner's control'
        new = yield from ops.enter_battlefield(game, obj, under, transformed=params.get("transformed", False),
                                               counters=counters, is_effects=is_effects or None,
                                               effect_controller=ctx.controller)
        if new is not None:
            made.append(new.id)
    ctx.memory["it"] = made


@effect("regenerate")
def _regenerate(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """'Regenerate target creature': a shield replacing its next destruction this turn (614.8)."""
    for obj in objects(game, ctx, params["what"]):
        if obj.zone is Zone.BATTLEFIELD:
            game.state.regeneration.append(obj.id)


@effect("this_turn")
def _this_turn(game: Game, ctx: Ctx, params: str) -> None:
    """'Damage can't be prevented this turn' (damage_cant_be_prevented, 615.12), 'players can't gain life
    this turn' (players_cant_gain_life, 614.17): a rule changed until the cleanup step."""
    game.state.this_turn.add(params)


@effect("reflexive")
def _reflexive(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """'When you do, [effect]': a reflexive triggered ability (603.12), created already triggered by what
    the resolving ability just did; it goes on the stack the next time a player would receive priority."""
    from reference_engine.state import PendingTrigger

    state = game.state
    state.pending_triggers.append(PendingTrigger(ctx.controller, ctx.source_id, ctx.source_uid, ctx.source_name,  # type: ignore[arg-type]
                                                 params["ability"], dict(ctx.memory.get("reflexive_event", {})),
                                                 state.new_timestamp(),
                                                 source_snapshot=ctx.snapshot))


@effect("when_resolved_times")
def _when_resolved_times(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """{n: 3, ability}: 'When this ability resolves for the third time this turn, [ability]'. The resolving
    ability counts its resolutions this turn; during its Nth it creates the delayed triggered ability,
    once (603.7h), which triggers as that resolution is done."""
    from reference_engine.state import PendingTrigger

    state = game.state
    if resolution_number(game, ctx, "") == int(params["n"]):
        state.pending_triggers.append(PendingTrigger(ctx.controller, ctx.source_id, ctx.source_uid, ctx.source_name,  # type: ignore[arg-type]
                                                     params["ability"], {}, state.new_timestamp(),
                                                     source_snapshot=ctx.snapshot))


@effect("if_resolved_times")
def _if_resolved_times(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """{n: 4, then: [steps]}: 'If this is the fourth time this ability has resolved this turn, [steps]':
    the resolving ability counts its resolutions this turn, this one included."""
    if resolution_number(game, ctx, ":resolved") == int(params["n"]):
        yield from run(game, ctx, params["then"])


def resolution_number(game: Game, ctx: Ctx, counter: str) -> int:
    """Which resolution this turn this is of the resolving ability (1 for the first), counted by the
    instruction that asks (`counter` tells apart two such instructions of one ability)."""
    state = game.state
    ability = ctx.item.ability if ctx.item is not None else None
    key = f"{ctx.source_uid}:{id(ability)}{counter}"
    state.resolutions_this_turn[key] = count = state.resolutions_this_turn.get(key, 0) + 1
    return count


@effect("enter_under_your_control")
def _enter_under_your_control(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """{filter}: 'if a [creature] would enter the battlefield under an opponent's control this turn, it
    enters under your control instead' (a replacement effect, 614.1; applied first, 616.1b)."""
    game.state.entering_control.append((ctx.controller, dict(params["filter"])))


@effect("skip_next")
def _skip_next(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """'Target player skips their next draw step' (614.1b, 614.10)."""
    for target in targets_of(game, ctx, params["player"]):
        if target.kind == "player":
            game.state.skips.append((str(target.value), params["step"]))


@effect("delayed_trigger")
def _delayed_trigger(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """{ability: {triggered: {when, effect}}}: 'sacrifice that creature at the beginning of the next end
    step' creates a delayed triggered ability (603.7). Its source is this spell or ability's source and
    its controller this one's controller (603.7d-e); 'it' in its effect is what 'it' is now."""
    from reference_engine.state import DelayedTrigger

    source_id = ctx.source_id if ctx.item is not None and not ctx.item.is_spell else None
    memory: dict[str, Any] = {"it": list(ctx.memory.get("it", []))}
    if ctx.x:
        memory["x"] = ctx.x  # 107.3n: an X it refers to is the X of the spell or ability that created it
    if params.get("this_turn"):
        memory["turn"] = game.state.turn  # 'when you next cast ... this turn': gone once the turn ends
    game.state.delayed.append(DelayedTrigger(ctx.controller, source_id, ctx.source_uid, ctx.source_name,
                                             params["ability"], memory))


@effect("exile_graveyard")
def _exile_graveyard(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """'Exile target player's graveyard'."""
    state = game.state
    for target in targets_of(game, ctx, params["player"]):
        for object_id in list(state.zone_ids(Zone.GRAVEYARD, str(target.value))):
            ops.move(game, state.objects[object_id], Zone.EXILE)


@effect("draw")
def _draw(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """'Draw N cards'; with `who: each`, 'each player draws N cards' (in turn order, 101.4)."""
    for player in _players(game, ctx, params):
        ops.draw(game, player, value(game, ctx, params.get("count", 1)))


def _players(game: Game, ctx: Ctx, params: dict[str, Any]) -> list[str]:
    """`who`: 'you' (the default) or 'each' (each player, in turn order beginning with the active player)."""
    return game.state.apnap() if params.get("who") == "each" else [ctx.controller]


@effect("gain_life")
def _gain_life(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    ops.gain_life(game, ctx.controller, value(game, ctx, params["amount"]))


def token_named(game: Game, name: str) -> CardDef:
    """'Create a Tarmogoyf token' (111.11): the token has the characteristics of the card with that name
    in the Oracle card reference (the cards sent with the case): mana cost, types, abilities and all."""
    oracle = game.state.oracle
    card = oracle.get(name) or next((c for c in oracle.values() if c.faces[0].name == name), None)
    if card is None:
        from reference_engine.limits import EngineLimit

        raise EngineLimit(f"a {name} token needs the Oracle data of the card {name!r}, which wasn't sent")
    return card


@effect("create_token")
def _create_token(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """{token: {characteristics}}, {predefined: Treasure} (rule 111.10) or {named: Wurmcoil Engine} (111.11), with `count`, `tapped`,
    `counters` it is created with ('incubate N': an Incubator with N +1/+1 counters, 701.53a), and
    `attached_to` for an Aura token such as a Role."""
    if "named" in params:
        card = token_named(game, params["named"])
    else:
        card = predefined_token(params["predefined"]) if "predefined" in params else token_card(params["token"])
    hosts = objects(game, ctx, params["attached_to"]) if "attached_to" in params else None
    if hosts is not None and not any(h.zone is Zone.BATTLEFIELD for h in hosts):
        ctx.memory["it"] = []  # 'create a Role token attached to it': nothing to attach it to (303.4f)
        return
    made = []
    for _ in range(ops.effect_amounts(game, ctx.controller, "tokens_multiply", value(game, ctx, params.get("count", 1)))):
        new = yield from ops.create_token(game, card, ctx.controller, tapped=params.get("tapped", False),
                                          counters=params.get("counters"))
        if new is None:
            continue  # it couldn't enter, so it wasn't created (111.5)
        if hosts:
            new.attached_to = hosts[0].id  # an Aura token created attached to a permanent (303.4f)
            game.state.touch()
        made.append(new.id)
    ctx.memory["it"] = made


@effect("modify")
def _modify(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """Continuous effects on objects fixed as it resolves (611.2c), e.g. 'gets +3/+3 until end of turn':
    {what: ref, until: end_of_turn, effects: [{modify_pt: {power: 3, toughness: 3}}, {grant: [Trample]}]}."""
    from reference_engine.carddefs import parse_ability

    state = game.state
    affected = frozenset(o.id for o in objects(game, ctx, params["what"]) if o.zone is Zone.BATTLEFIELD)
    if not affected:
        return
    duration = params.get("until", "end_of_turn")
    if duration == "while_you_control_source" and not you_control_source(state, ctx.source_id, ctx.controller):
        return  # 'for as long as you control [it]' is already over: the effect does nothing (611.2b)
    timestamp = state.new_timestamp()
    for part in params["effects"]:
        ((name, raw),) = part.items()
        layer = MODIFIERS[name][0]
        if name == "grant":
            args: dict[str, Any] = {"abilities": [parse_ability(a) if isinstance(a, (str, dict)) else a for a in raw]}
        elif name == "gain_control":
            args = {"controller": ctx.controller}  # 'gain control of': the effect's controller
        else:
            args = {k: value(game, ctx, v) if k in ("power", "toughness") else v for k, v in (raw or {}).items()}
        state.effects.append(ContinuousEffect(layer, timestamp, name, args, affected, ctx.controller,
                                              duration=duration, source_id=ctx.source_id))
    state.touch()


def you_control_source(state, source_id: int | None, controller: str) -> bool:
    """Whether the object an effect lasts 'for as long as you control' is still that object on the
    battlefield, under the effect's controller (a new object after a zone change, rule 400.7)."""
    obj = state.objects.get(source_id) if source_id is not None else None
    return obj is not None and obj.zone is Zone.BATTLEFIELD and obj.controller == controller


@effect("if")
def _if(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """{condition: {...}, then: [...]}: a condition checked as the effect resolves."""
    if holds(game, params["condition"], ctx):
        yield from run(game, ctx, params["then"])


@effect("add_counters")
def _add_counters(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    for obj in objects(game, ctx, params["what"]):
        if obj.zone is Zone.BATTLEFIELD:
            yield from ops.add_counters_by_effect(game, obj, params["kind"], value(game, ctx, params.get("amount", 1)),
                                                  by=ctx.controller)


@effect("gain_class_level")
def _gain_class_level(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """'[Cost]: Level N': this Class's level becomes N (716.2a)."""
    for obj in objects(game, ctx, "self"):
        if obj.zone is Zone.BATTLEFIELD:
            obj.class_level = params["level"]
            game.state.touch()
            ops.emit(game, "class_level", object_id=obj.id, uid=obj.uid, level=params["level"])


@effect("untap")
def _untap(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    for obj in objects(game, ctx, params["what"]):
        if obj.zone is Zone.BATTLEFIELD:
            ops.untap(game, obj)


@effect("move_counter")
def _move_counter(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """'Move a [kind] counter from [one object] onto [another]' (rule 122.5): remove it from the first
    and put it on the second; if either can't be done (the same object, no such counter, an object
    gone), neither is done."""
    kind = params["kind"]
    found_from, found_to = objects(game, ctx, params["from"]), objects(game, ctx, params["to"])
    if len(found_from) != 1 or len(found_to) != 1:
        return
    origin, destination = found_from[0], found_to[0]
    if origin is destination or not origin.counters.get(kind):
        return
    if origin.zone is not Zone.BATTLEFIELD or destination.zone is not Zone.BATTLEFIELD:
        return
    ops.remove_counters(game, origin, kind, 1)
    yield from ops.add_counters(game, destination, kind, 1, by=ctx.controller, by_effect=True)  # put by the effect


@effect("remove_all_counters")
def _remove_all_counters(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """'Remove all counters from target permanent' (e.g. Vampire Hexmage)."""
    for obj in objects(game, ctx, params["what"]):
        if obj.zone is Zone.BATTLEFIELD:
            for kind in list(obj.counters):
                ops.remove_counters(game, obj, kind, obj.counters[kind])


@effect("add_or_remove_counter")
def _add_or_remove_counter(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """'Choose a counter on target permanent. Remove that counter from it or put another of those
    counters on it' (Clockspinning): the controller chooses the kind and which of the two to do."""
    state = game.state
    for obj in objects(game, ctx, params["what"]):
        kinds = sorted(kind for kind, amount in obj.counters.items() if amount > 0)
        if obj.zone is not Zone.BATTLEFIELD or not kinds:
            continue  # no counter to choose: nothing happens
        name = characteristics(state, obj).name
        decision = Decision(ctx.controller, "counter",
                            f"choose a counter on {name}, and whether to remove it or put another",
                            {"kinds": kinds, "actions": ["add", "remove"]})
        while True:
            move = yield decision
            chosen = move.counter
            if chosen is not None and chosen[0] in kinds and chosen[1] in ("add", "remove"):
                break
            state.rejection = f"choose a kind of counter on {name} ({', '.join(kinds)}), and add or remove"
        kind, action = chosen
        if action == "add":
            yield from ops.add_counters(game, obj, kind, 1, by_effect=True)
        else:
            ops.remove_counters(game, obj, kind, 1)


@effect("transform")
def _transform(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """Rule 701.27. An ability transforming its own source does nothing if the source transformed
    since the ability was put on the stack (701.27f)."""
    for obj in objects(game, ctx, params["what"]):
        own = ctx.item is not None and not ctx.item.is_spell and obj.uid == ctx.source_uid
        ops.transform(game, obj, own_ability_since=ctx.item.source_transform_count if own else None)  # type: ignore[union-attr]


@effect("sacrifice_unless")
def _sacrifice_unless(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """'Sacrifice this unless you sacrifice a [filter]': the controller chooses one or none."""
    state = game.state
    fctx = FilterContext(ctx.controller, ctx.source_id)
    options = [o.id for o in state.battlefield()
               if characteristics(state, o).controller == ctx.controller and matches(state, o, params["filter"], fctx)]
    chosen: tuple[int, ...] = ()
    if options:
        decision = Decision(ctx.controller, "objects", f"sacrifice a creature, or none to sacrifice {ctx.source_name}",
                            {"candidates": options, "min": 0, "max": 1})
        while True:
            move = yield decision
            chosen = move.objects or ()
            if len(chosen) <= 1 and all(c in options for c in chosen):
                break
            state.rejection = "choose at most one of the permanents offered"
    if chosen:
        ops.sacrifice(game, state.objects[chosen[0]])
    else:
        for obj in objects(game, ctx, "self"):
            if obj.zone is Zone.BATTLEFIELD:
                ops.sacrifice(game, obj)


# --- planeswalkers: emblems (114) and fight (701.14) ----------------------------------------------
@effect("create_emblem")
def _create_emblem(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """Rule 114.2: 'You get an emblem with [ability]': the controller puts an emblem with those
    abilities into the command zone; they function there (114.4)."""
    state = game.state
    state.emblems.append(Emblem(state.new_id(), state.new_id(), ctx.controller, ctx.source_name,
                                tuple(params["abilities"]), state.new_timestamp()))
    state.touch()


@effect("fight")
def _fight(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """Rule 701.14: two creatures each deal damage equal to their power to the other. If either is
    no longer on the battlefield, no longer a creature, or an illegal target, neither deals damage
    (701.14b): unlike 'deals damage equal to its power', fight never uses last known information."""
    state = game.state
    found = [objects(game, ctx, ref) for ref in params["what"]]
    if any(len(objs) != 1 for objs in found):
        return
    first, second = found[0][0], found[1][0]
    for obj in (first, second):
        if obj.zone is not Zone.BATTLEFIELD or "Creature" not in characteristics(state, obj).types:
            return
    dealt = [(ops.DamageSource.of(game, a), Target("object", b.id), characteristics(state, a).power or 0)
             for a, b in ((first, second), (second, first))]
    for damage_source, target, amount in dealt:
        yield from ops.damage(game, damage_source, target, amount)

# --- day and night, choices, prevention (issue 3) ----------------------------------------------
@effect("become_day_night")
def _become_day_night(game: Game, ctx: Ctx, params: str) -> None:
    """'It becomes night' / 'it becomes day' (rule 731.1): nothing happens if it already is."""
    from reference_engine.daynight import become

    become(game, params)


@effect("choose_any_number")
def _choose_any_number(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """'... any number of [filter]': the controller chooses, as the effect resolves, any number of
    the permanents that match now (none included); later steps refer to them as 'it'."""
    state = game.state
    fctx = FilterContext(ctx.controller, ctx.source_id)
    options = [o.id for o in state.battlefield() if matches(state, o, params["filter"], fctx)]
    if not options:
        ctx.memory["it"] = []  # nothing to choose from: no decision to make
        return
    most = min(len(options), params.get("max", len(options)))  # 'up to six lands'
    decision = Decision(ctx.controller, "objects", f"choose {'any number' if most == len(options) else f'up to {most}'}"
                        f" of {params.get('describe', 'permanents')}", {"candidates": options, "min": 0, "max": most})
    while True:
        move = yield decision
        chosen = move.objects if move.objects is not None else (() if move.yes is False else None)
        if (chosen is not None and len(set(chosen)) == len(chosen) <= most
                and all(c in options for c in chosen)):
            break
        state.rejection = (f"choose only among {params.get('describe', 'the permanents offered')}"
                           if chosen is not None else "choose the permanents, or none")
    ctx.memory["it"] = list(chosen)


@effect("prevent_damage")
def _prevent_damage(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """'Prevent all [combat] damage that would be dealt this turn by [filter]' (rule 615)."""
    from reference_engine.prevention import PreventionEffect, add

    add(game, PreventionEffect(params.get("source", {}), bool(params.get("combat")), ctx.controller,
                               game.state.new_timestamp(), params.get("until", "end_of_turn"), ctx.source_uid,
                               ctx.source_name, to_you=params.get("to") == "you"))


@effect("prevent_next")
def _prevent_next(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """'Prevent the next N damage that would be dealt to [target] this turn': a shield (rule 615.7)."""
    from reference_engine.prevention import Shield, add

    for target in targets_of(game, ctx, params["to"]):
        add(game, Shield(target, value(game, ctx, params["amount"]), ctx.controller, game.state.new_timestamp(),
                         ctx.source_uid, ctx.source_name, rider=params.get("prevented_this_way")))


@effect("redirect_damage")
def _redirect_damage(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """'All [combat] damage that would be dealt to you this turn is dealt to target attacking creature
    instead' (614.9)."""
    from reference_engine.prevention import Redirect, add

    for obj in objects(game, ctx, params["to"]):
        add(game, Redirect(obj.id, ctx.controller, game.state.new_timestamp(), bool(params.get("combat"))))


@effect("prevent_next_instance")
def _prevent_next_instance(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """'The next time target creature would deal damage this turn, prevent that damage' (rule 615.8);
    `prevented_this_way: {gain_life: true}`: 'you gain life equal to the damage prevented this way' (615.5).
    `choose_source: <filter>` instead of `from`: 'the next time a red source of your choice would deal
    damage', the source chosen as the effect resolves (609.7a: among permanents and spells on the stack,
    here), and the shield rechecks the filter when the damage would be dealt (615.9); `to: you`: only
    damage dealt to the effect's controller."""
    from reference_engine.prevention import NextInstance, add

    chosen = objects(game, ctx, params["from"]) if "from" in params else \
        (yield from _source_of_your_choice(game, ctx, params["choose_source"]))
    for obj in chosen:
        add(game, NextInstance(obj.id, ctx.controller, game.state.new_timestamp(), ctx.source_uid, ctx.source_name,
                               rider=params.get("prevented_this_way"), source_filter=params.get("choose_source"),
                               to_player=ctx.controller if params.get("to") == "you" else None))


def _source_of_your_choice(game: Game, ctx: Ctx, filt: dict[str, Any]) -> Procedure:
    """'A [filter] source of your choice' (609.7a): one permanent or spell on the stack that matches now."""
    state = game.state
    fctx = FilterContext(ctx.controller, ctx.source_id)
    options = [o.id for o in state.battlefield() if matches(state, o, filt, fctx)]
    options += [item.object_id for item in state.stack if item.object_id is not None
                and matches(state, state.objects[item.object_id], filt, fctx)]
    if not options:
        return []
    chosen = yield from choose_one(state, ctx.controller, "choose a source of damage", options,
                                   "choose one source that has the properties the effect names")
    return [state.objects[chosen]]


@effect("exile")
def _exile(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """'Exile [it]'; later steps call the exiled cards `it` ('then return that card', 400.7)."""
    made = []
    for obj in objects(game, ctx, params["what"]):
        if obj.zone is not Zone.EXILE:
            from reference_engine.meld import found_objects

            made.extend(found_objects(game, ops.move(game, obj, Zone.EXILE)))
    ctx.memory["it"] = made


@effect("shuffle_into_library")
def _shuffle_into_library(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """'Shuffle your hand and graveyard [and all permanents you own] into your library': the order of
    a shuffled library is unknown, so cases may rely only on what is in it."""
    state = game.state
    for player in _players(game, ctx, params):  # `who: each`: 'each player shuffles ...'
        for zone in params["zones"]:
            if zone == "battlefield":
                for obj in [o for o in state.battlefield() if o.owner == player]:
                    ops.move(game, obj, Zone.LIBRARY)
                continue
            for object_id in list(state.zone_ids(Zone(zone), player)):
                ops.move(game, state.objects[object_id], Zone.LIBRARY)


@effect("set_life")
def _set_life(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """'Your life total becomes N' (rule 119.5): gaining or losing the difference, which can't happen while
    the life total can't change."""
    from reference_engine.rule_effects import life_total_cant_change

    if not life_total_cant_change(game, ctx.controller):
        game.state.players[ctx.controller].life = value(game, ctx, params["amount"])


@effect("manifest")
def _manifest(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """'Manifest the top card of your library' (701.40a): it enters face down as a 2/2 creature."""
    state = game.state
    library = state.zone_ids(Zone.LIBRARY, ctx.controller)
    if not library:
        return
    obj = state.objects[library[0]]
    new = state.move(obj, Zone.BATTLEFIELD, controller=ctx.controller)
    new.face_down = True
    new.summoning_sick = True
    state.touch()
    ops.emit(game, "enters", object_id=new.id, uid=new.uid)
    ctx.memory["it"] = [new.id]


@effect("look_at_top")
def _look_at_top(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """'Look at the top N cards of your library': later steps call them 'it'."""
    ctx.memory["it"] = list(game.state.zone_ids(Zone.LIBRARY, ctx.controller)[:value(game, ctx, params.get("count", 1))])


@effect("rest_to_bottom")
def _rest_to_bottom(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """'Put the rest on the bottom of your library in a random order': those of 'it' still in the
    library go to its bottom (their order is unknown; cases rely only on where they are)."""
    library = game.state.zone_ids(Zone.LIBRARY, ctx.controller)
    rest = [i for i in ctx.memory.get("it", []) if i in library]
    for object_id in rest:
        library.remove(object_id)
    library.extend(rest)


@effect("return_to_hand")
def _return_to_hand(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """'Return [it] to its owner's hand'."""
    for obj in objects(game, ctx, params["what"]):
        ops.move(game, obj, Zone.HAND)


@effect("lose_life")
def _lose_life(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """'You lose N life', with `who: each_opponent` 'each opponent loses N life', with `who: target.0`
    'target player loses N life'."""
    amount = value(game, ctx, params["amount"])
    who = params.get("who", "you")
    if who == "each_opponent":
        players = game.state.opponents(ctx.controller)
    else:
        players = [str(t.value) for t in targets_of(game, ctx, who) if t.kind == "player"]
    for player in players:
        ops.lose_life(game, player, amount)


@effect("mill")
def _mill(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """Mill N: put the top N cards of your library into your graveyard; they are 'it' afterwards."""
    library = game.state.zone_ids(Zone.LIBRARY, ctx.controller)
    milled = [ops.move(game, game.state.objects[i], Zone.GRAVEYARD).id
              for i in list(library[:value(game, ctx, params.get("count", 1))])]
    ctx.memory["it"] = milled


@effect("attach")
def _attach(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """Rule 701.3: attach an Equipment to a creature; it gets a new timestamp (613.7e)."""
    hosts = [o for o in objects(game, ctx, params["to"]) if o.zone is Zone.BATTLEFIELD]
    for obj in objects(game, ctx, params["what"]):
        if obj.zone is Zone.BATTLEFIELD and hosts and obj.attached_to != hosts[0].id:
            before = obj.attached_to
            obj.attached_to = hosts[0].id
            obj.timestamp = game.state.new_timestamp()
            game.state.touch()
            if before is not None:  # moved from one permanent to another: it became unattached from the first
                ops.emit(game, "unattached", object_id=obj.id, uid=obj.uid, host_id=before)


@effect("unmodelled")
def _unmodelled(game: Game, ctx: Ctx, params: Any) -> None:
    """An ability the reference engine does not model yet: an engine error if it ever resolves."""
    from reference_engine.limits import EngineLimit

    raise EngineLimit(f"{ctx.source_name}: {params} is not modelled by the reference engine")




@effect("living_death")
def _living_death(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """Living Death: each player exiles the creature cards of their graveyard, then sacrifices their
    creatures, then puts the exiled cards onto the battlefield. They enter at once, so the active
    player's get the earlier timestamps (613.7m)."""
    from reference_engine.limits import EngineLimit

    state = game.state
    exiled: dict[str, list[int]] = {}
    for player in state.apnap():
        exiled[player] = [ops.move(game, state.objects[i], Zone.EXILE).id
                          for i in list(state.zone_ids(Zone.GRAVEYARD, player))
                          if "Creature" in characteristics(state, state.objects[i]).types]
    for obj in [o for o in state.battlefield() if "Creature" in characteristics(state, o).types]:
        ops.sacrifice(game, obj)
    for player in state.apnap():
        cards = [state.objects[i] for i in exiled[player] if i in state.objects]
        if sum(1 for c in cards if any(ordered_static(a) for a in c.card.faces[0].abilities)) > 1:
            raise EngineLimit("the order of one player's permanents entering at once (613.7m) is not asked")
    returning = [(player, state.objects[i]) for player in state.apnap() for i in exiled[player] if i in state.objects]
    outer, state.entering_together = state.entering_together, frozenset(obj.id for _, obj in returning)
    try:
        for player, obj in returning:  # they enter at the same time (614.13a-b)
            yield from ops.enter_battlefield(game, obj, player)
    finally:
        state.entering_together = outer


def ordered_static(ability) -> bool:
    """A static ability whose timestamp order with others matters (613.7m): not a characteristic-defining
    ability, which applies only to its own object."""
    return ability.kind == "static" and not ability.data.get("cda")
