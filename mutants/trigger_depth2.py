"""More mutants for the depth of triggered abilities and replacement effects (rules 603 and 614:
issue 21), each named for the rule it breaks."""

from __future__ import annotations

from mutants.patching import Patcher, mutant


# --- a cost paid any number of times (603.12a) -----------------------------------------------------
@mutant("reflexive-triggers-per-payment", "a reflexive ability that triggers 'when you pay this cost one or more "
        "times' triggers once for each time the cost was paid, not once", ["603.12a"])
def _reflexive_per_payment(p: Patcher) -> None:
    def wrapper(original):
        def paid_times(game, ctx, then, times):
            for _ in range(times):
                yield from original(game, ctx, then, times)
        return paid_times
    p.wrap("optional_effects", "paid_times", wrapper)


@mutant("reflexive-triggers-on-zero-payments", "a reflexive ability that triggers 'when you pay this cost one or "
        "more times' triggers when the cost was paid zero times", ["603.12a"])
def _reflexive_on_zero(p: Patcher) -> None:
    from reference_engine.model import DecisionKind

    def wrapper(original):
        def may_pay(game, ctx, params):
            steps = original(game, ctx, params)
            try:
                decision = next(steps)
                while True:
                    move = yield decision
                    if decision.kind == DecisionKind.NUMBER and move.number == 0:
                        steps.close()
                        from reference_engine.optional_effects import paid_times

                        yield from paid_times(game, ctx, params["then"], 0)
                        return
                    decision = steps.send(move)
            except StopIteration:
                return
        return may_pay
    from reference_engine.effects import EFFECTS

    p.set_item(EFFECTS, "may_pay_any_number_of_times", wrapper(EFFECTS["may_pay_any_number_of_times"]))


# --- linked abilities of a replacement effect that exiles (614.14) and what it may choose (614.13a) ---
@mutant("linked-exile-counts-every-exiled-card", "an ability that refers to 'the exiled cards' counts every card in "
        "exile, not only those the replacement effect it is linked to exiled", ["614.14"])
def _linked_counts_every_card(p: Patcher) -> None:
    from reference_engine.model import Zone

    def wrapper(original):
        def exiled_totals(state, source_id):
            def totals():
                from reference_engine.statics import _printed_number

                cards = [o for o in state.objects.values() if o.zone is Zone.EXILE]
                return (sum(_printed_number(c.card.faces[0].power) for c in cards),
                        sum(_printed_number(c.card.faces[0].toughness) for c in cards))
            return totals
        return exiled_totals
    p.wrap("statics", "_exiled_totals", wrapper)


@mutant("entering-together-can-be-exiled", "an 'as this enters, exile cards from your graveyard' effect can choose "
        "a card entering the battlefield at the same time", ["614.13a"])
def _entering_together_choosable(p: Patcher) -> None:
    from dataclasses import replace

    def wrapper(original):
        def exile_as_enters(game, face, controller, entry, spec):
            blind = replace(entry, entering=frozenset())
            yield from original(game, face, controller, blind, spec)
            entry.exiled = blind.exiled
        return exile_as_enters
    p.wrap("linked", "exile_as_enters", wrapper)


# --- 'can't' effects on how a permanent enters (614.17d) ------------------------------------------
@mutant("entering-ignores-cant-have-counters", "a permanent entering with counters gets them even where counters "
        "can't be put on it (by its own ability or another's): 'can't' is checked only for permanents already "
        "there", ["614.17d"])
def _entering_ignores_cant(p: Patcher) -> None:
    arriving: list[bool] = []

    def arrive_wrapper(original):
        def put_entering_counters(game, new, counters):
            arriving.append(True)
            try:
                yield from original(game, new, counters)
            finally:
                arriving.pop()
        return put_entering_counters

    def prohibited_wrapper(original):
        def counters_prohibited(game, obj):
            return False if arriving else original(game, obj)
        return counters_prohibited
    p.wrap("ops", "put_entering_counters", arrive_wrapper)
    p.wrap("restrictions", "counters_prohibited", prohibited_wrapper)


@mutant("cant-have-counters-ignores-what-it-would-be", "'counters can't be put on artifacts, creatures, "
        "enchantments, or lands' applies to every permanent, whatever it would be on the battlefield", ["614.17d"])
def _cant_have_counters_everywhere(p: Patcher) -> None:
    from reference_engine.restrictions import rule_abilities

    def wrapper(original):
        def counters_prohibited(game, obj):
            return any(True for _ in rule_abilities(game.state, "cant_have_counters"))
        return counters_prohibited
    p.wrap("restrictions", "counters_prohibited", wrapper)


# --- 'as this is turned face up' (614.1e) ---------------------------------------------------------
@mutant("as-turned-face-up-is-triggered", "'as this creature is turned face up, put counters on it' is treated as "
        "a triggered ability: the counters come when it resolves, after the permanent is face up without them",
        ["614.1e"])
def _as_turned_face_up_triggered(p: Patcher) -> None:
    def wrapper(original):
        def as_turned_face_up(game, obj):
            from reference_engine.carddefs import parse_ability
            from reference_engine.layers import characteristics
            from reference_engine.state import PendingTrigger

            chars = characteristics(game.state, obj)
            for ability in chars.abilities:
                spec = ability.data.get("as_turned_face_up") if ability.kind == "replacement" else None
                for kind, amount in ((spec or {}).get("counters") or {}).items():
                    trigger = parse_ability({"triggered": {"when": {"reflexive": {}}, "effect": [
                        {"add_counters": {"what": "self", "kind": kind, "amount": int(amount)}}]}})
                    game.state.pending_triggers.append(PendingTrigger(
                        chars.controller, obj.id, obj.uid, chars.name, trigger, {}, game.state.new_timestamp()))
        return as_turned_face_up
    p.wrap("face_down", "as_turned_face_up", wrapper)


# --- entering back face up, before the other effects (616.1d, 614.12) -----------------------------
def _front_if_back(face, card):
    return card.faces[0] if card.double_faced and len(card.faces) > 1 and face is card.faces[1] else face


@mutant("back-face-up-applied-after-other-effects", "the effect that makes a card enter back face up (daybound at "
        "night) is applied after the other effects on how it enters, which see its front face", ["616.1d"])
def _back_face_later(p: Patcher) -> None:
    def wrapper(original):
        def judged_on_front(game, face, card, controller):
            return original(game, _front_if_back(face, card), card, controller)
        return judged_on_front
    p.wrap("replacement", "counters_from_others", wrapper)
    p.wrap("replacement", "enters_tapped_by_others", wrapper)


@mutant("entering-judged-on-any-face", "an effect on how other permanents enter applies if either face of the "
        "entering card would match, not only the face it will have on the battlefield", ["614.12"])
def _entering_any_face(p: Patcher) -> None:
    from collections import Counter

    def wrapper(original):
        def counters_from_others(game, face, card, controller):
            found: Counter[str] = Counter()
            for each in {id(f): f for f in (face, *card.faces)}.values():
                found |= original(game, each, card, controller)
            return found
        return counters_from_others
    p.wrap("replacement", "counters_from_others", wrapper)


# --- an additional action on a drawn card, when the draw is replaced (614.11b) ----------------------
@mutant("replacement-draw-gets-the-additional-action", "when a draw with an additional action on 'that card' is "
        "replaced, the action is performed on the cards drawn as a result of the replacement effect", ["614.11b"])
def _replacement_draw_gets_action(p: Patcher) -> None:
    from reference_engine.model import Zone

    def wrapper(original):
        def draw(game, player, count=1, *, depth=0):
            state = game.state
            before = {i for name in state.players for i in state.zone_ids(Zone.HAND, name)}
            original(game, player, count, depth=depth)
            return [state.objects[i] for name in state.players for i in state.zone_ids(Zone.HAND, name)
                    if i not in before]
        return draw
    p.wrap("ops", "draw", wrapper)


@mutant("drawn-card-additional-action-skipped", "an effect's additional action on the card its player draws ('draw "
        "a card and reveal it; if it isn't a land card, discard it') is never performed", ["614.11b"])
def _drawn_card_action_skipped(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS

    def draw_only(game, ctx, params):
        from reference_engine import ops

        ops.draw(game, ctx.controller, 1)
    p.set_item(EFFECTS, "draw_and_reveal", draw_only)


# --- choices with costs for permanents entering at the same time (614.12b) --------------------------
def _shift_life_while_choosing(p: Patcher, sign: int) -> None:
    """Run each 'as this enters, you may pay life' with the life already paid for permanents entering at
    the same time added back (sign +1: each payment judged alone) or taken off again (sign -1: counted
    twice)."""
    paid: dict[tuple[frozenset, str], int] = {}

    def wrapper(original):
        def may_pay_life(game, face, controller, entry, amount):
            state = game.state
            key = (entry.entering, controller)
            shift = sign * paid.get(key, 0) if len(entry.entering) > 1 else 0
            player = state.players[controller]
            player.life += shift
            before = player.life
            try:
                yield from original(game, face, controller, entry, amount)
            finally:
                spent = before - player.life
                player.life -= shift
                paid[key] = paid.get(key, 0) + spent
        return may_pay_life
    p.wrap("replacement", "may_pay_life_as_enters", wrapper)

    from reference_engine.effects import EFFECTS

    return_all = EFFECTS["return_all_to_battlefield"]

    def fresh_group(game, ctx, params):
        paid.clear()  # a new event: nothing paid yet for the permanents it puts onto the battlefield
        yield from return_all(game, ctx, params)
    p.set_item(EFFECTS, "return_all_to_battlefield", fresh_group)


@mutant("combined-entering-costs-judged-separately", "for permanents entering at the same time, each 'you may pay "
        "life as this enters' choice is judged on its own, so choices whose combined costs can't be paid are allowed",
        ["614.12b"])
def _combined_costs_separately(p: Patcher) -> None:
    _shift_life_while_choosing(p, +1)


@mutant("combined-entering-costs-counted-twice", "for permanents entering at the same time, a cost already paid for "
        "one of them is counted again against the life left when judging the next choice", ["614.12b"])
def _combined_costs_twice(p: Patcher) -> None:
    _shift_life_while_choosing(p, -1)


# --- phasing out (603.10b) -------------------------------------------------------------------------
@mutant("phase-out-trigger-doesnt-look-back", "abilities that trigger when a permanent phases out are judged after "
        "it has phased out, when it is treated as though it doesn't exist, so its own don't trigger", ["603.10b"])
def _phase_out_no_lookback(p: Patcher) -> None:
    def wrapper(original):
        def emit(game, kind, **data):
            if kind != "phased_out":
                return original(game, kind, **data)
            state = game.state
            outer, state.lookback = state.lookback, None
            try:
                return original(game, kind, **data)
            finally:
                state.lookback = outer
        return emit
    p.wrap("ops", "emit", wrapper)


# --- 'when this ability resolves for the Nth time this turn' (603.7h) ------------------------------
@mutant("nth-resolution-trigger-created-each-time", "'when this ability resolves for the third time this turn' is "
        "created at each resolution, and every one created triggers on the third", ["603.7h"])
def _nth_resolution_each_time(p: Patcher) -> None:
    from dataclasses import replace

    from reference_engine.effects import EFFECTS

    original = EFFECTS["when_resolved_times"]

    def when_resolved_times(game, ctx, params):
        state = game.state
        waiting = len(state.pending_triggers)
        original(game, ctx, params)
        if len(state.pending_triggers) > waiting:  # the Nth: the ones made at earlier resolutions trigger too
            made = state.pending_triggers[-1]
            for _ in range(int(params["n"]) - 1):
                state.pending_triggers.append(replace(made, timestamp=state.new_timestamp()))
    p.set_item(EFFECTS, "when_resolved_times", when_resolved_times)


# --- an object chosen twice by effects on permanents entering together (614.13b) --------------------
@mutant("entering-exile-can-choose-a-card-twice", "a card exiled by one 'as this enters, exile cards' effect can be "
        "chosen again by another such effect on a permanent entering at the same time", ["614.13b"])
def _exile_choose_twice(p: Patcher) -> None:
    from reference_engine.filters import FilterContext, matches
    from reference_engine.model import DecisionKind, Zone
    from reference_engine.moves import Decision

    exiled_in: dict[tuple[int, frozenset], list[int]] = {}  # by (game, the permanents entering together)

    def wrapper(original):
        def exile_as_enters(game, face, controller, entry, spec):
            state = game.state
            key = (id(game), entry.entering)
            earlier = [i for i in exiled_in.get(key, []) if i in state.objects]
            if len(entry.entering) < 2 or not earlier:
                yield from original(game, face, controller, entry, spec)
                exiled_in.setdefault(key, []).extend(entry.exiled or [])
                return
            ctx = FilterContext(controller)
            options = [i for i in state.zone_ids(Zone.GRAVEYARD, controller)
                       if i not in entry.entering and matches(state, state.objects[i], spec.get("filter"), ctx)] + earlier
            decision = Decision(controller, DecisionKind.OBJECTS, f"choose cards to exile as {face.name} enters",
                                {"candidates": options, "min": 0, "max": len(options)})
            while True:
                move = yield decision
                if move.objects is not None and all(c in options for c in move.objects):
                    break
                state.rejection = "choose among the cards offered"
            linked = [i if state.objects[i].zone is Zone.EXILE else None for i in move.objects]
            from reference_engine import ops

            entry.exiled = [i if i is not None else ops.move(game, state.objects[c], Zone.EXILE).id
                            for i, c in zip(linked, move.objects)]
        return exile_as_enters
    p.wrap("linked", "exile_as_enters", wrapper)


# --- a library card entering the battlefield, and an effect on that library (614.13c) ---------------
@mutant("entering-card-counted-among-library-cards", "an effect replacing a payment with exiling cards from the top "
        "of a library counts a card entering the battlefield from that library among those cards (it can't be "
        "exiled, so fewer are)", ["614.13c"])
def _entering_card_counted(p: Patcher) -> None:
    def wrapper(original):
        def pay_life(game, player, amount, *, entering=frozenset()):
            from reference_engine import ops
            from reference_engine.layers import characteristics

            state = game.state
            library = state.zone_ids(ops.Zone.LIBRARY, player)
            top = [state.objects[i] for i in library[:amount]]
            replaced = any(characteristics(state, o).controller == player
                           and any(a.kind == "replacement" and a.data.get("pay_life_exiles_library")
                                   for a in characteristics(state, o).abilities) for o in state.battlefield())
            if not replaced or amount <= 0 or len(library) < amount or not any(o.id in entering for o in top):
                return original(game, player, amount, entering=entering)
            for obj in top:
                if obj.id not in entering:
                    ops.move(game, obj, ops.Zone.EXILE)
        return pay_life
    p.wrap("ops", "pay_life", wrapper)


@mutant("library-replacement-skips-the-top-card", "an effect exiling cards from the top of a library leaves the top "
        "card out, as though it were entering the battlefield, even when no card is", ["614.13c"])
def _skips_top_card(p: Patcher) -> None:
    def wrapper(original):
        def library_cards_not_entering(game, player, entering):
            return original(game, player, entering)[1:]
        return library_cards_not_entering
    p.wrap("ops", "library_cards_not_entering", wrapper)


# --- the controller of a delayed trigger created by a static ability (603.7g) ----------------------
@mutant("static-delayed-trigger-controlled-by-current-controller", "a delayed triggered ability a static ability "
        "created (dash) is controlled by whoever controls its source when it triggers, not by the player who "
        "controlled that object when the action was taken", ["603.7g"])
def _delayed_current_controller(p: Patcher) -> None:
    from dataclasses import replace

    def wrapper(original):
        def delayed(game, event):
            from reference_engine.layers import characteristics

            state = game.state
            found = original(game, event)
            out = []
            for pending in found:
                source = next((o for o in state.battlefield() if o.uid == pending.source_uid), None)
                out.append(replace(pending, controller=characteristics(state, source).controller)
                           if source is not None else pending)
            return out
        return delayed
    p.wrap("triggers", "_delayed", wrapper)


@mutant("entering-together-exiles-nothing", "while permanents enter the battlefield at the same time, an 'as this "
        "enters, exile cards from your graveyard' effect can choose no card at all, not only none of those "
        "entering", ["614.13a"])
def _entering_together_nothing(p: Patcher) -> None:
    from dataclasses import replace

    def wrapper(original):
        def exile_as_enters(game, face, controller, entry, spec):
            if len(entry.entering) < 2:
                yield from original(game, face, controller, entry, spec)
                return
            from reference_engine.model import Zone

            every = frozenset(entry.entering | set(game.state.zone_ids(Zone.GRAVEYARD, controller)))
            blind = replace(entry, entering=every)
            yield from original(game, face, controller, blind, spec)
            entry.exiled = blind.exiled
        return exile_as_enters
    p.wrap("linked", "exile_as_enters", wrapper)
