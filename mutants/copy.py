"""Mutants for the Grub rulings: copies, blight, transforming, and double-faced card characteristics.

Each breaks one rule the grub/ cases encode, the way a real engine might get it wrong.
"""

from __future__ import annotations

from typing import Any, Callable

from mutants.patching import Patcher, mutant


# --- helpers -------------------------------------------------------------------------------------
def _after_token_copy(p: Patcher, after: Callable[[Any, Any, Any], None]) -> None:
    """Run `after(game, original, token)` for each token the create_token_copy effect makes."""
    from reference_engine.effects import EFFECTS, objects

    original_effect = EFFECTS["create_token_copy"]

    def create_token_copy(game, ctx, params):
        ref = params["of"]
        ids = list(ctx.memory.get(ref, [])) if ref in ("it", "blighted") else [o.id for o in objects(game, ctx, ref)]
        originals = [game.state.objects.get(i) for i in ids]
        yield from original_effect(game, ctx, params)
        for original, made in zip(originals, ctx.memory.get("it", [])):
            if original is not None and made in game.state.objects:
                after(game, original, game.state.objects[made])
        game.state.touch()
    p.set_item(EFFECTS, "create_token_copy", create_token_copy)


def _face_from(chars, text: str):
    from reference_engine.model import Face

    def text_of(value):
        return None if value is None else str(value)
    return Face(name=chars.name, mana_cost=chars.mana_cost, color_indicator=frozenset(chars.colors),
                supertypes=tuple(chars.supertypes), types=tuple(chars.types), subtypes=tuple(chars.subtype_list()),
                power=text_of(chars.power), toughness=text_of(chars.toughness), loyalty=text_of(chars.loyalty),
                abilities=tuple(chars.abilities), text=text)


# --- copiable values (rule 707.2) ------------------------------------------------------------------
@mutant("copy-takes-current-characteristics",
        "a copy takes the original's current characteristics (effects, counters, Equipment included)", ["707.2"])
def _copy_takes_current(p: Patcher) -> None:
    from reference_engine.layers import characteristics
    from reference_engine.model import CardDef

    def current(game, obj):
        chars = characteristics(game.state, obj)
        face = _face_from(chars, chars.copiable.text)
        return face, CardDef(name=face.name, layout="copy", faces=(face,))
    copying = __import__("reference_engine.copying", fromlist=["token_copy_card"])
    p.replace("copying", "copiable_for_permanent", current)
    p.replace("copying", "card_for_token_copy",
              lambda game, obj, extra=(): copying.token_copy_card(*current(game, obj), extra))


@mutant("copy-ignores-other-copy-effects", "a copy of a Clone copies the printed Clone, not what it copied", ["707.3"])
def _copy_ignores_copy_effects(p: Patcher) -> None:
    from reference_engine.model import CardDef

    copying = __import__("reference_engine.copying", fromlist=["token_copy_card"])

    def printed(obj):
        return obj.card.faces[obj.face]
    p.replace("copying", "copiable_for_permanent",
              lambda game, obj: (printed(obj), CardDef(printed(obj).name, "copy", (printed(obj),))))
    p.replace("copying", "card_for_token_copy",
              lambda game, obj, extra=(): copying.token_copy_card(printed(obj), obj.card, extra))


@mutant("clone-copies-any-permanent", "'enter as a copy of any creature' offers any permanent", ["707.5", "614.12a"])
def _clone_copies_any_permanent(p: Patcher) -> None:
    from reference_engine import replacement

    original = replacement._choose_copy

    def choose_copy(game, face, controller, spec):
        return original(game, face, controller, {k: v for k, v in spec.items() if k != "filter"})
    p.replace_in("replacement", "_choose_copy", choose_copy)


@mutant("copy-includes-counters", "a token copy gets the original's counters", ["707.2"])
def _copy_includes_counters(p: Patcher) -> None:
    _after_token_copy(p, lambda game, original, token: token.counters.update(original.counters))


@mutant("copy-includes-status", "a token copy is tapped and damaged like the original", ["707.2", "110.5"])
def _copy_includes_status(p: Patcher) -> None:
    def after(game, original, token):
        token.tapped, token.damage = original.tapped, original.damage
    _after_token_copy(p, after)


@mutant("copy-includes-attachments", "a token copy is equipped by the original's Equipment too", ["707.2", "301.5"])
def _copy_includes_attachments(p: Patcher) -> None:
    from reference_engine.filters import CONDITIONS

    def after(game, original, token):
        hosts = game.state.__dict__.setdefault("_mutant_extra_hosts", {})
        for obj in game.state.battlefield():
            if obj.attached_to == original.id:
                hosts.setdefault(obj.id, set()).add(token.id)

    def attached_to_source(state, obj, value, ctx, chars):
        source = state.objects.get(ctx.source_id) if ctx.source_id is not None else None
        hosts = ({source.attached_to} | state.__dict__.get("_mutant_extra_hosts", {}).get(source.id, set())
                 if source is not None else set())
        return (obj.id in hosts) == bool(value)
    _after_token_copy(p, after)
    p.set_item(CONDITIONS, "attached_to_source", attached_to_source)


@mutant("copy-keeps-x", "a token copy of a creature cast with X uses that X", ["107.3m", "707.2"])
def _copy_keeps_x(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS

    original_effect = EFFECTS["create_token_copy"]

    def create_token_copy(game, ctx, params):
        ids = ctx.memory.get(params["of"], []) if params["of"] in ("it", "blighted") else []
        xs = [game.state.objects[i].spell_x for i in ids if i in game.state.objects]
        game.state.__dict__["_mutant_x"] = next((x for x in xs if x), None)
        try:
            yield from original_effect(game, ctx, params)
        finally:
            game.state.__dict__.pop("_mutant_x", None)

    def wrapper(original):
        def entry_replacements(game, card, controller, entry, spell_x):
            x = spell_x if spell_x is not None else game.state.__dict__.get("_mutant_x")
            return (yield from original(game, card, controller, entry, x))
        return entry_replacements
    p.set_item(EFFECTS, "create_token_copy", create_token_copy)
    p.wrap("replacement", "entry_replacements", wrapper)


@mutant("token-copy-loses-exception", "the copy's listed exception ('sacrifice this token') is left out", ["707.9a"])
def _token_copy_loses_exception(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS

    original_effect = EFFECTS["create_token_copy"]
    p.set_item(EFFECTS, "create_token_copy",
               lambda game, ctx, params: original_effect(game, ctx, {k: v for k, v in params.items() if k != "abilities"}))


# --- how a copy enters (rules 603.6a, 614.1c, 707.5) ---------------------------------------------
@mutant("copies-dont-trigger-enters-abilities", "a token copy's enters abilities don't trigger", ["603.6a", "707.5"])
def _copies_dont_trigger(p: Patcher) -> None:
    def wrapper(original):
        def create_token(game, card, controller, **kwargs):
            new = yield from original(game, card, controller, **kwargs)
            if kwargs.get("copy_token"):
                game.state.pending_triggers = [t for t in game.state.pending_triggers
                                               if not (t.event.get("object_id") == new.id and "to" not in t.event)]  # its enters events
            return new
        return create_token
    p.wrap("ops", "create_token", wrapper)


@mutant("copies-skip-enters-replacements", "a token copy enters without its 'enters with' and 'as enters' abilities",
        ["614.1c", "614.12", "707.5"])
def _copies_skip_replacements(p: Patcher) -> None:
    from reference_engine import ops
    from reference_engine.model import Zone

    def wrapper(original):
        def create_token(game, card, controller, *, tapped=False, face=0, attacking=None, copy_token=False,
                         counters=None):
            if not copy_token:
                return (yield from original(game, card, controller, tapped=tapped, face=face, attacking=attacking,
                                            counters=counters))
            new = game.state.add_object(card, controller, Zone.BATTLEFIELD, is_token=True, face=face)
            new.copy_token = True
            # The counters the creating effect gives it are not its own 'enters with' abilities: they stay.
            ops._arrive(game, new, ops.Entry(face=face, tapped=tapped, attacking=attacking))
            yield from ops.put_entering_counters(game, new, counters)
            ops.emit(game, "enters", object_id=new.id, uid=new.uid)
            return new
        return create_token
    p.wrap("ops", "create_token", wrapper)


@mutant("copy-enters-trigger-checks-printed-name",
        "'enters or transforms into <name>' checks the printed face, so a Clone of that face doesn't trigger", ["707.5"])
def _enters_trigger_printed_name(p: Patcher) -> None:
    from reference_engine.triggers import MATCHERS

    kinds, original = MATCHERS["enters_or_transforms_into"]

    def matcher(game, event, value, source):
        if event.kind == "enters":
            obj = game.state.objects.get(event.data["object_id"])
            return event.data["uid"] == source.uid and obj is not None and obj.face_def.name == value
        return original(game, event, value, source)
    p.set_item(MATCHERS, "enters_or_transforms_into", (kinds, matcher))


@mutant("attacking-token-not-in-combat", "a token created 'tapped and attacking' isn't attacking", ["508.4"])
def _attacking_token_not_in_combat(p: Patcher) -> None:
    def wrapper(original):
        def create_token(game, card, controller, **kwargs):
            kwargs["attacking"] = None
            return (yield from original(game, card, controller, **kwargs))
        return create_token
    p.wrap("ops", "create_token", wrapper)


@mutant("attacking-token-counts-as-declared", "a token put onto the battlefield attacking 'attacks', as if declared",
        ["508.3a", "508.4"])
def _attacking_token_attacks(p: Patcher) -> None:
    from reference_engine import ops

    def wrapper(original):
        def create_token(game, card, controller, **kwargs):
            new = yield from original(game, card, controller, **kwargs)
            if kwargs.get("attacking") is not None and game.state.combat is not None:
                ops.emit(game, "attacks", object_id=new.id, uid=new.uid, defender=kwargs["attacking"])
            return new
        return create_token
    p.wrap("ops", "create_token", wrapper)


# --- blight and state-based actions (rules 701.68, 704.3) -----------------------------------------
@mutant("sba-during-resolution", "a creature at 0 toughness or lethal damage dies at once, mid-resolution", ["704.3"])
def _sba_during_resolution(p: Patcher) -> None:
    from reference_engine.layers import characteristics
    from reference_engine.model import Zone

    def wrapper(original):
        def add_counters(game, obj, kind, amount, by=None, *, by_effect=False):
            yield from original(game, obj, kind, amount, by, by_effect=by_effect)
            for other in list(game.state.battlefield()):
                chars = characteristics(game.state, other)
                if "Creature" in chars.types and ((chars.toughness or 0) <= 0 or other.damage >= (chars.toughness or 0)):
                    game.state.lki.pop(other.id, None)
                    __import__("reference_engine.ops", fromlist=["move"]).move(game, other, Zone.GRAVEYARD)
        return add_counters
    p.wrap("ops", "add_counters", wrapper)


@mutant("blight-any-permanent", "blight may put its counters on any permanent, anyone's", ["701.68a"])
def _blight_any_permanent(p: Patcher) -> None:
    from reference_engine.model import Zone

    def on_battlefield(game, object_id, player):
        obj = game.state.objects.get(object_id)
        return obj is not None and obj.zone is Zone.BATTLEFIELD
    p.replace("copy_effects", "_creature_you_control", on_battlefield)


# --- transforming (rules 701.27, 505.1a) ---------------------------------------------------------
@mutant("transform-ignores-701-27f", "a permanent's own ability transforms it even if it transformed since", ["701.27f"])
def _transform_ignores_since(p: Patcher) -> None:
    def wrapper(original):
        def transform(game, obj, *, by_day_night=False, own_ability_since=None):
            return original(game, obj, by_day_night=by_day_night)
        return transform
    p.wrap("ops", "transform", wrapper)


@mutant("may-pay-ignores-if-you-do", "'you may pay {R}. If you do, transform' transforms even if you don't pay", ["701.27a"])
def _may_pay_ignores_if_you_do(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS, run
    from reference_engine.moves import Decision
    from reference_engine.optional_effects import _pay, _payers, _payment_problem, cost_to_pay

    def may_pay(game, ctx, params):
        cost = cost_to_pay(game, ctx, params["cost"])
        for payer in _payers(game, ctx, params.get("by")):
            move = yield Decision(payer, "may", f"pay {cost} for {ctx.source_name}'s ability? yes or no",
                                  {"cost": str(cost)})
            if move.yes and _payment_problem(game, payer, cost, move.payments) is None:
                yield from _pay(game, payer, cost, move.payments)
                break
        yield from run(game, ctx, params["then"])  # whether or not anyone paid
    p.set_item(EFFECTS, "may_pay", may_pay)


@mutant("first-main-phase-means-any-main-phase", "'your first main phase' triggers in the postcombat main phase too",
        ["505.1a"])
def _any_main_phase(p: Patcher) -> None:
    from reference_engine.triggers import MATCHERS

    kinds, original = MATCHERS["step"]

    def matcher(game, event, value, source):
        if value.get("step") == "precombat-main" and event.data["step"] == "postcombat-main":
            value = dict(value, step="postcombat-main")
        return original(game, event, value, source)
    p.set_item(MATCHERS, "step", (kinds, matcher))


@mutant("additional-triggers-ignored", "'that ability triggers an additional time' does nothing", ["603.2d"])
def _additional_triggers_ignored(p: Patcher) -> None:
    p.replace("triggers", "_additional_triggers", lambda game, found: [])


# --- double-faced cards (rule 712) ---------------------------------------------------------------
@mutant("dfc-enters-transformed-ignored", "a double-faced card put onto the battlefield transformed enters front face up",
        ["712.14a"])
def _enters_transformed_ignored(p: Patcher) -> None:
    def wrapper(original):
        def enter_battlefield(game, obj, controller, **kwargs):
            kwargs["transformed"] = False
            return original(game, obj, controller, **kwargs)
        return enter_battlefield
    p.wrap("ops", "enter_battlefield", wrapper)


@mutant("non-dfc-enters-transformed-front-up", "a card that isn't double-faced put onto the battlefield transformed enters anyway",
        ["712.14a"])
def _non_dfc_enters(p: Patcher) -> None:
    def wrapper(original):
        def enter_battlefield(game, obj, controller, **kwargs):
            if not obj.card.double_faced:
                kwargs["transformed"] = False
            return original(game, obj, controller, **kwargs)
        return enter_battlefield
    p.wrap("ops", "enter_battlefield", wrapper)


@mutant("zone-change-keeps-face", "a double-faced card keeps the face it had up when it changes zones", ["712.8a", "712.14"])
def _zone_change_keeps_face(p: Patcher) -> None:
    from reference_engine.state import GameState

    original = GameState.move

    def move(self, obj, to, *, controller=None, position=None, face=0):
        return original(self, obj, to, controller=controller, position=position, face=face or obj.face)
    p.set_attr(GameState, "move", move)


@mutant("dfc-faces-merged-on-battlefield",
        "a double-faced card has both faces' subtypes, on the battlefield and elsewhere",
        ["712.8a", "712.8d", "712.8e"])
def _faces_merged(p: Patcher) -> None:
    def wrapper(original):
        def printed(face, card, controller, **kwargs):
            chars = original(face, card, controller, **kwargs)
            if card.double_faced:
                for other in card.faces:
                    chars.subtypes += [s for s in other.subtypes if s not in chars.subtypes]
            return chars
        return printed
    p.wrap("layers", "printed", wrapper)


@mutant("front-face-has-back-face-abilities", "a double-faced card front face up also has its back face's abilities "
        "(after its own)", ["712.8a", "712.8d"])
def _front_has_back_abilities(p: Patcher) -> None:
    def wrapper(original):
        def printed(face, card, controller, **kwargs):
            chars = original(face, card, controller, **kwargs)
            if card.double_faced and face is card.faces[0]:
                chars.abilities = chars.abilities + [a for a in card.faces[1].abilities if a not in chars.abilities]
            return chars
        return printed
    p.wrap("layers", "printed", wrapper)


@mutant("back-face-mana-value-from-own-cost", "a back face's mana value comes from its own (missing) mana cost",
        ["712.8e", "202.3b"])
def _back_face_mana_value(p: Patcher) -> None:
    def wrapper(original):
        def printed(face, card, controller, **kwargs):
            kwargs["mana_value_face"] = None
            return original(face, card, controller, **kwargs)
        return printed
    p.wrap("layers", "printed", wrapper)


@mutant("copy-of-back-face-keeps-front-mana-value", "a token copying a back face has its front face's mana value", ["202.3b"])
def _copy_of_back_face_mana_value(p: Patcher) -> None:
    def wrapper(original):
        def create_token(game, card, controller, **kwargs):
            kwargs["copy_token"] = False
            return (yield from original(game, card, controller, **kwargs))
        return create_token
    p.wrap("ops", "create_token", wrapper)


@mutant("color-indicator-ignored", "a face's colors come from its mana cost only, so a back face is colorless", ["204.2"])
def _color_indicator_ignored(p: Patcher) -> None:
    def wrapper(original):
        def printed(face, card, controller, **kwargs):
            chars = original(face, card, controller, **kwargs)
            if card.layout != "token":
                chars.colors = set(face.mana_cost.colors()) if face.mana_cost else set()
            return chars
        return printed
    p.wrap("layers", "printed", wrapper)


@mutant("token-copy-of-dfc-is-single-faced", "a token copy of a double-faced permanent has only the face that is up",
        ["707.8a"])
def _token_copy_single_faced(p: Patcher) -> None:
    from reference_engine.copying import _with
    from reference_engine.model import CardDef

    p.replace("copying", "token_copy_card", lambda face, card, extra=(): (
        CardDef(name=face.name, layout="copy", faces=(_with(face, tuple(extra)),)), 0))


@mutant("token-copy-of-dfc-enters-front-face-up", "a token copy of a transformed permanent enters front face up",
        ["707.8a"])
def _token_copy_front_up(p: Patcher) -> None:
    def wrapper(original):
        def token_copy_card(face, card, extra=()):
            definition, _ = original(face, card, extra)
            return definition, 0
        return token_copy_card
    p.wrap("copying", "token_copy_card", wrapper)


# --- color identity (rule 903.4) -----------------------------------------------------------------
def _identity(*, front_only: bool = False, indicators: bool = True, text: bool = True, land_types: bool = True):
    from reference_engine.layers import BASIC_LAND_MANA, _strip_reminder
    from reference_engine.mana import mana_symbols_in

    def color_identity(card) -> set[str]:
        found: set[str] = set()
        for face in card.faces[:1] if front_only else card.faces:
            if land_types:
                found |= {BASIC_LAND_MANA[t] for t in face.subtypes if t in BASIC_LAND_MANA}
            if face.mana_cost:
                found |= face.mana_cost.colors()
            if indicators and face.color_indicator:
                found |= face.color_indicator
            if text:
                found |= mana_symbols_in(_strip_reminder(face.text))
        return found
    return color_identity


@mutant("color-identity-front-face-only", "color identity ignores the back face", ["903.4d"])
def _identity_front_only(p: Patcher) -> None:
    p.replace("layers", "color_identity", _identity(front_only=True))


@mutant("color-identity-ignores-color-indicators", "color identity ignores color indicators", ["903.4"])
def _identity_no_indicators(p: Patcher) -> None:
    p.replace("layers", "color_identity", _identity(indicators=False))


@mutant("color-identity-ignores-rules-text", "color identity ignores mana symbols in rules text", ["903.4"])
def _identity_no_text(p: Patcher) -> None:
    p.replace("layers", "color_identity", _identity(text=False))


@mutant("color-identity-ignores-basic-land-types", "color identity ignores basic land types", ["903.4"])
def _identity_no_land_types(p: Patcher) -> None:
    p.replace("layers", "color_identity", _identity(land_types=False))
