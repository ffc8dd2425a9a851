"""docs/engines.md groups failing cases by the engine behaviour behind them (harness/engine_table.py),
and phase.rs's target prompt for a choice made on resolution is the adapter's limit, not a failure."""

from __future__ import annotations

from harness.engine_table import _findings
from harness.results import CaseResult, Mismatch, Status


def _failed(case_id: str, note: str) -> CaseResult:
    mismatch = Mismatch("after action 2 (choose: ...)", "$.actions[2]", 10, "accepted", "rejected", note)
    return CaseResult(case_id, Status.FAIL, mismatches=[mismatch])


def test_the_same_refusal_is_one_finding_whatever_the_object_numbers() -> None:
    first = _failed("t/a", "the engine rejected the action: it waits for TriggerTargetSelection, legal: [3, 4]")
    second = _failed("t/b", "the engine rejected the action: it waits for TriggerTargetSelection, legal: [7]")
    other = _failed("t/c", "the engine rejected the action: the stack is empty")
    assert _findings([first, second, other]) == [[first, second], [other]]


def test_other_mismatches_stay_findings_of_their_own() -> None:
    first = _failed("t/a", "the rules forbid this action, but the engine performed it")
    second = _failed("t/b", "the rules forbid this action, but the engine performed it")
    assert _findings([first, second]) == [[first], [second]]


def test_a_target_prompt_without_target_in_its_text_is_untargeted() -> None:
    from engine_adapters.phase_rs.session import untargeted

    assert untargeted({"description": "At the beginning of your upkeep, ... Then transform any number of "
                                      "Human Werewolves you control."})
    assert not untargeted({"description": "Whenever ~ enters, return up to one target Goblin card from your "
                                          "graveyard to your hand."})
    assert not untargeted({})
