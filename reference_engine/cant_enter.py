"""'[Permanents] can't enter the battlefield' (Worms of the Earth's 'Lands can't enter the battlefield')
and 'Players can't play lands'. A card that can't enter stays where it is; a token that can't enter is
not created (111.5)."""

from __future__ import annotations

from reference_engine.filters import FilterContext, matches
from reference_engine.model import CardDef, Face
from reference_engine.restrictions import _applies_to, rule_abilities


def entry_prohibited(game, face: Face, card: CardDef, controller: str) -> bool:
    """Whether a rule or effect says a permanent with one of the characteristics it would have (`face`
    of `card`, under `controller`) can't enter the battlefield (`rule: {cant_enter: filter}`)."""
    from reference_engine.layers import printed

    state = game.state
    would_be = None
    for source, source_controller, filt in rule_abilities(state, "cant_enter"):
        would_be = would_be or printed(face, card, controller)
        if matches(state, None, filt, FilterContext(source_controller, source.id), chars=would_be):
            return True
    return False


def land_play_prohibition(game, player: str) -> str | None:
    """Why `player` can't play a land now (`rule: {cant_play_lands: each|you|opponent}`), or None."""
    from reference_engine.layers import characteristics

    for source, controller, who in rule_abilities(game.state, "cant_play_lands"):
        if _applies_to(player, controller, str(who)):
            return f"{characteristics(game.state, source).name} says players can't play lands"
    return None
