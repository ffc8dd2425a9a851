"""Answers to the reference engine's choices that can't be carried out are rejected, and the
question stays open with the state unchanged (the harness checks 'rejected: true' that way)."""

from harness.cli import main

BAD_ANSWERS = """
id: demo/bad-answers
description: Wrong answers to the buyback question and to Clockspinning's counter choice are rejected.
rulings: [transcendent-master-04]
rules: ["601.2b", "601.2h", "702.27a"]
requires: [stack, counters, level-up, choices, mana-abilities]
setup:
  players:
    alice:
      mana_pool: "{U}{C}"
      battlefield:
        - {card: Transcendent Master, label: master, counters: {level: 5, "+1/+1": 1}}
      hand:
        - {card: Clockspinning, label: clockspinning}
    bob: {}
actions:
  - cast: {card: clockspinning, targets: [master]}
  - choose: {number: 1}
    expect: {rejected: true, game: {stack: 1}}
  - choose: {yes: true}
    note: buyback {3} can't be paid with the {C} left
    expect: {rejected: true, objects: {clockspinning: {zone: stack}}, players: {alice: {mana_pool: "{C}"}}}
  - choose: {yes: false}
  - resolve: 1
  - choose: {counter: {kind: loyalty, action: add}}
    note: there is no loyalty counter on it
    expect: {rejected: true}
  - choose: {counter: {kind: "+1/+1", action: remove}}
expect:
  objects:
    master: {counters: {level: 5}, power: 3, toughness: 3}
    clockspinning: {zone: graveyard}
"""


def test_unpayable_or_impossible_answers_are_rejected(capsys, corpus_builder) -> None:
    corpus_builder.write("demo/bad-answers", BAD_ANSWERS)
    code = main(["run", "--cases", str(corpus_builder.root)])
    out = capsys.readouterr().out
    assert code == 0, out
