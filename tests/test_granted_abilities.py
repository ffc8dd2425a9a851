"""The reference engine's answer to an ability index an object doesn't have: a rejection that says
what the object has now, printed abilities first, then granted ones (emblems, rule 114.4)."""

from harness.wire import engine_case
from reference_engine.adapter import ReferenceEngine
from tests.test_validation import arlinn_case


def reasons(corpus_builder, text: str) -> list[str | None]:
    path = corpus_builder.write("demo/arlinn", text)
    corpus = corpus_builder.corpus()
    reply = ReferenceEngine().run(engine_case(corpus.load_case(path), corpus))
    return [action.get("reason") for action in reply["result"]["actions"]]


def test_granted_ability_is_counted_after_printed_ones(corpus_builder) -> None:
    assert reasons(corpus_builder, arlinn_case()) == [None, None, None]


def test_index_beyond_granted_abilities_is_rejected_clearly(corpus_builder) -> None:
    text = arlinn_case().replace("{object: bears, ability: 0", "{object: bears, ability: 1")
    *_, reason = reasons(corpus_builder, text)
    assert reason == ("Grizzly Bears has no activated ability 1: it has 1 now, 0 printed then 1 granted, "
                      "counted from 0")


def test_no_ability_before_the_emblem_exists(corpus_builder) -> None:
    text = arlinn_case().replace("  - resolve: 1\n", "")
    *_, reason = reasons(corpus_builder, text)
    assert reason == "Grizzly Bears has no activated ability now (printed or granted by an effect), so there is no ability 0"
