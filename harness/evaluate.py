"""Turning an engine's reply to a case into a result: pass, fail, skip or error."""

from __future__ import annotations

from typing import Any

from engine_kit.protocol import Result
from engine_kit.vocabulary import ACTION_MODIFIERS
from harness.compare import Checker, state_differences
from harness.corpus import Case
from harness.results import CaseResult, Check, Mismatch, Status
from harness.wire import checkpoints
from harness.yamlio import format_path


def describe_action(action: dict[str, Any]) -> str:
    """A one-line rendering of an action, as it reads in the case file."""
    verb = next((k for k in action if k not in ACTION_MODIFIERS), "?")
    value = action.get(verb)
    text = f"{verb}: {_flow(value)}"
    if "by" in action:
        text += f" (by {action['by']})"
    return text


def _flow(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if value is True:
        return "true"
    return str(value)


def base_result(case: Case, status: Status, message: str = "") -> CaseResult:
    return CaseResult(case.id, status, message, list(case.rulings), case.display_path, case.line_of(["id"]),
                      rules=list(case.rules))


def observed_states(result: Result, asked: list[int]) -> tuple[dict[int, Any], str | None]:
    """The states an engine observed, by checkpoint; or why they can't be judged. Two states for one
    checkpoint leave the verdict to their order, and a state after an action that is not a checkpoint
    means the engine and the harness disagree about the case: neither can come from a correct engine,
    so both are errors whatever the options."""
    states: dict[int, Any] = {}
    for item in result.observations:
        if item.after in states:
            return {}, f"two observations after action {item.after}: which one to judge would depend on their order"
        if item.after not in asked:
            shown = ", ".join(map(str, asked))
            return {}, (f"an observation after action {item.after}, which is not a checkpoint of the case "
                        f"(checkpoints: {shown})")
        states[item.after] = item.state
    return states, None


def evaluate(case: Case, result: Result) -> CaseResult:
    """Compare a `result` reply (valid by the schema) with the case's expectations."""
    actions = case.data["actions"]
    statuses = result.actions
    states, problem = observed_states(result, checkpoints(actions))
    if problem:
        return base_result(case, Status.ERROR, problem)
    if len(statuses) != len(actions):
        return base_result(case, Status.ERROR,
                           f"the engine reported {len(statuses)} action results for {len(actions)} actions")
    mismatches: list[Mismatch] = []
    checks: list[Check] = []  # every expectation checked, met or not, with what was observed
    for index, action in enumerate(actions):
        status = statuses[index]
        expect = action.get("expect") or {}
        when = f"after action {index} ({describe_action(action)})"
        rejected = status.rejected
        path: list[str | int] = ["actions", index]
        answer = "rejected" if rejected else "accepted"
        wanted = "rejected" if expect.get("rejected") else "accepted"
        checks.append(Check(when, format_path(path + ["expect", "rejected"] if expect.get("rejected") else path),
                            wanted, answer, answer == wanted))
        if expect.get("rejected") and not rejected:
            mismatches.append(Mismatch(when, format_path(path + ["expect", "rejected"]),
                                       case.line_of(path + ["expect", "rejected"]), "rejected", "accepted",
                                       "the rules forbid this action, but the engine performed it"))
        elif rejected and not expect.get("rejected"):
            mismatches.append(Mismatch(when, format_path(path), case.line_of(path), "accepted", "rejected",
                                       f"the engine rejected the action: {status.reason or '(no reason given)'}"))
        elif rejected and expect.get("rejected") and index - 1 in states and index in states:
            changed = state_differences(states[index - 1], states[index])
            checks.append(Check(when, format_path(path + ["expect", "rejected"]), "state unchanged",
                                "; ".join(changed[:5]) or "state unchanged", not changed))
            if changed:
                mismatches.append(Mismatch(when, format_path(path + ["expect", "rejected"]),
                                           case.line_of(path + ["expect", "rejected"]), "state unchanged",
                                           "; ".join(changed[:5]), "a rejected action must leave the state as it was"))
        blocks = {k: v for k, v in expect.items() if k != "rejected"}
        if blocks:
            if index not in states:
                return base_result(case, Status.ERROR, f"the engine sent no observation after action {index}")
            checker = Checker(case, when, path + ["expect"])
            mismatches.extend(checker.check(blocks, states[index]))
            checks.extend(checker.checks)
    final = case.data.get("expect")
    if final:
        last = len(actions) - 1
        if last not in states:
            return base_result(case, Status.ERROR, "the engine sent no final observation")
        checker = Checker(case, "at the end", ["expect"])
        mismatches.extend(checker.check(final, states[last]))
        checks.extend(checker.checks)
    if mismatches:
        out = base_result(case, Status.FAIL, f"{len(mismatches)} expectation(s) not met")
        out.mismatches = mismatches
        out.checks = checks
        return out
    out = base_result(case, Status.PASS)
    out.checks = checks
    return out
