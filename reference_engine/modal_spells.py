"""Modal spells (rule 700.2): 'Choose one —' is `modes:` on the spell ability, 'Choose two —' adds
`choose_modes: {min: 2, max: 2}`. The modes are announced as the spell is cast (601.2b, 700.2a), before
its targets, each at most once (700.2d); a mode whose targets can't be chosen can't be chosen (700.2a).
The spell then has the chosen modes' targets and does their effects, in printed order whatever order
they were announced in (700.2, 608.2c), as a modal triggered ability does (modal_triggers.combined).
The modes are kept on the spell (GameObject.modes), and a copy of the spell copies them (700.2g)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from reference_engine.modal_triggers import combined
from reference_engine.moves import Illegal

if TYPE_CHECKING:
    from reference_engine.game import Game


def is_modal(data: Mapping[str, Any]) -> bool:
    return "modes" in data


def with_modes(data: Mapping[str, Any], modes: tuple[int, ...]) -> Mapping[str, Any]:
    """The spell ability as its chosen modes make it (unchanged if it isn't modal)."""
    return combined(dict(data), list(modes)) if is_modal(data) else data


def check_mode_count(name: str, modes: tuple[int, ...], least: int, most: int) -> None:
    """Rules 601.2b, 700.2: as many modes as the spell says to choose."""
    if not least <= len(modes) <= most:
        wanted = str(least) if least == most else f"{least} to {most}"
        raise Illegal(f"choose {wanted} of the modes of {name}, not {len(modes)} (rules 601.2b, 700.2)")


def check_modes_differ(name: str, modes: tuple[int, ...]) -> None:
    """Rule 700.2d: a mode is chosen at most once, unless the spell says otherwise."""
    if len(set(modes)) != len(modes):
        raise Illegal(f"the same mode of {name} can't be chosen more than once (rule 700.2d)")


def check_modes(game: Game, name: str, data: Mapping[str, Any] | None, modes: tuple[int, ...], player: str) -> None:
    """Rule 601.2b: the modes announced for a spell must be as many as it says to choose, each a
    different mode (700.2d) that can be chosen (700.2a); a spell that isn't modal has none."""
    from reference_engine.targets import has_legal_choice

    if data is None or not is_modal(data):
        if modes:
            raise Illegal(f"{name} isn't modal: it has no modes to choose (rule 700.2)")
        return
    count = len(data["modes"])
    limits = data.get("choose_modes") or {"min": 1, "max": 1}
    least, most = int(limits.get("min", 1)), int(limits.get("max", count))
    check_mode_count(name, modes, least, most)
    if not all(0 <= i < count for i in modes):
        raise Illegal(f"{name} has modes 0 to {count - 1}")
    check_modes_differ(name, modes)
    for i in modes:
        specs = data["modes"][i].get("targets")
        if specs and not has_legal_choice(game, specs, player, None):
            raise Illegal(f"mode {i} of {name} can't be chosen: its targets can't be chosen (rule 700.2a)")
