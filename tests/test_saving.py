"""Saving and restoring a game state: a rejected move must leave the state exactly as it was (the
cases with 'rejected: true' check what an engine reports; these check the state itself)."""

from pathlib import Path

from harness.corpus import Corpus
from harness.paths import default_corpus
from harness.wire import engine_case
from reference_engine.carddefs import build_card
from reference_engine.game import Game
from reference_engine.layers import characteristics
from reference_engine.model import ContinuousEffect, Zone
from reference_engine.observe import observe
from reference_engine.setup import build
from reference_engine.state import DERIVED, FIXED

CASE = Path("general/tap-ability-summoning-sick.yaml")


def new_game() -> tuple[Game, dict[str, int]]:
    corpus = Corpus(default_corpus())
    message = engine_case(corpus.load_case(corpus.root / CASE), corpus)
    cards = {name: build_card(data) for name, data in message["cards"].items()}
    state, labels = build(message["setup"], cards)
    return Game(state), labels


def elves(game: Game):
    return next(o for o in game.state.battlefield() if o.card.name == "Llanowar Elves")


def change_everything(game: Game) -> None:
    state = game.state
    obj = elves(game)
    obj.tapped = True
    obj.counters["+1/+1"] += 2
    state.players["alice"].life = 3
    state.players["alice"].pool["G"] += 1
    state.effects.append(ContinuousEffect("2", state.new_timestamp(), "control", {}, frozenset({obj.id}), "bob"))
    state.move(obj, Zone.GRAVEYARD)
    state.turn += 1


def test_restore_brings_back_exactly_the_saved_state() -> None:
    game, labels = new_game()
    before = observe(game, labels)
    fields = {k: repr(v) for k, v in vars(game.state).items() if not k.startswith("_")}
    saved = game.state.save()
    change_everything(game)
    assert observe(game, labels) != before
    game.state.restore(saved)
    assert observe(game, labels) == before
    after = {k: repr(v) for k, v in vars(game.state).items() if not k.startswith("_")}
    kept = [k for k in fields if k != "version" and k not in DERIVED]  # derived values are recomputed
    assert {k: after[k] for k in kept} == {k: fields[k] for k in kept}


def test_a_saved_state_can_be_restored_again_and_shares_card_definitions() -> None:
    game, labels = new_game()
    card = elves(game).card
    saved = game.state.save()
    for _ in range(2):
        change_everything(game)
        game.state.restore(saved)
        assert elves(game).card is card  # definitions are shared, not copied
        assert not elves(game).tapped


def test_fields_fixed_at_setup_are_shared_by_saves_restores_and_snapshots() -> None:
    game, _ = new_game()
    state = game.state
    assert state.oracle  # the cards sent with the case: a token may be created by name (111.11)
    fixed = {k: state.__dict__[k] for k in FIXED}
    saved = state.save()
    change_everything(game)
    state.restore(saved)
    assert all(state.__dict__[k] is v for k, v in fixed.items())
    clone = state.snapshot()
    assert all(clone.__dict__[k] is v for k, v in fixed.items())
    assert set(vars(clone)) == set(vars(state))


def test_characteristics_cached_for_the_abandoned_state_are_not_used_after_restoring() -> None:
    game, _ = new_game()
    state = game.state
    assert characteristics(state, elves(game)).controller == "alice"
    saved = state.save()
    elves(game).controller = "bob"
    state.touch()  # the version the restored state will have after its own touch
    assert characteristics(state, elves(game)).controller == "bob"
    state.restore(saved)
    assert characteristics(state, elves(game)).controller == "alice"


def test_a_snapshot_is_independent_of_the_state() -> None:
    game, labels = new_game()
    before = observe(game, labels)
    copy = game.state.snapshot()
    real = game.state
    game.state = copy
    change_everything(game)
    game.state = real
    assert observe(game, labels) == before
