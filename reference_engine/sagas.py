"""Sagas (rule 714): lore counters as a Saga enters and after its controller's draw step, chapter
abilities that trigger as lore counters reach their number, and the sacrifice after the last chapter
(state-based action 704.5s)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reference_engine import ops
from reference_engine.layers import characteristics
from reference_engine.model import GameObject

if TYPE_CHECKING:
    from reference_engine.game import Game


def chapter_numbers(chars) -> list[int]:
    """The chapter numbers of a Saga's chapter abilities (714.2b): triggered abilities written
    `when: {nth_counter: {kind: lore, n: N}}`."""
    return [a.data["when"]["nth_counter"]["n"] for a in chars.abilities
            if a.kind == "triggered" and a.data["when"].get("nth_counter", {}).get("kind") == "lore"]


def add_lore_counters(game: Game) -> None:
    """Rule 714.3c: as the active player's precombat main phase begins, they put a lore counter on
    each Saga they control (no stack)."""
    state = game.state
    for obj in state.battlefield():
        chars = characteristics(state, obj)
        if "Saga" in chars.subtypes and chars.controller == state.active:
            ops.add_counters_unasked(game, obj, "lore", 1, by=state.active)  # a turn-based action


def must_be_sacrificed(game: Game, obj: GameObject, chars) -> bool:
    """Rule 704.5s: lore counters at least its final chapter number, and not the source of a chapter
    ability that has triggered but not yet left the stack."""
    if "Saga" not in chars.subtypes:
        return False
    chapters = chapter_numbers(chars)
    if not chapters or obj.counters.get("lore", 0) < max(chapters):
        return False
    state = game.state
    waiting = any(p.source_id == obj.id for p in state.pending_triggers)
    waiting = waiting or any(not i.is_spell and i.source_id == obj.id for i in state.stack)
    return not waiting
