"""Bad input gets a file:line error, never a traceback, a hang or a wrong acceptance (issue 23):
limits on size, depth, values and integer digits, bad YAML tags, YAML errors in card files and in
rulings.yaml, strict types, .yml files, bounded messages."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from harness.cli import main
from harness.limits import MAX_DEPTH, MAX_FILE_BYTES, MAX_VALUES
from harness.validation import validate_corpus
from harness.yamlio import YamlError, load_bytes, load_text
from tests.conftest import elves_case

F = Path("f.yaml")


def error_of(text: str) -> str:
    with pytest.raises(YamlError) as info:
        load_text(text, F)
    return str(info.value)


def test_an_alias_bomb_is_read_in_linear_time_and_refused_for_its_size() -> None:
    """Nine aliases of nine aliases...: under 1 KB, 9**8 values once expanded."""
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    for level in range(1, 9):
        lines.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * 9) + "]")
    text = "\n".join(lines) + "\n"
    assert len(text) < 1024
    started = time.perf_counter()
    message = error_of(text)
    assert time.perf_counter() - started < 5  # exponential before: minutes
    assert f"more than {MAX_VALUES} values" in message and message.startswith("f.yaml:")


def test_a_small_alias_bomb_within_the_limits_keeps_its_lines() -> None:
    doc = load_text("a: &a [1, 2]\nb: &b [*a, *a]\nc: [*b, *b]\n", F)
    assert doc.data["c"] == [[[1, 2], [1, 2]], [[1, 2], [1, 2]]]
    assert doc.line_of(["c", 1, 0, 1]) == 1 and doc.line_of(["b"]) == 2


def test_a_recursive_alias_is_refused() -> None:
    assert "recursive alias" in error_of("a: &a [1, *a]\n")


@pytest.mark.parametrize("opening, closing", [("[", "]"), ("{a: ", "}")])
def test_deep_nesting_is_an_error_not_a_recursion_error(opening: str, closing: str) -> None:
    for depth in (MAX_DEPTH + 1, 990, 5000):
        message = error_of("a: " + opening * depth + closing * depth + "\n")
        assert message.startswith("f.yaml:1:") and ("deeper than" in message or "nesting depth" in message)


def test_block_nesting_too_deep_is_an_error() -> None:
    text = "".join("  " * i + f"k{i}:\n" for i in range(MAX_DEPTH + 5)) + "  " * (MAX_DEPTH + 5) + "v: 1\n"
    assert f"deeper than {MAX_DEPTH} levels" in error_of(text)


@pytest.mark.parametrize("literal", ["9" * 5000, "0x" + "f" * 5000, "-" + "1" * 16, "0" + "7" * 40,
                                     "1_000_000_000_000_000"])
def test_an_integer_of_too_many_digits_is_an_error(literal: str) -> None:
    message = error_of(f"a: 1\nb: {literal}\n")
    assert message.startswith("f.yaml:2:") and "digits" in message and len(message) < 300


def test_integers_within_the_limit_read_as_before() -> None:
    assert load_text("a: 999999999999999\nb: -12\nc: 0x1F\n", F).data == {"a": 999999999999999, "b": -12, "c": 31}


@pytest.mark.parametrize("tag, value", [("!!float", "abc"), ("!!int", "x"), ("!!bool", "maybe"),
                                        ("!!timestamp", "x")])
def test_a_tag_with_a_bad_value_is_an_error_with_its_line(tag: str, value: str) -> None:
    message = error_of(f"a: 1\nb: {tag} {value}\n")
    assert message.startswith("f.yaml:2:") and tag.lstrip("!") in message


def test_a_file_too_large_is_refused_before_it_is_parsed() -> None:
    with pytest.raises(YamlError) as info:
        load_bytes(b"a: " + b"x" * MAX_FILE_BYTES + b"\n", F)
    assert "bytes" in str(info.value) and str(info.value).startswith("f.yaml:1:")


def problems_of(builder, case_id: str, text: str) -> list[str]:
    builder.write(case_id, text)
    return [str(p) for p in validate_corpus(builder.corpus()).problems]


def test_yaml_errors_in_a_card_file_and_in_rulings_are_file_line_problems(corpus_builder, capsys) -> None:
    corpus_builder.write("demo/elves", elves_case())
    card = corpus_builder.root / "cards" / "llanowar-elves.yaml"
    card.write_text(card.read_text() + "extra: !!float abc\n")
    assert main(["validate", "--cases", str(corpus_builder.root), "--allow-uncovered"]) == 2
    err = capsys.readouterr().err
    assert "cases/cards/llanowar-elves.yaml:" in err and "Traceback" not in err
    assert main(["run", "--cases", str(corpus_builder.root)]) == 2
    rulings = corpus_builder.root / "rulings.yaml"
    rulings.write_text(rulings.read_text() + "  - {id: x-01, text: a, text: b}\n")
    assert main(["validate", "--cases", str(corpus_builder.root)]) == 2
    assert "cases/rulings.yaml:" in capsys.readouterr().err


def test_a_card_file_nested_too_deep_is_a_problem_not_a_traceback(corpus_builder, capsys) -> None:
    corpus_builder.write("demo/elves", elves_case())
    (corpus_builder.root / "cards" / "deep.yaml").write_text("name: " + "[" * 3000 + "]" * 3000 + "\n")
    assert main(["run", "--cases", str(corpus_builder.root)]) == 2
    assert "cases/cards/deep.yaml:1:" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["3.0", "1e16", "2.0e+1", "true"])
def test_integral_floats_where_integers_belong_are_validation_errors(corpus_builder, value: str) -> None:
    text = elves_case(sick=False).replace("bob: {}", f"bob: {{life: {value}}}")
    problems = problems_of(corpus_builder, "demo/elves", text)
    assert any("life" in p and "integer" in p for p in problems), problems


def test_a_yml_file_is_reported_not_ignored(corpus_builder, capsys) -> None:
    corpus_builder.write("demo/elves", elves_case())
    (corpus_builder.root / "demo" / "other.yml").write_text(elves_case().replace("demo/elves", "demo/other"))
    (corpus_builder.root / "demo" / "third.YAML").write_text("id: x\n")
    problems = [str(p) for p in validate_corpus(corpus_builder.corpus()).problems]
    assert any("demo/other.yml" in p and ".yaml" in p for p in problems), problems
    assert any("demo/third.YAML" in p for p in problems), problems


def test_a_controller_who_is_not_a_player_is_an_error(corpus_builder) -> None:
    text = elves_case(sick=False).replace("elves: {tapped: false}", "elves: {tapped: false, controller: carol}")
    problems = problems_of(corpus_builder, "demo/elves", text)
    assert any("controller" in p and "'carol' is not one of the players" in p for p in problems), problems


def test_error_messages_quote_a_bounded_excerpt_of_a_bad_value(corpus_builder) -> None:
    huge = "x" * 200_000
    text = elves_case(sick=False).replace("Llanowar Elves", huge).replace("bob: {}", f"bob: {{life: {huge}}}")
    problems = problems_of(corpus_builder, "demo/elves", text)
    assert problems and all(len(p) < 600 for p in problems), [p[:200] for p in problems]


IMPOSSIBLE_BASE = """
id: demo/impossible
description: An action the rules make impossible in every game.
rulings: [general-07]
rules: ["302.6"]
requires: [combat, stack, priority]
setup:
  players:
    alice:
      battlefield:
        - {card: Llanowar Elves, label: elves}
        - {card: Llanowar Elves, label: other-elves}
      hand:
        - {card: Llanowar Elves, label: in-hand}
    bob: {}
actions:
ACTIONS
expect:
  objects:
    elves: {tapped: false}
"""


def impossible(builder, actions: str) -> list[str]:
    return problems_of(builder, "demo/impossible", IMPOSSIBLE_BASE.replace("ACTIONS", actions))


@pytest.mark.parametrize("actions, message", [
    ("  - advance: {to: end, turn: 1}", "earlier turn"),
    ("  - cast: elves", "on the battlefield"),
    ("  - pass: alice\n    expect: {rejected: true}\n  - play: elves", "on the battlefield"),
    ("  - attack: [elves]\n  - block: {other-elves: elves}", "its own"),
    ("  - pass: alice\n    expect: {players: {bob: {lost: true}}}\n  - pass: alice", "the game is over"),
])
def test_impossible_actions_are_validation_errors(corpus_builder, actions: str, message: str) -> None:
    problems = impossible(corpus_builder, actions)
    assert any(message in p for p in problems), problems


@pytest.mark.parametrize("actions", [
    "  - cast: elves\n    expect: {rejected: true}",  # that the engine refuses it is a fine thing to test
    "  - cast: in-hand",
    "  - advance: {to: end, turn: 2}",
    "  - pass: alice\n  - cast: elves",  # something earlier may have returned it to its owner's hand
    "  - advance: declare-attackers\n  - attack: [elves]\n  - pass: alice\n  - block: {other-elves: elves}",
])
def test_what_some_game_allows_is_not_refused(corpus_builder, actions: str) -> None:
    problems = impossible(corpus_builder, actions)
    assert not any(word in p for p in problems for word in ("earlier turn", "on the battlefield", "its own",
                                                            "the game is over")), problems
