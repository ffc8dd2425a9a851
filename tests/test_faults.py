"""Engines that misbehave: each fault costs the case it happened in (crash, timeout or error, with
the engine's stderr), the engine is restarted, and every other case gets the result it gets from a
well-behaved engine. The fake engines sleep for minutes where a timeout is expected, far beyond the
few seconds the tests allow, so a loaded machine can't make them flaky."""

import json

import pytest

from harness.cli import main
from tests.conftest import TAP_CASES, comparable, fake_engine, select

SELECTION = select(TAP_CASES)  # 7 cases
MARKED = "general/tap-ability-controlled-since-turn-began"  # the second of them
TIMEOUT = "3"


def run_report(capsys, tmp_path, *args: str) -> tuple[int, dict, str]:
    output = tmp_path / "report.json"
    code = main(["run", *SELECTION, *args, "--format", "json", "--output", str(output)])
    return code, json.loads(output.read_text()), capsys.readouterr().err


@pytest.fixture(scope="module")
def well_behaved():
    """The results of the same cases from the in-process reference engine, by case id."""
    import io
    from contextlib import redirect_stdout

    buffer = io.StringIO()
    with redirect_stdout(buffer):
        assert main(["run", *SELECTION, "--format", "json"]) == 0
    return {case["id"]: case for case in comparable(json.loads(buffer.getvalue()))["cases"]}


FAULTS = [
    ("crash", [], "crash", "the engine exited with status 3 while running the case"),
    ("hang", [], "timeout", f"no reply within {TIMEOUT}s (--timeout)"),
    ("garbage", [], "error", "the engine wrote a line that is not JSON: 'this is not JSON'"),
    ("stdout-log", [], "error", "not JSON: 'INFO running the case' (standard output carries protocol messages only"),
    ("partial", [], "timeout", "so far it wrote an unterminated line: '{\"seq\": 2, \"result\":' (end every message"),
    ("partial-exit", [], "crash", "exited with status 4 while running the case, after writing an unterminated line"),
    ("wrong-seq", [], "error", "the reply has seq 1002; the case was sent with seq 2"),
    ("slow", ["600"], "timeout", f"no reply within {TIMEOUT}s"),
]


@pytest.mark.parametrize("mode, argument, status, detail", FAULTS, ids=[f[0] for f in FAULTS])
def test_a_fault_costs_only_its_case(capsys, tmp_path, well_behaved, mode, argument, status, detail) -> None:
    code, report, err = run_report(capsys, tmp_path, "--engine", fake_engine(mode, MARKED, *argument),
                                   "--timeout", TIMEOUT)
    assert code == 1
    results = {case["id"]: case for case in comparable(report)["cases"]}
    assert set(results) == set(well_behaved)
    marked = results.pop(MARKED)
    assert marked["status"] == status
    assert detail in marked["message"]
    assert f"fake engine: misbehaving ({mode}) on {MARKED}" in marked["stderr"]
    assert "started in mode" not in marked["stderr"]  # only what the engine wrote during this case
    assert results == {k: v for k, v in well_behaved.items() if k != MARKED}
    assert "restarted 1 time(s)" in err


def test_fault_report_in_the_table_shows_the_stderr_tail(capsys) -> None:
    code = main(["run", *SELECTION, "--engine", fake_engine("crash", MARKED), "--timeout", TIMEOUT])
    out = capsys.readouterr().out
    assert code == 1
    assert f"CRASH {MARKED}" in out
    assert "engine stderr (last lines):" in out and f"| fake engine: misbehaving (crash) on {MARKED}" in out


def test_an_engine_that_crashes_on_every_case_still_gets_every_case_reported(capsys, tmp_path) -> None:
    code, report, _ = run_report(capsys, tmp_path, "--engine", fake_engine("crash", "tap-ability"))
    assert code == 1
    assert [c["status"] for c in report["cases"]] == ["crash"] * 7


def test_an_engine_that_cannot_be_restarted_costs_the_remaining_cases_once(capsys, tmp_path) -> None:
    engine = fake_engine("crash-for-good", MARKED, str(tmp_path / "broken"))
    code, report, _ = run_report(capsys, tmp_path, "--engine", engine)
    statuses = [c["status"] for c in report["cases"]]
    assert code == 1
    assert statuses == ["pass", "crash"] + ["crash"] * 5
    rest = report["cases"][2:]
    assert all(c["message"].startswith("the engine could not be restarted after a fault:") for c in rest)
    assert "exited with status 1 before answering the start command" in rest[0]["message"]
    assert "cannot find my card database" in rest[0]["message"]


def test_a_slow_answer_within_the_timeout_is_fine(capsys, tmp_path, well_behaved) -> None:
    code, report, _ = run_report(capsys, tmp_path, "--engine", fake_engine("slow", MARKED, "0.3"), "--timeout", "30")
    assert code == 0
    assert {c["id"]: c for c in comparable(report)["cases"]} == well_behaved


def test_a_reply_written_twice_is_ignored_with_a_warning(capsys, tmp_path, well_behaved) -> None:
    code, report, err = run_report(capsys, tmp_path, "--engine", fake_engine("twice", MARKED))
    assert code == 0
    assert {c["id"]: c for c in comparable(report)["cases"]} == well_behaved
    assert "warning:" in err and "seq 2" in err


def test_a_reply_the_schema_rejects_is_an_error_with_the_schemas_message(capsys, tmp_path) -> None:
    code, report, _ = run_report(capsys, tmp_path, "--engine", fake_engine("bad-schema", MARKED))
    marked = next(c for c in report["cases"] if c["id"] == MARKED)
    assert code == 1
    assert marked["status"] == "error"
    assert "breaks schema/protocol/run-reply.json" in marked["message"]
    assert "$.result.actions[0].status: 'okay' is not allowed here (did you mean 'ok'?)" in marked["message"]
    others = [c["status"] for c in report["cases"] if c["id"] != MARKED]
    assert others == ["pass"] * 6  # the engine was not restarted for it: the stream was in step


def test_parallel_runs_give_the_same_report_with_faults(capsys, tmp_path) -> None:
    _, one, _ = run_report(capsys, tmp_path, "--engine", fake_engine("crash", MARKED))
    code, three, _ = run_report(capsys, tmp_path, "--engine", fake_engine("crash", MARKED), "-j", "3")
    assert code == 1
    assert comparable(three) == comparable(one)
