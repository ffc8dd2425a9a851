"""Copies of a spell made with their targets given (rules 707.10d-e): 'copy that spell for each other
creature it could target' (Zada, Hedron Grinder) and 'copy that spell. The copy targets [this]' (Ivy,
Gleeful Spellthief), and the trigger condition they share, 'a spell that targets only [...]'; and
copies of an ability on the stack (707.10, 707.10b: Strionic Resonator)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from reference_engine.copy_effects import spell_copy_card
from reference_engine.effects import Ctx, effect, objects, targets_of
from reference_engine.filters import FilterContext, condition, matches
from reference_engine.layers import characteristics
from reference_engine.model import GameObject, StackItem, Target, Zone
from reference_engine.targets import is_legal

if TYPE_CHECKING:
    from reference_engine.game import Game
    from reference_engine.state import GameState


def spell_item(state: GameState, spell: GameObject) -> StackItem | None:
    return next((i for i in state.stack if i.object_id == spell.id), None)


@condition("targets_only")
def _targets_only(state, obj, value, ctx, chars) -> bool:
    """'A spell that targets only [a single creature other than Ivy]': it has targets, every one of them
    the same object, and that object meets the filter `value` (`{self: true}`: only this permanent)."""
    item = spell_item(state, obj) if obj is not None else None
    if item is None or not item.targets:
        return False
    if any(t.kind != "object" for t in item.targets) or len({t.value for t in item.targets}) != 1:
        return False
    target = state.objects.get(item.targets[0].object_id)
    return target is not None and matches(state, target, value, ctx)


def target_specs(game: Game, spell: GameObject) -> list[dict[str, Any]]:
    from reference_engine.casting import spell_targets

    return list(spell_targets(characteristics(game.state, spell), spell.modes))


def legal_for_every_target(game: Game, spell: GameObject, target: Target, controller: str) -> bool:
    """Rules 707.10d-e: the new target must be legal for each instance of the word 'target'."""
    specs = target_specs(game, spell)
    return bool(specs) and all(is_legal(game, spec, target, controller, spell.id) for spec in specs)


def could_target(game: Game, spell: GameObject, target: Target, controller: str) -> bool:
    """707.10d: a copy is created only for an object that is a legal target for each 'target'."""
    return legal_for_every_target(game, spell, target, controller)


def new_target_allowed(game: Game, spell: GameObject, target: Target, controller: str) -> bool:
    """707.10e: the copy isn't created unless its specified target is legal for each 'target'."""
    return legal_for_every_target(game, spell, target, controller)


def copy_targets(item: StackItem, target: Target) -> tuple[Target, ...]:
    """707.10d-e: each of the copy's targets is the one object given, for every instance of 'target'."""
    return (target,) * len(item.targets)


def put_copy(game: Game, controller: str, original: GameObject, item: StackItem, target: Target) -> None:
    """A copy of the spell (707.10), every one of whose targets is `target`, put on the stack (not cast)."""
    state = game.state
    copy = state.add_object(spell_copy_card(original.card, None), controller, Zone.STACK, face=original.face)
    targets = copy_targets(item, target)
    copy.spell_copy, copy.x, copy.targets = True, original.x, targets
    copy.modes = original.modes  # a copy of a modal spell copies its modes (700.2g)
    state.stack.append(StackItem(id=state.new_id(), controller=controller, object_id=copy.id, targets=targets,
                                 x=original.x, source_name=item.source_name, division=item.division))


@effect("copy_spell_with_target")
def _copy_spell_with_target(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """{what: event_spell, target: self}: 'copy that spell. The copy targets [it]' (707.10e). Each of
    the copy's targets is that object; if it isn't a legal target for each of them, no copy is made."""
    state = game.state
    new = objects(game, ctx, params["target"])
    for original in objects(game, ctx, params["what"]):
        item = spell_item(state, original)
        if item is None or not new:
            continue
        target = Target("object", new[0].id)
        if new_target_allowed(game, original, target, ctx.controller):
            put_copy(game, ctx.controller, original, item, target)


@effect("copy_spell_for_each")
def _copy_spell_for_each(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """{what: event_spell, each: filter}: 'copy that spell for each [other creature you control] that
    the spell could target. Each copy targets a different one of those' (707.10d): one copy per
    permanent of the filter that is a legal target for each instance of 'target' in the spell, all its
    targets that permanent. (The copies go on the stack in the order the permanents entered the
    battlefield: the order of the controller's choice is not asked, as no case yet tells the two apart.)"""
    state = game.state
    fctx = FilterContext(ctx.controller, ctx.source_id)
    for original in objects(game, ctx, params["what"]):
        item = spell_item(state, original)
        if item is None:
            continue
        for permanent in [o for o in state.battlefield() if matches(state, o, params.get("each"), fctx)]:
            target = Target("object", permanent.id)
            if could_target(game, original, target, ctx.controller):
                put_copy(game, ctx.controller, original, item, target)


def copied_ability_source(item: StackItem, copier_source_id: int | None) -> tuple[int | None, int | None]:
    """707.10b: a copy of an ability has the same source as the original (id and physical uid)."""
    return item.source_id, item.source_uid


@effect("copy_ability")
def _copy_ability(game: Game, ctx: Ctx, params: dict[str, Any]) -> None:
    """{what: target.0}: 'copy target triggered ability you control' (707.10): the copy is put on the
    stack controlled by the player who copied it, with the original's source (707.10b), so 'this
    creature' in it is still the original's source, and the original's choices and targets. (Choosing
    new targets for it is not modelled: a case that needs it gets an engine error.)"""
    state = game.state
    for target in targets_of(game, ctx, params["what"]):
        item = next((i for i in state.stack if target.kind == "ability" and i.id == target.value), None)
        if item is None:
            continue
        if item.targets and params.get("new_targets"):
            from reference_engine.limits import EngineLimit

            raise EngineLimit("choosing new targets for a copy of an ability is not modelled")
        source_id, source_uid = copied_ability_source(item, ctx.source_id)
        state.stack.append(replace(item, id=state.new_id(), controller=ctx.controller, source_id=source_id,
                                   source_uid=source_uid))
