"""Blight (rule 701.68) and 'create a token that's a copy of ...' (rules 707.2, 707.8a, 707.9a, 508.4)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reference_engine import ops
from reference_engine.copying import card_for_token_copy, token_copy_card
from reference_engine.effects import Ctx, effect, objects, run, value
from reference_engine.filters import FilterContext, matches
from reference_engine.layers import characteristics
from reference_engine.model import CardDef, Target, Zone
from reference_engine.moves import Decision, Procedure, choose_one
from reference_engine.targets import is_legal

if TYPE_CHECKING:
    from reference_engine.game import Game


# --- blight ------------------------------------------------------------------------------------
@effect("blight")
def _blight(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """{amount: N, optional: true, then: [...]}: put N -1/-1 counters on a creature you control
    (701.68a); with `optional`, 'you may blight N. If you do, [then]'. A player with no creature
    can't blight (701.68b). The creature chosen is 'blighted' afterwards (701.68c).

    State-based actions wait until the whole ability has resolved (704.3): a creature blighted to 0
    toughness, or to lethal damage, is still on the battlefield for the steps that follow."""
    state = game.state
    amount = value(game, ctx, params.get("amount", 1))
    optional = bool(params.get("optional"))
    options = [o.id for o in state.battlefield() if _creature_you_control(game, o.id, ctx.controller)]
    if not options:
        return
    prompt = f"blight {amount}: choose a creature you control to put {amount} -1/-1 counter(s) on"
    decision = Decision(ctx.controller, "objects", prompt + (", or none" if optional else ""),
                        {"candidates": options, "min": 0 if optional else 1, "max": 1})
    while True:
        move = yield decision
        problem = _blight_choice_problem(game, move.objects, ctx.controller, optional)
        if problem is None:
            break
        state.rejection = problem
    if not move.objects:
        return
    creature = state.objects[move.objects[0]]
    yield from ops.add_counters(game, creature, "-1/-1", amount, by_effect=True)  # the effect says to blight
    ctx.memory["blighted"] = [creature.id]
    yield from run(game, ctx, params.get("then", []))


def _creature_you_control(game: Game, object_id: int, player: str) -> bool:
    obj = game.state.objects.get(object_id)
    if obj is None or obj.zone is not Zone.BATTLEFIELD:
        return False
    chars = characteristics(game.state, obj)
    return "Creature" in chars.types and chars.controller == player


def _blight_choice_problem(game: Game, chosen, player: str, optional: bool) -> str | None:
    if chosen is None or (not chosen and not optional):
        return "choose a creature you control to blight" + (" (or none)" if optional else "")
    if len(chosen) > 1:
        return "blight puts its counters on one creature you control"
    if chosen and not _creature_you_control(game, chosen[0], player):
        obj = game.state.objects.get(chosen[0])
        name = characteristics(game.state, obj).name if obj is not None else "that object"
        return f"{name} is not a creature you control: blight puts -1/-1 counters on a creature you control (rule 701.68a)"
    return None


# --- token copies ------------------------------------------------------------------------------
@effect("create_token_copy")
def _create_token_copy(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """{of: ref, tapped: bool, attacking: bool, abilities: [...]}: 'create a [tapped and attacking]
    token that's a copy of [it], except it has [abilities]'.

    The token gets the copiable values and nothing else (707.2): not counters, status, attachments or
    other effects. A double-faced original gives a double-faced token with the same face up (707.8a);
    the exception's abilities become part of its copiable values (707.9a). It then enters like any
    permanent: 'enters with' and 'as enters' abilities apply (614.12), enters abilities trigger
    (603.6a), and an {X} in its cost is 0 since it wasn't cast (107.3m). A token put onto the
    battlefield attacking was never declared as an attacker (508.4)."""
    extra = tuple(params.get("abilities", ()))
    made = []
    for card, face in _copies(game, ctx, params["of"], extra):
        for _ in range(ops.effect_amounts(game, ctx.controller, "tokens_multiply", 1)):  # 614.16
            attacking = (yield from _attack_target(game, ctx.controller)) if params.get("attacking") else None
            new = yield from ops.create_token(game, card, ctx.controller, tapped=params.get("tapped", False),
                                              face=face, attacking=attacking, copy_token=True)
            if new is not None:
                made.append(new.id)
    ctx.memory["it"] = made


def _copies(game: Game, ctx: Ctx, ref: Any, extra) -> list[tuple[CardDef, int]]:
    """Token definitions for each object `ref` names: a permanent's copiable values, a card's front face
    (707.8a, 712.8a), or the last known values of one that has left the battlefield (608.2h)."""
    state = game.state
    ids = list(ctx.memory.get(ref, [])) if ref in ("it", "blighted") else [o.id for o in objects(game, ctx, ref)]
    out = []
    for object_id in ids:
        obj = state.objects.get(object_id)
        if obj is not None and obj.zone is Zone.BATTLEFIELD:
            out.append(card_for_token_copy(game, obj, extra))
        elif obj is not None:
            out.append(token_copy_card(obj.card.faces[0], obj.card, extra))
        elif (known := ops.last_known(game, object_id)) is not None:
            out.append(token_copy_card(known.copiable, known.card, extra))
    return out


def _attack_target(game: Game, controller: str) -> Procedure:
    """Rule 508.4: the controller of a creature put onto the battlefield attacking chooses which
    defending player or planeswalker it attacks. Outside combat it enters, but not attacking."""
    state = game.state
    if state.combat is None:
        return None
    options = [Target("player", p) for p in state.opponents(controller) if not state.players[p].lost]
    options += [Target("object", o.id) for o in state.battlefield()
                if "Planeswalker" in characteristics(state, o).types and characteristics(state, o).controller != controller]
    if len(options) <= 1:
        return options[0] if options else None
    decision = Decision(controller, "targets", "choose the player or planeswalker the token is attacking (rule 508.4)",
                        {"candidates": options})
    while True:
        move = yield decision
        if move.targets is not None and len(move.targets) == 1 and move.targets[0] in options:
            return move.targets[0]
        state.rejection = "choose one defending player or planeswalker for the token to attack"


@effect("become_copy")
def _become_copy(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """'Choose a [filter] on the battlefield. [What] becomes a copy of that creature [until end of
    turn]': a copy effect in layer 1 (707.2), with its own timestamp (613.2)."""
    from reference_engine.copying import copiable_for_permanent
    from reference_engine.model import ContinuousEffect

    state = game.state
    fctx = FilterContext(ctx.controller, ctx.source_id)
    options = [o.id for o in state.battlefield() if matches(state, o, params.get("choose"), fctx)]
    targets = [o for o in objects(game, ctx, params["what"]) if o.zone is Zone.BATTLEFIELD]
    if not options or not targets:
        return
    chosen = yield from choose_one(state, ctx.controller, "choose the creature it becomes a copy of", options,
                                   "choose exactly one of the creatures offered")
    face, card = copiable_for_permanent(game, state.objects[chosen])
    state.effects.append(ContinuousEffect("1", state.new_timestamp(), "copy", {"face": face, "card": card},
                                          frozenset(o.id for o in targets), ctx.controller,
                                          duration=params.get("until", "end_of_turn")))
    state.touch()


@effect("copy_spell")
def _copy_spell(game: Game, ctx: Ctx, params: dict[str, Any]) -> Procedure:
    """'Copy target instant or sorcery spell. You may choose new targets for the copy' (707.10): the
    copy is put on the stack, not cast, owned and controlled by the player who copied it, with the
    spell's characteristics (both faces of a double-faced spell, 707.10g) and the choices made for it,
    the same targets unless that player chooses new ones (a yes/no, then the targets): any of them may
    be left unchanged, even illegal ones, but a new one must be legal (707.10c). `except: {not_legendary:
    true}` changes the copy's copiable values (707.9b). Off the stack it ceases to exist (707.10a)."""
    from reference_engine.casting import spell_targets
    from reference_engine.model import StackItem

    state = game.state
    for original in objects(game, ctx, params["what"]) * value(game, ctx, params.get("times", 1)):
        item = next((i for i in state.stack if i.object_id == original.id), None)
        if item is None:
            continue
        copy = state.add_object(spell_copy_card(original.card, params.get("except")), ctx.controller, Zone.STACK,
                                face=original.face)
        copy.spell_copy, copy.x, copy.targets = True, original.x, original.targets
        copy.modes = original.modes  # a copy of a modal spell copies its modes (700.2g)
        if params.get("not_legendary"):  # '... except it isn't legendary' (707.9b)
            from dataclasses import replace as replaced
            copy.card = replaced(copy.card, printed_cache={}, faces=tuple(
                replaced(f, supertypes=tuple(s for s in f.supertypes if s != "Legendary")) for f in copy.card.faces))
        targets = item.targets
        specs = spell_targets(characteristics(state, copy), copy.modes)
        if specs and params.get("new_targets"):
            ask = Decision(ctx.controller, "may", "choose new targets for the copy? yes or no")
            while True:
                move = yield ask
                if move.yes is not None:
                    break
                state.rejection = "answer yes or no"
            if move.yes:
                targets = yield from _new_targets(game, ctx.controller, copy, specs, targets)
        copy.targets = targets
        state.stack.append(StackItem(id=state.new_id(), controller=ctx.controller, object_id=copy.id,
                                     targets=targets, x=original.x, source_name=item.source_name,
                                     division=item.division))


def spell_copy_card(card: CardDef, exceptions: dict[str, Any] | None) -> CardDef:
    """A copy of a spell has both faces of a double-faced spell, with the same face up (707.10g);
    'except it isn't legendary' changes the copy's copiable values (707.9b)."""
    if not exceptions or not exceptions.get("not_legendary"):
        return card
    from dataclasses import replace

    faces = tuple(replace(f, supertypes=tuple(s for s in f.supertypes if s != "Legendary")) for f in card.faces)
    return CardDef(name=card.name, layout=card.layout, faces=faces)


def _new_targets(game: Game, controller: str, copy, specs, old: tuple[Target, ...]) -> Procedure:
    """707.10c: the player may leave any target unchanged, even an illegal one; a new one must be legal."""
    state = game.state
    decision = Decision(controller, "targets", f"choose new targets for the copy of {copy.card.name}",
                        {"source": copy.uid})
    while True:
        move = yield decision
        chosen = tuple(move.targets) if move.targets is not None else None
        if chosen is None or len(chosen) != len(old):
            state.rejection = f"choose {len(old)} target(s) for the copy: the same ones, or new legal ones"
            continue
        wrong = next((new for spec, new, was in zip(specs, chosen, old)
                      if new != was and not is_legal(game, spec, new, controller, None)), None)
        if wrong is not None:
            state.rejection = f"{game.describe_target(wrong)} is not a legal new target for the copy (rule 707.10c)"
            continue
        return chosen
