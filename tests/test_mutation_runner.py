"""tools/mutation_runner.py, mutmut's test command: 0 on the engine as it is, 1 once a rule is broken."""

from mutants.patching import applied
from tests.conftest import tool


def test_the_corpus_passes_on_the_engine_as_it_is() -> None:
    assert tool("mutation_runner").main() == 0


def test_a_broken_rule_stops_the_run_with_the_case_that_caught_it(capsys) -> None:
    runner = tool("mutation_runner")
    with applied("summoning-sickness-ignored"):
        assert runner.main() == 1
    assert "killed by general/" in capsys.readouterr().err
