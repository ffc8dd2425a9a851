"""`mtg-conformance table`: several engines' conformance tables as Markdown, and docs/engines.md kept current."""

from __future__ import annotations

from harness.cli import main
from tests.conftest import REPO, TAP_CASES, engine_module, select

MUTANT = "mutant:summoning-sickness-ignored"


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_table_shows_each_engine_its_failures_with_the_ruling_and_what_it_did(capsys) -> None:
    code, out, _ = run_cli(capsys, "table", "--engine", "reference", "--engine", MUTANT, *select(TAP_CASES))
    assert code == 0
    assert out.startswith("# Conformance of other engines")
    assert f"`mtg-conformance table --engine reference --engine {MUTANT} {' '.join(select(TAP_CASES))}`" in out
    assert "| [reference 0.1.0](#reference-010) | 7 | 0 | 0 | 0 | 0 | 0 |" in out
    assert "| [reference~summoning-sickness-ignored 0.1.0](#referencesummoning-sickness-ignored-010) | 4 | 3 |" in out
    assert "### reference~summoning-sickness-ignored 0.1.0: failures" in out
    assert "#### `general/tap-ability-summoning-sick`" in out
    assert "> **general-07**: The tap symbol is {T}." in out
    assert ("after action 0 (activate: {object: elves, ability: 0}): `$.actions[0].expect.rejected` expected "
            "`rejected`, observed `accepted`") in out


def test_check_compares_a_file_with_a_fresh_run(capsys, tmp_path) -> None:
    target = tmp_path / "engines.md"
    args = ["table", "--engine", "reference", "-k", "untap-ability"]
    assert run_cli(capsys, *args, "--output", str(target))[0] == 0
    assert run_cli(capsys, *args, "--check", str(target))[0] == 0
    target.write_text(target.read_text() + "edited by hand\n")
    code, _, err = run_cli(capsys, *args, "--check", str(target))
    assert code == 1 and "out of date" in err


def test_an_unknown_engine_is_a_usage_error(capsys) -> None:
    code, _, err = run_cli(capsys, "table", "--engine", "no-such-engine")
    assert code == 2 and "no engine named 'no-such-engine'" in err


def test_docs_engines_md_matches_a_fresh_run(capsys, monkeypatch) -> None:
    """docs/engines.md is generated; regenerate it with the command written at its top."""
    engine_module("phase", "phase")
    engine_module("mtg.engine.env", "python-mtg")
    monkeypatch.chdir(REPO)
    code, out, err = run_cli(capsys, "table", "--engine", "phase", "--engine", "python-mtg",
                             "--check", "docs/engines.md")
    assert code == 0, err
