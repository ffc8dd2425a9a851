"""Targets (rule 115): what each target spec allows, checked when chosen and again on resolution."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable

from reference_engine.filters import FilterContext, matches
from reference_engine.layers import characteristics
from reference_engine.model import GameObject, StackItem, Target, Zone
from reference_engine.moves import Illegal

if TYPE_CHECKING:
    from reference_engine.game import Game

#: A target spec's `what` -> (zones searched, base filter). 'any' also allows players.
KINDS: dict[str, tuple[tuple[Zone, ...], dict[str, Any]]] = {
    "any": ((Zone.BATTLEFIELD,), {"types_any": ["Creature", "Planeswalker", "Battle"]}),
    "creature": ((Zone.BATTLEFIELD,), {"types": ["Creature"]}),
    "permanent": ((Zone.BATTLEFIELD,), {}),
    "planeswalker": ((Zone.BATTLEFIELD,), {"types": ["Planeswalker"]}),
    "player_or_planeswalker": ((Zone.BATTLEFIELD,), {"types": ["Planeswalker"]}),  # also allows players
    "spell": ((Zone.STACK,), {}),
    "spell_or_permanent": ((Zone.STACK, Zone.BATTLEFIELD), {}),
    "card": ((Zone.GRAVEYARD,), {}),
    "player": ((), {}),
}


#: Target specs whose targets are abilities on the stack: 'target activated or triggered ability'
#: (Stifle), optionally only one kind (`ability_kind: activated`). Loyalty abilities are activated (606.3).
ABILITY_TARGETS = ("ability",)


def _ability_ok(spec: dict[str, Any], item: StackItem, controller: str) -> bool:
    """`player: you` / `opponent`: 'target triggered ability you control' (Strionic Resonator)."""
    if spec["what"] not in ABILITY_TARGETS or item.is_spell or item.ability is None:
        return False
    relation = spec.get("player")
    if relation is not None and (relation == "you") != (item.controller == controller):
        return False
    kind = "triggered" if item.ability.kind == "triggered" else "activated"
    return spec.get("ability_kind", kind) == kind


def _object_ok(game: Game, spec: dict[str, Any], obj: GameObject, controller: str, source_id: int | None) -> bool:
    if spec["what"] in ABILITY_TARGETS:
        return False
    zones, base = KINDS[spec["what"]]
    zone = Zone(spec["zone"]) if "zone" in spec else None
    if obj.zone not in ((zone,) if zone else zones):
        return False
    ctx = FilterContext(controller, source_id)
    return matches(game.state, obj, base, ctx) and matches(game.state, obj, spec.get("filter"), ctx)


def _player_ok(game: Game, spec: dict[str, Any], player: str, controller: str) -> bool:
    if spec["what"] not in ("any", "player", "player_or_planeswalker"):
        return False
    relation = spec.get("player")
    if relation is not None and (relation == "opponent") != (player != controller):
        return False
    from reference_engine.rule_effects import has_hexproof

    return player == controller or not has_hexproof(game, player)


def is_legal(game: Game, spec: dict[str, Any], target: Target, controller: str, source_id: int | None) -> bool:
    if target.kind == "player":
        return target.value in game.state.players and _player_ok(game, spec, target.value, controller)  # type: ignore[arg-type]
    if target.kind == "ability":  # an ability on the stack, by its stack id (115.1)
        item = next((i for i in game.state.stack if i.id == target.value), None)
        return item is not None and _ability_ok(spec, item, controller)
    obj = game.state.objects.get(target.object_id)
    return obj is not None and _object_ok(game, spec, obj, controller, source_id)


def candidates(game: Game, spec: dict[str, Any], controller: str, source_id: int | None) -> Iterable[Target]:
    for player in game.state.players:
        if _player_ok(game, spec, player, controller):
            yield Target("player", player)
    for obj in list(game.state.objects.values()):
        if _object_ok(game, spec, obj, controller, source_id):
            yield Target("object", obj.id)
    for item in list(game.state.stack):
        if _ability_ok(spec, item, controller):
            yield Target("ability", item.id)


def has_legal_choice(game: Game, specs: list[dict[str, Any]], controller: str, source_id: int | None) -> bool:
    return all(spec.get("optional") or any(True for _ in candidates(game, spec, controller, source_id))
               for spec in specs)


def check_targets(game: Game, specs: list[dict[str, Any]], chosen: tuple[Target, ...], controller: str,
                  source_id: int | None, describe: Callable[[Target], str] | None = None) -> None:
    """Raise Illegal unless `chosen` is a legal choice of targets for `specs` (rule 601.2c)."""
    required = sum(1 for s in specs if not s.get("optional"))
    if not required <= len(chosen) <= len(specs):
        raise Illegal(f"expected {required if required == len(specs) else f'{required} to {len(specs)}'} "
                      f"target(s), got {len(chosen)}")
    for spec, target in zip(specs, chosen):
        if not is_legal(game, spec, target, controller, source_id):
            what = describe(target) if describe else str(target.value)
            raise Illegal(f"{what} is not a legal target ({_describe_spec(spec)})")
        _refuse_ward(game, target, controller)
    # 601.2c: the same object or player can't be chosen twice for one instance of the word "target"
    # ("up to two target creatures": specs sharing a `word`); separate words may choose it again.
    words = [(spec["word"], target) for spec, target in zip(specs, chosen) if "word" in spec]
    if len(set(words)) != len(words):
        raise Illegal("the same target can't be chosen twice for one instance of the word 'target' (rule 601.2c)")


def _describe_spec(spec: dict[str, Any]) -> str:
    text = {"any": "any target", "card": "a card in a graveyard",
            "ability": f"target {spec.get('ability_kind', 'activated or triggered')} ability"}.get(
        spec["what"], f"target {spec['what']}")
    if spec.get("filter"):
        text += f" with {spec['filter']}"
    return text


def _refuse_ward(game: Game, target: Target, controller: str) -> None:
    """Ward (702.21) is a keyword the engine knows only by name (a Royal Role grants it): its
    trigger is not modelled, so an opponent targeting a permanent with ward is the engine's limit."""
    obj = game.state.objects.get(target.object_id) if target.kind == "object" else None
    if obj is None or obj.zone is not Zone.BATTLEFIELD or obj.controller == controller:
        return
    if any(a.kind == "keyword" and a.keyword == "Ward" for a in characteristics(game.state, obj).abilities):
        from reference_engine.limits import EngineLimit

        raise EngineLimit("ward's triggered ability (702.21) is not modelled")
