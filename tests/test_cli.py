"""The command line: verbs, output formats and exit codes (0 pass, 1 fail, 2 bad input or usage)."""

import json
import subprocess
import sys

import pytest

from harness.cli import main
from tests.conftest import REPO, elves_case


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_run_passes_with_the_reference_engine(capsys) -> None:
    code, out, _ = run_cli(capsys, "run", "-k", "general/tap-ability")
    assert code == 0
    assert "general" in out and "pass" in out


def test_run_json_report_has_the_stable_keys(capsys, tmp_path) -> None:
    output = tmp_path / "report.json"
    code, _, _ = run_cli(capsys, "run", "-k", "untap-ability", "--format", "json", "--output", str(output))
    report = json.loads(output.read_text())
    assert code == 0
    assert set(report) >= {"engine", "summary", "cases"}
    assert report["engine"]["name"] == "reference"
    assert set(report["summary"]) == {"pass", "fail", "skip", "error", "timeout", "crash"}
    assert {"id", "status", "rulings", "message"} <= set(report["cases"][0])
    assert report["summary"]["pass"] == len(report["cases"]) == 3


def test_failing_case_exits_1_and_shows_ruling_expected_observed_and_action(capsys, corpus_builder) -> None:
    corpus_builder.write("demo/elves", elves_case(sick=False))
    code, out, _ = run_cli(capsys, "run", "--cases", str(corpus_builder.root))
    assert code == 1
    assert "FAIL demo/elves" in out
    assert "ruling general-07: The tap symbol is {T}." in out
    assert "after action 0 (activate: {object: elves, ability: 0}):" in out
    assert "expected: rejected" in out and "observed: accepted" in out


def test_mutant_engine_fails_its_case(capsys) -> None:
    code, out, _ = run_cli(capsys, "run", "-k", "tap-ability-summoning-sick", "--engine", "mutant:summoning-sickness-ignored")
    assert code == 1
    assert "reference~summoning-sickness-ignored" in out


def test_invalid_corpus_exits_2_without_running(capsys, corpus_builder) -> None:
    corpus_builder.write("demo/elves", elves_case().replace("Llanowar Elves", "Llanowar Elf"))
    code, out, err = run_cli(capsys, "run", "--cases", str(corpus_builder.root))
    assert code == 2
    assert "unknown card 'Llanowar Elf'" in err
    assert "Traceback" not in err + out


@pytest.mark.parametrize("args, message", [
    (["run", "--engine", "refrence"], "did you mean reference?"),
    (["run", "-k", "no-such-case-anywhere"], "no case matches"),
    (["run", "--cases", "/nonexistent"], "is not a corpus"),
])
def test_bad_input_exits_2(capsys, args, message) -> None:
    code, out, err = run_cli(capsys, *args)
    assert code == 2
    assert message in err


def test_usage_error_exits_2(capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(["run", "--format", "xml"])
    assert info.value.code == 2


def test_validate(capsys, corpus_builder) -> None:
    corpus_builder.write("demo/elves", elves_case())
    code, out, _ = run_cli(capsys, "validate", "--cases", str(corpus_builder.root), "--allow-uncovered")
    assert code == 0 and out.startswith("ok: 1 cases")
    corpus_builder.write("demo/bad", "id: demo/bad\n")
    code, _, err = run_cli(capsys, "validate", "--cases", str(corpus_builder.root), "--allow-uncovered")
    assert code == 2
    assert "cases/demo/bad.yaml:1: $: 'description' is required" in err


def _ruling_ids() -> list[str]:
    """The corpus's rulings, read the plain way (the count changes as rulings are added)."""
    import yaml

    return [r["id"] for r in yaml.safe_load((REPO / "cases" / "rulings.yaml").read_text())["rulings"]]


def test_list_and_coverage(capsys) -> None:
    code, out, _ = run_cli(capsys, "list", "--format", "ids", "-k", "nightpack")
    assert code == 0 and "nightpack-ambusher/no-spell-makes-wolf" in out.split()
    code, out, _ = run_cli(capsys, "coverage", "--format", "json")
    coverage = {r["id"]: r["cases"] for r in json.loads(out)["rulings"]}
    assert code == 0
    assert len(coverage) == len(_ruling_ids())
    for ruling in [f"general-0{i}" for i in range(1, 9)] + [f"nightpack-ambusher-0{i}" for i in range(1, 5)]:
        assert coverage[ruling], f"{ruling} has no case"


def test_python_dash_m_harness_is_the_same_command() -> None:
    done = subprocess.run([sys.executable, "-m", "harness", "--help"], capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0
    assert "run" in done.stdout and "validate" in done.stdout and "coverage" in done.stdout


def test_validate_fails_when_a_ruling_has_no_case(capsys, corpus_builder) -> None:
    corpus_builder.write("demo/elves", elves_case())
    code, _, err = run_cli(capsys, "validate", "--cases", str(corpus_builder.root))
    assert code == 2
    assert "rulings.yaml:4: $.rulings[0]: no case encodes ruling 'general-01' (write one: mtg-conformance new general-01)" in err
    assert "no case encodes ruling 'general-07'" not in err  # the demo case encodes it
    assert f"{len(_ruling_ids()) - 1} problem(s)" in err


def test_the_real_corpus_covers_every_ruling(capsys) -> None:
    code, out, _ = run_cli(capsys, "validate")
    assert code == 0 and out.startswith("ok:")
