"""Mutants for replacement and prevention effects (rules 614, 615, 616): the ways an engine might get
them wrong. Each is named for the rule it breaks."""

from __future__ import annotations

from mutants import shapes
from mutants.patching import Patcher, mutant


# --- the order of several effects (616.1) -------------------------------------------------------
@mutant("replacement-order-inverted", "the effect the affected player chooses to apply first is applied last",
        ["616.1", "616.1e"])
def _order_inverted(p: Patcher) -> None:
    def wrapper(original):
        def choose_order(game, player, effects, outcome, what):
            order = yield from original(game, player, effects, outcome, what)
            return list(reversed(order))
        return choose_order
    p.wrap("replacement", "choose_order", wrapper)


@mutant("replacement-order-by-timestamp", "several effects on one event are applied in timestamp order; the "
        "affected player is never asked", ["616.1"])
def _order_by_timestamp(p: Patcher) -> None:
    def choose_order(game, player, effects, outcome, what):
        return sorted(effects, key=lambda e: e.timestamp)
        yield  # a generator that asks nothing
    p.replace("replacement", "choose_order", choose_order)


@mutant("replacement-order-asked-of-effect-controller", "the controller of the first effect's source, not the "
        "affected player, chooses the order", ["616.1"])
def _order_wrong_player(p: Patcher) -> None:
    from reference_engine.layers import characteristics

    def wrapper(original):
        def choose_order(game, player, effects, outcome, what):
            state = game.state
            for effect in effects:
                obj = state.find_uid(effect.source_uid) if effect.source_uid is not None else None
                if obj is not None:
                    player = characteristics(state, obj).controller
                    break
            return (yield from original(game, player, effects, outcome, what))
        return choose_order
    p.wrap("replacement", "choose_order", wrapper)


# --- replacement effects on damage (614) ---------------------------------------------------------
@mutant("damage-replacement-ignored", "'it deals double that damage instead' doesn't change the damage dealt",
        ["614.1a", "614.2"])
def _damage_replacement_ignored(p: Patcher) -> None:
    from reference_engine import damage

    def wrapper(original):
        def applicable(game, source, target, *, combat):
            return [e for e in original(game, source, target, combat=combat) if e.spec[0] not in ("multiply", "add")]
        return applicable
    p.wrap("damage", "applicable", wrapper)
    del damage


@mutant("damage-replacement-ignores-source", "'if a red source you control would deal damage ...' applies to "
        "damage from any source", ["614.2"])
def _damage_replacement_any_source(p: Patcher) -> None:
    def wrapper(original):
        def covers(game, spec, source, target, receiver, ctx):
            if "source" in spec:
                spec = {k: v for k, v in spec.items() if k != "source"}
                target_ok = original(game, spec, source, target, receiver, ctx)
                if target.kind == "player" and isinstance(spec.get("to"), dict) and "players" in spec["to"]:
                    return True
                return target_ok
            return original(game, spec, source, target, receiver, ctx)
        return covers
    p.wrap("damage", "_covers", wrapper)


@mutant("replacement-applies-to-its-own-result", "a replacement effect applies again to the event it modified "
        "(doubled damage is doubled once more)", ["614.5"])
def _replacement_repeats(p: Patcher) -> None:
    def wrapper(original):
        def step(effect, amount, used):
            amount = original(effect, amount, used)
            return original(effect, amount, used) if effect.spec[0] == "multiply" else amount
        return step
    p.wrap("damage", "_step", wrapper)


# --- prevention effects (615) --------------------------------------------------------------------
@mutant("shield-ignored", "'prevent the next N damage that would be dealt to ...' prevents nothing", ["615.7"])
def _shield_ignored(p: Patcher) -> None:
    p.replace("prevention", "shields", lambda game, target: [])


@mutant("shield-never-used-up", "a prevention shield prevents all damage to it this turn, however much, instead "
        "of the next N", ["615.7", "615.3"])
def _shield_never_used_up(p: Patcher) -> None:
    def wrapper(original):
        def step(effect, amount, used):
            return 0 if effect.spec[0] == "shield" and amount > 0 else original(effect, amount, used)
        return step
    p.wrap("damage", "_step", wrapper)


@mutant("shield-outlasts-the-turn", "a 'this turn' prevention shield is still there on later turns", ["615.3"])
def _shield_outlasts_turn(p: Patcher) -> None:
    from reference_engine.prevention import Shield

    def end_of_turn(game):
        state = game.state
        state.prevention = [e for e in state.prevention if isinstance(e, Shield) or e.duration != "end_of_turn"]
    p.replace("prevention", "end_of_turn", end_of_turn)


@mutant("static-prevention-once-per-turn", "'prevent 1 of that damage' from a static ability applies to one damage "
        "event a turn, not to each", ["615.10"])
def _static_prevention_once(p: Patcher) -> None:
    def wrapper(original):
        def applicable(game, source, target, *, combat):
            used = game.__dict__.setdefault("_static_prevention_used", set())
            out = []
            for effect in original(game, source, target, combat=combat):
                key = (game.state.turn, effect.source_uid)
                if effect.spec[0] == "prevent_n":
                    if key in used:
                        continue
                    used.add(key)
                out.append(effect)
            return out
        return applicable
    p.wrap("damage", "applicable", wrapper)


@mutant("static-prevention-ignores-filter", "'prevent 1 of damage to a Cleric creature you control' applies to "
        "damage to any creature", ["615.10"])
def _static_prevention_any(p: Patcher) -> None:
    def wrapper(original):
        def covers(game, spec, source, target, receiver, ctx):
            if "amount" in spec and target.kind == "object":
                return receiver is not None
            return original(game, spec, source, target, receiver, ctx)
        return covers
    p.wrap("damage", "_covers", wrapper)


# --- how permanents enter (614.1d, 614.12, 616.1c) ------------------------------------------------
@mutant("own-enters-tapped-ignored", "'this creature enters tapped' doesn't apply", ["614.1d", "603.6d"])
def _own_enters_tapped_ignored(p: Patcher) -> None:
    def wrapper(original):
        def entry_replacements(game, card, controller, entry, spell_x):
            from reference_engine.replacement import enters_tapped_by_others

            before = entry.tapped
            yield from original(game, card, controller, entry, spell_x)
            face = entry.copy_of[0] if entry.copy_of else card.faces[entry.face]
            entry.tapped = before or enters_tapped_by_others(game, face, card, controller)
        return entry_replacements
    p.wrap("replacement", "entry_replacements", wrapper)


@mutant("others-enter-tapped-ignored", "'creatures your opponents control enter tapped' doesn't apply",
        ["614.1d", "614.12"])
def _others_enter_tapped_ignored(p: Patcher) -> None:
    p.replace("replacement", "enters_tapped_by_others", lambda game, face, card, controller: False)


@mutant("others-enter-tapped-ignores-types", "'creatures and nonbasic lands your opponents control enter tapped' "
        "taps every permanent an opponent's enters, basic lands too", ["614.12"])
def _others_enter_tapped_any(p: Patcher) -> None:
    def wrapper(original):
        def enters_tapped_by_others(game, face, card, controller):
            from reference_engine.layers import characteristics

            state = game.state
            return any(ability.kind == "replacement" and "others_enter_tapped" in ability.data
                       and characteristics(state, obj).controller != controller
                       for obj in state.battlefield() for ability in characteristics(state, obj).abilities)
        return enters_tapped_by_others
    p.wrap("replacement", "enters_tapped_by_others", wrapper)


@mutant("enters-tapped-judged-before-copy", "whether a permanent enters tapped is judged from the card itself, "
        "before the copy effect it enters with is applied", ["616.1c", "616.2"])
def _enters_tapped_before_copy(p: Patcher) -> None:
    def wrapper(original):
        def entry_replacements(game, card, controller, entry, spell_x):
            from reference_engine.replacement import enters_tapped_by_others

            before = entry.tapped
            own = card.faces[entry.face]
            yield from original(game, card, controller, entry, spell_x)
            entry.tapped = before or any(a.kind == "replacement" and a.data.get("enters_tapped")
                                         for a in own.abilities) or enters_tapped_by_others(game, own, card, controller)
        return entry_replacements
    p.wrap("replacement", "entry_replacements", wrapper)


@mutant("enters-tapped-applies-retroactively", "a permanent saying 'creatures your opponents control enter tapped' "
        "taps those already on the battlefield as it enters", ["614.4"])
def _enters_tapped_retroactive(p: Patcher) -> None:
    def wrapper(original):
        def entered(game, new):
            from reference_engine.filters import FilterContext, matches
            from reference_engine.layers import characteristics

            state = game.state
            chars = characteristics(state, new)
            for ability in chars.abilities:
                for filt in (ability.data.get("others_enter_tapped") or []) if ability.kind == "replacement" else []:
                    ctx = FilterContext(chars.controller, new.id, new.uid)
                    for obj in state.battlefield():
                        if obj is not new and matches(state, obj, filt, ctx):
                            obj.tapped = True
            return original(game, new)
        return entered
    p.wrap("ops", "_entered", wrapper)


# --- skipping (614.10) ---------------------------------------------------------------------------
@mutant("skip-ignored", "'target player skips their next draw step' does nothing", ["614.1b", "614.10"])
def _skip_ignored(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS

    p.set_item(EFFECTS, "skip_next", lambda game, ctx, params: None)


@mutant("skips-of-one-step-merge", "two effects that each skip a player's next draw step skip only one", ["614.10a"])
def _skips_merge(p: Patcher) -> None:
    shapes.after_effect(p, "skip_next", lambda game, ctx, params: setattr(
        game.state, "skips", list(dict.fromkeys(game.state.skips))))


@mutant("skip-applies-to-next-step-of-anyone", "'skips their next draw step' skips the next draw step of the game, "
        "whoever's turn it is", ["614.10"])
def _skip_anyone(p: Patcher) -> None:
    def anyone(game, ctx, params):
        state = game.state
        state.skips = [(state.next_player(state.active), step) for _, step in state.skips]
    shapes.after_effect(p, "skip_next", anyone)


# --- replacing draws (614.11) --------------------------------------------------------------------
@mutant("draw-replacement-needs-a-card", "an effect that replaces a draw doesn't apply when the library is empty "
        "(the player draws from the empty library instead)", ["614.11"])
def _draw_replacement_needs_card(p: Patcher) -> None:
    p.replace("ops", "_draw_replaced", lambda game, player, *, empty: False)


@mutant("draw-replacement-ignores-condition", "'if you would draw a card while your library has no cards in it' "
        "replaces every draw", ["614.11"])
def _draw_replacement_always(p: Patcher) -> None:
    def wrapper(original):
        def draw_replaced(game, player, *, empty):
            return original(game, player, empty=True)
        return draw_replaced
    p.wrap("ops", "_draw_replaced", wrapper)


@mutant("replaced-draw-ends-the-sequence-first", "a draw replaced within a sequence of draws is applied only after "
        "the whole sequence (the earlier draws are lost with it)", ["614.11a"])
def _replaced_draw_first(p: Patcher) -> None:
    def wrapper(original):
        def draw(game, player, count=1, **options):
            from reference_engine.model import Zone

            state = game.state
            if count > len(state.zone_ids(Zone.LIBRARY, player)) and original.__globals__["_draw_replaced"](
                    game, player, empty=True):
                return []
            return original(game, player, count, **options)
        return draw
    p.wrap("ops", "draw", wrapper)


@mutant("zero-damage-is-increased", "a source that would deal 0 damage has its damage increased by a replacement "
        "effect ('that much damage plus 2')", ["614.7a"])
def _zero_damage_increased(p: Patcher) -> None:
    def wrapper(original):
        def damage(game, source, target, amount, *, combat=False, **kwargs):
            from reference_engine.damage import applicable

            if amount <= 0:
                extra = sum(int(e.spec[1]["amount"]) for e in applicable(game, source, target, combat=combat)
                            if e.spec[0] == "add")
                if extra:
                    return (yield from original(game, source, target, extra, combat=combat, **kwargs))
                return 0
            return (yield from original(game, source, target, amount, combat=combat, **kwargs))
        return damage
    p.wrap("ops", "damage", wrapper)


# --- "can't" (614.17) and damage that can't be prevented (615.12) -------------------------------
@mutant("unpreventable-damage-prevented", "'damage can't be prevented this turn' doesn't stop prevention effects",
        ["615.12"])
def _unpreventable_prevented(p: Patcher) -> None:
    shapes.this_turn_rule_ignored(p, "damage_cant_be_prevented")


@mutant("cant-gain-life-goes-back-in-time", "'players can't gain life this turn' also takes away the life gained "
        "earlier this turn", ["614.17a"])
def _cant_gain_life_retroactive(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS

    original = EFFECTS["this_turn"]

    def this_turn(game, ctx, params):
        original(game, ctx, params)
        if params == "players_cant_gain_life":
            for player in game.state.players.values():
                gained = game.__dict__.get("_gained", {}).get(player.name, 0)
                player.life -= gained

    def wrapper(gain):
        def gain_life(game, player, amount):
            before = game.state.players[player].life
            gain(game, player, amount)
            gained = game.__dict__.setdefault("_gained", {})
            gained[player] = gained.get(player, 0) + game.state.players[player].life - before
        return gain_life
    p.set_item(EFFECTS, "this_turn", this_turn)
    p.wrap("ops", "gain_life", wrapper)


@mutant("cant-gain-life-ignored", "'players can't gain life this turn' doesn't stop life gain", ["614.17a"])
def _cant_gain_life_ignored(p: Patcher) -> None:
    shapes.this_turn_rule_ignored(p, "players_cant_gain_life")


# --- regeneration (614.8) ------------------------------------------------------------------------
@mutant("regeneration-ignored", "'regenerate target creature' doesn't stop it being destroyed", ["614.8"])
def _regeneration_ignored(p: Patcher) -> None:
    p.replace("ops", "regenerates", lambda game, obj: False)


@mutant("regeneration-shield-never-used-up", "a regeneration shield replaces every destruction this turn, not "
        "only the next", ["614.8"])
def _regeneration_forever(p: Patcher) -> None:
    def wrapper(original):
        def regenerates(game, obj):
            shields = list(game.state.regeneration)
            used = original(game, obj)
            if used:
                game.state.regeneration = shields
            return used
        return regenerates
    p.wrap("ops", "regenerates", wrapper)


@mutant("regenerated-creature-stays-in-combat", "a regenerated attacking or blocking creature stays in combat",
        ["614.8"])
def _regenerated_stays_in_combat(p: Patcher) -> None:
    def wrapper(original):
        def regenerates(game, obj):
            combat = game.state.combat
            attacking = combat.attackers.get(obj.id) if combat else None
            used = original(game, obj)
            if used and attacking is not None:
                combat.attackers[obj.id] = attacking
            return used
        return regenerates
    p.wrap("ops", "regenerates", wrapper)


@mutant("regeneration-outlasts-the-turn", "a regeneration shield is still there on later turns", ["614.3", "614.8"])
def _regeneration_outlasts(p: Patcher) -> None:
    from reference_engine import turn

    def wrapper(original):
        def cleanup(game):
            shields = list(game.state.regeneration)
            yield from original(game)
            game.state.regeneration = shields
        return cleanup
    p.wrap("turn", "_cleanup", wrapper)
    del turn


# --- self-replacement effects (614.15, 616.1a) ---------------------------------------------------
@mutant("self-replacement-applied-last", "a spell's own 'deals 4 damage instead' is applied after the other "
        "replacement effects, not first", ["616.1a"])
def _self_replacement_last(p: Patcher) -> None:
    def wrapper(original):
        def choose(game, source, target, amount, *, combat, self_replacements=()):
            order = yield from original(game, source, target, amount, combat=combat, self_replacements=())
            return tuple(order) + tuple(self_replacements)
        return choose
    p.wrap("damage", "choose", wrapper)

    def wrap_modified(original):
        def modified_amount(game, source, target, amount, *, combat, order=None):
            if order is not None:
                selfs = [e for e in order if e.spec[0] == "set"]
                rest = [e for e in order if e.spec[0] != "set"]
                if selfs:
                    amount = original(game, source, target, amount, combat=combat, order=tuple(rest))
                    return int(selfs[-1].spec[1]["amount"]) if amount > 0 else 0
            return original(game, source, target, amount, combat=combat, order=order)
        return modified_amount
    p.wrap("damage", "modified_amount", wrap_modified)


@mutant("self-replacement-ignored", "'[this spell] deals 4 damage instead if ...' is ignored", ["614.15"])
def _self_replacement_ignored(p: Patcher) -> None:
    def wrapper(original):
        def damage(game, source, target, amount, *, combat=False, self_replacements=()):
            return (yield from original(game, source, target, amount, combat=combat))
        return damage
    p.wrap("ops", "damage", wrapper)


@mutant("self-replacement-ignores-condition", "'deals 4 damage instead if you control three or more artifacts' "
        "applies whatever you control", ["614.15"])
def _self_replacement_always(p: Patcher) -> None:
    shapes.effect_with_params(p, "damage", lambda game, ctx, params: dict(
        params, instead=dict(params["instead"], **{"if": None})) if "instead" in params else params)


# --- more prevention (615.5, 615.8, 615.11, 615.13) ---------------------------------------------
@mutant("prevention-rider-ignored", "the rest of a prevention effect ('for each 1 damage prevented this way ...', "
        "'you gain life equal to the damage prevented') doesn't happen", ["615.5"])
def _rider_ignored(p: Patcher) -> None:
    def wrapper(original):
        def after_prevention(game, target, effects, used, prevented):
            return original(game, target, [e for e in effects if not getattr(e.spec[1], "rider", None)], used,
                            prevented)
        return after_prevention
    p.wrap("damage", "_after_prevention", wrapper)


@mutant("next-instance-prevention-never-used-up", "'the next time it would deal damage, prevent that damage' "
        "prevents every later instance this turn too", ["615.8"])
def _next_instance_forever(p: Patcher) -> None:
    from reference_engine.prevention import NextInstance

    def wrapper(original):
        def next_instances(game, source, target):
            for effect in game.state.prevention:
                if isinstance(effect, NextInstance):
                    effect.used = False
            return original(game, source, target)
        return next_instances
    p.wrap("prevention", "next_instances", wrapper)


@mutant("shields-for-each-creature-follow-the-filter", "'prevent the next 1 damage to each creature you control' "
        "also shields creatures that come under your control later", ["615.11"])
def _shields_follow_filter(p: Patcher) -> None:
    from reference_engine.effects import EFFECTS

    original = EFFECTS["prevent_next"]

    def prevent_next(game, ctx, params):
        original(game, ctx, params)
        if isinstance(params.get("to"), dict) and "all" in params["to"]:
            game.__dict__.setdefault("_shield_filters", []).append((params["to"]["all"], params["amount"], ctx))
    p.set_item(EFFECTS, "prevent_next", prevent_next)

    def wrapper(shields):
        def all_shields(game, target):
            from reference_engine.filters import FilterContext, matches
            from reference_engine.prevention import Shield

            found = shields(game, target)
            if target.kind == "object" and not found and target.value in game.state.objects:
                obj = game.state.objects[target.value]
                for filt, amount, ctx in game.__dict__.get("_shield_filters", []):
                    given = game.__dict__.setdefault("_shielded", set())
                    if obj.id not in given and matches(game.state, obj, filt, FilterContext(ctx.controller)):
                        given.add(obj.id)
                        shield = Shield(target, amount, ctx.controller, game.state.new_timestamp(), ctx.source_uid,
                                        ctx.source_name)
                        game.state.prevention.append(shield)
                        found.append(shield)
            return found
        return all_shields
    p.wrap("prevention", "shields", wrapper)


@mutant("prevented-damage-triggers-nothing", "'whenever damage that would be dealt to you is prevented' never "
        "triggers", ["615.13"])
def _prevented_triggers_nothing(p: Patcher) -> None:
    def wrapper(original):
        def after_prevention(game, target, effects, used, prevented):
            return original(game, target, effects, used, 0)
        return after_prevention
    p.wrap("damage", "_after_prevention", wrapper)


# --- tokens and counters (614.16) ----------------------------------------------------------------
@mutant("token-doubling-ignored", "'it creates twice that many of those tokens instead' doesn't apply", ["614.16"])
def _token_doubling_ignored(p: Patcher) -> None:
    def wrapper(original):
        def effect_amounts(game, player, key, amount):
            return amount if key == "tokens_multiply" else original(game, player, key, amount)
        return effect_amounts
    p.wrap("ops", "effect_amounts", wrapper)


@mutant("counter-doubling-only-for-resolving-effects", "'if an effect would put counters on a permanent' applies "
        "only to counters put by a resolving spell or ability, not by a prevention effect", ["614.16"])
def _counter_doubling_only_resolving(p: Patcher) -> None:
    from reference_engine import ops

    def wrapper(original):
        def after_prevention(game, target, effects, used, prevented):
            real = ops.add_counters_unasked
            ops.add_counters_unasked = lambda game, obj, kind, amount, by=None, by_effect=False: real(
                game, obj, kind, amount, by)
            try:
                return original(game, target, effects, used, prevented)
            finally:
                ops.add_counters_unasked = real
        return after_prevention
    p.wrap("damage", "_after_prevention", wrapper)


# --- redirection (614.9) -------------------------------------------------------------------------
@mutant("redirection-ignored", "'all combat damage that would be dealt to you is dealt to target attacking "
        "creature instead' doesn't redirect it", ["614.9"])
def _redirection_ignored(p: Patcher) -> None:
    p.replace("prevention", "redirected", lambda game, target, *, combat: target)


@mutant("redirection-to-a-permanent-gone", "a redirection still takes the damage away when the permanent it "
        "redirects to has left the battlefield (the damage is lost)", ["614.9"])
def _redirection_to_gone(p: Patcher) -> None:
    from reference_engine.model import Target
    from reference_engine.prevention import Redirect

    def redirected(game, target, *, combat):
        for effect in game.state.prevention:
            if isinstance(effect, Redirect) and (combat or not effect.combat_only) and \
                    target.kind == "player" and target.value == effect.controller:
                return Target("object", effect.to_object)
        return target
    p.replace("prevention", "redirected", redirected)


@mutant("life-gain-replacement-ignored", "'if an opponent would gain life, that player loses that much life "
        "instead' doesn't apply", ["614.1a", "614.17c"])
def _life_gain_replacement_ignored(p: Patcher) -> None:
    p.replace("ops", "_life_gain_replaced", lambda game, player: False)


@mutant("impossible-event-still-replaced", "an event that can't happen ('players can't gain life') is still "
        "replaced by another effect (the life gain becomes a loss)", ["614.17c"])
def _impossible_event_replaced(p: Patcher) -> None:
    def wrapper(original):
        def gain_life(game, player, amount):
            from reference_engine import ops

            if amount > 0 and "players_cant_gain_life" in game.state.this_turn and ops._life_gain_replaced(game, player):
                ops.lose_life(game, player, amount)
                return
            original(game, player, amount)
        return gain_life
    p.wrap("ops", "gain_life", wrapper)
