"""The python-mtg adapter: unsupported cards, state set-up, action translation, observation mapping.

Runs with the `python-mtg` extra installed (a Linux x86_64 wheel); skips without it, unless
MTG_REQUIRE_ENGINES is set (CI).
"""

from __future__ import annotations

import pytest

from tests.conftest import corpus_card, engine_module, play, started

engine_module("mtg.engine.env", "python-mtg")

from engine_adapters.python_mtg import PythonMtgEngine  # noqa: E402
from engine_adapters.python_mtg.cards import records  # noqa: E402


@pytest.fixture(scope="module")
def adapter() -> PythonMtgEngine:
    return started(PythonMtgEngine())


def test_start_declares_what_python_mtg_lacks() -> None:
    info = PythonMtgEngine().start({"cmd": "start", "version": 1})
    lacks = info["engine"]["details"]["limitations"]
    assert info["engine"]["version"] == "0.1.1"
    assert {"stack", "priority", "mana-abilities", "day-night", "level-up", "legend-rule"} <= set(lacks)
    assert {"combat", "layers", "counters", "tokens", "triggers"} <= set(info["capabilities"])
    assert not set(info["capabilities"]) & set(lacks)


def test_records_in_the_engines_corpus_shape() -> None:
    front, back = records(corpus_card("Village Ironsmith")).values()
    assert (front["name"], front["back"]) == ("Village Ironsmith // Ironfang", "Ironfang")
    assert (back["face"], back["front"], back["manaCost"]) == ("back", "Village Ironsmith", None)


def test_cards_whose_text_the_engine_drops_or_lacks_are_unsupported(adapter, adapter_corpus) -> None:
    case = """
        id: t/{name}
        setup:
          players:
            alice:
              battlefield: [{card: {card}}]
            bob: {}
        actions: []
        """
    dropped = play(adapter, adapter_corpus, case.replace("{name}", "ambusher").replace("{card}", "Nightpack Ambusher"))
    assert dropped.reply["skipped"]["reason"] == ("python-mtg can't play Nightpack Ambusher as printed: it drops "
                                                 "static_scope 'other_wolves_and_werewolves_you_control'")
    missing = play(adapter, adapter_corpus, case.replace("{name}", "reflection").replace("{card}", "Mana Reflection"))
    assert "it has no rules for Mana Reflection" in missing.reply["skipped"]["reason"]


SETUP_CASE = """
id: t/setup
setup:
  turn: 4
  step: postcombat-main
  players:
    alice:
      life: 12
      mana_pool: "{W}{W}"
      spells_cast_this_turn: 1
      battlefield:
        - {card: Glorious Anthem, label: anthem}
        - {card: Grizzly Bears, label: bears, tapped: true, counters: {"+1/+1": 1}}
        - {card: Serra Angel, label: angel, summoning_sick: true}
        - {token: {name: Soldier, colors: [W], types: [Creature], subtypes: [Soldier], power: 1, toughness: 1}, label: soldier}
      hand: [{card: Lightning Bolt, label: bolt}]
      library: [{card: Forest, label: top}, Island]
      graveyard: [{card: Shock, label: shock}]
    bob:
      battlefield: [{card: Watchwolf, label: wolf}]
actions: []
"""


def test_setup_and_observation(adapter, adapter_corpus) -> None:
    played = play(adapter, adapter_corpus, SETUP_CASE)
    state = played.state(-1)
    assert state["game"] == {"turn": 4, "active": "alice", "step": "postcombat-main", "day_night": "neither",
                             "priority": "alice", "stack": []}
    assert state["players"]["alice"] == {"life": 12, "lost": False, "mana_pool": {"W": 2}, "emblems": 0}
    assert [o["name"] for o in state["objects"] if o["zone"] == "library"] == ["Forest", "Island"]
    assert (played.obj("bolt")["zone"], played.obj("shock")["zone"], played.obj("top")["zone"]) == ("hand", "graveyard", "library")
    bears = played.obj("bears")
    assert (bears["power"], bears["toughness"], bears["tapped"], bears["counters"]) == (4, 4, True, {"+1/+1": 1})
    assert (bears["types"], bears["subtypes"], bears["colors"], bears["mana_value"]) == (["Creature"], ["Bear"], ["G"], 2)
    angel = played.obj("angel")
    assert (angel["power"], angel["summoning_sick"], sorted(angel["keywords"])) == (5, True, ["Flying", "Vigilance"])
    soldier = played.obj("soldier")
    assert (soldier["name"], soldier["token"], soldier["power"], soldier["colors"]) == ("Soldier", True, 2, ["W"])
    wolf = played.obj("wolf")
    assert (wolf["controller"], wolf["owner"], wolf["power"]) == ("bob", "bob", 3)


def test_a_spell_is_paid_from_the_floating_mana_and_resolves_at_once(adapter, adapter_corpus) -> None:
    played = play(adapter, adapter_corpus, """
        id: t/cast
        setup:
          players:
            alice:
              mana_pool: "{G}{G}"
              battlefield: [{card: Forest, label: forest}]
              hand: [{card: Grizzly Bears, label: bears}, {card: Watchwolf, label: wolf}]
            bob: {}
        actions:
          - cast: bears
            expect: {objects: {bears: {zone: battlefield}}}
          - cast: wolf
            expect: {rejected: true}
        """)
    assert played.statuses == ["ok", "rejected"]
    bears = played.obj("bears", after=0)
    assert (bears["zone"], bears["summoning_sick"]) == ("battlefield", True)
    assert played.state(0)["players"]["alice"]["mana_pool"] == {}
    assert played.obj("forest", after=0)["tapped"] is False
    assert "python-mtg doesn't offer casting Watchwolf" in played.reason(1)
    assert played.state(0) == played.state(1)


def test_a_cost_the_pool_cant_pay_is_rejected_though_the_engine_would_tap_lands(adapter, adapter_corpus) -> None:
    played = play(adapter, adapter_corpus, """
        id: t/autotap
        setup:
          players:
            alice:
              battlefield: [{card: Forest, label: f1}, {card: Forest, label: f2}]
              hand: [{card: Grizzly Bears, label: bears}]
            bob: {}
        actions:
          - cast: bears
            expect: {rejected: true}
        """)
    assert played.statuses == ["rejected"]
    assert "python-mtg would tap Forest, Forest" in played.reason(0)
    assert played.state(-1) == played.state(0)


def test_lands_are_played_once_a_turn(adapter, adapter_corpus) -> None:
    played = play(adapter, adapter_corpus, """
        id: t/lands
        setup:
          players:
            alice:
              hand: [{card: Forest, label: f1}, {card: Forest, label: f2}]
            bob: {}
        actions:
          - play: f1
          - play: f2
        """)
    assert played.statuses == ["ok", "rejected"]
    assert (played.obj("f1")["zone"], played.obj("f2")["zone"]) == ("battlefield", "hand")


def test_combat_attack_and_damage(adapter, adapter_corpus) -> None:
    played = play(adapter, adapter_corpus, """
        id: t/combat
        setup:
          step: beginning-of-combat
          players:
            alice:
              battlefield: [{card: Serra Angel, label: angel}, {card: Grizzly Bears, label: bears}]
            bob:
              battlefield: [{card: Watchwolf, label: wolf}]
        actions:
          - pass: alice
          - attack: [angel, bears]
            expect: {objects: {angel: {attacking: true}}}
          - block: {wolf: bears}
            by: bob
          - advance: end
        """)
    assert played.statuses == ["ok", "ok", "ok", "ok"]
    assert played.obj("angel", after=1)["attacking"] and played.obj("bears", after=1)["attacking"]
    assert played.obj("bears")["zone"] == "graveyard"
    assert played.state(3)["players"]["bob"]["life"] == 16
    assert played.state(3)["game"]["step"] == "end"


def test_moves_python_mtg_cannot_express_skip_the_case(adapter, adapter_corpus) -> None:
    damaged = play(adapter, adapter_corpus, """
        id: t/damage
        setup:
          players:
            alice:
              battlefield: [{card: Grizzly Bears, damage: 1}]
            bob: {}
        actions: []
        """)
    assert damaged.reply["skipped"]["reason"] == "python-mtg keeps no damage marked on a permanent outside combat"
    mana = play(adapter, adapter_corpus, """
        id: t/mana
        setup:
          players:
            alice:
              battlefield: [{card: Llanowar Elves, label: elves}]
            bob: {}
        actions:
          - activate: {object: elves, ability: 0}
        """)
    assert mana.reply["skipped"]["reason"].startswith("action 0 (activate): python-mtg has no mana abilities")
    targeted = play(adapter, adapter_corpus, """
        id: t/target
        setup:
          players:
            alice:
              mana_pool: "{G}"
              battlefield: [{card: Grizzly Bears, label: bears}]
              hand: [{card: Giant Growth, label: growth}]
            bob: {}
        actions:
          - cast: {card: growth, targets: [bears]}
        """)
    assert targeted.reply["skipped"]["reason"] == "action 0 (cast): python-mtg chooses the targets of Giant Growth itself"


def test_only_the_active_player_acts(adapter, adapter_corpus) -> None:
    played = play(adapter, adapter_corpus, """
        id: t/priority
        setup:
          players:
            alice: {}
            bob:
              hand: [{card: Forest, label: forest}]
        actions:
          - play: forest
            by: bob
          - pass: bob
        """)
    assert played.statuses == ["rejected", "rejected"]
    assert played.reason(0) == "python-mtg waits for alice, not for bob"
