"""What engines receive: never the expected outcome; defaults filled in; the cards the case uses."""

import json

from harness.engines import InProcessSession
from harness.results import Status
from harness.runner import run_case
from harness.wire import engine_case
from tests.conftest import elves_case


class RecordingAdapter:
    """A fake engine that remembers what it was sent and replies with a canned answer."""

    def __init__(self, reply: dict) -> None:
        self.reply = reply
        self.sent: list[dict] = []

    def start(self, request):
        return {"version": 1, "engine": {"name": "recorder", "version": "0", "issues": "https://example.org/issues"},
                "capabilities": ["mana-abilities"]}

    def run(self, case):
        self.sent.append(case)
        return self.reply

    def stop(self):
        pass


def test_expectations_never_reach_the_engine(corpus_builder) -> None:
    path = corpus_builder.write("demo/elves", elves_case())
    corpus = corpus_builder.corpus()
    adapter = RecordingAdapter({"skipped": {"reason": "just looking"}})
    result = run_case(corpus.load_case(path), InProcessSession("recorder", adapter), corpus)
    assert result.status is Status.SKIP and result.message == "just looking"
    (sent,) = adapter.sent
    text = json.dumps(sent)
    assert "expect" not in text and "rejected" not in text
    assert sent["checkpoints"] == [-1, 0]
    assert sent["setup"]["turn"] == 2 and sent["setup"]["active"] == "alice"
    assert sent["setup"]["players"]["bob"]["life"] == 20
    assert set(sent["cards"]) == {"Llanowar Elves"}


def test_capability_the_engine_lacks_is_a_skip_without_running(corpus_builder) -> None:
    path = corpus_builder.write("demo/elves", elves_case().replace("[mana-abilities]", "[day-night]"))
    corpus = corpus_builder.corpus()
    adapter = RecordingAdapter({})
    result = run_case(corpus.load_case(path), InProcessSession("recorder", adapter), corpus)
    assert result.status is Status.SKIP and "day-night" in result.message
    assert adapter.sent == []


def test_bad_replies_are_errors(corpus_builder) -> None:
    path = corpus_builder.write("demo/elves", elves_case())
    corpus = corpus_builder.corpus()
    case = corpus.load_case(path)
    for reply in ({}, {"result": {"actions": []}}, {"result": 3}, {"skipped": {}, "errored": {}}):
        result = run_case(case, InProcessSession("recorder", RecordingAdapter(reply)), corpus)
        assert result.status is Status.ERROR, reply


def test_adapter_exception_is_an_error_with_its_message(corpus_builder) -> None:
    class Exploding(RecordingAdapter):
        def run(self, case):
            raise RuntimeError("boom")

    path = corpus_builder.write("demo/elves", elves_case())
    corpus = corpus_builder.corpus()
    result = run_case(corpus.load_case(path), InProcessSession("x", Exploding({})), corpus)
    assert result.status is Status.ERROR and "RuntimeError: boom" in result.message


def test_engine_case_normalizes_card_names(real_corpus) -> None:
    case = real_corpus.load_case(real_corpus.root / "nightpack-ambusher" / "no-spell-makes-wolf.yaml")
    sent = engine_case(case, real_corpus)
    assert sent["setup"]["players"]["alice"]["battlefield"][0]["card"] == "Nightpack Ambusher"
