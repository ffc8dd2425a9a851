"""The reference engine on copies, blight and double-faced cards: what the corpus can't say as a case."""

from harness.wire import engine_case
from reference_engine.adapter import ReferenceEngine

OKO_EMBLEM = """
id: demo/oko
description: Oko, Shadowmoor Scion's [-6] is not modelled by the reference engine.
rulings: [grub-05]
rules: ["606.3"]
requires: [loyalty]
setup:
  players:
    alice:
      battlefield:
        - {card: "Oko, Lorwyn Liege", face: back, label: oko, counters: {loyalty: 6}}
    bob: {}
actions:
  - activate: {object: oko, ability: 2}
  - resolve: 1
"""


def run_case(corpus_builder, case_id: str, text: str) -> dict:
    path = corpus_builder.write(case_id, text)
    corpus = corpus_builder.corpus()
    return ReferenceEngine().run(engine_case(corpus.load_case(path), corpus))


def test_an_unmodelled_ability_is_an_engine_error_not_an_answer(corpus_builder) -> None:
    reply = run_case(corpus_builder, "demo/oko", OKO_EMBLEM)
    assert set(reply) == {"errored"}
    message = reply["errored"]["message"]
    assert message.startswith("Oko, Shadowmoor Scion: choosing a creature type")
    assert "not modelled by the reference engine" in message
    assert "traceback" not in reply["errored"]["context"]


def test_a_rejected_blight_names_the_object_and_the_rule(corpus_builder) -> None:
    text = """
    id: demo/blight
    description: Blighting a land is rejected.
    rulings: [grub-14]
    rules: ["701.68a"]
    requires: [combat, triggers]
    setup:
      step: beginning-of-combat
      players:
        alice:
          battlefield:
            - {card: "Grub, Storied Matriarch", face: back, label: grub}
            - {card: Forest, label: forest}
        bob: {}
    actions:
      - pass: alice
      - pass: bob
      - attack: [grub]
      - resolve: 1
      - choose: {objects: [forest]}
    """
    reply = run_case(corpus_builder, "demo/blight", text)
    last = reply["result"]["actions"][-1]
    assert last == {"status": "rejected",
                    "reason": "Forest is not a creature you control: blight puts -1/-1 counters on a creature "
                              "you control (rule 701.68a)"}
