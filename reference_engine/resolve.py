"""Resolving the top object of the stack (rule 608)."""

from __future__ import annotations

from typing import TYPE_CHECKING


from reference_engine import effects, ops, zone_replacements
# Effects in modules of their own register themselves in effects.EFFECTS when imported: resolving
# is what runs effects, so it loads them all.
from reference_engine import copy_effects, face_down, linked, meld, optional_effects, phasing, resolution_effects, spell_copies, text_change  # noqa: F401
from reference_engine import card_names  # noqa: F401  (choose a card name: 712.19)
from reference_engine import library_effects  # noqa: F401  (put on top of a library: 712.21a)
from reference_engine import cast_copies  # noqa: F401  (casting a copy: 707.12)
from reference_engine import transforming  # noqa: F401  (as a permanent transforms: 712.20)
from reference_engine import named_copies  # noqa: F401  (a copy of a card defined by name: 707.13)
from reference_engine import chosen_x  # noqa: F401  (an X no cost defines, chosen as it resolves: 107.3f)
from reference_engine import radiation  # noqa: F401  (rad counters' inherent triggered ability: 728.1)
from reference_engine import damage_triggers  # noqa: F401  ('whenever this is dealt damage')
from reference_engine.casting import PERMANENT_TYPES, spell_ability, spell_targets
from reference_engine.conditions import holds
from reference_engine.layers import characteristics
from reference_engine.library_casting import as_it_enters_cast_this_way
from reference_engine.modal_spells import with_modes
from reference_engine.model import StackItem, Zone
from reference_engine.moves import Procedure
from reference_engine.targets import is_legal

if TYPE_CHECKING:
    from reference_engine.game import Game


def _legal_flags(game: Game, specs, item: StackItem) -> tuple[bool, ...]:
    """Rule 608.2b: which targets are still legal as the spell or ability resolves."""
    source_id = item.source_id if not item.is_spell else None
    return tuple(is_legal(game, spec, target, item.controller, source_id)
                 for spec, target in zip(specs, item.targets))


def intervening_if_holds(game: Game, data, ctx) -> bool:
    """Rule 603.4: an intervening 'if' clause is checked again as the ability resolves."""
    return holds(game, data.get("if"), ctx)


def resolve_top(game: Game) -> Procedure:
    state = game.state
    item = state.stack[-1]
    if item.is_spell:
        yield from _resolve_spell(game, item)
    else:
        yield from _resolve_ability(game, item)


def _resolve_spell(game: Game, item: StackItem) -> Procedure:
    state = game.state
    obj = state.objects[item.spell_id]
    chars = characteristics(state, obj)
    ability = spell_ability(chars)
    specs = spell_targets(chars, obj.modes)
    legal = _legal_flags(game, specs, item)
    if specs and item.targets and not any(legal):
        state.stack.remove(item)  # all targets illegal: it doesn't resolve (608.2b, 608.3b)
        ops.move(game, obj, Zone.GRAVEYARD)
        return
    if not PERMANENT_TYPES.isdisjoint(chars.types):
        state.stack.remove(item)  # a permanent spell becomes a permanent (608.3)
        if obj.spell_copy:
            # 707.10f, 111.13: a copy of a permanent spell becomes a token as it resolves (not 'created')
            obj.is_token, obj.spell_copy = True, False
        # 712.13: with the face that was up on the stack (back face up if cast transformed, 702.146b)
        new = yield from ops.enter_battlefield(game, obj, item.controller, spell_x=obj.x, transformed=obj.face == 1)
        if new is None and obj.zone is Zone.STACK:
            unplaced_permanent_spell(game, obj)
            return
        if new is not None:
            yield from as_it_enters_for_its_cost(game, item, chars, new)
            yield from as_it_enters_cast_this_way(game, item, chars.name, new)
        if new is not None and "Aura" in chars.subtypes and item.targets and legal and legal[0]:
            new.attached_to = item.targets[0].value  # an Aura spell enters attached to its target (303.4f)
            state.touch()
        if obj.spell_copy and new is not None:  # 608.3f: a copy of a permanent spell becomes a token
            new.is_token, new.spell_copy = True, False
        return
    ctx = effects.Ctx(item.controller, obj.id, obj.uid, chars.name, ops.snapshot(game, obj), item.targets, legal,
                      obj.x or 0, {}, item)
    # A modal spell does the effects of the modes chosen, in printed order (700.2, 608.2c).
    yield from effects.run(game, ctx, with_modes(ability.data, obj.modes).get("effect", []) if ability else [])
    if item in state.stack:
        state.stack.remove(item)
    current = state.objects.get(obj.id)
    if current is not None and current.zone is Zone.STACK:
        # 608.2n: an instant or sorcery goes to the graveyard; with its buyback cost paid, to its owner's hand (702.27a)
        # where several replacement effects would send it elsewhere, its controller chooses their order (616.1)
        to = Zone.HAND if "Buyback" in item.optional_costs_paid else Zone.GRAVEYARD
        orders = yield from zone_replacements.choose_orders(game, [current], to)
        ops.move(game, current, to, orders=orders)


def as_it_enters_for_its_cost(game: Game, item: StackItem, chars, new) -> Procedure:
    """Rule 608.3g: a static ability of the spell that functions on the stack (dash: 'if you cast it for its
    dash cost, it gains haste and is returned to its owner's hand at the beginning of the next end step')
    has its effects, its delayed triggered ability included, as the permanent is put onto the battlefield:
    the `on_enter` steps of the alternative cost that was paid, run with the new permanent as 'self'/'it'."""
    for ability in chars.abilities:
        if ability.kind == "rule" and ability.data.get("on_enter") and paid_for(item, ability):
            ctx = effects.Ctx(item.controller, new.id, new.uid, chars.name, None, (), (), 0, {}, None,
                              {"it": [new.id]})
            yield from effects.run(game, ctx, ability.data["on_enter"])


def paid_for(item: StackItem, ability) -> bool:
    """Whether the spell was cast paying this ability's alternative cost (118.9)."""
    return ability.alternative_cost is not None and str(ability.alternative_cost) == item.alternative_cost_paid


def unplaced_permanent_spell(game: Game, obj) -> None:
    """Rule 608.3e: a permanent spell that resolves but can't be put onto the battlefield is put into
    its owner's graveyard."""
    ops.move(game, obj, Zone.GRAVEYARD)


def _resolve_ability(game: Game, item: StackItem) -> Procedure:
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
    ability_resolved(game, item)


def ability_resolved(game: Game, item: StackItem) -> None:
    """Rule 608.2p: once every step of its resolution is done, abilities that trigger when that ability
    resolves trigger ('whenever the final chapter ability of a Saga you control resolves')."""
    source = game.state.objects.get(item.source_id) if item.source_id is not None else None
    snap = ops.snapshot(game, source) if source is not None and source.zone is Zone.BATTLEFIELD else item.source_snapshot
    ops.emit(game, "ability_resolved", source_id=item.source_id, source_uid=item.source_uid,
             controller=item.controller, ability=item.ability, snapshot=snap)
