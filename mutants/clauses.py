"""Mutants that each break one clause of a ruling no case used to check (issue 17): the clause is
named in `breaks`, and the case that notices it cites that ruling."""

from __future__ import annotations

from mutants.patching import Patcher, mutant


@mutant("color-identity-ignores-back-face-rules-text", "color identity ignores mana symbols in a back face's rules "
        "text (grub-06)", ["903.4", "903.4d"])
def _identity_ignores_back_text(p: Patcher) -> None:
    from reference_engine.layers import BASIC_LAND_MANA, _strip_reminder
    from reference_engine.mana import mana_symbols_in

    def color_identity(card) -> set[str]:
        found: set[str] = set()
        for index, face in enumerate(card.faces):
            found |= {BASIC_LAND_MANA[t] for t in face.subtypes if t in BASIC_LAND_MANA}
            if face.mana_cost:
                found |= face.mana_cost.colors()
            if face.color_indicator:
                found |= face.color_indicator
            if index == 0:
                found |= mana_symbols_in(_strip_reminder(face.text))
        return found
    p.replace("layers", "color_identity", color_identity)


@mutant("enters-trigger-x-is-zero", "a permanent's enters-the-battlefield triggered ability uses the permanent's X "
        "(0), not the X of the spell it was (general-06)", ["107.3m"])
def _enters_trigger_x_is_zero(p: Patcher) -> None:
    p.replace("triggers", "enters_x", lambda trigger: None)


@mutant("uncast-permanent-has-an-x", "a permanent put onto the battlefield without being cast takes X as 1, not 0, "
        "in its enters abilities (general-06)", ["107.3m"])
def _uncast_permanent_has_x(p: Patcher) -> None:
    def wrapper(original):
        def enter_battlefield(game, obj, controller, **kwargs):
            if kwargs.get("spell_x") is None:
                kwargs["spell_x"] = 1
            return (yield from original(game, obj, controller, **kwargs))
        return enter_battlefield
    p.wrap("ops", "enter_battlefield", wrapper)


@mutant("day-night-checked-after-untapping", "the untap step's day/night check comes after the active player untaps "
        "(tovolar-05: it comes before)", ["502.2", "502.3"])
def _day_night_after_untapping(p: Patcher) -> None:
    from reference_engine import turn

    def untap_step(game) -> None:
        turn.untap_permanents(game)
        turn.untap_step_check(game)
    p.replace("turn", "untap_step", untap_step)


@mutant("doesnt-untap-ignored", "effects saying permanents don't untap during their controllers' untap steps are "
        "ignored", ["502.3"])
def _doesnt_untap_ignored(p: Patcher) -> None:
    p.replace("turn", "_kept_tapped", lambda game: set())


@mutant("could-produce-in-timestamp-order-only", "'could produce' applies replacement effects only in timestamp order, "
        "not in any possible order (general-02)", ["106.7"])
def _could_produce_one_order(p: Patcher) -> None:
    from collections import Counter

    from reference_engine import replacement

    def possible_types(specs, types):
        found: set[str] = set()
        for mana_type in types:
            found |= set(replacement._apply_all(list(specs), Counter({mana_type: 1})))
        return found
    p.replace("replacement", "possible_types", possible_types)


@mutant("mana-replacement-ignores-amount", "a replacement effect for mana of a specific amount ('tapped for two or more "
        "mana') applies to any amount (general-05)", ["106.12b"])
def _mana_replacement_ignores_amount(p: Patcher) -> None:
    def wrapper(original):
        def apply_one(spec, produced):
            return original({k: v for k, v in spec.items() if k != "min_amount"}, produced)
        return apply_one
    p.wrap("replacement", "_apply_one", wrapper)


@mutant("spell-cost-increases-ignored", "effects that make spells cost more ('costs {1} more for each other spell') "
        "don't add to the total cost", ["601.2f"])
def _cost_increases_ignored(p: Patcher) -> None:
    p.replace("casting", "with_cost_increases", lambda game, player, cost: cost)


@mutant("cast-transformed-enters-front-face-up", "a spell cast transformed (disturb) enters the battlefield front "
        "face up (grub-15)", ["712.13", "702.146b"])
def _cast_transformed_enters_front(p: Patcher) -> None:
    from reference_engine.model import Zone

    def wrapper(original):
        def enter_battlefield(game, obj, controller, **kwargs):
            if obj.zone is Zone.STACK:
                kwargs["transformed"] = False
            return (yield from original(game, obj, controller, **kwargs))
        return enter_battlefield
    p.wrap("ops", "enter_battlefield", wrapper)


@mutant("disturb-cast-front-face-up", "a card cast with disturb is put on the stack front face up, for its disturb "
        "cost", ["712.11a", "702.146a"])
def _disturb_front_face_up(p: Patcher) -> None:
    def wrapper(original):
        def cast_permission(game, move):
            obj, face, cost = original(game, move)
            return obj, 0, cost
        return cast_permission
    p.replace("casting", "cast_permission", wrapper(p.original("casting", "cast_permission")))


@mutant("graveyard-replacement-ignored", "'if this would be put into a graveyard from anywhere, exile it instead' "
        "does nothing", ["614.1a"])
def _graveyard_replacement_ignored(p: Patcher) -> None:
    from reference_engine.zone_replacements import Route

    p.replace("ops", "_destination", lambda game, obj, to, order=None: Route(to))


@mutant("copy-includes-auras", "a token copy is enchanted by the Auras attached to the original too (grub-08)",
        ["707.2", "303.4f"])
def _copy_includes_auras(p: Patcher) -> None:
    from mutants.copy import _after_token_copy
    from reference_engine.filters import CONDITIONS
    from reference_engine.layers import characteristics

    original_condition = CONDITIONS["attached_to_source"]

    def after(game, original, token):
        state = game.state
        hosts = state.__dict__.setdefault("_mutant_aura_hosts", {})
        for obj in state.battlefield():
            if obj.attached_to == original.id and characteristics(state, obj).has_subtype("Aura"):
                hosts.setdefault(obj.id, set()).add(token.id)

    def attached_to_source(state, obj, value, ctx, chars):
        if obj.id in state.__dict__.get("_mutant_aura_hosts", {}).get(ctx.source_id, set()):
            return bool(value)
        return original_condition(state, obj, value, ctx, chars)
    _after_token_copy(p, after)
    p.set_item(CONDITIONS, "attached_to_source", attached_to_source)

