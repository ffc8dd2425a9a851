"""`prove --all --format json`: the whole kill matrix, in the shape CI tools read."""

from __future__ import annotations

import json

from harness.cli import main
from tests.conftest import REAL_CORPUS

CASE_ID = "general/tap-ability-already-tapped"


def test_prove_all_prints_the_kill_matrix(capsys, corpus_builder) -> None:
    corpus_builder.write(CASE_ID, (REAL_CORPUS / f"{CASE_ID}.yaml").read_text())
    code = main(["prove", "--all", "--format", "json", "--cases", str(corpus_builder.root), "-j", "1"])
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"cases", "mutants"}
    row = data["cases"][CASE_ID]
    assert set(row) == {"killed_by", "relevant"}
    assert "tapped-permanent-pays-tap" in row["relevant"]
    assert set(row["relevant"]) <= set(row["killed_by"])
    assert data["mutants"]["tapped-permanent-pays-tap"] == {"rules": ["107.5"], "kills": [CASE_ID], "faults": []}
    assert data["mutants"]["lifelink-ignored"]["kills"] == []
    assert code == 1  # one case can't give every mutant a case to kill


def test_prove_wants_a_case_or_all(capsys) -> None:
    assert main(["prove"]) == 2
    assert "--all" in capsys.readouterr().err


def test_a_mutant_that_breaks_the_engine_is_a_fault_not_a_proof() -> None:
    """A case the engine errs on under a mutant is caught, as a run counts it, but that mutant is not
    one of its relevant killers: it broke the engine, not the rule."""
    from harness.killmatrix import KillMatrix, MutantInfo

    matrix = KillMatrix(case_rules={"a/b": ["107.5"]},
                        mutants={"crashes": MutantInfo("crashes", "raises", ("107.5",)),
                                 "fails": MutantInfo("fails", "breaks 107.5", ("107.5",))},
                        kills={"crashes": ["a/b"], "fails": []}, faults={"crashes": ["a/b"], "fails": []})
    assert matrix.killed_by("a/b") == ["crashes"]
    assert matrix.relevant_killers("a/b") == []
    assert matrix.as_json()["mutants"]["crashes"]["faults"] == ["a/b"]
