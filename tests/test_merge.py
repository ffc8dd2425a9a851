"""Scale-out: --shard by a stable hash of the case id, and `merge` of the shards' reports (JSON and
JUnit) into what one unsharded run reports; reports that can't be one run are refused (exit 2)."""

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from harness.cli import main
from harness.scheduling import shard_of
from tests.conftest import comparable, elves_case
from tests.site_support import MUTANT


def run(tmp_path: Path, name: str, *args: str) -> dict[str, Path]:
    out = {ext: tmp_path / f"{name}.{ext}" for ext in ("json", "xml", "jsonl")}
    code = main(["run", "-q", *args, *(arg for path in out.values() for arg in ("--output", str(path)))])
    assert code in (0, 1)
    return out


@pytest.fixture(scope="module")
def shards(tmp_path_factory) -> dict[str, dict[str, Path]]:
    """A mutant's whole run, and its two shards (a mutant, so that failures are merged too)."""
    folder = tmp_path_factory.mktemp("shards")
    return {name: run(folder, name, "--engine", MUTANT, *extra)
            for name, extra in [("whole", []), ("one", ["--shard", "1/2"]), ("two", ["--shard", "2/2"])]}


def merge(*args) -> int:
    return main(["merge", *map(str, args)])


def test_merged_json_shards_give_the_unsharded_report(shards, tmp_path, capsys) -> None:
    merged = tmp_path / "merged.json"
    assert merge(shards["two"]["json"], shards["one"]["json"], "--output", merged) == 0
    assert "merged 2 report(s)" in capsys.readouterr().err
    whole, result = json.loads(shards["whole"]["json"].read_text()), json.loads(merged.read_text())
    one, two = (json.loads(shards[n]["json"].read_text()) for n in ("one", "two"))
    assert one["cases"] and two["cases"] and whole["summary"]["fail"] > 0
    assert comparable(result)["cases"] == comparable(whole)["cases"]  # the same results, in the corpus order
    assert result["summary"] == whole["summary"] and result["engine"] == whole["engine"]
    assert result["corpus"] == whole["corpus"] and result["harness"] == whole["harness"]
    assert result["run"]["merged"] == ["1/2", "2/2"] and result["run"]["selected"] == len(whole["cases"])


def test_merged_json_lines_shards_give_the_unsharded_report(shards, tmp_path) -> None:
    merged = tmp_path / "merged.json"
    assert merge(shards["one"]["jsonl"], shards["two"]["jsonl"], "--output", merged) == 0
    whole = json.loads(shards["whole"]["json"].read_text())
    assert comparable(json.loads(merged.read_text()))["cases"] == comparable(whole)["cases"]


def test_merged_junit_shards_give_the_unsharded_report(shards, tmp_path) -> None:
    merged = tmp_path / "merged.xml"
    assert merge(shards["one"]["xml"], shards["two"]["xml"], "--output", merged) == 0
    mine, whole = ET.parse(merged).getroot(), ET.parse(shards["whole"]["xml"]).getroot()
    for key in ("tests", "failures", "errors", "skipped"):
        assert mine.get(key) == whole.get(key)
    assert _cases(mine) == _cases(whole)
    properties = {p.get("name"): p.get("value") for p in mine.find("testsuite").iter("property")}
    assert properties["engine.name"] == "reference~lethal-damage-ignored" and "run.shard" not in properties
    assert properties["corpus.version"] == json.loads(shards["whole"]["json"].read_text())["corpus"]["version"]


def _cases(root: ET.Element) -> list:
    """Each suite's name and counts, each case's name and outcome, in order (times left out)."""
    out = []
    for suite in root.iter("testsuite"):
        out.append((suite.get("name"), suite.get("tests"), suite.get("failures"), suite.get("skipped")))
        for case in suite.iter("testcase"):
            out.append((case.get("name"), case.get("file"),
                        [(child.tag, child.get("message"), child.text) for child in case if child.tag != "system-err"]))
    return out


# --- what can't be one run --------------------------------------------------------------------------
def test_reports_of_different_engines_are_refused(shards, tmp_path, capsys) -> None:
    other = run(tmp_path, "reference-two", "--shard", "2/2")
    assert merge(shards["one"]["json"], other["json"], "--output", tmp_path / "m.json") == 2
    assert "different engines" in capsys.readouterr().err
    assert merge(shards["one"]["xml"], other["xml"], "--output", tmp_path / "m.xml") == 2
    assert "different engines" in capsys.readouterr().err
    assert not (tmp_path / "m.json").exists() and not (tmp_path / "m.xml").exists()


def test_reports_of_different_corpus_versions_are_refused(shards, tmp_path, capsys) -> None:
    report = json.loads(shards["two"]["json"].read_text())
    version = report["corpus"]["version"]
    report["corpus"]["version"] = "0123456789abcdef"
    changed = tmp_path / "two.json"
    changed.write_text(json.dumps(report))
    assert merge(shards["one"]["json"], changed, "--output", tmp_path / "m.json") == 2
    assert "different corpus versions" in capsys.readouterr().err
    (tmp_path / "two.xml").write_text(shards["two"]["xml"].read_text().replace(version, "0123456789abcdef"))
    assert merge(shards["one"]["xml"], tmp_path / "two.xml", "--output", tmp_path / "m.xml") == 2
    assert "different corpus versions" in capsys.readouterr().err


def test_a_corpus_change_changes_the_corpus_version(corpus_builder, tmp_path) -> None:
    corpus_builder.write("demo/elves", elves_case())
    first = run(tmp_path, "a", "--cases", str(corpus_builder.root))
    corpus_builder.write("demo/elves", elves_case() + "# a comment\n")
    second = run(tmp_path, "b", "--cases", str(corpus_builder.root))
    versions = [json.loads(r["json"].read_text())["corpus"]["version"] for r in (first, second)]
    assert versions[0] != versions[1] and all(len(v) == 16 for v in versions)


@pytest.mark.parametrize("which, message", [
    (["one"], "shard(s) 2/2 missing"),
    (["one", "one"], "given more than once"),
    (["one", "whole"], "not a shard"),
])
def test_missing_repeated_or_mixed_shards_are_refused(shards, tmp_path, capsys, which, message) -> None:
    assert merge(*(shards[name]["json"] for name in which), "--output", tmp_path / "m.json") == 2
    assert message in capsys.readouterr().err


def test_a_partial_merge_is_allowed_when_asked_for(shards, tmp_path) -> None:
    assert merge(shards["one"]["json"], "--partial", "--output", tmp_path / "m.json") == 0
    assert json.loads((tmp_path / "m.json").read_text())["cases"] == json.loads(shards["one"]["json"].read_text())["cases"]


def test_shards_of_different_selections_are_refused(tmp_path, capsys) -> None:
    a = run(tmp_path, "a", "-k", "general", "--shard", "1/2")
    b = run(tmp_path, "b", "-k", "grub", "--shard", "2/2")
    assert merge(a["json"], b["json"], "--output", tmp_path / "m.json") == 2
    assert "different selections" in capsys.readouterr().err


def test_bad_input_exits_2_and_overwrites_nothing(shards, tmp_path, capsys) -> None:
    junk = tmp_path / "junk.json"
    junk.write_text('{"not": "a report"}')
    assert merge(junk, shards["one"]["json"], "--output", tmp_path / "m.json") == 2
    assert "not a report of mtg-conformance run" in capsys.readouterr().err
    notes = tmp_path / "notes.json"
    notes.write_text("my notes")
    assert merge(shards["one"]["json"], shards["two"]["json"], "--output", notes) == 2
    assert "exists and is not a report: not overwriting it" in capsys.readouterr().err
    assert notes.read_text() == "my notes"
    assert merge(shards["one"]["json"], shards["two"]["xml"], "--output", tmp_path / "m.json") == 2
    assert "can't merge JUnit XML with JSON" in capsys.readouterr().err
    assert merge(shards["one"]["json"], shards["two"]["json"], "--output", shards["one"]["json"]) == 2
    assert "is one of the reports to merge" in capsys.readouterr().err
    assert merge(shards["one"]["json"], shards["two"]["json"], "--output", tmp_path / "m.xml") == 2
    assert "so the merged report is a .json file" in capsys.readouterr().err


def test_an_existing_report_is_replaced(shards, tmp_path) -> None:
    target = tmp_path / "m.json"
    target.write_text(shards["one"]["json"].read_text())
    assert merge(shards["one"]["json"], shards["two"]["json"], "--output", target) == 0
    assert len(json.loads(target.read_text())["cases"]) == len(json.loads(shards["whole"]["json"].read_text())["cases"])


# --- stable shards ---------------------------------------------------------------------------------
def test_adding_a_case_leaves_every_other_case_in_its_shard(full_corpus_builder, tmp_path) -> None:
    def assignment(name: str) -> dict[str, int]:
        out = {}
        for index in (1, 2, 3):
            report = run(tmp_path, f"{name}-{index}", "--cases", str(full_corpus_builder.root), "--shard", f"{index}/3")
            out.update({case["id"]: index for case in json.loads(report["json"].read_text())["cases"]})
        return out

    before = assignment("before")
    full_corpus_builder.write("general/aaa-a-new-case", elves_case().replace("demo/elves", "general/aaa-a-new-case"))
    after = assignment("after")
    assert set(after) == set(before) | {"general/aaa-a-new-case"}
    assert {case_id: after[case_id] for case_id in before} == before
    assert after["general/aaa-a-new-case"] == shard_of("general/aaa-a-new-case", 3)


def test_a_shard_may_be_empty_and_still_merges(tmp_path) -> None:
    case_id = "general/tap-ability-summoning-sick"
    mine = shard_of(case_id, 4)
    other = 1 + mine % 4
    empty = run(tmp_path, "empty", "-k", case_id, "--shard", f"{other}/4")
    assert json.loads(empty["json"].read_text())["cases"] == []
    parts = [run(tmp_path, f"p{i}", "-k", case_id, "--shard", f"{i}/4") for i in range(1, 5)]
    assert merge(*(p["json"] for p in parts), "--output", tmp_path / "m.json") == 0
    assert [c["id"] for c in json.loads((tmp_path / "m.json").read_text())["cases"]] == [case_id]
    assert merge(*(p["xml"] for p in parts), "--output", tmp_path / "m.xml") == 0
    merged = ET.parse(tmp_path / "m.xml").getroot()
    assert [c.get("name") for c in merged.iter("testcase")] == [case_id] and merged.get("tests") == "1"
    assert [s.get("name") for s in merged.iter("testsuite")] == ["general"]


def test_the_github_workflow_in_docs_runs_shards_merges_them_and_publishes_the_site() -> None:
    import re
    import shlex

    import yaml

    from harness.cli import build_parser
    from tests.conftest import REPO

    text = (REPO / "docs" / "ci.md").read_text()
    block = re.search(r"## GitHub Actions\n.*?```yaml\n(.*?)```", text, re.S).group(1)
    workflow = yaml.safe_load(block)
    jobs = workflow["jobs"]
    assert jobs["conformance"]["strategy"]["matrix"]["shard"] and jobs["report"]["needs"] == "conformance"
    commands = [line.strip() for job in jobs.values() for step in job["steps"] if "run" in step
                for line in step["run"].splitlines() if line.strip().startswith("mtg-conformance")]
    verbs = [shlex.split(c)[1] for c in commands]
    assert {"run", "merge", "site"} <= set(verbs)
    for command in commands:
        argv = shlex.split(command.replace("${{ matrix.shard }}", "1"))[1:]
        build_parser().parse_args(argv)  # exits 2 on an option that doesn't exist
    uploads = [step for step in jobs["report"]["steps"] if step.get("uses", "").startswith("actions/upload-artifact")]
    assert uploads and "site/" in uploads[0]["with"]["path"]
