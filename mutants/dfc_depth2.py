"""Mutants for issue 19, second round: face-down double-faced cards (712.15a), copies of a spell for
each object it could target or with a specified new target (707.10d-e), choosing a card name (712.19),
static copy effects (707.2c), tokens created by name (111.11) and melded permanents leaving (712.21)."""

from __future__ import annotations

from mutants.patching import Patcher, mutant


@mutant("face-down-double-faced-card-turned-up-back-face",
        "a face-down double-faced permanent turned face up has its back face up", ["712.15a"])
def _turned_up_back_face(p: Patcher) -> None:
    p.replace("face_down", "face_turned_up", lambda obj: 1 if obj.card.double_faced else 0)


# --- copies of a spell with their targets given (707.10d-e) --------------------------------------
@mutant("copy-for-each-ignores-target-legality",
        "'copy that spell for each creature it could target' copies it for every such creature, legal "
        "target or not", ["707.10d"])
def _for_each_ignores_legality(p: Patcher) -> None:
    p.replace("spell_copies", "could_target", lambda game, spell, target, controller: True)


@mutant("copy-with-new-target-ignores-its-legality",
        "'the copy targets [it]' creates the copy even when that object isn't a legal target", ["707.10e"])
def _new_target_legality_ignored(p: Patcher) -> None:
    p.replace("spell_copies", "new_target_allowed", lambda game, spell, target, controller: True)


@mutant("copy-with-given-target-changes-only-the-first-target",
        "a copy given one new target takes it for the first instance of 'target' only, keeping the "
        "original's other targets", ["707.10d", "707.10e"])
def _only_first_target(p: Patcher) -> None:
    p.replace("spell_copies", "copy_targets", lambda item, target: (target,) + tuple(item.targets[1:]))


# --- choosing a card name (712.19) ---------------------------------------------------------------
@mutant("card-name-of-both-faces-accepted",
        "a player choosing a card name may name both faces of a double-faced card at once", ["712.19"])
def _both_faces_accepted(p: Patcher) -> None:
    def wrapper(original):
        def card_name_problem(game, name):
            return None if name else original(game, name)
        return card_name_problem
    p.wrap("card_names", "card_name_problem", wrapper)


def _chosen_name_against(p: Patcher, names) -> None:
    from reference_engine.filters import CONDITIONS

    def has_chosen_name(state, obj, value, ctx, chars):
        source = state.objects.get(ctx.source_id) if ctx.source_id is not None else None
        chosen = source.chosen.get("card_name") if source is not None else None
        return (chosen is not None and obj is not None and chosen in names(obj, chars)) == bool(value)
    p.set_item(CONDITIONS, "has_chosen_name", has_chosen_name)


@mutant("chosen-name-matches-either-face",
        "a name chosen for one face of a double-faced card also names its other face", ["712.19"])
def _either_face(p: Patcher) -> None:
    _chosen_name_against(p, lambda obj, chars: {chars.name} | {f.name for f in obj.card.faces})


@mutant("chosen-name-matches-only-the-front-face",
        "only the name of a double-faced card's front face can be the chosen name of its permanent", ["712.19"])
def _front_face_only(p: Patcher) -> None:
    _chosen_name_against(p, lambda obj, chars: {obj.card.faces[0].name})


# --- tokens created by name (111.11) -----------------------------------------------------------
@mutant("token-by-name-has-only-its-name",
        "a token created by name ('create a Wurmcoil Engine token') has that name and no other "
        "characteristics, instead of the Oracle card's", ["111.11"])
def _token_by_name_blank(p: Patcher) -> None:
    from reference_engine.carddefs import token_card

    p.replace("effects", "token_named", lambda game, name: token_card({"name": name}))


# --- copies of abilities (707.10b) ---------------------------------------------------------------
@mutant("copy-of-an-ability-has-the-copier-as-its-source",
        "a copy of an ability on the stack has as its source the object whose effect copied it, not the "
        "original's source", ["707.10b"])
def _copier_is_source(p: Patcher) -> None:
    def source(item, copier_source_id):
        return copier_source_id, None
    p.replace("spell_copies", "copied_ability_source", source)


# --- modal double-faced cards put onto the battlefield (712.14b) ---------------------------------
@mutant("modal-card-with-a-nonpermanent-front-enters",
        "a modal double-faced card whose front face is an instant or sorcery, put onto the battlefield, "
        "enters anyway instead of staying where it is", ["712.14b"])
def _nonpermanent_front_enters(p: Patcher) -> None:
    p.replace("ops", "enters_as_permanent", lambda card, back_face_up: True)


# --- static copy effects (707.2c) ----------------------------------------------------------------
@mutant("static-copy-effect-follows-the-copied-object",
        "a static ability's copy effect ('enchanted creature is a copy of the chosen creature') takes the "
        "chosen creature's copiable values as they are now, not as they were when it first applied", ["707.2c"])
def _static_copy_follows(p: Patcher) -> None:
    from reference_engine.model import Zone

    def granted_values(state, source, chosen):
        from reference_engine.layers import copiable_values

        now = state.objects.get(chosen["id"])
        if now is None or now.zone is not Zone.BATTLEFIELD:
            return chosen["face"], chosen["card"]
        return copiable_values(state, now)
    p.replace("copy_statics", "granted_values", granted_values)


# --- a melded permanent put into a library (712.21a) ---------------------------------------------
@mutant("melded-cards-in-library-ignore-the-owners-order",
        "a melded permanent put into its owner's library becomes its two cards in the reverse of the order "
        "the owner chose", ["712.21a"])
def _library_order_ignored(p: Patcher) -> None:
    p.replace("meld", "arranged_order", lambda chosen: list(reversed(chosen)))


# --- casting a double-faced card transformed (712.11d) -------------------------------------------
@mutant("cast-transformed-permission-read-from-the-back-face",
        "whether a double-faced card can be cast transformed is judged on its back face alone, so the front "
        "face's ability that allows it (disturb) is not considered", ["712.11d"])
def _permission_from_back_face(p: Patcher) -> None:
    def permission_abilities(game, obj):
        return list(obj.card.faces[-1].abilities) if obj.card.double_faced else []
    p.replace("casting", "permission_abilities", permission_abilities)


# --- casting a copy (707.12) ---------------------------------------------------------------------
@mutant("cast-copy-never-becomes-cast",
        "a copy cast while another spell resolves is put on the stack but never becomes cast: 'whenever you "
        "cast' doesn't trigger for it", ["707.12"])
def _cast_copy_not_cast(p: Patcher) -> None:
    p.replace("cast_copies", "becomes_cast", lambda game, player, spell: None)


@mutant("cast-copies-decided-all-at-once",
        "of several copies a player 'may cast', the answer for the first is the answer for all", ["707.12a"])
def _copies_decided_together(p: Patcher) -> None:
    p.replace("cast_copies", "decided_individually", lambda: False)
