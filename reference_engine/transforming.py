"""What happens as a permanent transforms, beyond turning it over (ops.transform, rule 701.27).

- 'As this creature transforms into [this face], [effect]' (`replacement: {as_transforms_into: true,
  effect: [steps]}`
  on the face it transforms into): applied while the permanent transforms, not afterward, even though
  the permanent has that ability only once it has transformed (712.20). Its steps must not ask a
  player anything (a transformation happens where no choice can be asked).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reference_engine.effects import Ctx, run
from reference_engine.layers import characteristics

if TYPE_CHECKING:
    from reference_engine.game import Game
    from reference_engine.model import GameObject


def as_transforms_abilities(game: Game, obj: GameObject) -> list[list[dict[str, Any]]]:
    """The 'as this transforms into' abilities the permanent has once it has transformed (712.20)."""
    return [a.data.get("effect") or [] for a in characteristics(game.state, obj).abilities
            if a.kind == "replacement" and a.data.get("as_transforms_into")]


def apply_as_transforms(game: Game, obj: GameObject) -> None:
    """Apply the face's 'as this transforms into' abilities as part of the transformation (712.20)."""
    apply_steps(game, obj, as_transforms_abilities(game, obj))


def apply_steps(game: Game, obj: GameObject, found: list[list[dict[str, Any]]]) -> None:
    from reference_engine.limits import EngineLimit

    for steps in found:
        chars = characteristics(game.state, obj)
        ctx = Ctx(chars.controller, obj.id, obj.uid, chars.name)
        for _ in run(game, ctx, steps):
            raise EngineLimit("an 'as this transforms' ability that asks a player something is not modelled")
