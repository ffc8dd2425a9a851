"""An engine's processes never outlive the run, whatever ends it (issue 23): its grandchildren in
sessions of their own, SIGTERM, a second Ctrl-C during shutdown; an engine's stderr is kept in bounded
memory; an interrupted run's report says so."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.cli import main
from harness.engine_process import EngineProcess
from tests.conftest import REPO, TAP_CASES, fake_engine, select

MARKED = "general/tap-ability-controlled-since-turn-began"


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead
        with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


def wait_until(predicate, seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def test_a_grandchild_holding_stdout_does_not_turn_a_crash_into_a_timeout(capsys, tmp_path) -> None:
    pid_file = tmp_path / "grandchild"
    output = tmp_path / "report.json"
    code = main(["run", *select(TAP_CASES[:3]), "--engine", fake_engine("orphan", MARKED, str(pid_file)),
                 "--timeout", "30", "--format", "json", "--output", str(output)])
    report = json.loads(output.read_text())
    marked = next(c for c in report["cases"] if c["id"] == MARKED)
    assert code == 1
    assert marked["status"] == "crash", marked
    assert marked["duration"] < 20
    grandchild = int(pid_file.read_text())
    assert wait_until(lambda: not alive(grandchild), 5), "the engine's grandchild outlived the run"


def test_stderr_is_kept_in_bounded_memory() -> None:
    script = "import sys; sys.stderr.write('y' * 30_000_000); sys.stderr.write('\\nlast line\\n'); sys.stderr.flush()"
    process = EngineProcess([sys.executable, "-c", script])
    process.finish(grace=30)
    kept = sum(len(line) for line in process._stderr)
    assert kept < 200_000
    assert process.stderr_since(0).splitlines()[-1] == "last line"


def harness(tmp_path: Path, mode: str, *extra: str) -> tuple[subprocess.Popen, Path, Path]:
    pids = tmp_path / "pids"
    report = tmp_path / "report.jsonl"
    env = {**os.environ, "FAKE_ENGINE_PIDS": str(pids)}
    argv = [sys.executable, "-m", "harness", "run", *select(TAP_CASES), "--engine", fake_engine(mode, MARKED),
            "--timeout", "300", "--output", str(report), "-q", *extra]
    process = subprocess.Popen(argv, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    def first_case_done() -> bool:
        results = [json.loads(line) for line in report.read_text().splitlines()[1:]] if report.exists() else []
        return bool(results) and all(r.get("id") != MARKED for r in results) and pids.exists()
    assert wait_until(first_case_done, 60)
    time.sleep(1.0)  # the engine is now hanging on the marked case
    return process, pids, report


def engine_pids(pids: Path) -> list[int]:
    return [int(line) for line in pids.read_text().split()]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sigterm_kills_a_busy_engine_and_the_report_says_interrupted(tmp_path, jobs: str) -> None:
    process, pids, report = harness(tmp_path, "hang", "-j", jobs)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 128 + signal.SIGTERM, err
    assert b"Traceback" not in err and b"interrupted" in err
    assert wait_until(lambda: not any(alive(pid) for pid in engine_pids(pids)), 5)
    tail = json.loads(report.read_text().splitlines()[-1])
    assert tail["interrupted"] is True and tail["summary"]["pass"] >= 1
    assert b"INTERRUPTED: the run was stopped after" in out


def test_a_second_ctrl_c_during_shutdown_still_kills_the_engine(tmp_path) -> None:
    process, pids, _ = harness(tmp_path, "hang")
    process.send_signal(signal.SIGINT)
    time.sleep(0.5)  # shutting down: the engine, asked to stop, doesn't
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert b"Traceback" not in err
    assert wait_until(lambda: not any(alive(pid) for pid in engine_pids(pids)), 5)


def test_what_a_command_loaded_is_kept_out_of_the_collector_only_while_it_plays() -> None:
    import gc

    from harness.scheduling import settled_loaded

    before = gc.get_freeze_count()
    loaded = [{"case": i} for i in range(100)]
    with settled_loaded():
        assert gc.get_freeze_count() >= before + len(loaded)  # frozen while the cases are played
    assert gc.get_freeze_count() == 0  # and handed back to the collector afterwards
