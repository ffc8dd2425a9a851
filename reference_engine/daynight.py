"""Day and night (rule 731) with daybound and nightbound (702.145)."""

from __future__ import annotations

from reference_engine.layers import characteristics


def _with_keyword(game, keyword: str):
    return [o for o in game.state.battlefield() if characteristics(game.state, o).has_keyword(keyword)]


def check_designation(game) -> None:
    """702.145d/g: a daybound permanent makes it day if it is neither; a nightbound one makes it night
    if it is neither and no daybound permanent is on the battlefield."""
    state = game.state
    if state.day_night is not None:
        return
    if _with_keyword(game, "Daybound"):
        become(game, "day")
    elif _with_keyword(game, "Nightbound"):
        become(game, "night")


def become(game, designation: str) -> None:
    """It becomes day or night; daybound/nightbound permanents transform as it does (702.145b/e),
    immediately, not as a state-based action."""
    from reference_engine.ops import emit, transform

    state = game.state
    if state.day_night == designation:
        return
    state.day_night = designation
    state.touch()
    keyword, face = ("Daybound", 0) if designation == "night" else ("Nightbound", 1)
    for obj in _with_keyword(game, keyword):
        if obj.face == face:
            transform(game, obj, by_day_night=True)
    emit(game, "day_night", now=designation)


def untap_step_check(game) -> None:
    """Rule 502.2: before untapping, day becomes night if the previous turn's active player cast no
    spells, and night becomes day if they cast two or more."""
    state = game.state
    previous = state.previous_active
    if state.day_night is None or previous is None:
        return
    cast = state.previous_turn_spells[previous]
    if state.day_night == "day" and cast == 0:
        become(game, "night")
    elif state.day_night == "night" and cast >= 2:
        become(game, "day")
