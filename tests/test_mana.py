"""Mana costs and paying them from a pool (reference engine, rule 202 and 601.2h)."""

from collections import Counter

import pytest

from reference_engine.mana import ManaCost, format_pool, parse_mana, pay


def test_mana_value() -> None:
    assert ManaCost.parse("{3}{U}{U}").mana_value() == 5
    assert ManaCost.parse("{X}{R}{G}").mana_value(x=4) == 6
    assert ManaCost.parse("{X}{R}{G}").mana_value() == 2
    assert ManaCost.parse("{1}{W/U}{W/U}").mana_value() == 3
    assert ManaCost.parse("{2/B}{2/B}").mana_value() == 4


def test_bad_cost_is_refused() -> None:
    with pytest.raises(ValueError):
        ManaCost.parse("1G")


@pytest.mark.parametrize("pool, cost, left", [
    ("{G}{G}", "{G}", "{G}"),
    ("{C}{G}{R}", "{1}{R}", "{G}"),  # generic mana spends colorless first
    ("{W}{U}", "{W/U}{W/U}", ""),
    ("{G}", "{R}", None),
    ("{G}{G}{G}", "{X}{G}", ""),
])
def test_pay(pool: str, cost: str, left: str | None) -> None:
    parsed = ManaCost.parse(cost)
    result = pay(parse_mana(pool), parsed.with_x(2) if "X" in cost else parsed)
    assert (format_pool(result) if result is not None else None) == left


def test_format_pool_orders_wubrgc() -> None:
    assert format_pool(Counter({"C": 1, "G": 2, "W": 1})) == "{W}{G}{G}{C}"
