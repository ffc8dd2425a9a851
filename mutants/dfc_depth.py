"""Mutants for issue 19 (depth of tokens, copies and double-faced cards): the predefined tokens of
111.10 not yet covered, and the rules of 111, 707 and 712 the earlier modules left alone."""

from __future__ import annotations

from dataclasses import replace

from mutants.patching import Patcher, mutant

#: The predefined tokens (111.10) that have a name of their own, not "<subtype> Token".
GIVEN_NAMES = ["111.10d", "111.10m", "111.10p", "111.10q", "111.10r"]
#: The predefined tokens added for this issue whose abilities the cases observe.
WITH_ABILITIES = ["Shard", "Royal Role", "Virtuous Role", "Wicked Role", "Young Hero Role", "Vibranium"]


def _wrap_predefined(p: Patcher, change) -> None:
    def wrapper(original):
        def predefined_token(name):
            return change(name, original(name))
        return predefined_token
    p.wrap("carddefs", "predefined_token", wrapper)


@mutant("predefined-token-given-name-ignored",
        "a predefined token with a name of its own (Walker, Royal, Wicked, ...) is named after its subtypes "
        "plus 'Token' instead", GIVEN_NAMES)
def _given_name_ignored(p: Patcher) -> None:
    def change(name, card):
        face = card.faces[0]
        generic = " ".join(list(face.subtypes) + ["Token"])
        if face.name == generic:
            return card
        return replace(card, name=generic, faces=(replace(face, name=generic),) + card.faces[1:], printed_cache={})
    _wrap_predefined(p, change)


@mutant("predefined-token-abilities-forgotten",
        "a Shard, Role or Vibranium token has the types 111.10 gives it but none of its abilities",
        ["111.10e", "111.10m", "111.10p", "111.10q", "111.10r", "111.10w"])
def _abilities_forgotten(p: Patcher) -> None:
    def change(name, card):
        if name not in WITH_ABILITIES:
            return card
        kept = tuple(replace(f, abilities=tuple(a for a in f.abilities if a.keyword == "Enchant")) for f in card.faces)
        return replace(card, faces=kept, printed_cache={})
    _wrap_predefined(p, change)


@mutant("source-toughness-condition-ignored",
        "an intervening 'if its toughness is 3 or less' always holds (the Young Hero Role's ability)",
        ["111.10r", "603.4"])
def _toughness_condition_ignored(p: Patcher) -> None:
    from reference_engine.conditions import GAME_CONDITIONS

    p.set_item(GAME_CONDITIONS, "source_toughness", lambda game, value, ctx: True)


# --- face up, face down (701.27b, 712.16) -------------------------------------------------------
@mutant("transforming-is-turning-face-up",
        "transforming a permanent also counts as turning it face up, for abilities that trigger on that",
        ["701.27b"])
def _transforming_turns_face_up(p: Patcher) -> None:
    def wrapper(original):
        def transform(game, obj, **kwargs):
            from reference_engine.ops import emit

            done = original(game, obj, **kwargs)
            if done:
                emit(game, "turned_face_up", object_id=obj.id, uid=obj.uid)
            return done
        return transform
    p.wrap("ops", "transform", wrapper)


@mutant("double-faced-permanent-turned-face-down",
        "an effect that turns permanents face down turns a double-faced permanent face down too", ["712.16"])
def _dfc_turned_face_down(p: Patcher) -> None:
    p.replace("face_down", "can_be_turned_face_down", lambda obj: True)


# --- copy effects (707) --------------------------------------------------------------------------
@mutant("copy-exception-keeping-color-ignored",
        "a copy effect that says it doesn't copy a characteristic (color) copies it anyway", ["707.9c"])
def _keeping_color_ignored(p: Patcher) -> None:
    p.replace("replacement", "keep_own_colors", lambda chosen, exceptions, own: chosen)


# --- meld cards (712.4) ------------------------------------------------------------------------
@mutant("meld-card-transforms", "a meld card is transformed like any other double-faced card", ["712.4c"])
def _meld_card_transforms(p: Patcher) -> None:
    p.replace("ops", "can_be_transformed", lambda card: True)


@mutant("meld-card-spell-has-combined-back-face",
        "a meld card on the stack has the characteristics of the combined back face of its meld pair",
        ["712.8b"])
def _meld_spell_back_face(p: Patcher) -> None:
    from reference_engine.layers import printed
    from reference_engine.model import Zone

    def wrapper(original):
        def characteristics(state, obj):
            if obj.zone is Zone.STACK and obj.card.layout == "meld":
                return printed(obj.card.faces[1], obj.card, obj.controller)
            return original(state, obj)
        return characteristics
    p.wrap("layers", "characteristics", wrapper)


@mutant("copy-exception-effect-survives-a-later-copy",
        "an exception that is an additional effect (X more +1/+1 counters) still happens after another copy "
        "effect is applied to the object", ["707.9e"])
def _exception_survives(p: Patcher) -> None:
    p.replace("replacement", "counters_before_exceptions", lambda own, so_far: so_far)


@mutant("copy-exception-counters-ignored",
        "'except it enters with X additional +1/+1 counters' is ignored", ["707.9e"])
def _exception_counters_ignored(p: Patcher) -> None:
    p.replace("replacement", "_additional_counters", lambda exceptions, counters, spell_x: counters)


@mutant("melded-permanent-loses-its-other-card",
        "when a melded permanent leaves the battlefield only one of its two cards is put into the new zone",
        ["712.21"])
def _meld_partner_lost(p: Patcher) -> None:
    p.replace("meld", "put_partner_card", lambda game, left, destination, *placement: None)


@mutant("melded-permanent-found-as-one-card",
        "an effect that finds the new object a melded permanent became finds only one of its two cards",
        ["712.21c"])
def _meld_found_as_one(p: Patcher) -> None:
    p.replace("meld", "found_objects", lambda game, new: [new.id])


@mutant("melded-permanent-leaves-twice",
        "a melded permanent leaving the battlefield is two permanents leaving: 'whenever a creature dies' "
        "triggers twice", ["712.21"])
def _meld_leaves_twice(p: Patcher) -> None:
    def wrapper(original):
        def put_partner_card(game, left, destination, *placement):
            from reference_engine.model import Zone
            from reference_engine.ops import emit

            new = original(game, left, destination, *placement)
            emit(game, "leaves", object_id=left.id, uid=left.uid, new_id=new.id,
                 **{"from": Zone.BATTLEFIELD, "to": destination}, snapshot=None)
            return new
        return put_partner_card
    p.wrap("meld", "put_partner_card", wrapper)


@mutant("melded-mana-value-of-one-front-face",
        "a melded permanent's mana value is that of one card's front face, not the sum of both", ["712.8g"])
def _melded_mana_value_one_face(p: Patcher) -> None:
    def melded_mana_value(obj):
        cost = obj.card.faces[0].mana_cost
        return cost.mana_value() if cost else 0
    p.replace("layers", "melded_mana_value", melded_mana_value)


@mutant("melded-permanent-enters-front-face-up",
        "the two cards of a meld pair enter the battlefield as one permanent front face up, not back face up",
        ["712.14c", "712.4a", "701.42a"])
def _meld_front_face_up(p: Patcher) -> None:
    def wrapper(original):
        def enter_battlefield(game, obj, controller, **kwargs):
            if kwargs.get("meld_partner") is not None:
                kwargs["transformed"] = False
            return original(game, obj, controller, **kwargs)
        return enter_battlefield
    p.wrap("ops", "enter_battlefield", wrapper)


# --- linked abilities and copies of nothing (707.7, 111.12) ---------------------------------------
@mutant("linked-exile-shared-by-copies",
        "'the exiled card' of a copied pair of linked abilities means any card exiled by any object's such "
        "ability, not only by this object's", ["707.7"])
def _linked_shared(p: Patcher) -> None:
    from reference_engine.model import Zone

    def exiled_with(game, source_id):
        state = game.state
        ids = [i for linked in state.linked.values() for i in linked]
        return [state.objects[i] for i in ids if i in state.objects and state.objects[i].zone is Zone.EXILE]
    p.replace("linked", "exiled_with", exiled_with)


@mutant("exiled-card-not-linked-to-its-exiler",
        "a card exiled by one ability isn't found by the linked ability that refers to 'a card exiled with "
        "this'", ["607.2a", "111.12"])
def _not_linked(p: Patcher) -> None:
    p.replace("linked", "exiled_with", lambda game, source_id: [])


@mutant("token-copy-of-nothing-is-blank",
        "an instruction to create a token that's a copy of a nonexistent object creates a token with no "
        "characteristics", ["111.12"])
def _copy_of_nothing_blank(p: Patcher) -> None:
    from reference_engine.model import CardDef, Face

    blank = Face(name="", mana_cost=None, color_indicator=frozenset(), supertypes=(), types=(), subtypes=(),
                 power=None, toughness=None, loyalty=None, abilities=())

    def wrapper(original):
        def _copies(game, ctx, ref, extra):
            return original(game, ctx, ref, extra) or [(CardDef(name="", layout="token", faces=(blank,)), 0)]
        return _copies
    p.wrap("copy_effects", "_copies", wrapper)


# --- can't enter the battlefield (111.5) ---------------------------------------------------------
@mutant("token-that-cant-enter-is-created",
        "a token whose characteristics a rule says can't enter the battlefield is created anyway", ["111.5"])
def _cant_enter_ignored(p: Patcher) -> None:
    p.replace("restrictions", "entry_prohibited", lambda game, face, card, controller: False)


@mutant("melded-permanent-counts-as-two-objects",
        "an effect counting the objects that changed zones counts a melded permanent as two (its cards)",
        ["712.21e"])
def _meld_counts_two(p: Patcher) -> None:
    def objects_moved(game, moved):
        return sum(1 + (game.state.objects[i].arrived_with is not None) for i in moved if i in game.state.objects)
    p.replace("meld", "objects_moved", objects_moved)
