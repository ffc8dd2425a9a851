"""Mutants for the rules of issue 20 that the older modules left unbroken (state-based actions,
timestamps, lifelink, counters): each breaks one rule the way a real engine might."""

from __future__ import annotations

import functools

from mutants import shapes
from mutants.patching import Patcher, mutant


@mutant("sba-checked-during-resolution", "a player at 0 life loses at once, even in the middle of a spell's resolution",
        ["704.4"])
def _sba_during_resolution(p: Patcher) -> None:
    def wrapper(original):
        def lose_life(game, player, amount):
            original(game, player, amount)
            state = game.state
            who = state.players[player]
            if who.life <= 0 and not who.lost:
                who.lost, who.loss_reason = True, f"{player} has {who.life} life"
                if sum(1 for q in state.players.values() if not q.lost) <= 1:
                    state.over = True
        return lose_life
    p.wrap("ops", "lose_life", wrapper)


@mutant("transform-keeps-timestamp", "a permanent that transforms keeps the timestamp it had", ["613.7g"])
def _transform_keeps_timestamp(p: Patcher) -> None:
    shapes.keeps_timestamp(p, "ops", "transform")


@mutant("lifelink-only-from-the-battlefield", "lifelink works only for damage dealt by a permanent or a spell, not "
        "from another zone", ["702.15d"])
def _lifelink_only_from_battlefield(p: Patcher) -> None:
    from dataclasses import replace

    from reference_engine.model import Zone

    def wrapper(original):
        def deal_damage(game, source, target, amount, **kwargs):
            now = next((o for o in game.state.objects.values() if o.uid == source.uid), None)
            if now is None or now.zone not in (Zone.BATTLEFIELD, Zone.STACK):
                chars = replace(source.chars, abilities=[a for a in source.chars.abilities
                                                          if not (a.kind == "keyword" and a.keyword == "Lifelink")])
                source = replace(source, chars=chars)
            return original(game, source, target, amount, **kwargs)
        return deal_damage
    p.wrap("ops", "deal_damage", wrapper)


@mutant("sacrificed-counters-all-kinds", "'put its [kind] counters on' another object, for an object sacrificed as a "
        "cost, puts as many of every kind of counter it had, not only of the kinds the ability names", ["122.9"])
def _sacrificed_counters_all_kinds(p: Patcher) -> None:
    from reference_engine import ops
    from reference_engine.effects import EFFECTS, last_known_counter_kinds, last_known_counters, objects
    from reference_engine.model import Zone

    original = EFFECTS["add_counters"]

    def add_counters(game, ctx, params):
        amount = params.get("amount")
        if not (isinstance(amount, dict) and "last_known_counters" in amount):
            yield from original(game, ctx, params)
            return
        for obj in objects(game, ctx, params["what"]):
            if obj.zone is Zone.BATTLEFIELD:
                for kind in last_known_counter_kinds(game, ctx.source_id):
                    yield from ops.add_counters_by_effect(game, obj, kind, last_known_counters(game, ctx.source_id, kind),
                                                          by=ctx.controller)
    p.set_item(EFFECTS, "add_counters", add_counters)


@mutant("start-your-engines-gives-no-speed", "controlling a permanent with start your engines! doesn't give a "
        "player with no speed speed 1", ["704.5aa"])
def _no_speed(p: Patcher) -> None:
    p.replace("sba", "players_getting_speed", lambda state: [])


@mutant("own-static-newer-than-entering-effect", "an effect that puts a permanent onto the battlefield and sets its "
        "characteristics gets an earlier timestamp than the permanent's own static abilities", ["613.7n"])
def _own_static_newer(p: Patcher) -> None:
    def wrapper(original):
        def arrive(game, new, entry):
            original(game, new, entry)
            if entry.is_effects:
                new.timestamp = game.state.new_timestamp()
                game.state.touch()
        return arrive
    p.wrap("ops", "_arrive", wrapper)


@mutant("text-changing-effects-ignored", "text-changing effects (layer 3) don't change what an ability does",
        ["613.1c"])
def _text_change_ignored(p: Patcher) -> None:
    from reference_engine.layers import MODIFIERS

    layer, _ = MODIFIERS["change_color_word"]
    p.set_item(MODIFIERS, "change_color_word", (layer, lambda chars, params: None))


@functools.cache
def _card_colors_by_name() -> dict[str, frozenset[str]]:
    """The colors of each card of the corpus by its name and its faces' names, from cases/cards/ (read
    once: the mutant asks on every look at an emblem)."""
    from pathlib import Path

    import yaml

    colors: dict[str, frozenset[str]] = {}
    for path in sorted((Path(__file__).resolve().parent.parent / "cases" / "cards").glob("*.yaml")):
        card = yaml.safe_load(path.read_text(encoding="utf-8"))
        for face in card.get("faces", []):
            for name in (card["name"], face["name"]):
                colors.setdefault(name, frozenset(face.get("colors", [])))
    return colors


def _card_colors(name: str) -> set[str]:
    return set(_card_colors_by_name().get(name, ()))


@mutant("emblem-has-its-creators-color", "an emblem has the colors of the card whose ability created it", ["114.3"])
def _emblem_colored(p: Patcher) -> None:
    from dataclasses import replace

    def wrapper(original):
        def emblem_characteristics(emblem):
            chars = original(emblem)
            return replace(chars, colors=_card_colors(emblem.source_name))
        return emblem_characteristics
    p.wrap("emblems", "emblem_characteristics", wrapper)


@mutant("face-up-keeps-timestamp", "a permanent turned face up keeps the timestamp it had", ["613.7f"])
def _face_up_keeps_timestamp(p: Patcher) -> None:
    shapes.keeps_timestamp(p, "face_down", "turn_face_up")


@mutant("next-spell-effect-applies-at-once", "an effect on 'the next spell you cast' applies at once to that player's "
        "spells already on the stack, and not to the next one", ["611.2f"])
def _next_spell_at_once(p: Patcher) -> None:
    def wrapper(original):
        def next_spell_effect(game, ctx, params):
            original(game, ctx, params)
            state = game.state
            player, _, filt, rule = state.next_spell.pop()
            from reference_engine.filters import FilterContext, matches

            for item in state.stack:
                spell = state.objects.get(item.object_id) if item.object_id is not None else None
                if spell is not None and item.controller == player and matches(state, spell, filt,
                                                                               FilterContext(player)):
                    spell.spell_rules = spell.spell_rules | {rule}
        return next_spell_effect
    from reference_engine.effects import EFFECTS

    p.set_item(EFFECTS, "next_spell", wrapper(EFFECTS["next_spell"]))
