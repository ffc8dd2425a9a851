"""Relevance between a mutant's rules and a case's rules (harness/killmatrix.py)."""

from __future__ import annotations

from harness.killmatrix import parent, related, relevant


def test_parent_drops_the_letter_then_the_number() -> None:
    assert parent("601.2g") == "601.2"
    assert parent("601.2") == "601"
    assert parent("601") is None
    assert parent("702.145d") == "702.145"


def test_related_rules_are_equal_or_parent_and_child() -> None:
    assert related("601.2g", "601.2g")
    assert related("601.2g", "601.2") and related("601.2", "601.2g")
    assert related("601.2", "601")
    assert not related("601.2g", "601.2h")  # siblings are different rules
    assert not related("601.2g", "601")  # a grandparent is too broad
    assert not related("704.5f", "704.5g")


def test_a_mutant_is_relevant_when_one_rule_is_related() -> None:
    assert relevant(["107.3a", "602.2b"], ["115.1", "602.2"])
    assert not relevant(["704.5f"], ["107.3m", "107.3"])
