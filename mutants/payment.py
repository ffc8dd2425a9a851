"""Paying costs: {T} paid after the mana abilities activated while paying (rules 601.2g-h, 118.3)."""

from __future__ import annotations

from mutants.patching import Patcher, mutant


@mutant("tap-cost-unchecked-after-mana-abilities", "{T} is checked only as the ability is announced, so a permanent "
        "tapped by its own mana ability while paying still pays its {T}", ["601.2h", "118.3"])
def _tap_cost_unchecked(p: Patcher) -> None:
    from reference_engine import ops

    def pay_tap_untap(game, obj, cost):
        if cost.tap:
            ops.tap(game, obj)
        if cost.untap:
            ops.untap(game, obj)
    p.replace("casting", "pay_tap_untap", pay_tap_untap)


@mutant("tap-cost-not-paid", "an ability's {T} cost is accepted without tapping the permanent", ["107.5", "601.2h"])
def _tap_cost_not_paid(p: Patcher) -> None:
    from reference_engine import ops

    def pay_tap_untap(game, obj, cost):
        if cost.untap:
            ops.untap(game, obj)
    p.replace("casting", "pay_tap_untap", pay_tap_untap)
