"""CI gating with a baseline: exit 0 exactly when every result matches it; an unexpected pass means
the baseline is stale, and fails unless allowed. Written by --write-baseline, keeping what people
wrote in it."""

import json
import xml.etree.ElementTree as ET

import yaml

from harness.cli import main
from tests.conftest import TAP_CASES, select, wire_engine

SELECTION = select(TAP_CASES)  # the mutant below breaks three of these cases
BROKEN = wire_engine("harness.serve", "mutant:summoning-sickness-ignored")  # over the wire, as a real engine
FIXED = wire_engine("reference_engine")
BROKEN_CASES = {"general/tap-ability-summoning-sick", "general/untap-ability-summoning-sick",
                "general/tap-ability-controlled-since-turn-began"}


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["run", *SELECTION, *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_round_trip_broken_engine_then_fixed(capsys, tmp_path) -> None:
    baseline = tmp_path / "baseline.yaml"
    code, _, err = run(capsys, "--engine", BROKEN, "--write-baseline", str(baseline))
    assert code == 1  # writing a baseline does not hide the failures of this run
    assert "baseline written to" in err
    written = yaml.safe_load(baseline.read_text())
    assert set(written["cases"]) == BROKEN_CASES
    assert all(entry["status"] == "fail" and entry["reason"] for entry in written["cases"].values())
    assert written["engine"] == "reference~summoning-sickness-ignored 0.1.0"

    code, out, _ = run(capsys, "--engine", BROKEN, "--baseline", str(baseline))
    assert code == 0
    assert f"7 result(s) as expected ({len(BROKEN_CASES)} known not to pass)" in out and "baseline: ok" in out
    assert "FAIL general/" not in out  # known failures are not detailed again

    code, out, _ = run(capsys, "--engine", FIXED, "--baseline", str(baseline))
    assert code == 1
    for case_id in BROKEN_CASES:
        assert f"UNEXPECTED PASS {case_id}" in out
    assert "the baseline is stale" in out and "baseline: FAILED" in out

    code, out, _ = run(capsys, "--engine", FIXED, "--baseline", str(baseline), "--allow-unexpected-pass")
    assert code == 0
    assert "UNEXPECTED PASS" in out and "allowed by --allow-unexpected-pass" in out


def test_a_new_failure_fails_the_gate(capsys, tmp_path) -> None:
    baseline = tmp_path / "baseline.yaml"
    baseline.write_text("cases: {}\n")
    code, out, _ = run(capsys, "--engine", "mutant:summoning-sickness-ignored", "--baseline", str(baseline))
    assert code == 1
    assert "UNEXPECTED fail general/tap-ability-summoning-sick: the baseline expects pass" in out
    assert "FAIL general/tap-ability-summoning-sick" in out  # with its details


def test_rewriting_keeps_reasons_issues_and_cases_not_run(capsys, tmp_path) -> None:
    baseline = tmp_path / "baseline.yaml"
    baseline.write_text(
        "cases:\n"
        "  general/tap-ability-summoning-sick:\n"
        "    status: fail\n"
        "    reason: we check summoning sickness only for attacks\n"
        "    issue: https://example.org/engine/issues/7\n"
        "  nightpack-ambusher/no-spell-makes-wolf:\n"
        "    status: [fail, timeout]\n"
        "    reason: not run in this selection\n")
    code, _, _ = run(capsys, "--engine", "mutant:summoning-sickness-ignored", "--write-baseline", str(baseline))
    assert code == 1
    cases = yaml.safe_load(baseline.read_text())["cases"]
    assert cases["general/tap-ability-summoning-sick"] == {
        "status": "fail", "reason": "we check summoning sickness only for attacks",
        "issue": "https://example.org/engine/issues/7"}
    assert cases["nightpack-ambusher/no-spell-makes-wolf"]["status"] == ["fail", "timeout"]
    assert "general/untap-ability-summoning-sick" in cases


def test_a_list_of_statuses_accepts_any_of_them(capsys, tmp_path) -> None:
    baseline = tmp_path / "baseline.yaml"
    baseline.write_text("cases:\n  general/tap-ability-summoning-sick: {status: [fail, timeout], reason: flaky}\n"
                        "  general/untap-ability-summoning-sick: {status: fail, reason: known}\n"
                        "  general/tap-ability-controlled-since-turn-began: {status: [fail], reason: known}\n")
    code, _, _ = run(capsys, "--engine", "mutant:summoning-sickness-ignored", "--baseline", str(baseline))
    assert code == 0


def test_bad_baseline_is_reported_with_file_and_line(capsys, tmp_path) -> None:
    baseline = tmp_path / "baseline.yaml"
    baseline.write_text("cases:\n  general/tap-ability-summoning-sick:\n    status: failed\n    reason: x\n")
    code, _, err = run(capsys, "--baseline", str(baseline))
    assert code == 2
    assert f"{baseline}:3: $.cases.general/tap-ability-summoning-sick.status" in err
    assert "did you mean 'fail'?" in err
    code, _, err = run(capsys, "--baseline", str(tmp_path / "missing.yaml"))
    assert code == 2 and "no such file" in err


def test_entries_naming_no_case_are_noted(capsys, tmp_path) -> None:
    baseline = tmp_path / "baseline.yaml"
    baseline.write_text("cases:\n  general/renamed-long-ago: {status: fail, reason: old}\n")
    code, out, _ = run(capsys, "--baseline", str(baseline))
    assert code == 0
    assert "no case 'general/renamed-long-ago' in the corpus (renamed or removed?)" in out


def test_json_and_junit_reports_carry_the_verdict(capsys, tmp_path) -> None:
    baseline = tmp_path / "baseline.yaml"
    baseline.write_text("cases:\n  general/tap-ability-summoning-sick: {status: fail, reason: known gap}\n")
    report, junit = tmp_path / "report.json", tmp_path / "junit.xml"
    code, _, _ = run(capsys, "--engine", "mutant:summoning-sickness-ignored", "--baseline", str(baseline),
                     "--output", str(report), "--output", str(junit))
    assert code == 1
    verdict = json.loads(report.read_text())["baseline"]
    assert verdict["ok"] is False and verdict["as_expected"] == 5
    assert verdict["unexpected"] == [
        {"id": "general/tap-ability-controlled-since-turn-began", "status": "fail", "expected": ["pass"]},
        {"id": "general/untap-ability-summoning-sick", "status": "fail", "expected": ["pass"]}]
    cases = {case.get("name"): case for case in ET.parse(junit).getroot().iter("testcase")}
    known = cases["general/tap-ability-summoning-sick"].find("skipped")
    assert known is not None and known.get("message") == "known fail (baseline): known gap"
    assert cases["general/untap-ability-summoning-sick"].find("failure") is not None

    code, _, _ = run(capsys, "--baseline", str(baseline), "--output", str(junit))
    stale = {c.get("name"): c for c in ET.parse(junit).getroot().iter("testcase")}["general/tap-ability-summoning-sick"]
    assert code == 1
    assert stale.find("failure").get("type") == "unexpected-pass"
