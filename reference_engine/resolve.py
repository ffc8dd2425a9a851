"""Resolving the top object of the stack (rule 608)."""

from __future__ import annotations


from reference_engine import effects, ops
# Effects in modules of their own register themselves in effects.EFFECTS when imported: resolving
# is what runs effects, so it loads them all.
from reference_engine import copy_effects, optional_effects, resolution_effects, text_change, face_down  # noqa: F401
from reference_engine.casting import PERMANENT_TYPES, spell_ability, spell_targets
from reference_engine.conditions import holds
from reference_engine.layers import characteristics
from reference_engine.model import StackItem, Zone
from reference_engine.moves import Procedure
from reference_engine.targets import is_legal


def _legal_flags(game, specs, item: StackItem) -> tuple[bool, ...]:
    """Rule 608.2b: which targets are still legal as the spell or ability resolves."""
    source_id = item.source_id if not item.is_spell else None
    return tuple(is_legal(game, spec, target, item.controller, source_id)
                 for spec, target in zip(specs, item.targets))


def intervening_if_holds(game, data, ctx) -> bool:
    """Rule 603.4: an intervening 'if' clause is checked again as the ability resolves."""
    return holds(game, data.get("if"), ctx)


def resolve_top(game) -> Procedure:
    state = game.state
    item = state.stack[-1]
    if item.is_spell:
        yield from _resolve_spell(game, item)
    else:
        yield from _resolve_ability(game, item)


def _resolve_spell(game, item: StackItem) -> Procedure:
    state = game.state
    obj = state.objects[item.object_id]
    chars = characteristics(state, obj)
    ability = spell_ability(chars)
    specs = spell_targets(chars)
    legal = _legal_flags(game, specs, item)
    if specs and item.targets and not any(legal):
        state.stack.remove(item)  # all targets illegal: it doesn't resolve (608.2b, 608.3b)
        ops.move(game, obj, Zone.GRAVEYARD)
        return
    if any(t in chars.types for t in PERMANENT_TYPES):
        state.stack.remove(item)  # a permanent spell becomes a permanent (608.3)
        if obj.spell_copy:
            # 707.10f, 111.13: a copy of a permanent spell becomes a token as it resolves (not 'created')
            obj.is_token, obj.spell_copy = True, False
        # 712.13: with the face that was up on the stack (back face up if cast transformed, 702.146b)
        new = yield from ops.enter_battlefield(game, obj, item.controller, spell_x=obj.x, transformed=obj.face == 1)
        if new is not None and "Aura" in chars.subtypes and item.targets and legal and legal[0]:
            new.attached_to = item.targets[0].value  # an Aura spell enters attached to its target (303.4f)
            state.touch()
        if obj.spell_copy and new is not None:  # 608.3f: a copy of a permanent spell becomes a token
            new.is_token, new.spell_copy = True, False
        return
    ctx = effects.Ctx(item.controller, obj.id, obj.uid, chars.name, ops.snapshot(game, obj), item.targets, legal,
                      obj.x or 0, {}, item)
    yield from effects.run(game, ctx, ability.data.get("effect", []) if ability else [])
    if item in state.stack:
        state.stack.remove(item)
    current = state.objects.get(obj.id)
    if current is not None and current.zone is Zone.STACK:
        # 608.2n: an instant or sorcery goes to the graveyard; with its buyback cost paid, to its owner's hand (702.27a)
        ops.move(game, current, Zone.HAND if "Buyback" in item.optional_costs_paid else Zone.GRAVEYARD)


def _resolve_ability(game, item: StackItem) -> Procedure:
    state = game.state
    data = item.ability.data  # type: ignore[union-attr]
    specs = data.get("targets", [])
    legal = _legal_flags(game, specs, item)
    ctx = effects.Ctx(item.controller, item.source_id, item.source_uid, item.source_name, item.source_snapshot,
                      item.targets, legal, item.x or 0, item.event, item,
                      dict(item.event.get("memory") or {}))  # what a delayed trigger refers to (603.7c)
    if specs and item.targets and not any(legal):
        state.stack.remove(item)
        return
    if not intervening_if_holds(game, data, ctx):
        state.stack.remove(item)
        return
    yield from effects.run(game, ctx, data.get("effect", []))
    if item in state.stack:
        state.stack.remove(item)
