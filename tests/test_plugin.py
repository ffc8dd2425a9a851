"""The pytest plugin: one item per case, named by the case id, with a plain failure report."""

from tests.conftest import elves_case


def test_cases_run_as_pytest_items(pytester, corpus_builder) -> None:
    corpus_builder.write("demo/elves", elves_case())
    corpus_builder.write("demo/broken", elves_case(sick=False).replace("demo/elves", "demo/broken"))
    result = pytester.runpytest("--mtg-cases", str(corpus_builder.root),
                                str(corpus_builder.root), "-v")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        "*::demo/broken FAILED*",
        "*::demo/elves PASSED*",
        "*ruling general-07: The tap symbol is {T}.*",
        "*expected: rejected*",
        "*observed: accepted*",
    ])
    assert "Traceback" not in result.stdout.str()


def test_invalid_case_fails_with_its_problem(pytester, corpus_builder) -> None:
    corpus_builder.write("demo/elves", elves_case().replace("object: elves", "object: elfs"))
    result = pytester.runpytest("--mtg-cases", str(corpus_builder.root),
                                str(corpus_builder.root))
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*undefined label 'elfs'*"])


def test_engine_option_selects_the_engine(pytester, corpus_builder) -> None:
    corpus_builder.write("demo/elves", elves_case())
    result = pytester.runpytest("--mtg-cases", str(corpus_builder.root),
                                "--mtg-engine", "mutant:summoning-sickness-ignored", str(corpus_builder.root))
    result.assert_outcomes(failed=1)


def test_plugin_is_inert_without_a_corpus(pytester) -> None:
    pytester.makefile(".yaml", thing="id: not-a-case\n")
    pytester.makepyfile("def test_ok():\n    assert True\n")
    result = pytester.runpytest()
    result.assert_outcomes(passed=1)
