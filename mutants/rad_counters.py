"""Mutants for rad counters (rules 122.1i, 728) and the mill of their triggered ability (701.17): each
breaks one part of the rule the way a real engine might (cases/rad-counters/)."""

from __future__ import annotations

from mutants.patching import Patcher, mutant


def _radiation_with(p: Patcher, **changes) -> None:
    """The rad counters' ability with some of its data changed (or removed, for a value None)."""
    from reference_engine import radiation
    from reference_engine.model import Ability

    data = {k: v for k, v in dict(radiation.RAD_ABILITY.data, **changes).items() if v is not None}
    p.replace("radiation", "RAD_ABILITY", Ability("triggered", data, text=radiation.TEXT))


def _radiation_effect(milled_cards, *, remove_counters: bool = True):
    """The ability's effect, with `milled_cards(library, count)` giving the cards milled and the test of
    which milled cards cost 1 life and a rad counter (the nonland ones, as the rule has it)."""
    def radiation(game, ctx, params):
        from reference_engine import ops, player_counters, radiation
        from reference_engine.layers import characteristics
        from reference_engine.model import Zone

        state = game.state
        player = str(ctx.event.get("active", state.active))
        count = player_counters.count(state.players[player], "rad")
        library = [state.objects[i] for i in state.zone_ids(Zone.LIBRARY, player)]
        chosen, counts = milled_cards(library, count)
        milled = ops.move_together(game, chosen, Zone.GRAVEYARD) if chosen else []
        hits = sum(1 for card in milled if counts(characteristics(state, card)))
        if hits:
            radiation.life_from_radiation(game, player, hits)
            if remove_counters:
                player_counters.remove(game, player, "rad", hits)
    return radiation


def _nonland(chars) -> bool:
    return "Land" not in chars.types


@mutant("rad-milled-lands-cost-life", "the rad counters' ability makes its player lose 1 life and remove a rad counter "
        "for each card milled, lands too, not for each nonland card", ["728.1"])
def _lands_count(p: Patcher) -> None:
    from reference_engine import effects

    p.set_item(effects.EFFECTS, "radiation", _radiation_effect(lambda library, n: (library[:n], lambda chars: True)))


@mutant("rad-counters-stay", "the rad counters' ability makes its player lose life for the nonland cards milled but "
        "removes no rad counter", ["728.1"])
def _counters_stay(p: Patcher) -> None:
    from reference_engine import effects

    p.set_item(effects.EFFECTS, "radiation",
               _radiation_effect(lambda library, n: (library[:n], _nonland), remove_counters=False))


@mutant("rad-mill-from-the-bottom", "milling puts cards from the bottom of the library into the graveyard, not from "
        "the top", ["701.17a"])
def _mill_from_bottom(p: Patcher) -> None:
    from reference_engine import effects

    p.set_item(effects.EFFECTS, "radiation",
               _radiation_effect(lambda library, n: (library[::-1][:n] if n else [], _nonland)))


@mutant("rad-mill-nothing-from-a-short-library", "a player told to mill more cards than their library has mills "
        "none, not as many as possible", ["701.17b"])
def _mill_nothing_if_short(p: Patcher) -> None:
    from reference_engine import effects

    p.set_item(effects.EFFECTS, "radiation",
               _radiation_effect(lambda library, n: (library[:n] if n <= len(library) else [], _nonland)))


@mutant("rad-trigger-without-intervening-if", "the rad counters' ability triggers at the beginning of every precombat "
        "main phase, even for a player with no rad counters (its intervening if ignored)", ["603.4"])
def _no_intervening_if(p: Patcher) -> None:
    _radiation_with(p, **{"if": None})


@mutant("rad-trigger-at-every-main-phase", "'precombat main phase' read as 'main phase': abilities that trigger at "
        "the beginning of a player's precombat main phase trigger at their postcombat main phase too", ["122.1i"])
def _every_main_phase(p: Patcher) -> None:
    from reference_engine import triggers

    kinds, original = triggers.MATCHERS["step"]

    def step(game, event, value, source):
        if value["step"] == "precombat-main" and event.data["step"] == "postcombat-main":
            value = dict(value, step="postcombat-main")
        return original(game, event, value, source)
    p.set_item(triggers.MATCHERS, "step", (kinds, step))


@mutant("rad-counters-trigger-on-any-turn", "rad counters trigger at the beginning of every player's precombat main "
        "phase, not only their own: each player with rad counters mills then", ["122.1i"])
def _any_turn(p: Patcher) -> None:
    from reference_engine import conditions, effects, player_counters

    def anyone_has(game, spec, ctx):
        return any(player_counters.count(holder, spec["kind"]) >= spec.get("min", 0)
                   for holder in game.state.players.values())

    inner = _radiation_effect(lambda library, n: (library[:n], _nonland))

    def radiation(game, ctx, params):
        for player in game.state.apnap():
            if player_counters.count(game.state.players[player], "rad"):
                ctx.event = dict(ctx.event, active=player)
                inner(game, ctx, params)
    p.set_item(conditions.GAME_CONDITIONS, "active_player_counters", anyone_has)
    p.set_item(effects.EFFECTS, "radiation", radiation)


@mutant("rad-ability-controlled-by-the-other-player", "the rad counters' ability is controlled by a player other than "
        "the active one (as if 113.8 gave it a controller)", ["728.1"])
def _other_controller(p: Patcher) -> None:
    p.replace("radiation", "controller", lambda state: state.next_player(state.active))


@mutant("rad-ability-skips-the-stack", "the rad counters' ability happens as the precombat main phase begins, as a "
        "turn-based action, instead of going on the stack as a triggered ability", ["728.1", "603.3"])
def _skips_stack(p: Patcher) -> None:
    def wrapper(original):
        def put_on_stack(game):
            from reference_engine import effects, radiation

            state = game.state
            now = [t for t in state.pending_triggers if t.ability is radiation.RAD_ABILITY]
            state.pending_triggers = [t for t in state.pending_triggers if t.ability is not radiation.RAD_ABILITY]
            for trigger in now:
                ctx = effects.Ctx(trigger.controller, None, trigger.source_uid, trigger.source_name, event=trigger.event)
                yield from effects.run(game, ctx, trigger.ability.data["effect"])
            yield from original(game)
        return put_on_stack
    p.wrap("triggers", "put_on_stack", wrapper)


@mutant("radiation-life-loss-not-told-apart", "life lost to the rad counters' ability is life lost like any other: "
        "an effect on life lost 'from radiation' never applies", ["728.1a"])
def _radiation_not_told_apart(p: Patcher) -> None:
    from reference_engine import ops

    p.replace("radiation", "life_from_radiation", lambda game, player, amount: ops.lose_life(game, player, amount))


@mutant("all-life-loss-from-radiation", "an effect on life lost 'from radiation' applies to any life lost, a spell's "
        "damage too", ["728.1a"])
def _all_loss_from_radiation(p: Patcher) -> None:
    def wrapper(original):
        def lose_life(game, player, amount):
            from reference_engine import ops
            from reference_engine.restrictions import rule_abilities

            if any(c == player for _, c, _ in rule_abilities(game.state, "radiation_gains_life")):
                ops.gain_life(game, player, amount)
            else:
                original(game, player, amount)
        return lose_life
    p.wrap("ops", "lose_life", wrapper)
