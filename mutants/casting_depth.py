"""Mutants of the deeper rules of costs, casting, activating and resolving (issue 18: rules 107.3,
118, 601, 602, 605, 608): each breaks one rule the way an engine might, named for what it gets wrong."""

from __future__ import annotations

from mutants.patching import Patcher, mutant


@mutant("replaced-sacrifice-is-unpaid", "a sacrifice cost whose permanent a replacement effect sends elsewhere than "
        "the graveyard counts as not paid, so the activation is undone", ["118.11"])
def _replaced_sacrifice_is_unpaid(p: Patcher) -> None:
    from reference_engine import casting
    from reference_engine.model import Zone
    from reference_engine.moves import Illegal

    original = casting._sacrifice_cost

    def sacrifice_cost(game, move, obj, cost):
        victim = game.state.objects.get(move.sacrifice[0])
        original(game, move, obj, cost)
        uid = victim.uid if victim is not None else None
        if not any(o.uid == uid and o.zone == Zone.GRAVEYARD for o in game.state.objects.values()):
            raise Illegal("the sacrificed permanent didn't reach a graveyard")
    p.replace("casting", "_sacrifice_cost", sacrifice_cost)


@mutant("targets-checked-before-costs", "a spell's targets must be legal as they are announced, before the objects "
        "that pay its costs (a creature tapped for mana) can make them legal", ["601.5"])
def _targets_checked_before_costs(p: Patcher) -> None:
    from reference_engine.targets import check_targets

    def targets_wait_for_costs(game, specs, move):
        check_targets(game, specs, move.targets, move.player, None, game.describe_target)
        return False
    p.replace("casting", "targets_wait_for_costs", targets_wait_for_costs)


@mutant("resolution-hybrid-first-color-only", "a hybrid symbol in a cost paid while a spell or ability resolves can "
        "be paid only with its first color: the player can't choose how to pay it", ["118.13b"])
def _resolution_hybrid_first_color_only(p: Patcher) -> None:
    from reference_engine.mana import ManaCost

    original = p.original("optional_effects", "_pay")

    def pay(game, player, cost, payments):
        first = tuple(s.split("/")[0] if "/" in s and not s.endswith("/P") and not s[0].isdigit() else s
                      for s in cost.symbols)
        yield from original(game, player, ManaCost(first), payments)
    p.replace("optional_effects", "_pay", pay)


@mutant("y-is-x", "an object's Y takes the value of its X instead of the value its own definition gives it",
        ["107.3p"])
def _y_is_x(p: Patcher) -> None:
    original = p.original("layers", "counted_amount")

    def counted_amount(params, key):
        halve = params.get("halve")
        if key == "toughness" and halve and "power" in halve:
            params = dict(params, halve=dict(halve, toughness=halve["power"]))
        return original(params, key)
    p.replace("layers", "counted_amount", counted_amount)


@mutant("flash-ignores-proposal-choices", "whether a spell may be cast as though it had flash is decided before its "
        "proposal, so an X it would announce can't make it allowed", ["601.3b"])
def _flash_ignores_proposal_choices(p: Patcher) -> None:
    p.replace("casting", "flash_by_proposal_choices", lambda chars, x: False)


@mutant("flash-condition-on-x-ignored", "a spell that may be cast as though it had flash if X is small may be so "
        "cast whatever X its caster announces", ["601.3b"])
def _flash_condition_on_x_ignored(p: Patcher) -> None:
    p.replace("casting", "flash_by_proposal_choices", lambda chars, x: any(
        a.kind == "keyword" and a.keyword == "Flash" and "if_x_at_most" in a.data for a in chars.abilities))


@mutant("x-of-another-object-is-own-x", "an ability that refers to the X of another object (the spell that triggered "
        "it) uses its own X, which is 0", ["107.3e"])
def _x_of_another_object_is_own_x(p: Patcher) -> None:
    p.replace("effects", "spell_x_of_event", lambda game, ctx: ctx.x)


@mutant("x-trigger-ignores-the-spell-cost", "'whenever you cast a spell with {X} in its mana cost' triggers for any "
        "spell", ["107.3e"])
def _x_trigger_ignores_the_spell_cost(p: Patcher) -> None:
    from reference_engine.filters import CONDITIONS

    p.set_item(CONDITIONS, "mana_cost_has_x", lambda state, obj, value, ctx, chars: True)


@mutant("unplaced-permanent-spell-stays-on-the-stack", "a permanent spell that resolves but can't be put onto the "
        "battlefield stays where it is instead of going to its owner's graveyard", ["608.3e"])
def _unplaced_permanent_spell_stays(p: Patcher) -> None:
    p.replace("resolve", "unplaced_permanent_spell", lambda game, obj: None)


@mutant("entry-prohibition-ignored", "'lands can't enter the battlefield' stops nothing: a permanent spell that would "
        "enter as a land (a Clone copying one) enters anyway", ["608.3e"])
def _entry_prohibition_ignored(p: Patcher) -> None:
    p.replace("restrictions", "entry_prohibited", lambda game, face, card, controller: False)


@mutant("land-play-prohibition-ignored", "'players can't play lands' doesn't stop a land from being played",
        ["305.2b", "101.2"])
def _land_play_prohibition_ignored(p: Patcher) -> None:
    p.replace("restrictions", "land_play_prohibition", lambda game, player: None)


@mutant("entry-prohibition-stops-every-permanent", "'lands can't enter the battlefield' stops any permanent spell "
        "from entering, not only one that would enter as a land", ["608.3e"])
def _entry_prohibition_stops_every_permanent(p: Patcher) -> None:
    from reference_engine.restrictions import rule_abilities

    p.replace("restrictions", "entry_prohibited",
              lambda game, face, card, controller: any(True for _ in rule_abilities(game.state, "cant_enter")))


@mutant("spell-stops-resolving-once-it-leaves-the-stack", "an instant or sorcery that leaves the stack as it starts "
        "to resolve (Time Spiral exiling itself) does nothing more", ["608.2m"])
def _spell_stops_resolving(p: Patcher) -> None:
    import inspect

    from reference_engine.effects import EFFECTS
    from reference_engine.model import Zone

    def run(game, ctx, steps):
        for step in steps or []:
            item = ctx.item
            if item is not None and item.is_spell:
                spell = game.state.objects.get(item.object_id)
                if spell is None or spell.zone is not Zone.STACK:
                    return
            ((name, params),) = step.items()
            result = EFFECTS[name](game, ctx, params)
            if inspect.isgenerator(result):
                yield from result
    p.replace("effects", "run", run)


@mutant("dash-effects-not-created-as-it-enters", "what a spell's static ability that functions on the stack does as "
        "it becomes a permanent (dash's haste and its delayed triggered ability) never happens", ["608.3g"])
def _dash_effects_not_created(p: Patcher) -> None:
    def as_it_enters_for_its_cost(game, item, chars, new):
        return
        yield
    p.replace("resolve", "as_it_enters_for_its_cost", as_it_enters_for_its_cost)


@mutant("dash-effects-whatever-was-paid", "a permanent spell with dash gains haste and returns at the end step even "
        "when it was cast for its mana cost", ["608.3g"])
def _dash_effects_whatever_was_paid(p: Patcher) -> None:
    p.replace("resolve", "paid_for", lambda item, ability: True)


@mutant("prohibition-judged-on-the-front-face", "whether a spell may be cast is judged on its card's front face, not on "
        "the alternative characteristics of the face being cast", ["601.3e"])
def _prohibition_judged_on_front_face(p: Patcher) -> None:
    original = p.original("restrictions", "cast_prohibition")

    def cast_prohibition(game, player, spell):
        face = spell.face
        spell.face = 0
        try:
            return original(game, player, spell)
        finally:
            spell.face = face
    p.replace("restrictions", "cast_prohibition", cast_prohibition)


@mutant("prohibition-judged-on-every-face", "a modal double-faced card can't be cast if a prohibition would stop any "
        "of its faces, not only the face being cast", ["601.3e"])
def _prohibition_judged_on_every_face(p: Patcher) -> None:
    original = p.original("restrictions", "cast_prohibition")

    def cast_prohibition(game, player, spell):
        face = spell.face
        try:
            for index in range(len(spell.card.faces)):
                spell.face = index
                reason = original(game, player, spell)
                if reason:
                    return reason
            return None
        finally:
            spell.face = face
    p.replace("restrictions", "cast_prohibition", cast_prohibition)


@mutant("flash-condition-rechecked-after-costs", "a spell cast as though it had flash because a condition held can't "
        "be finished once paying its costs ends that condition", ["601.6a"])
def _flash_condition_rechecked(p: Patcher) -> None:
    from reference_engine import casting
    from reference_engine.layers import characteristics
    from reference_engine.moves import Illegal

    original = casting.cast_with_optional_costs

    def cast_with_optional_costs(game, move):
        yield from original(game, move)
        state = game.state
        chars = characteristics(state, state.objects[state.stack[-1].object_id])
        if (not casting.instant_speed(chars) and not casting.conditional_flash(game, move.player, chars)
                and any(a.kind == "keyword" and a.keyword == "Flash" and "if_you_control" in a.data
                        for a in chars.abilities)
                and casting.sorcery_timing(game, move.player)):
            raise Illegal("its flash condition no longer holds")
    p.replace("casting", "cast_with_optional_costs", cast_with_optional_costs)


@mutant("additional-sacrifice-optional", "a spell's 'as an additional cost, sacrifice a creature' may be left unpaid "
        "when there is nothing to sacrifice", ["601.2h", "118.8"])
def _additional_sacrifice_optional(p: Patcher) -> None:
    from reference_engine import casting

    original = casting._sacrifice_as_additional_cost

    def sacrifice(game, player, filt, name):
        try:
            yield from original(game, player, filt, name)
        except casting.Illegal:
            return
    p.replace("casting", "_sacrifice_as_additional_cost", sacrifice)


@mutant("paid-mana-cost-x-is-zero", "an effect that has a player pay a spell's mana cost treats its {X} as 0, even "
        "for a spell on the stack cast with a value of X", ["107.3h"])
def _paid_mana_cost_x_is_zero(p: Patcher) -> None:
    original = p.original("optional_effects", "cost_to_pay")

    def cost_to_pay(game, ctx, expr):
        cost = original(game, ctx, expr)
        if expr == "event_spell_mana_cost":
            spell = game.state.objects.get(ctx.event.get("object_id", -1))
            x = spell.x if spell is not None else None
            if x:
                from reference_engine.mana import ManaCost

                generic = [s for s in cost.symbols if s.isdigit()]
                rest = tuple(s for s in cost.symbols if not s.isdigit())
                left = sum(int(s) for s in generic) - x
                return ManaCost(((str(left),) if left > 0 else ()) + rest)
        return cost
    p.replace("optional_effects", "cost_to_pay", cost_to_pay)


@mutant("gained-ability-x-is-the-objects-x", "the X in an ability an object gained (from a copy effect's exception) "
        "takes the object's X, 0 off the stack, instead of the value that ability defines", ["107.3j"])
def _gained_ability_x_is_objects_x(p: Patcher) -> None:
    from reference_engine import casting

    original = casting.activate

    def activate(game, move):
        state = game.state
        obj = state.objects.get(move.object_id)
        printed = {id(a) for face in obj.card.faces for a in face.abilities} if obj is not None else set()
        before = len(state.stack)
        yield from original(game, move)
        if len(state.stack) > before and id(state.stack[-1].ability) not in printed and state.stack[-1].x:
            state.stack[-1].x = obj.x or 0
    p.replace("casting", "activate", activate)


@mutant("trigger-referent-must-still-match", "a triggered ability affects the object its trigger condition referred "
        "to ('that creature') only if that object still matches the condition's description", ["608.2k"])
def _trigger_referent_must_still_match(p: Patcher) -> None:
    from reference_engine.filters import FilterContext, matches

    original = p.original("effects", "objects")

    def objects(game, ctx, ref):
        found = original(game, ctx, ref)
        ability = ctx.item.ability if ctx.item is not None else None
        when = ability.data.get("when", {}) if ability is not None and ability.kind == "triggered" else {}
        filt = when.get("enters") if isinstance(when, dict) else None
        if ref == "event_object" and isinstance(filt, dict):
            fctx = FilterContext(ctx.controller, ctx.source_id)
            found = [o for o in found if matches(game.state, o, filt, fctx)]
        return found
    p.replace("effects", "objects", objects)


@mutant("resolution-triggers-never-trigger", "abilities that trigger when a spell or ability resolves ('whenever the "
        "final chapter ability of a Saga you control resolves') never trigger", ["608.2p"])
def _resolution_triggers_never(p: Patcher) -> None:
    p.replace("resolve", "ability_resolved", lambda game, item: None)



@mutant("divided-damage-dealt-in-full-to-each", "damage divided among targets is dealt in full to each of them, as if "
        "nothing were divided", ["601.2d"])
def _divided_damage_in_full(p: Patcher) -> None:
    from reference_engine.casting import spell_ability

    def announced_division(chars, targets):
        ability = spell_ability(chars)
        total = ability.data.get("divide") if ability is not None else None
        return (total,) * len(targets) if total is not None else ()
    p.replace("casting", "announced_division", announced_division)


@mutant("divided-damage-split-evenly-and-rounded-down", "divided damage is split evenly among the targets, so "
        "one target gets only half", ["601.2d"])
def _divided_damage_halved(p: Patcher) -> None:
    from reference_engine.casting import spell_ability

    def announced_division(chars, targets):
        ability = spell_ability(chars)
        total = ability.data.get("divide") if ability is not None else None
        if total is None or not targets:
            return ()
        return (total // 2,) * len(targets)
    p.replace("casting", "announced_division", announced_division)


@mutant("delayed-trigger-x-is-zero", "a delayed triggered ability that refers to X, with no X defined in its own "
        "text, has X = 0 instead of the X of the spell that created it", ["107.3n"])
def _delayed_trigger_x_is_zero(p: Patcher) -> None:
    p.replace("triggers", "delayed_x", lambda trigger: None)


@mutant("any-type-permission-ignored", "an effect saying mana may be spent as though it were mana of any type to pay "
        "a spell's mana cost changes nothing: colored costs still need their color", ["118.14"])
def _any_type_permission_ignored(p: Patcher) -> None:
    p.replace("casting", "spend_as_any_type", lambda game, player: False)


@mutant("any-type-permission-never-used-up", "permission to spend mana as though it were mana of any type for one "
        "spell lasts for every spell that turn", ["118.14"])
def _any_type_permission_never_used_up(p: Patcher) -> None:
    p.replace("casting", "use_any_type_permission", lambda game, player: None)
