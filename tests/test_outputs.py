"""Reports and scale: JUnit XML, JSON lines streamed while running, -j, --shard and --shuffle. None
of them changes any case's result, nor what an engine is sent for it."""

import json
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from harness.cli import main
from harness.junit import junit_xml
from harness.results import CaseResult, Status
from harness.scheduling import parse_shard, shard, shuffled
from tests.conftest import REPO, comparable, elves_case, fake_engine


def json_report(capsys, tmp_path: Path, *args: str) -> tuple[int, dict]:
    output = tmp_path / f"report-{len(list(tmp_path.iterdir()))}.json"
    code = main(["run", *args, "--output", str(output)])
    capsys.readouterr()
    return code, json.loads(output.read_text())


def test_junit_report_has_one_testcase_per_case_with_failures_explained(capsys, tmp_path, corpus_builder) -> None:
    corpus_builder.write("demo/elves", elves_case(sick=False))
    corpus_builder.write("demo/sick", elves_case().replace("demo/elves", "demo/sick"))
    output = tmp_path / "junit.xml"
    code = main(["run", "--cases", str(corpus_builder.root), "--output", str(output)])
    out = capsys.readouterr().out
    assert code == 1
    assert "FAIL demo/elves" in out  # the table still goes to standard output
    root = ET.parse(output).getroot()
    assert (root.tag, root.get("tests"), root.get("failures"), root.get("errors")) == ("testsuites", "2", "1", "0")
    suite = root.find("testsuite")
    assert suite.get("name") == "demo"
    cases = {case.get("name"): case for case in suite.iter("testcase")}
    assert cases["demo/sick"].find("failure") is None
    failure = cases["demo/elves"].find("failure")
    assert failure.get("message") == "2 expectation(s) not met"
    assert "ruling general-07" in failure.text and "expected: rejected" in failure.text
    assert cases["demo/elves"].get("file") == "cases/demo/elves.yaml"


def test_junit_is_valid_xml_whatever_the_engine_wrote(real_corpus) -> None:
    result = CaseResult("general/x", Status.CRASH, "the engine exited with status 3", stderr="bad \x00\x1b[31m bytes")
    root = ET.fromstring(junit_xml({"name": "e"}, [result], real_corpus).encode())
    case = root.find("testsuite/testcase")
    assert case.find("error").get("type") == "crash"
    assert case.find("system-err").text == "bad \ufffd\ufffd[31m bytes"


def test_json_lines_stream_one_line_per_case_in_the_order_played(capsys, tmp_path) -> None:
    stream = tmp_path / "results.jsonl"
    code = main(["run", "-k", "nightpack", "--shuffle", "5", "--output", str(stream)])
    capsys.readouterr()
    lines = [json.loads(line) for line in stream.read_text().splitlines()]
    header, cases, footer = lines[0], lines[1:-1], lines[-1]
    assert code == 0
    assert header["engine"]["name"] == "reference" and header["run"]["shuffle"] == 5
    assert header["run"]["selected"] == len(cases) == 9
    ids = [case["id"] for case in cases]
    assert ids != sorted(ids) and ids == [c.id for c in shuffled(sorted_cases("nightpack"), 5)]
    assert footer == {"summary": {"pass": 9, "fail": 0, "skip": 0, "error": 0, "timeout": 0, "crash": 0}, "exit": 0}


def sorted_cases(pattern: str):
    from harness.corpus import Corpus, select
    from harness.paths import default_corpus
    from harness.validation import validate_corpus

    return select(validate_corpus(Corpus(default_corpus())).valid_cases, [pattern])


def test_an_interrupted_run_keeps_the_cases_that_finished(tmp_path) -> None:
    stream = tmp_path / "results.jsonl"
    marked = "general/tap-ability-controlled-since-turn-began"  # the second case of -k tap-ability
    harness = subprocess.Popen([sys.executable, "-m", "harness", "run", "-k", "tap-ability", "--timeout", "600",
                                "--engine", fake_engine("hang", marked), "--output", str(stream)],
                               cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and len(_lines(stream)) < 2:
            time.sleep(0.1)
        assert len(_lines(stream)) == 2, "the first case never finished"
        harness.send_signal(signal.SIGINT)
        _, err = harness.communicate(timeout=60)
    finally:
        if harness.poll() is None:
            harness.kill()
    assert harness.returncode == 130 and b"interrupted" in err
    lines = [json.loads(line) for line in _lines(stream)]
    assert "engine" in lines[0]
    assert [(line["id"], line["status"]) for line in lines[1:-1]] == [("general/tap-ability-already-tapped", "pass")]
    assert lines[-1]["interrupted"] is True and lines[-1]["exit"] == 130  # the stream's end says so


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []


def test_parallel_and_shuffled_runs_give_the_same_report(capsys, tmp_path) -> None:
    _, plain = json_report(capsys, tmp_path, "--format", "json")
    _, parallel = json_report(capsys, tmp_path, "--format", "json", "-j", "2", "--shuffle", "11")
    _, mutant_plain = json_report(capsys, tmp_path, "--format", "json", "--engine", "mutant:lethal-damage-ignored")
    _, mutant_parallel = json_report(capsys, tmp_path, "--format", "json", "--engine", "mutant:lethal-damage-ignored",
                                     "-j", "3", "--shuffle", "2")
    assert comparable(parallel) == comparable(plain)
    assert comparable(mutant_parallel) == comparable(mutant_plain)
    assert mutant_plain["summary"]["fail"] > 0


def test_each_case_and_its_reply_are_the_same_bytes_whatever_the_order(capsys, tmp_path, real_corpus) -> None:
    sent = {}
    for name, extra in [("plain", []), ("shuffled", ["--shuffle", "3"]), ("parallel", ["-j", "2", "--shuffle", "4"])]:
        record = tmp_path / f"{name}.jsonl"
        code = main(["run", "-k", "general/", "--engine", fake_engine("record", "", str(record)), *extra])
        capsys.readouterr()
        assert code == 0
        sent[name] = sorted(line for part in tmp_path.glob(f"{name}.jsonl.*") for line in part.read_text().splitlines())
    general = [path for path in real_corpus.case_paths() if path.parent.name == "general"]
    assert len(sent["plain"]) == len(general) and len(list(tmp_path.glob("parallel.jsonl.*"))) == 2
    assert sent["shuffled"] == sent["plain"] == sent["parallel"]


def test_shards_split_the_selection_without_overlap(capsys, tmp_path) -> None:
    _, whole = json_report(capsys, tmp_path, "--format", "json")
    shards = [json_report(capsys, tmp_path, "--format", "json", "--shard", f"{i}/3")[1] for i in (1, 2, 3)]
    ids = [case["id"] for report in shards for case in report["cases"]]
    assert sorted(ids) == sorted(case["id"] for case in whole["cases"])
    assert len(ids) == len(set(ids))
    assert all(len(report["cases"]) >= 12 for report in shards)


def test_shard_arithmetic() -> None:
    assert parse_shard("2/4") == (2, 4)
    for bad in ("0/4", "5/4", "x/2", "3", "1/0"):
        with pytest.raises(ValueError):
            parse_shard(bad)
    ids = [f"topic/case-{n}" for n in range(60)]
    parts = [shard(ids, i, 3, key=str) for i in (1, 2, 3)]
    assert sorted(sum(parts, [])) == sorted(ids) and all(10 <= len(part) <= 30 for part in parts)
    assert all(part == [i for i in ids if i in part] for part in parts)  # each keeps the order given


@pytest.mark.parametrize("args, message", [
    (["--shard", "4/3"], "I must be between 1 and N"),
    (["-j", "0"], "must be 1 or more"),
    (["--timeout", "0"], "must be more than 0"),
])
def test_bad_options_exit_2(capsys, args, message) -> None:
    with pytest.raises(SystemExit) as info:
        main(["run", *args])
    assert info.value.code == 2
    assert message in capsys.readouterr().err


# --- results streamed, not kept ------------------------------------------------------------------------
def some_results() -> list:
    from harness.results import Mismatch

    failed = CaseResult("general/b", Status.FAIL, "1 expectation(s) not met", ["general-07"], "cases/general/b.yaml", 2,
                        [Mismatch("at the end", "$.expect.x", 9, True, False, "a note")], 0.25)
    return [CaseResult("general/a", Status.PASS, rulings=["general-01"], duration=0.001), failed,
            CaseResult("grub/c", Status.SKIP, "the engine lacks: copy", details={"issue": "https://x/1"})]


@pytest.mark.parametrize("count", [0, 1, 3])
def test_the_json_report_is_written_a_case_at_a_time_as_json_dumps_would_write_it(count: int) -> None:
    import io

    from harness.baseline import Baseline, Verdict
    from harness.outputs import baseline_json, write_json
    from harness.tally import Tally

    results = some_results()[:count]
    engine = {"name": "e", "version": "1"}
    for verdict in (None, Verdict(Baseline(Path("b.yaml"))).finish([])):
        out = io.StringIO()
        write_json(out, engine, Tally.of(results), verdict, False)
        expected = {"engine": engine, "summary": Tally.of(results).summary(), "cases": [r.to_json() for r in results]}
        if verdict is not None:
            expected["baseline"] = baseline_json(verdict, False)
        assert out.getvalue() == json.dumps(expected, indent=2) + "\n"


def test_a_tally_keeps_counts_and_failures_and_everything_only_when_asked() -> None:
    from harness.tally import Tally

    results = some_results()
    lean, full = Tally(), Tally(keep_all=True)
    for position, result in reversed(list(enumerate(results))):  # as a shuffled run emits them
        lean.add(result, position)
        full.add(result, position)
    assert lean.summary() == full.summary() == {"pass": 1, "fail": 1, "skip": 1, "error": 0, "timeout": 0, "crash": 0}
    assert [r.case_id for r in lean.failing()] == ["general/b", "grub/c"]
    with pytest.raises(ValueError):
        next(lean.results())
    assert [r.to_json() for r in full.results()] == [r.to_json() for r in results]  # in the corpus order
    full.close()


class Terminal:
    """A standard error that is a terminal."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> None:
        self.text += text

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True


def test_the_progress_bar_is_drawn_on_a_terminal_and_erased_at_the_end(monkeypatch) -> None:
    from harness import progress

    clock = iter(range(100))
    monkeypatch.setattr(progress.time, "monotonic", lambda: next(clock))
    screen = Terminal()
    bar = progress.Progress(4, stream=screen)
    results = some_results()
    for result in results:
        bar.advance(result)
    assert "\r[" + "#" * 7 + "." * 23 + "] 1/4 cases" in screen.text
    assert "3/4 cases, 1 failing, 0:01 left" in screen.text
    bar.close()
    assert screen.text.endswith("\r" + " " * bar_length(screen.text) + "\r")
    assert bar.line(10.0).startswith("[" + "#" * 22)


def bar_length(text: str) -> int:
    drawn = [part for part in text.split("\r") if part.strip()]
    return len(drawn[-1])


def test_no_progress_bar_off_a_terminal_with_quiet_or_for_a_short_run(monkeypatch) -> None:
    import io

    from harness import progress

    for bar, screen in [(progress.Progress(3, stream=io.StringIO()), None),
                        (progress.Progress(3, stream=(t := Terminal()), enabled=False), t),
                        (progress.Progress(3, stream=(u := Terminal())), u)]:  # done before DELAY
        for result in some_results():
            bar.advance(result)
        bar.close()
        if screen is not None:
            assert screen.text == ""
    assert main(["run", "-k", "nightpack", "--quiet"]) == 0
