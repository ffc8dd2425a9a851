"""Day and night (rule 731) with daybound and nightbound (702.145).

The designation is a property of the game (`state.day_night`: None for neither, "day", "night").
Daybound and nightbound are static abilities, so what they say holds at any time, not only when a
player would receive priority: `enforce` applies them and is called as a permanent arrives and
before each priority; `become` transforms the permanents as it becomes day or night, immediately.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reference_engine.layers import characteristics, keywords_on_battlefield

if TYPE_CHECKING:
    from reference_engine.game import Game

#: The keyword whose permanents transform as it becomes `designation`, and the face they must have up.
TRANSFORMS_AS_IT_BECOMES = {"night": ("Daybound", 0), "day": ("Nightbound", 1)}


def _with_keyword(game: Game, keyword: str):
    return [o for o in game.state.battlefield() if characteristics(game.state, o).has_keyword(keyword)]


def check_designation(game: Game) -> None:
    """702.145d/g: a daybound permanent makes it day if it is neither; a nightbound one makes it night
    if it is neither and no daybound permanent is on the battlefield."""
    state = game.state
    if state.day_night is not None:
        return
    keywords = keywords_on_battlefield(state)  # checked before each priority: kept per state version
    if "Daybound" in keywords:
        become(game, "day")
    elif "Nightbound" in keywords:
        become(game, "night")


def transform_mismatched(game: Game) -> None:
    """702.145c/f: a daybound permanent front face up at night, or a nightbound one back face up by
    day, is transformed at once (not a state-based action)."""
    state = game.state
    if state.day_night is None:
        return
    _transform_all(game, *TRANSFORMS_AS_IT_BECOMES[state.day_night])


def enforce(game: Game) -> None:
    """What daybound and nightbound say must hold at any time (702.145c, d, f, g). Once it holds, it
    keeps holding until the state's version changes (the designation, or what is on the battlefield)."""
    state = game.state
    if state.now().day_night_enforced:
        return
    check_designation(game)
    transform_mismatched(game)
    state.now().day_night_enforced = True


def become(game: Game, designation: str) -> None:
    """It becomes day or night (731.1); daybound/nightbound permanents transform as it does
    (702.145b/e), immediately, not as a state-based action."""
    from reference_engine.ops import emit

    state = game.state
    was = state.day_night
    if was == designation:
        return
    state.day_night = designation
    state.touch()
    _transform_all(game, *TRANSFORMS_AS_IT_BECOMES[designation])
    emit(game, "day_night", was=was, now=designation)


def _transform_all(game: Game, keyword: str, face: int) -> None:
    from reference_engine.ops import transform

    for obj in _with_keyword(game, keyword):
        if obj.face == face:
            transform(game, obj, by_day_night=True)


def untap_step_check(game: Game) -> None:
    """Rule 502.2 / 731.2: before untapping, day becomes night if the previous turn's active player
    cast no spells during that turn, and night becomes day if they cast two or more. If it is
    neither, the check doesn't happen (731.2c)."""
    state = game.state
    previous = state.previous_active
    if state.day_night is None or previous is None:
        return
    cast = state.previous_turn_spells[previous]
    if state.day_night == "day" and cast == 0:
        become(game, "night")
    elif state.day_night == "night" and cast >= 2:
        become(game, "day")
