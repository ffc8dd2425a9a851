"""A new user's first hour (issue 23): the documented commands work as written after the Quickstart,
and every usage mistake gets a plain answer with a way forward, never a traceback."""

from __future__ import annotations

import re
import shlex
import subprocess

import pytest

from harness.cli import main
from tests.conftest import REPO, elves_case

DOCS = ("README.md", "CONTRIBUTING.md")  # docs/ci.md is for an engine's CI, where pip installs on PATH


def shell_lines(name: str) -> list[str]:
    """The command lines of the ```sh blocks of a document (after its Quickstart, for the README)."""
    text = (REPO / name).read_text(encoding="utf-8")
    if name == "README.md":
        text = text[text.index("<!-- quickstart-test -->"):]
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        lines += [line.split("  #")[0].strip() for line in block.splitlines() if line.strip() and line[0] != " "]
    return lines


@pytest.mark.parametrize("name", DOCS)
def test_documented_commands_name_what_the_quickstart_installed(name: str) -> None:
    """After the Quickstart nothing is on PATH: commands are the virtual environment's own."""
    bare = [line for line in shell_lines(name) if line.split()[0] in ("mtg-conformance", "pytest", "python", "pip")]
    assert not bare, f"{name}: commands that are not on PATH after the Quickstart: {bare}"


READ_ONLY = ("validate", "list", "coverage", "engines")


def test_the_documented_read_only_commands_work_verbatim_in_a_fresh_shell(tmp_path) -> None:
    if not (REPO / ".venv" / "bin" / "mtg-conformance").exists():
        pytest.skip("no .venv in the checkout (the Quickstart was not followed here)")
    commands = {line for name in DOCS for line in shell_lines(name)
                if line.startswith(".venv/bin/mtg-conformance ") and line.split()[1] in READ_ONLY
                and not re.search(r"[<\[]|\.\.\.|[A-Z]{4}", line)}
    assert commands
    for command in sorted(commands):
        done = subprocess.run(["bash", "-c", command], cwd=REPO, capture_output=True, text=True, timeout=300,
                              env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
        assert done.returncode == 0, (command, done.stderr[-2000:])


def test_the_bundled_engine_over_stdio_works_outside_the_checkout(capsys, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    code = main(["run", "-k", "general/tap-ability-summoning-sick", "--engine", "cmd:python -m reference_engine"])
    assert code == 0, capsys.readouterr().err


def test_a_pattern_matching_nothing_suggests_cases_and_lists_tags(capsys) -> None:
    assert main(["run", "-k", "tap-abilty-summoning-sick"]) == 2
    err = capsys.readouterr().err
    assert "no case matches" in err and "did you mean" in err and "general/tap-ability-summoning-sick" in err
    assert main(["run", "--tag", "combta"]) == 2
    err = capsys.readouterr().err
    assert "did you mean 'combat'" in err and "tags:" in err and "mana-abilities" in err


def test_list_and_run_agree_on_a_selection_of_nothing(capsys) -> None:
    assert main(["list", "-k", "zzz"]) == main(["run", "-k", "zzz"]) == 2
    assert "no case matches" in capsys.readouterr().err


def test_pytest_with_an_unknown_engine_is_a_usage_error(pytester, corpus_builder) -> None:
    corpus_builder.write("demo/elves", elves_case())
    result = pytester.runpytest("--mtg-cases", str(corpus_builder.root), "--mtg-engine", "nosuch",
                                str(corpus_builder.root))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "no engine named 'nosuch'" in result.stderr.str() + result.stdout.str()


def test_smoke_of_the_null_engine_shows_no_traceback(capsys) -> None:
    assert main(["smoke", "--engine", "null"]) == 1  # it applies no rules: it fails, and says why
    out = capsys.readouterr().out
    assert "Traceback" not in out and "File \"" not in out
    assert "the adapter raised KeyError" in out


def test_engines_check_does_not_show_the_mutant_engine_as_broken(capsys) -> None:
    assert main(["engines", "--check", "--format", "json"]) == 0
    import json

    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)}
    assert not rows["mutant"]["status"].startswith("does not start"), rows["mutant"]
    assert "mutant:<name>" in rows["mutant"]["status"]


def test_prove_prints_only_the_rows_that_matter(capsys) -> None:
    assert main(["prove", "general/tap-ability-summoning-sick"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith(("null", "mutant:"))]
    assert len(rows) < 10, out
    assert not [row for row in rows if row.rstrip().endswith(" -")]
    assert "summoning-sickness-ignored" in out and "did not catch it" in out


def test_the_allowed_keys_are_listed_once_however_many_keys_are_unknown(corpus_builder) -> None:
    from harness.validation import validate_corpus

    corpus_builder.write("demo/elves", elves_case().replace("rulings:", "zzzz: 1\nqqqq: 2\nwwww: 3\nrulings:"))
    problems = [str(p) for p in validate_corpus(corpus_builder.corpus()).problems]
    assert len(problems) == 1 and problems[0].count("allowed:") == 1, problems
    assert "'zzzz', 'qqqq', 'wwww'" in problems[0]


def test_shlex_quoting_of_a_bare_python_is_kept() -> None:
    """`cmd:python ...` means the harness's interpreter; any other program is run as written."""
    from harness.protocol_client import engine_argv

    assert engine_argv(shlex.split("python -m x"))[1:] == ["-m", "x"]
    assert engine_argv(["java", "-jar", "a.jar"]) == ["java", "-jar", "a.jar"]
