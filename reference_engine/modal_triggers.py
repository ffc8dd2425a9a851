"""Modal triggered abilities with more than one mode chosen: 'choose one or more' (700.2b, 700.2d), and
the instruction 'Each mode must target a different player' (Vindictive Lich), written
`choose_modes: {min: 1, max: 3}` and `each_mode_different_player: true` on the triggered ability.

The modes are chosen as the ability is put on the stack (603.3c), each at most once (700.2d); the ability
then has the chosen modes' targets, in printed order, and does their effects in that order. The
instruction limiting its targets is not part of any mode's effect: it applies while the ability is put
on the stack and is on it (603.1a), so a set of modes whose targets couldn't all be different players
can't be chosen (700.2b), and targets that repeat a player are refused.
"""

from __future__ import annotations

import re
from itertools import product
from typing import TYPE_CHECKING, Any

from reference_engine.model import DecisionKind, Target
from reference_engine.moves import Decision, Illegal, Procedure

if TYPE_CHECKING:
    from reference_engine.game import Game

_TARGET_REF = re.compile(r"^target\.(\d+)$")


def _shifted(value: Any, offset: int) -> Any:
    """A mode's steps with 'target.N' renumbered to the combined ability's target list."""
    if isinstance(value, str):
        match = _TARGET_REF.match(value)
        return f"target.{int(match.group(1)) + offset}" if match else value
    if isinstance(value, list):
        return [_shifted(v, offset) for v in value]
    if isinstance(value, dict):
        return {k: _shifted(v, offset) for k, v in value.items()}
    return value


def combined(data: dict[str, Any], picked: list[int]) -> dict[str, Any]:
    """The ability as the chosen mode or modes make it: their targets and effects, in printed order."""
    rest = {key: value for key, value in data.items() if key not in ("modes", "targets", "effect", "choose_modes")}
    targets: list[dict[str, Any]] = []
    effect: list[dict[str, Any]] = []
    for index in sorted(picked):
        mode = data["modes"][index]
        effect += _shifted(list(mode["effect"]), len(targets))
        targets += list(mode.get("targets", []))
    return {**rest, "targets": targets, "effect": effect}


def _players_possible(game: Game, specs: list[dict[str, Any]], controller: str, source_id) -> bool:
    """Whether each of these player targets can be a different legal player."""
    from reference_engine.targets import is_legal

    choices = [[p for p in game.state.players if is_legal(game, spec, Target("player", p), controller, source_id)]
               for spec in specs]
    return any(len(set(combo)) == len(combo) for combo in product(*choices))


def choose_several(game: Game, trigger) -> Procedure:
    """Ask the modes of a 'choose one or more' triggered ability; returns its data as they make it, or None
    if no set of modes can be chosen (the ability is then removed from the stack, 700.2b)."""
    from reference_engine.targets import has_legal_choice

    data = trigger.ability.data
    modes = data["modes"]
    least, most = int(data["choose_modes"].get("min", 1)), int(data["choose_modes"].get("max", len(modes)))

    def problem(picked: list[int]) -> str | None:
        if not least <= len(picked) <= most:
            return f"{trigger.source_name}'s ability needs {least} to {most} modes, not {len(picked)}"
        if len(set(picked)) != len(picked) or not all(0 <= i < len(modes) for i in picked):
            return f"choose different modes among 0 to {len(modes) - 1}, each at most once (rule 700.2d)"
        for i in picked:
            if modes[i].get("targets") and not has_legal_choice(game, modes[i]["targets"], trigger.controller,
                                                                trigger.source_id):
                return f"mode {i} of {trigger.source_name}'s ability can't be chosen: its targets can't be chosen (rule 700.2b)"
        if data.get("each_mode_different_player"):
            specs = [s for i in picked for s in modes[i].get("targets", []) if s["what"] in ("player", "any")]
            if not _players_possible(game, specs, trigger.controller, trigger.source_id):
                return ("each mode must target a different player, and there aren't enough players these modes "
                        "can target (rules 603.1a, 700.2b)")
        return None

    if all(problem([i]) for i in range(len(modes))):
        return None
    decision = Decision(trigger.controller, DecisionKind.MODES, f"choose the modes of {trigger.source_name}'s ability",
                        {"source": trigger.source_uid})
    while True:
        move = yield decision
        picked = list(move.modes or [])
        why = problem(picked) if move.modes is not None else f"choose the modes of {trigger.source_name}'s ability"
        if why is None:
            return combined(data, picked)
        game.state.rejection = why


def check_different_players(data: dict[str, Any], targets) -> None:
    """'Each mode must target a different player' (603.1a): no player targeted twice."""
    if not data.get("each_mode_different_player"):
        return
    players = [t.value for t in targets if t.kind == "player"]
    if len(set(players)) != len(players):
        raise Illegal("each mode must target a different player (rule 603.1a)")
