"""Leaves-the-battlefield abilities look back in time (rule 603.10a): creatures dying together see
each other die, whichever the engine happens to move first."""

from harness.cli import main

LOOKBACK_CASE = """
id: demo/lookback
description: Swarm of Bloodflies and Grizzly Bears die together in combat; the Swarm sees the Bears die.
rulings: [grub-14]
rules: ["603.10a", "704.3"]
requires: [combat, triggers, counters]
setup:
  active: bob
  step: beginning-of-combat
  players:
    alice:
      battlefield:
        - {card: Swarm of Bloodflies, label: swarm, counters: {"+1/+1": 2}}
    bob:
      battlefield:
        - {card: Grizzly Bears, label: bears}
actions:
  - pass: bob
  - pass: alice
  - attack: [bears]
  - pass: bob
  - pass: alice
  - block: {swarm: bears}
  - advance: combat-damage
expect:
  objects:
    swarm: {zone: graveyard}
    bears: {zone: graveyard}
  game:
    stack: [{kind: ability, source: swarm}]
"""


def test_creatures_dying_together_see_each_other_die(capsys, corpus_builder) -> None:
    corpus_builder.write("demo/lookback", LOOKBACK_CASE)
    code = main(["run", "--cases", str(corpus_builder.root), "-v"])
    out = capsys.readouterr().out
    assert code == 0, out
