"""A run's exit code and verdicts say what happened (issue 23): a run in which no case was played is
not a success; a reply with two states for one checkpoint, a state nobody asked for, NaN, or nesting
beyond any limit is an error of that case alone, never a pass or a traceback."""

from __future__ import annotations

import json

import pytest

from harness.cli import main
from harness.exits import EXIT_NOTHING_PLAYED
from tests.conftest import TAP_CASES, elves_case, fake_engine, select

MARKED = "general/tap-ability-controlled-since-turn-began"


def run_json(capsys, tmp_path, *args: str) -> tuple[int, dict, str]:
    output = tmp_path / "report.json"
    code = main(["run", *select(TAP_CASES[:3]), *args, "--format", "json", "--output", str(output)])
    return code, json.loads(output.read_text()), capsys.readouterr().err


def test_a_run_in_which_every_case_was_skipped_does_not_exit_0(capsys, tmp_path) -> None:
    code, report, _ = run_json(capsys, tmp_path, "--engine", fake_engine("skip", "tap-ability"))
    assert report["summary"]["skip"] == 3
    assert code == EXIT_NOTHING_PLAYED == 3


def test_some_skipped_and_the_others_passed_is_a_success(capsys, tmp_path) -> None:
    code, report, _ = run_json(capsys, tmp_path, "--engine", fake_engine("skip", MARKED))
    assert report["summary"]["skip"] == 1 and report["summary"]["pass"] == 2 and code == 0


@pytest.mark.parametrize("mode, message", [
    ("duplicate-observation", "two observations after action"),
    ("extra-observation", "not a checkpoint of the case"),
    ("nan", "NaN"),
    ("deep", "deeper than"),
])
def test_a_reply_that_cant_be_judged_is_an_error_of_its_case_alone(capsys, tmp_path, mode, message) -> None:
    code, report, err = run_json(capsys, tmp_path, "--engine", fake_engine(mode, MARKED))
    statuses = {c["id"]: (c["status"], c["message"]) for c in report["cases"]}
    status, text = statuses.pop(MARKED)
    assert code == 1 and status == "error" and message in text, text
    assert len(text) < 1000
    assert {s for s, _ in statuses.values()} == {"pass"}
    assert "Traceback" not in err


@pytest.mark.parametrize("depth", ["500", "100000"])
def test_a_deep_reply_is_an_error_with_strict_too(capsys, tmp_path, depth: str) -> None:
    code, report, err = run_json(capsys, tmp_path, "--engine", fake_engine("deep", MARKED, depth), "--strict")
    marked = next(c for c in report["cases"] if c["id"] == MARKED)
    assert code == 1 and marked["status"] == "error" and "deeper than" in marked["message"]
    assert "Traceback" not in err


def test_a_huge_integer_is_refused_before_any_engine_sees_it(capsys, corpus_builder) -> None:
    corpus_builder.write("demo/elves", elves_case(sick=False).replace("bob: {}", "bob: {life: 0x" + "f" * 5000 + "}"))
    for jobs in ("1", "2"):
        assert main(["run", "--cases", str(corpus_builder.root), "-j", jobs]) == 2
        err = capsys.readouterr().err
        assert "cases/demo/elves.yaml:" in err and "digits" in err and "Traceback" not in err


def test_an_engines_huge_values_are_cut_short_in_the_report(capsys) -> None:
    from harness.corpus import Corpus
    from harness.engines import received
    from harness.report import describe
    from harness.runner import judge
    from harness.validation import validate_corpus
    from tests.conftest import REAL_CORPUS

    corpus = Corpus(REAL_CORPUS)
    case = next(c for c in validate_corpus(corpus).valid_cases if c.id == MARKED)
    huge = "x" * 1_000_000
    lines = describe(judge(case, received({"errored": {"message": huge}}, 1)), corpus)
    assert max(map(len, lines)) < 3000
    state = {"objects": [{"label": "elves", "tapped": huge, "summoning_sick": False}], "game": {"active": "alice"}}
    actions = [{"status": "ok"}] * 2 + [{"status": "rejected"}] + [{"status": "ok"}] * 2
    result = judge(case, received({"result": {"actions": actions, "observations": [
        {"after": after, "state": state} for after in (1, 2, 3, 4)]}}, 1))
    assert result.status.value == "error", result.message  # a string where the schema wants a boolean
    assert max(map(len, describe(result, corpus))) < 3000
