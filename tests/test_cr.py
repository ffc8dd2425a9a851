"""The Comprehensive Rules as data: the shipped copy, its parse, citations checked by `validate`,
exemptions, and coverage by rule."""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from pathlib import Path

import pytest

from harness import cr
from harness.cache import Cache
from harness.cli import main
from harness.validation import validate_corpus
from tests.conftest import REPO, elves_case

SHIPPED = REPO / "cr" / cr.EDITION_FILE
SHA256 = "2ed5f1bbb4f8771c84a6f2944a218428c6c5ccba21110a5d101b9a51a4c062b3"  # cr/NOTICE.md


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def edition() -> cr.Edition:
    return cr.pinned()


def cr_text() -> str:
    return SHIPPED.read_text(encoding="utf-8")


# --- the shipped text -----------------------------------------------------------------------
def test_the_shipped_text_is_wizards_file_byte_for_byte_with_its_notice() -> None:
    assert hashlib.sha256(SHIPPED.read_bytes()).hexdigest() == SHA256
    notice = (REPO / "cr" / "NOTICE.md").read_text(encoding="utf-8")
    assert SHA256 in notice and "Fan Content Policy" in notice and "not** covered by the project's MIT licence" in notice


def test_an_installed_harness_carries_the_text() -> None:
    """harness/data/cr is a symlink to cr/, and package-data takes its files."""
    link = REPO / "harness" / "data" / "cr"
    assert link.is_symlink() and link.resolve() == (REPO / "cr").resolve()
    globs = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["harness"]
    packaged = {p.relative_to(REPO / "harness") for g in globs for p in (REPO / "harness").glob(g)}
    assert Path("data/cr") / cr.EDITION_FILE in packaged and Path("data/cr/NOTICE.md") in packaged


# --- the parse ------------------------------------------------------------------------------
def test_the_pinned_edition(edition: cr.Edition) -> None:
    assert edition.effective == "2026-08-07"
    assert len(edition.sections) == 147 and len(edition.rules) == 3162
    assert list(edition.rules)[0] == "100.1" and list(edition.rules)[-1] == "905.6"
    assert edition.sections["613"].title == "Interaction of Continuous Effects"
    assert edition.sections["613"].chapter == "6. Spells, Abilities, and Effects"


def test_every_numbered_line_of_the_rules_is_a_rule_with_its_text(edition: cr.Edition) -> None:
    """The parse against the text itself: each line numbered like a rule, up to the glossary."""
    lines = cr_text().split("\n")
    body = lines[:max(i for i, line in enumerate(lines) if line == "Glossary")]
    numbered = {}
    for number, line in enumerate(body, 1):
        match = re.match(r"(\d{3}\.\d+[a-z]*)\.? (.*)", line)
        if match:
            numbered[match.group(1)] = (match.group(2), number)
    assert {n: (r.text, r.line) for n, r in edition.rules.items()} == numbered
    examples = [line[len("Example: "):] for line in body if line.startswith("Example: ")]
    assert [e for r in edition.rules.values() for e in r.examples] == examples


def test_rules_subrules_parents_and_examples(edition: cr.Edition) -> None:
    assert [r.number for r in edition.under("702.145")] == ["702.145"] + [f"702.145{c}" for c in "abcdefg"]
    assert edition.rules["601.2a"].parent == "601.2" and edition.rules["601.2"].parent == "601"
    assert edition.rules["704.5aa"].parent == "704.5"  # two letters after 704.5z
    assert edition.rules["119.1d"].text.startswith("In a two-player Brawl game")  # written "119.1d."
    assert edition.rules["606.5"].text.startswith("If the total cost")  # written without its period
    assert len(edition.under("613")) == 41
    rule = edition.rules["601.2c"]
    assert rule.text.startswith("The player announces") and rule.examples
    assert not any(e.startswith("Example") for e in rule.examples)
    assert "Example" not in edition.rules["602.5a"].text


def test_the_glossary(edition: cr.Edition) -> None:
    assert len(edition.glossary) == 739
    assert edition.glossary["Active Player"] == "The player whose turn it is. See rule 102.1."
    assert "\u2028" in edition.glossary["Ability"]  # senses separated by a line separator, kept
    assert "Credits" not in edition.glossary


def test_the_cached_parse_is_the_parse(tmp_path: Path) -> None:
    cache = Cache(tmp_path)
    fresh = cr.load(SHIPPED, cache)
    assert any(tmp_path.rglob("*"))
    assert cr.load(SHIPPED, cache) == fresh == cr.load(SHIPPED, Cache(None))


def test_close_matches(edition: cr.Edition) -> None:
    assert "702.145g" in edition.close_matches("702.145h")
    assert cr.suggestion(edition, "999.9z") == "there is no section 999: sections run from 100 to 905"


@pytest.mark.parametrize("change, line, message", [
    (lambda t: t.replace("\n601.2a ", "\n601.2a. ", 1).replace("\nExample: ", "\nExampel: ", 1), None,
     "neither a rule, an example nor a heading"),
    (lambda t: t.replace("These rules are effective", "These rules were effective", 1), 1, "effective as of"),
    (lambda t: t.replace("\n613.1a ", "\n613.1 ", 1), None, "rule 613.1 appears twice"),
    (lambda t: t.replace("\nGlossary\n", "\nGlossar\n"), None, "'Glossary'"),
    (lambda t: re.sub(r"\n700\. General\n(?=\u00a0\n700\.1\. )", "\n", t), None, "not under its section's heading"),
])
def test_a_text_that_is_not_the_rules_names_the_line(change, line, message) -> None:
    text = change(cr_text())
    with pytest.raises(cr.CRError) as raised:
        cr.parse(text, "new.txt")
    error = raised.value
    assert message in error.message and str(error).startswith(f"new.txt:{error.line}: ")
    if line is not None:
        assert error.line == line
    else:
        assert error.line > 1


def test_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "rules.txt"
    path.write_bytes(b"Magic\nfine\n\xff\xfe\n")
    with pytest.raises(cr.CRError, match=r"rules.txt:3: not UTF-8"):
        cr.load(path, Cache(None))


# --- citations ------------------------------------------------------------------------------
def problems(builder) -> list[str]:
    return [str(p) for p in validate_corpus(builder.corpus()).problems]


def test_an_unknown_rule_is_an_error_at_its_line_with_close_numbers(corpus_builder) -> None:
    corpus_builder.write("demo/elves", elves_case().replace('rules: ["302.6"]', 'rules:\n  - "302.6"\n  - "999.9z"\n  - "302.6x"'))
    assert problems(corpus_builder) == [
        "cases/demo/elves.yaml:6: $.rules[1]: no rule 999.9z in the Comprehensive Rules effective 2026-08-07 "
        "(there is no section 999: sections run from 100 to 905)",
        "cases/demo/elves.yaml:7: $.rules[2]: no rule 302.6x in the Comprehensive Rules effective 2026-08-07 "
        "(did you mean '302.6' or '302.7' or '302.5'?)"]


def test_sections_and_two_letter_subrules_are_citable(corpus_builder) -> None:
    corpus_builder.write("demo/elves", elves_case().replace('rules: ["302.6"]', 'rules: ["302", "302.6", "704.5aa"]'))
    assert problems(corpus_builder) == []


def test_a_case_may_cite_rules_only_but_not_nothing(corpus_builder) -> None:
    """A case that encodes a rule directly needs no ruling; every case cites the rules it exercises."""
    corpus_builder.write("demo/elves", elves_case().replace("rulings: [general-07]\n", ""))
    corpus_builder.write("demo/empty", elves_case().replace("demo/elves", "demo/empty")
                         .replace("rulings: [general-07]", "rulings: []"))
    corpus_builder.write("demo/none", elves_case().replace("demo/elves", "demo/none").replace('rules: ["302.6"]', "rules: []"))
    assert problems(corpus_builder) == ["cases/demo/none.yaml:4: $.rules: [] should be non-empty (expected: "
                                        "Comprehensive Rules numbers the case exercises, e.g. '302.6', '605.1a'.)"]


# --- exemptions -----------------------------------------------------------------------------
def exempt(builder, name: str, text: str) -> None:
    folder = builder.root / "rules-exempt"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")


GOOD = 'exempt:\n  - rule: "106.1"\n    reason: "a definition, exercised only through the rules that use it"\n'


def test_exemptions_count_in_coverage_and_are_not_cases(corpus_builder, capsys) -> None:
    corpus_builder.write("demo/elves", elves_case())
    exempt(corpus_builder, "definitions.yaml", GOOD)
    report = validate_corpus(corpus_builder.corpus())
    assert report.problems == [] and [c.id for c in report.valid_cases] == ["demo/elves"]
    assert report.exemptions.reason("106.1") == "a definition, exercised only through the rules that use it"
    code, out, _ = run_cli(capsys, "coverage", "--rules", "--section", "106", "--section", "302", "--format", "json",
                           "--cases", str(corpus_builder.root))
    coverage = json.loads(out)
    assert code == 0 and coverage["edition"] == "2026-08-07"
    assert [s["section"] for s in coverage["sections"]] == ["106", "302"]
    sections = {s["section"]: s for s in coverage["sections"]}
    assert sections["106"] == {"section": "106", "title": "Mana", "rules": 20, "cited": 0, "exempt": 1}
    assert sections["302"]["cited"] == 1 and sections["302"]["exempt"] == 0
    rules = {r["rule"]: r for r in coverage["rules"]}
    assert rules["106.1"] == {"rule": "106.1", "cases": [], "exempt": "a definition, exercised only through the "
                                                                      "rules that use it"}
    assert rules["302.6"] == {"rule": "302.6", "cases": ["demo/elves"], "exempt": None}
    assert rules["106.1a"]["exempt"] is None  # an exemption, like a citation, is of its number only
    assert "302" not in rules and len(coverage["rules"]) == 20 + sections["302"]["rules"]


@pytest.mark.parametrize("files, expected", [
    ({"a.yaml": 'exempt:\n  - rule: "106.1"\n    reason: "too"\n'},
     ["cases/rules-exempt/a.yaml:3: $.exempt[0].reason: 'too' is too short"]),
    ({"a.yaml": 'exempt:\n  - rule: "106.1"\n    why: "a definition, exercised elsewhere"\n'},
     ["cases/rules-exempt/a.yaml:2: $.exempt[0]: unknown key 'why'"]),
    ({"a.yaml": "exempt: [unclosed\n"}, ["cases/rules-exempt/a.yaml:2: $: invalid YAML"]),
    ({"a.yaml": 'exempt:\n  - rule: "106"\n    reason: "the whole section of mana"\n'},
     ["cases/rules-exempt/a.yaml:2: $.exempt[0].rule: '106' does not match"]),
    ({"a.yaml": GOOD + '  - rule: "106.99"\n    reason: "a rule that does not exist"\n'},
     ["cases/rules-exempt/a.yaml:4: $.exempt[1].rule: no rule 106.99 in the Comprehensive Rules effective "
      "2026-08-07 (did you mean"]),
    ({"a.yaml": GOOD, "b.yaml": "# again\n" + GOOD},
     ["cases/rules-exempt/b.yaml:3: $.exempt[0].rule: rule 106.1 is exempt twice (also at cases/rules-exempt/a.yaml:2"]),
    ({"a.yaml": 'exempt:\n  - rule: "302.6"\n    reason: "a definition, exercised elsewhere"\n'},
     ["cases/rules-exempt/a.yaml:2: $.exempt: rule 302.6 is exempt, but cases cite it: demo/elves"]),
])
def test_bad_exemptions_are_errors_at_their_line(corpus_builder, files, expected) -> None:
    corpus_builder.write("demo/elves", elves_case())
    for name, text in files.items():
        exempt(corpus_builder, name, text)
    found = problems(corpus_builder)
    assert len(found) == len(expected)
    for problem, start in zip(found, expected):
        assert problem.startswith(start), problem


def test_validate_exits_2_without_a_traceback_on_a_bad_exemption(corpus_builder, capsys) -> None:
    corpus_builder.write("demo/elves", elves_case())
    exempt(corpus_builder, "a.yaml", 'exempt:\n  - rule: "999.1"\n    reason: "a rule that does not exist"\n')
    code, out, err = run_cli(capsys, "validate", "--cases", str(corpus_builder.root), "--allow-uncovered")
    assert code == 2 and "Traceback" not in out + err
    assert "cases/rules-exempt/a.yaml:2: $.exempt[0].rule: no rule 999.1" in err


# --- coverage --rules -----------------------------------------------------------------------
def test_coverage_by_rule_of_the_real_corpus(capsys, edition: cr.Edition) -> None:
    code, out, _ = run_cli(capsys, "coverage", "--rules", "--format", "json")
    coverage = json.loads(out)
    assert code == 0 and set(coverage) == {"edition", "sections", "rules"}
    assert len(coverage["sections"]) == 147 and len(coverage["rules"]) == len(edition.rules)
    assert all(set(s) == {"section", "title", "rules", "cited", "exempt"} for s in coverage["sections"])
    assert all(set(r) == {"rule", "cases", "exempt"} for r in coverage["rules"])
    rules = {r["rule"]: r for r in coverage["rules"]}
    assert "general/tap-ability-summoning-sick" in rules["602.5a"]["cases"]
    assert sum(s["rules"] for s in coverage["sections"]) == len(coverage["rules"])


def test_coverage_table_lists_a_sections_rules(capsys) -> None:
    code, out, _ = run_cli(capsys, "coverage", "--rules", "--section", "602")
    assert code == 0 and "Activating Activated Abilities" in out
    assert re.search(r"^602\.5a +general/", out, re.M)


@pytest.mark.parametrize("section, hint", [("999", "sections run from 100 to 905"),
                                           ("702.145", "a rule, not a section")])
def test_coverage_of_an_unknown_section_exits_2(capsys, section: str, hint: str) -> None:
    code, out, err = run_cli(capsys, "coverage", "--rules", "--section", section)
    assert code == 2 and out == "" and hint in err


# --- failure reports ------------------------------------------------------------------------
RULE_602_5A = cr.pinned().rules["602.5a"].text


def flat(text: str) -> str:
    return " ".join(text.split())


def test_the_table_shows_each_cited_rules_text(capsys) -> None:
    code, out, _ = run_cli(capsys, "run", "--engine", "null", "-k", "tap-ability-summoning-sick", "-v")
    assert code == 1
    assert f"rule 602.5a: {RULE_602_5A}" in flat(out)
    assert flat(out).index("ruling general-07: ") < flat(out).index("rule 302.6: ") < flat(out).index("rule 602.5a: ")


def test_json_and_junit_reports_carry_the_rules_text(capsys, tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    report, junit = tmp_path / "report.json", tmp_path / "report.xml"
    run_cli(capsys, "run", "--engine", "null", "-k", "general/tap-ability", "--output", str(report),
            "--output", str(junit))
    cases = {c["id"]: c for c in json.loads(report.read_text())["cases"]}
    failed = cases["general/tap-ability-summoning-sick"]
    assert failed["rules"] == ["302.6", "107.5", "602.5a"]
    assert {"rule": "602.5a", "text": RULE_602_5A} in failed["cited"]["rules"]
    assert failed["cited"]["rulings"][0]["id"] == "general-07"
    assert all("cited" not in c for c in cases.values() if c["status"] in ("pass", "skip"))
    (case,) = [c for c in ET.parse(junit).iter("testcase") if c.get("name") == "general/tap-ability-summoning-sick"]
    assert f"rule 602.5a: {RULE_602_5A}" in flat(case.find("failure").text)


def test_a_cited_section_shows_its_title(corpus_builder, capsys) -> None:
    corpus_builder.write("demo/elves", elves_case().replace('rules: ["302.6"]', 'rules: ["302", "302.6"]'))
    code, out, _ = run_cli(capsys, "run", "--engine", "null", "--cases", str(corpus_builder.root))
    assert code == 1 and "section 302: Creatures" in out


def test_the_pytest_report_shows_the_rules_text(pytester, corpus_builder) -> None:
    corpus_builder.write("demo/elves", elves_case())
    result = pytester.runpytest("--mtg-cases", str(corpus_builder.root), "--mtg-engine", "null",
                                str(corpus_builder.root))
    result.assert_outcomes(failed=1)
    assert "rule 302.6: " + cr.pinned().rules["302.6"].text in flat(result.stdout.str())


# --- rules RULE... --------------------------------------------------------------------------
def test_rules_prints_a_rule_with_its_subrules_and_the_cases_citing_each(capsys) -> None:
    code, out, _ = run_cli(capsys, "rules", "702.145")
    assert code == 0
    starts = [line.split()[0] for line in out.splitlines() if line.startswith("702.145")]
    assert starts == ["702.145"] + [f"702.145{c}" for c in "abcdefg"]
    assert "702.145a Daybound and nightbound are found on opposite faces" in out
    assert "tovolar/nightbound-alone-makes-night" in out and "-> exempt: a heading" in out
    code, out, _ = run_cli(capsys, "rules", "903.9b")  # a commander changing zones: no case yet
    assert code == 0 and "-> no case cites it" in out


def test_rules_shows_examples_and_exemptions_and_json(capsys) -> None:
    code, out, _ = run_cli(capsys, "rules", "601.2c", "100.2a", "--format", "json")
    found = json.loads(out)
    assert code == 0 and found["edition"] == "2026-08-07"
    (announce,), (deck,) = [item["rules"] for item in found["results"]]
    assert announce["rule"] == "601.2c" and announce["parent"] == "601.2" and announce["examples"]
    assert found["results"][0]["section"] == {"section": "601", "title": "Casting Spells", "cases": []}
    assert deck["exempt"] and deck["cases"] == []
    code, out, _ = run_cli(capsys, "rules", "601.2c")
    assert "    Example: " in out


def test_rules_of_a_section_are_all_its_rules(capsys, edition: cr.Edition) -> None:
    code, out, _ = run_cli(capsys, "rules", "613", "--format", "json")
    (item,) = json.loads(out)["results"]
    assert [r["rule"] for r in item["rules"]] == [r.number for r in edition.under("613")]


def test_an_unknown_rule_exits_2_with_close_matches(capsys) -> None:
    code, out, err = run_cli(capsys, "rules", "702.145", "999.9z", "702.145h")
    assert code == 2 and out == ""
    assert "no rule 999.9z in the Comprehensive Rules effective 2026-08-07" in err
    assert "702.145h" in err and "'702.145g'" in err


# --- rules-diff: moving to a new edition ----------------------------------------------------
def newer_edition(tmp_path: Path) -> Path:
    """The pinned text as a later edition might change it: a date, a renumbered rule, a changed rule
    and a changed example, and an uncited rule changed too (which must not be listed)."""
    text = cr_text()
    for old, new in [("effective as of August 7, 2026", "effective as of September 25, 2026"),
                     ("\n107.5. The tap symbol", "\n107.99. The tap symbol"),  # renumbered, same text
                     ("haste (see rule 702.10).", "haste (see rule 702.11)."),  # 602.5a's text
                     ("\n100.2a In constructed play (", "\n100.2a In constructed Magic ("),  # exempt in the corpus
                     ("\n100.3. Some cards require coins", "\n100.3. Some cards need coins")]:  # cited by none
        assert old in text
        text = text.replace(old, new, 1)
    path = tmp_path / "MagicCompRules 20260925.txt"
    path.write_text(text, encoding="utf-8")
    return path


def test_rules_diff_lists_the_cited_rules_a_new_edition_renumbers_or_changes(capsys, tmp_path: Path) -> None:
    code, out, _ = run_cli(capsys, "rules-diff", str(newer_edition(tmp_path)), "--format", "json")
    diff = json.loads(out)
    assert code == 1 and (diff["from"], diff["to"]) == ("2026-08-07", "2026-09-25")
    changes = {c["rule"]: c for c in diff["changes"]}
    assert list(changes) == ["100.2a", "107.5", "602.5a"]
    assert changes["107.5"]["change"] == "vanished" and changes["107.5"]["moved_to"] == ["107.99"]
    assert "general/tap-ability-summoning-sick" in changes["107.5"]["cases"] and changes["107.5"]["new"] is None
    assert changes["602.5a"]["change"] == "text" and changes["602.5a"]["new"].endswith("(see rule 702.11).")
    assert changes["602.5a"]["cases"] == ["general/tap-ability-summoning-sick"]
    assert changes["100.2a"]["cases"] == [] and changes["100.2a"]["exempt"]
    code, out, _ = run_cli(capsys, "rules-diff", str(newer_edition(tmp_path)))
    assert "107.5: vanished (its text is now 107.99?)" in out and "case(s) to re-check" in out


def test_rules_diff_of_the_same_edition_finds_nothing(capsys) -> None:
    code, out, _ = run_cli(capsys, "rules-diff", str(SHIPPED))
    assert code == 0 and "no cited or exempt number changed" in out


def test_rules_diff_finds_a_renumbered_rule_whose_text_changed_a_little(edition: cr.Edition) -> None:
    from harness.edition_diff import changes

    text = cr_text().replace("\n731.2a If it’s day and the previous turn’s active player didn’t cast any spells",
                             "\n731.2d If it’s day and the previous turn’s active player cast no spells")
    new = cr.parse(text)
    found = changes(edition, new, {"731.2a": ["tovolar/x"], "731.2b": ["tovolar/y"]}, {})
    assert [(c.rule, c.change, c.moved_to) for c in found] == [("731.2a", "vanished", ["731.2d"])]


@pytest.mark.parametrize("content, message", [
    (b"hello\n", ":1: no line 'These rules are effective as of <date>.'"),
    (SHIPPED.read_bytes().replace(b"\n601.2a ", b"\nsix-oh-one two a "), ": neither a rule, an example nor a heading"),
    (b"Magic\n\xff\n", ":2: not UTF-8"),
])
def test_rules_diff_of_a_text_that_does_not_parse_exits_2_naming_the_line(capsys, tmp_path, content, message) -> None:
    path = tmp_path / "new.txt"
    path.write_bytes(content)
    code, out, err = run_cli(capsys, "rules-diff", str(path))
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.startswith(f"error: {path}:") and message in err


# --- a broken copy of the pinned edition ----------------------------------------------------
@pytest.fixture
def broken_pinned_edition(tmp_path: Path, monkeypatch) -> Path:
    """The harness's own copy of the rules, damaged: line 200 is no rule."""
    folder = tmp_path / "cr"
    folder.mkdir()
    lines = cr_text().split("\n")
    lines[199] = "this line is no rule"
    (folder / cr.EDITION_FILE).write_text("\n".join(lines), encoding="utf-8")
    monkeypatch.setattr("harness.paths.cr_dir", lambda: folder)
    cr.pinned.cache_clear()
    yield folder / cr.EDITION_FILE
    cr.pinned.cache_clear()


def test_a_broken_pinned_edition_is_a_clear_error(broken_pinned_edition: Path, corpus_builder, capsys) -> None:
    corpus_builder.write("demo/elves", elves_case())
    code, out, err = run_cli(capsys, "validate", "--cases", str(corpus_builder.root))
    assert code == 2 and "Traceback" not in err
    assert f"{broken_pinned_edition}:200: $: neither a rule, an example nor a heading: 'this line is no rule'" in err
    for args in (["rules", "601.2"], ["coverage", "--rules"]):
        code, out, err = run_cli(capsys, *args)
        assert code == 2 and f"error: {broken_pinned_edition}:200: neither a rule" in err


def test_every_mutants_rules_exist_in_the_pinned_edition(edition: cr.Edition) -> None:
    """A mutant names the rules it breaks (matched against the cases' citations): same edition."""
    from mutants import MUTANTS

    assert [(name, rule) for name, mutant in MUTANTS.items() for rule in mutant.rules if rule not in edition] == []


def test_list_json_gives_each_cases_rules(capsys) -> None:
    code, out, _ = run_cli(capsys, "list", "--format", "json", "-k", "general/tap-ability-summoning-sick")
    (case,) = json.loads(out)
    assert code == 0 and case["rules"] == ["302.6", "107.5", "602.5a"]
