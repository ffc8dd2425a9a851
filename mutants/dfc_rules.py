"""Mutants for the rules of tokens (111), copies (707), double-faced cards (712), day and night (731),
transform (701.27), blight (701.68) and nightbound (702.145): the cases of cases/tokens/, copies/,
double-faced/, day-night/ and blight/.

Each is named for the rule it breaks, the way a real engine might get that rule wrong.
"""

from __future__ import annotations

from dataclasses import replace

from mutants.patching import Patcher, mutant

#: Predefined tokens (111.10) named "<subtype> Token", and those whose abilities the cases use.
NAMED_PREDEFINED = ["111.10a", "111.10b", "111.10c", "111.10f", "111.10g", "111.10h", "111.10i", "111.10s", "111.10t", "111.10u", "111.10v"]
PREDEFINED_WITH_ABILITIES = ["111.10b", "111.10c", "111.10f", "111.10i", "111.10j", "111.10k", "111.10n", "111.10v"]


# --- tokens (111) ----------------------------------------------------------------------------------
@mutant("token-copy-controlled-by-original-controller",
        "a token copy enters under the control of the copied permanent's controller", ["111.2"])
def _token_copy_controller(p: Patcher) -> None:
    from mutants.copy import _after_token_copy

    def after(game, original, token):
        token.controller = original.controller
    _after_token_copy(p, after)


@mutant("token-takes-its-creators-mana-cost",
        "a token created by an effect has the mana cost of the card that created it", ["111.3"])
def _token_takes_creators_mana_cost(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS, source

    original_effect = EFFECTS["create_token"]

    def create_token(game, ctx, params):
        yield from original_effect(game, ctx, params)
        creator = source(game, ctx)
        cost = creator.card.faces[0].mana_cost if creator is not None else None
        for object_id in ctx.memory.get("it", []):
            token = game.state.objects.get(object_id)
            if token is not None and cost is not None:
                token.card = replace(token.card, faces=(replace(token.card.faces[0], mana_cost=cost),)
                                     + token.card.faces[1:], printed_cache={})
        game.state.touch()
    p.set_item(EFFECTS, "create_token", create_token)


@mutant("copy-token-named-after-its-subtypes",
        "a token that's a copy is named after its subtypes plus 'Token', not the copied name", ["111.4"])
def _copy_token_named_after_subtypes(p: Patcher) -> None:
    from mutants.copy import _after_token_copy

    def after(game, original, token):
        face = token.card.faces[token.face]
        name = " ".join(list(face.subtypes) + ["Token"])
        faces = tuple(replace(f, name=name) if f is face else f for f in token.card.faces)
        token.card = replace(token.card, faces=faces, printed_cache={})
    _after_token_copy(p, after)


@mutant("static-abilities-ignore-tokens", "static abilities don't affect tokens, only cards", ["111.6"])
def _statics_ignore_tokens(p: Patcher) -> None:
    from reference_engine.filters import matches

    def not_tokens(state, obj, filt, ctx, chars=None):
        return not obj.is_token and matches(state, obj, filt, ctx, chars)
    p.replace_in("statics", "matches", not_tokens)


@mutant("token-stays-in-graveyard", "a token put into a graveyard or exile stays there as a card would",
        ["111.7", "704.5d"])
def _token_stays_in_graveyard(p: Patcher) -> None:
    from reference_engine.model import Zone

    def wrapper(original):
        def ceases_to_exist(obj):  # the state-based action of 704.5d skips these tokens (it doesn't loop on them)
            return False if obj.is_token and obj.zone in (Zone.GRAVEYARD, Zone.EXILE) else original(obj)
        return ceases_to_exist
    p.wrap("sba", "ceases_to_exist", wrapper)


@mutant("dying-token-triggers-nothing",
        "a token that dies ceases to exist before abilities that trigger on its death see it", ["111.7", "603.10a"])
def _dying_token_triggers_nothing(p: Patcher) -> None:
    from reference_engine.triggers import MATCHERS

    kinds, dies = MATCHERS["dies"]

    def matcher(game, event, value, source):
        obj = game.state.objects.get(event.data.get("new_id"))
        return not (obj is not None and obj.is_token) and dies(game, event, value, source)
    p.set_item(MATCHERS, "dies", (kinds, matcher))


@mutant("token-returns-to-the-battlefield",
        "a token that has left the battlefield can still move, and come back", ["111.8"])
def _token_returns(p: Patcher) -> None:
    p.replace("ops", "stays_put", lambda obj: False)


@mutant("exiled-card-cannot-return",
        "no object that left the battlefield comes back in the same effect, cards included (111.8 misapplied)",
        ["111.8"])
def _exiled_card_cannot_return(p: Patcher) -> None:
    from reference_engine.model import Zone

    p.replace("ops", "stays_put", lambda obj: obj.zone is Zone.EXILE)


@mutant("predefined-token-named-without-token",
        "a predefined token is named after its subtype alone ('Treasure', not 'Treasure Token')",
        NAMED_PREDEFINED + ["111.4"])
def _predefined_named_without_token(p: Patcher) -> None:
    def wrapper(original):
        def predefined_token(name):
            card = original(name)
            faces = tuple(replace(f, name=f.name.removesuffix(" Token")) if f.name.endswith(" Token") and i == 0 else f
                          for i, f in enumerate(card.faces))
            return replace(card, faces=faces, printed_cache={})
        return predefined_token
    p.wrap("carddefs", "predefined_token", wrapper)


@mutant("predefined-tokens-have-no-abilities",
        "a predefined token has the types its name implies but none of the abilities rule 111.10 gives it",
        PREDEFINED_WITH_ABILITIES)
def _predefined_tokens_no_abilities(p: Patcher) -> None:
    def wrapper(original):
        def predefined_token(name):
            card = original(name)
            return replace(card, faces=tuple(replace(f, abilities=()) for f in card.faces), printed_cache={})
        return predefined_token
    p.wrap("carddefs", "predefined_token", wrapper)


@mutant("predefined-token-abilities-at-any-time",
        "a predefined token's 'Activate only as a sorcery' is forgotten", ["111.10v"])
def _predefined_any_time(p: Patcher) -> None:

    def strip(ability):
        if ability.kind != "activated" or "timing" not in ability.data:
            return ability
        return replace(ability, data={k: v for k, v in ability.data.items() if k != "timing"})  # its parsed cost kept

    def wrapper(original):
        def predefined_token(name):
            card = original(name)
            faces = tuple(replace(f, abilities=tuple(strip(a) for a in f.abilities)) for f in card.faces)
            return replace(card, faces=faces, printed_cache={})
        return predefined_token
    p.wrap("carddefs", "predefined_token", wrapper)


@mutant("incubator-token-is-single-faced", "an Incubator token has only its front face, so it can't transform",
        ["111.10i", "701.27a"])
def _incubator_single_faced(p: Patcher) -> None:
    def wrapper(original):
        def predefined_token(name):
            card = original(name)
            return replace(card, faces=card.faces[:1], printed_cache={})
        return predefined_token
    p.wrap("carddefs", "predefined_token", wrapper)


@mutant("incubate-without-counters", "incubate N creates an Incubator token without its N +1/+1 counters",
        ["701.53a"])
def _incubate_without_counters(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS

    original_effect = EFFECTS["create_token"]
    p.set_item(EFFECTS, "create_token",
               lambda game, ctx, params: original_effect(game, ctx, {k: v for k, v in params.items() if k != "counters"}))


@mutant("role-token-not-attached", "a Role token is created, but attached to nothing", ["111.10j", "111.10k", "111.10n"])
def _role_not_attached(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS

    original_effect = EFFECTS["create_token"]
    p.set_item(EFFECTS, "create_token",
               lambda game, ctx, params: original_effect(game, ctx, {k: v for k, v in params.items()
                                                                      if k != "attached_to"}))


# --- blight (701.68) -------------------------------------------------------------------------------
@mutant("blight-without-a-creature", "'you may blight N. If you do, ...' does its 'if you do' part with no creature",
        ["701.68b"])
def _blight_without_creature(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS, run

    original_effect = EFFECTS["blight"]

    def blight(game, ctx, params):
        from reference_engine.copy_effects import _creature_you_control

        if not any(_creature_you_control(game, o.id, ctx.controller) for o in game.state.battlefield()):
            yield from run(game, ctx, params.get("then", []))
            return
        yield from original_effect(game, ctx, params)
    p.set_item(EFFECTS, "blight", blight)


# --- day and night (731, 702.145) ---------------------------------------------------------------------
@mutant("nightbound-by-day-stays-back-face-up",
        "a nightbound permanent back face up stays so by day until it next becomes day", ["702.145f"])
def _nightbound_by_day_stays(p: Patcher) -> None:
    from reference_engine import daynight

    original = daynight.transform_mismatched

    def transform_mismatched(game):
        if game.state.day_night == "night":
            original(game)
    p.replace("daynight", "transform_mismatched", transform_mismatched)


@mutant("neither-becoming-day-is-a-change",
        "it becoming day or night from neither counts as 'day becomes night or night becomes day'", ["731.1a"])
def _neither_is_a_change(p: Patcher) -> None:
    from reference_engine.triggers import MATCHERS

    kinds, _ = MATCHERS["day_night_changes"]
    p.set_item(MATCHERS, "day_night_changes", (kinds, lambda game, event, value, source: True))


# --- modal double-faced cards (712.8f, 712.11, 712.12) ----------------------------------------------------
@mutant("modal-back-face-mana-value-from-front",
        "a modal double-faced card's back face takes its front face's mana value, as a nonmodal one does",
        ["712.8f"])
def _modal_mana_value_from_front(p: Patcher) -> None:
    def mana_value_face(card, face):
        return card.faces[0] if face in card.faces else face
    p.replace("layers", "mana_value_face", mana_value_face)


@mutant("modal-card-played-front-face-up", "a modal double-faced card is always played with its front face up",
        ["712.12"])
def _modal_played_front(p: Patcher) -> None:
    from reference_engine import casting

    original = casting.play_land
    p.replace("casting", "play_land", lambda game, move: original(game, replace(move, face=0)))


@mutant("modal-card-played-with-any-face",
        "a modal double-faced card can be played as a land if either face is a land", ["712.12"])
def _modal_played_any_face(p: Patcher) -> None:
    from reference_engine import casting

    original = casting.chosen_face

    def chosen_face(game, obj, face, verb):
        if verb == "played" and obj.card.double_faced:
            land = next((i for i, f in enumerate(obj.card.faces) if "Land" in f.types), face)
            return original(game, obj, land, verb)
        return original(game, obj, face, verb)
    p.replace("casting", "chosen_face", chosen_face)


@mutant("modal-card-cast-front-face-up", "a modal double-faced card is always cast with its front face up",
        ["712.11b"])
def _modal_cast_front(p: Patcher) -> None:
    from reference_engine import casting

    original = casting.cast
    p.replace("casting", "cast", lambda game, move: original(game, replace(move, face=0)))


@mutant("modal-cast-evaluates-front-face",
        "whether a modal double-faced card can be cast is judged by its front face, whichever face is cast",
        ["712.11c"])
def _modal_cast_evaluates_front(p: Patcher) -> None:
    from reference_engine import casting

    original = casting.chosen_face

    def chosen_face(game, obj, face, verb):
        original(game, obj, face, verb)
        return original(game, obj, 0, verb)
    p.replace("casting", "chosen_face", chosen_face)


# --- transforming (712.9, 712.10, 701.27) ---------------------------------------------------------------
@mutant("transform-into-instant-or-sorcery-face",
        "a permanent transforms into its other face even if that face is an instant or sorcery",
        ["712.10", "701.27d"])
def _transform_into_sorcery(p: Patcher) -> None:
    p.replace("ops", "can_transform_into", lambda face: True)


@mutant("copy-of-a-double-faced-card-transforms",
        "a permanent copying a face of a double-faced card can transform into that card's other face",
        ["712.9", "701.27c"])
def _copy_of_dfc_transforms(p: Patcher) -> None:
    from reference_engine import ops

    original = ops.transform

    def transform(game, obj, **kwargs):
        if obj.card.double_faced:
            return original(game, obj, **kwargs)
        state = game.state
        for effect in state.effects:
            if effect.layer != "1" or obj.id not in effect.affected:
                continue
            face = effect.params["face"]
            owner = next((o.card for o in state.objects.values() if face in o.card.faces and o.card.double_faced), None)
            if owner is not None:
                other = owner.faces[1 - owner.faces.index(face)]
                effect.params = dict(effect.params, face=other)
                state.touch()
                return True
        return False
    p.replace("ops", "transform", transform)


# --- copies (707) ------------------------------------------------------------------------------------
@mutant("copy-follows-the-original", "a copy keeps copying the original's current face: it changes when the original does",
        ["707.2b"])
def _copy_follows_original(p: Patcher) -> None:
    from reference_engine import copying, layers

    sources: dict[int, int] = {}
    original_copiable = copying.copiable_for_permanent
    original_values = layers.copiable_values

    def copiable_for_permanent(game, obj):
        face, card = original_copiable(game, obj)
        sources[id(face)] = obj.uid
        return face, card

    def copiable_values(state, obj):
        face, card = original_values(state, obj)
        uid = sources.get(id(face))
        if uid is not None:
            live = next((o for o in state.battlefield() if o.uid == uid), None)
            if live is not None:
                return live.card.faces[live.face], live.card
        return face, card
    p.replace("copying", "copiable_for_permanent", copiable_for_permanent)
    p.replace("layers", "copiable_values", copiable_values)


@mutant("copy-keeps-its-own-color", "a copy keeps the colors of the card it is, instead of the copied object's",
        ["707.2a"])
def _copy_keeps_own_color(p: Patcher) -> None:
    from reference_engine.model import CardDef

    def wrapper(original):
        def entry_replacements(game, card, controller, entry, spell_x):
            yield from original(game, card, controller, entry, spell_x)
            if entry.copy_of is not None:
                own = card.faces[entry.face]
                face = replace(entry.copy_of[0], color_indicator=own.colors)
                entry.copy_of = (face, CardDef(name=face.name, layout="copy", faces=(face,)))
        return entry_replacements
    p.wrap("replacement", "entry_replacements", wrapper)


@mutant("copy-exception-ignored", "'enter as a copy ..., except ...': the exception is ignored", ["707.9b"])
def _copy_exception_ignored(p: Patcher) -> None:
    p.replace("replacement", "copy_exceptions", lambda chosen, exceptions: chosen)


@mutant("in-addition-exception-drops-type-defining-abilities",
        "an exception adding types 'in addition' also drops the characteristic-defining ability that defines types",
        ["707.9d"])
def _in_addition_drops_cda(p: Patcher) -> None:
    from reference_engine import replacement
    from reference_engine.model import CardDef

    original = replacement.copy_exceptions

    def copy_exceptions(chosen, exceptions):
        face, card = original(chosen, exceptions)
        if exceptions and "add_subtypes" in exceptions:
            face = replace(face, abilities=tuple(a for a in face.abilities if a.keyword != "Changeling"))
            card = CardDef(name=face.name, layout="copy", faces=(face,))
        return face, card
    p.replace("replacement", "copy_exceptions", copy_exceptions)


@mutant("spell-copy-keeps-the-original-targets", "'you may choose new targets for the copy' is ignored",
        ["707.10c"])
def _spell_copy_keeps_targets(p: Patcher) -> None:
    def new_targets(game, controller, copy_id, specs, old):
        yield from ()
        return old
    p.replace("copy_effects", "_new_targets", new_targets)


@mutant("spell-copy-new-targets-unchecked", "a copy's new targets need not be legal", ["707.10c"])
def _spell_copy_targets_unchecked(p: Patcher) -> None:
    p.replace_in("copy_effects", "is_legal", lambda game, spec, target, controller, source_id: True)


@mutant("becoming-a-copy-is-entering",
        "a permanent that becomes a copy of another triggers that copy's enters abilities, as if it entered",
        ["707.4"])
def _becoming_a_copy_enters(p: Patcher) -> None:
    from reference_engine import ops
    from reference_engine.effects import EFFECTS

    original_effect = EFFECTS["become_copy"]

    def become_copy(game, ctx, params):
        before = {e for e in game.state.effects}
        yield from original_effect(game, ctx, params)
        for effect in [e for e in game.state.effects if e not in before and e.layer == "1"]:
            for object_id in effect.affected:
                obj = game.state.objects[object_id]
                ops.emit(game, "enters", object_id=obj.id, uid=obj.uid)
    p.set_item(EFFECTS, "become_copy", become_copy)


@mutant("becoming-a-copy-ends-other-effects",
        "a permanent that becomes a copy loses the other effects that applied to it", ["707.4"])
def _becoming_a_copy_ends_effects(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS

    original_effect = EFFECTS["become_copy"]

    def become_copy(game, ctx, params):
        before = list(game.state.effects)
        yield from original_effect(game, ctx, params)
        new = [e for e in game.state.effects if e not in before]
        affected = set().union(*(e.affected for e in new)) if new else set()
        game.state.effects = [e for e in before if not (e.affected & affected)] + new
        game.state.touch()
    p.set_item(EFFECTS, "become_copy", become_copy)


@mutant("copy-of-a-single-faced-object-cannot-transform",
        "a double-faced card copying a single-faced object is treated as single-faced, so it can't transform",
        ["712.9"])
def _copy_of_single_faced_cannot_transform(p: Patcher) -> None:
    from reference_engine import ops
    from reference_engine.layers import copiable_values

    original = ops.transform

    def transform(game, obj, **kwargs):
        _, card = copiable_values(game.state, obj)
        if not card.double_faced:
            return False
        return original(game, obj, **kwargs)
    p.replace("ops", "transform", transform)


@mutant("copy-of-a-permanent-spell-stays-a-copy",
        "a copy of a permanent spell enters as a spell copy, not as a token", ["707.10f", "111.13"])
def _permanent_spell_copy_not_token(p: Patcher) -> None:
    from reference_engine import ops

    original = ops.enter_battlefield

    def enter_battlefield(game, obj, controller, **kwargs):
        was_copy = obj.is_token and obj.zone.value == "stack"
        if was_copy:
            obj.is_token = False
        return original(game, obj, controller, **kwargs)
    p.replace_in("resolve", "ops", _OpsProxy(ops, enter_battlefield=enter_battlefield))


class _OpsProxy:
    """The ops module with some of its functions replaced, for one module that calls `ops.x(...)`."""

    def __init__(self, module, **overrides):
        self._module, self._overrides = module, overrides

    def __getattr__(self, name):
        return self._overrides.get(name) or getattr(self._module, name)


@mutant("copy-of-a-double-faced-spell-is-single-faced",
        "a copy of a double-faced spell has only the face that is up", ["707.10g"])
def _spell_copy_single_faced(p: Patcher) -> None:
    from reference_engine import copy_effects
    from reference_engine.model import CardDef

    original = copy_effects.spell_copy_card

    def spell_copy_card(card, exceptions):
        card = original(card, exceptions)
        return CardDef(name=card.faces[0].name, layout="copy", faces=card.faces[:1]) if card.double_faced else card
    p.replace("copy_effects", "spell_copy_card", spell_copy_card)


@mutant("copy-exception-conditions-ignored",
        "'... if it's a creature' exceptions of a copy effect apply whatever the copy is", ["707.9f"])
def _copy_exception_conditions_ignored(p: Patcher) -> None:
    from collections import Counter

    def exception_counters(copied, exceptions, counters):
        out = Counter(counters or {})
        for extra in (exceptions or {}).get("counters_if", {}).values():
            out.update(extra)
        return dict(out)
    p.replace("replacement", "_exception_counters", exception_counters)


@mutant("spell-copy-exception-ignored", "'copy target spell, except it isn't legendary': the exception is ignored",
        ["707.9b"])
def _spell_copy_exception_ignored(p: Patcher) -> None:
    p.replace("copy_effects", "spell_copy_card", lambda card, exceptions: card)


@mutant("token-name-ignored", "a token is always named after its subtypes, even one the effect names",
        ["111.9", "111.4"])
def _token_name_ignored(p: Patcher) -> None:
    def wrapper(original):
        def token_card(spec):
            return original({k: v for k, v in spec.items() if k != "name"})
        return token_card
    p.wrap("carddefs", "token_card", wrapper)


@mutant("once-transformed-stays-transformed",
        "a permanent that has transformed is a 'transformed permanent' even after it transforms back",
        ["701.27g"])
def _once_transformed(p: Patcher) -> None:
    from reference_engine.filters import CONDITIONS

    p.set_item(CONDITIONS, "transformed",
               lambda state, obj, value, ctx, chars: (obj.face == 1 or obj.transform_count > 0) == bool(value))


@mutant("face-down-double-faced-card-shows-its-front-face",
        "a double-faced card that enters face down has its front face's characteristics", ["712.15"])
def _face_down_dfc_front(p: Patcher) -> None:
    from reference_engine import layers

    original = layers.face_down_characteristics

    def face_down_characteristics(card, controller):
        if card.double_faced:
            return layers.printed(card.faces[0], card, controller)
        return original(card, controller)
    p.replace("layers", "face_down_characteristics", face_down_characteristics)


@mutant("ability-loses-its-source-when-renamed",
        "an ability that refers to its source by name loses track of it once the source's name changes, "
        "so '[this] deals damage' deals none", ["707.11"])
def _ability_loses_renamed_source(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS, source
    from reference_engine.layers import characteristics

    original_effect = EFFECTS["damage"]

    def damage(game, ctx, params):
        obj = source(game, ctx)
        if obj is not None and ctx.item is not None and not ctx.item.is_spell \
                and characteristics(game.state, obj).name != ctx.item.source_name:
            return None
        return original_effect(game, ctx, params)
    p.set_item(EFFECTS, "damage", damage)
