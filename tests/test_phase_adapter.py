"""The phase.rs adapter: cards from Oracle data, state set-up, action translation, observation mapping.

Runs with the `phase` extra installed; skips without it, unless MTG_REQUIRE_ENGINES is set (CI).
"""

from __future__ import annotations

import pytest

from tests.conftest import corpus_card, engine_module, play, started

engine_module("phase", "phase")

from engine_adapters.phase_rs import PhaseEngine  # noqa: E402
from engine_adapters.phase_rs.cards import build_database, mana_value, mtgjson_faces, unparsed  # noqa: E402
from engine_adapters.phase_rs.observe import keyword_name  # noqa: E402


@pytest.fixture(scope="module")
def adapter() -> PhaseEngine:
    return started(PhaseEngine())


# --- cards -----------------------------------------------------------------------------------------
def test_double_faced_card_records_share_the_oracle_id_so_the_back_face_is_linked() -> None:
    front, back = mtgjson_faces(corpus_card("Tovolar, Dire Overlord // Tovolar, the Midnight Scourge"))
    assert front["identifiers"] == back["identifiers"]
    assert (front["side"], back["side"]) == ("a", "b")
    assert back["faceName"] == "Tovolar, the Midnight Scourge" and back["colorIndicator"] == ["R", "G"]
    assert front["manaValue"] == back["manaValue"] == 3 and back["faceManaValue"] == 0


def test_mana_value_of_a_printed_cost() -> None:
    assert (mana_value("{2}{G}{G}"), mana_value("{X}"), mana_value(None), mana_value("{G/W}")) == (4, 0, 0, 1)


def test_the_engine_builds_abilities_from_our_oracle_text() -> None:
    database = build_database({"Kher Keep": corpus_card("Kher Keep"), "Llanowar Elves": corpus_card("Llanowar Elves")})
    assert not database.unsupported
    keep = database.faces["kher keep"]
    assert [a["kind"] for a in keep["abilities"]] == ["Activated", "Activated"]
    assert keep["abilities"][1]["effect"]["name"] == "Kobolds of Kher Keep"


def test_text_the_parser_cannot_handle_makes_the_card_unsupported(adapter, adapter_corpus) -> None:
    nonsense = dict(corpus_card("Grizzly Bears"), name="Grizzly Bears")
    nonsense["faces"] = [dict(nonsense["faces"][0], oracle_text="Whenever the moon sings, frobnicate twice.")]
    database = build_database({"Grizzly Bears": nonsense})
    assert "Grizzly Bears" in database.unsupported
    assert unparsed({"effect": {"type": "Unimplemented", "description": "frobnicate"}}) == ["frobnicate"]
    reply = adapter.run({"id": "t/x", "setup": {}, "actions": [], "checkpoints": [-1], "cards": {"Grizzly Bears": nonsense}})
    assert "could not turn the Oracle text of Grizzly Bears into abilities" in reply["skipped"]["reason"]


# --- set-up and observation --------------------------------------------------------------------------
SETUP_CASE = """
id: t/setup
setup:
  turn: 5
  active: bob
  step: beginning-of-combat
  day_night: night
  players:
    alice:
      life: 17
      mana_pool: "{G}{C}"
      battlefield:
        - {card: Grizzly Bears, label: bears, tapped: true, damage: 1, counters: {"+1/+1": 2}}
        - {card: "Tovolar, Dire Overlord", label: tovolar, face: back}
        - {card: Transcendent Master, label: master, counters: {level: 6}, summoning_sick: true}
        - {token: {name: Wolf, colors: [G], types: [Creature], subtypes: [Wolf], power: 2, toughness: 2}, label: wolf}
        - {card: Arlinn Kord, label: arlinn, counters: {loyalty: 5}}
      hand: [{card: Lightning Bolt, label: bolt}]
      library: [{card: Forest, label: top}, Island]
      graveyard: [{card: Shock, label: shock}]
      exile: [{card: Murder, label: murder}]
    bob:
      battlefield:
        - {card: Watchwolf, label: bobs-wolf, owner: alice}
actions: []
"""


def test_setup_puts_every_object_where_the_case_says(adapter, adapter_corpus) -> None:
    played = play(adapter, adapter_corpus, SETUP_CASE)
    state = played.state(-1)
    assert state["game"] == {"turn": 5, "active": "bob", "step": "beginning-of-combat", "day_night": "night",
                             "priority": "bob", "stack": []}
    assert state["players"]["alice"] == {"life": 17, "lost": False, "mana_pool": {"G": 1, "C": 1}, "emblems": 0}
    zones = {o["label"]: o["zone"] for o in state["objects"] if o["label"]}
    assert zones == {"bears": "battlefield", "tovolar": "battlefield", "master": "battlefield", "wolf": "battlefield",
                     "arlinn": "battlefield", "bolt": "hand", "top": "library", "shock": "graveyard",
                     "murder": "exile", "bobs-wolf": "battlefield"}
    library = [o["name"] for o in state["objects"] if o["zone"] == "library"]
    assert library == ["Forest", "Island"]


def test_permanents_are_observed_with_the_engines_characteristics(adapter, adapter_corpus) -> None:
    played = play(adapter, adapter_corpus, SETUP_CASE)
    bears = played.obj("bears")
    assert (bears["power"], bears["toughness"], bears["tapped"], bears["damage"]) == (4, 4, True, 1)
    assert bears["counters"] == {"+1/+1": 2} and bears["mana_value"] == 2 and bears["colors"] == ["G"]
    tovolar = played.obj("tovolar")
    assert (tovolar["face"], tovolar["name"], tovolar["power"]) == ("back", "Tovolar, the Midnight Scourge", 4)
    assert tovolar["supertypes"] == ["Legendary"] and "Nightbound" in tovolar["keywords"]
    master = played.obj("master")
    assert (master["power"], master["summoning_sick"], master["counters"]) == (6, True, {"level": 6})
    assert "Lifelink" in master["keywords"]
    wolf = played.obj("wolf")
    assert (wolf["token"], wolf["name"], wolf["power"], wolf["subtypes"]) == (True, "Wolf", 2, ["Wolf"])
    assert played.obj("arlinn")["counters"] == {"loyalty": 5}
    stolen = played.obj("bobs-wolf")
    assert (stolen["owner"], stolen["controller"]) == ("alice", "bob")
    assert played.obj("bolt")["controller"] == "alice" and "tapped" not in played.obj("bolt")


def test_keyword_names_read_as_printed() -> None:
    assert keyword_name("FirstStrike") == "First strike"
    assert keyword_name({"LevelUp": {"generic": 1}}) == "Level up"


# --- actions ---------------------------------------------------------------------------------------
def test_a_spell_with_a_target_goes_on_the_stack_and_resolves(adapter, adapter_corpus) -> None:
    played = play(adapter, adapter_corpus, """
        id: t/bolt
        setup:
          players:
            alice:
              mana_pool: "{R}"
              hand: [{card: Lightning Bolt, label: bolt}]
            bob:
              battlefield: [{card: Grizzly Bears, label: bears}, {card: Serra Angel, label: wolf}]
        actions:
          - cast: {card: bolt, targets: [wolf]}
            expect: {game: {stack: 1}}
          - resolve: 1
        """)
    assert played.statuses == ["ok", "ok"]
    assert played.state(0)["game"]["stack"] == [{"kind": "spell", "name": "Lightning Bolt", "source": "bolt",
                                                 "controller": "alice"}]
    assert played.obj("wolf")["damage"] == 3 and played.obj("bears")["damage"] == 0
    assert played.obj("bolt")["zone"] == "graveyard"


def test_a_target_the_engine_does_not_allow_is_rejected_and_nothing_changes(adapter, adapter_corpus) -> None:
    played = play(adapter, adapter_corpus, """
        id: t/growth-on-a-land
        setup:
          players:
            alice:
              mana_pool: "{G}"
              battlefield: [{card: Forest, label: forest}, {card: Grizzly Bears, label: bears}]
              hand: [{card: Giant Growth, label: growth}]
            bob: {}
        actions:
          - cast: {card: growth, targets: [forest]}
            expect: {rejected: true}
        """)
    assert played.statuses == ["rejected"]
    assert "not the case's" in played.reason(0)
    assert played.state(-1) == played.state(0)


def test_a_cost_is_paid_from_the_pool_and_the_listed_mana_abilities_only(adapter, adapter_corpus) -> None:
    played = play(adapter, adapter_corpus, """
        id: t/pay
        setup:
          players:
            alice:
              battlefield: [{card: Forest, label: forest}, {card: Forest, label: other}]
              hand: [{card: Giant Growth, label: growth}, {card: Grizzly Bears, label: bears}]
            bob: {}
        actions:
          - cast: bears
            expect: {rejected: true}
          - cast: {card: bears, pay: [forest, other]}
            expect: {game: {stack: 1}}
        """)
    assert played.statuses == ["rejected", "ok"]
    assert "can't be paid from the mana pool" in played.reason(0)
    assert played.obj("forest", after=0)["tapped"] is False
    assert played.obj("forest")["tapped"] and played.obj("bears")["zone"] == "stack"


def test_an_activation_cost_is_paid_from_the_pool_too(adapter, adapter_corpus) -> None:
    played = play(adapter, adapter_corpus, """
        id: t/keep
        setup:
          players:
            alice:
              battlefield: [{card: Kher Keep, label: keep}, {card: Mountain, label: mountain}, {card: Forest, label: forest}]
            bob: {}
        actions:
          - activate: {object: keep, ability: 1}
            expect: {rejected: true}
          - activate: {object: keep, ability: 1, pay: [mountain, forest]}
          - resolve: 1
        """)
    assert played.statuses == ["rejected", "ok", "ok"]
    assert "would activate the mana abilities of Mountain, Forest" in played.reason(0)
    assert played.state(-1) == played.state(0)
    kobolds = [o for o in played.state(2)["objects"] if o["name"] == "Kobolds of Kher Keep"]
    assert len(kobolds) == 1 and kobolds[0]["token"] and (kobolds[0]["power"], kobolds[0]["toughness"]) == (0, 1)


def test_mana_abilities_with_a_choice_of_color(adapter, adapter_corpus) -> None:
    played = play(adapter, adapter_corpus, """
        id: t/fellwar
        setup:
          players:
            alice:
              battlefield: [{card: Fellwar Stone, label: stone}, {card: Fellwar Stone, label: stone2}]
            bob:
              battlefield: [{card: Forest}, {card: Mountain}]
        actions:
          - activate: {object: stone, mana: U}
            expect: {rejected: true}
          - activate: {object: stone, mana: R}
          - activate: {object: stone2, ability: 0, mana: G}
        """)
    assert played.statuses == ["rejected", "ok", "ok"]
    assert played.state(2)["players"]["alice"]["mana_pool"] == {"R": 1, "G": 1}


def test_x_is_announced_and_counts_on_the_stack_only(adapter, adapter_corpus) -> None:
    played = play(adapter, adapter_corpus, """
        id: t/endless
        setup:
          players:
            alice:
              mana_pool: "{C}{C}"
              hand: [{card: Endless One, label: endless}]
            bob: {}
        actions:
          - cast: {card: endless, x: 2}
            expect: {game: {stack: 1}}
          - resolve: 1
        """)
    assert played.obj("endless", after=0)["mana_value"] == 2
    endless = played.obj("endless")
    assert (endless["zone"], endless["counters"], endless["power"], endless["mana_value"]) == ("battlefield", {"+1/+1": 2}, 2, 0)


def test_loyalty_abilities_are_activated_by_index(adapter, adapter_corpus) -> None:
    played = play(adapter, adapter_corpus, """
        id: t/arlinn
        setup:
          players:
            alice:
              battlefield: [{card: Arlinn Kord, label: arlinn, counters: {loyalty: 3}}, {card: Grizzly Bears, label: bears}]
            bob: {}
        actions:
          - activate: {object: arlinn, ability: 0, targets: [bears]}
            expect: {game: {stack: 1}}
          - resolve: 1
        """)
    assert played.statuses == ["ok", "ok"]
    assert played.state(0)["game"]["stack"][0]["kind"] == "ability"
    assert played.obj("arlinn")["counters"] == {"loyalty": 4}
    assert played.obj("bears")["power"] == 4 and "Haste" in played.obj("bears")["keywords"]


def test_combat_attack_block_and_damage(adapter, adapter_corpus) -> None:
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
          - pass: bob
          - attack: [angel, bears]
            expect: {game: {step: declare-attackers}}
          - pass: alice
          - pass: bob
          - block: {wolf: bears}
            by: bob
          - advance: end
        """)
    assert played.statuses == ["ok"] * 7
    angel = played.obj("angel", after=2)
    assert (angel["attacking"], angel["tapped"]) == (True, False)  # vigilance
    assert played.obj("bears")["zone"] == "graveyard"
    assert played.obj("wolf")["damage"] == 2
    assert played.state(6)["players"]["bob"]["life"] == 16


def test_an_optional_copy_is_answered_with_the_object_to_copy(adapter, adapter_corpus) -> None:
    played = play(adapter, adapter_corpus, """
        id: t/clone
        setup:
          players:
            alice:
              mana_pool: "{U}{U}{U}{U}"
              hand: [{card: Clone, label: clone}]
            bob:
              battlefield: [{card: Watchwolf, label: wolf}]
        actions:
          - cast: clone
          - resolve: 1
          - choose: {objects: [wolf]}
        """)
    assert played.statuses == ["ok", "ok", "ok"]
    clone = played.obj("clone")
    assert (clone["name"], clone["power"], clone["controller"]) == ("Watchwolf", 3, "alice")


def test_simultaneous_triggers_are_ordered_first_to_resolve_first(adapter, adapter_corpus) -> None:
    played = play(adapter, adapter_corpus, """
        id: t/order
        setup:
          active: bob
          step: end
          players:
            alice:
              battlefield:
                - {card: "Tovolar, Dire Overlord", label: tovolar}
                - {card: Watchwolf}
                - {card: Watchwolf}
                - {card: Contamination, label: contamination}
              library: [Forest]
            bob:
              library: [Forest]
        actions:
          - advance: {to: upkeep, turn: 3}
          - choose: {order: [tovolar, contamination]}
        """)
    assert played.statuses == ["ok", "ok"]
    assert [item["source"] for item in played.state(1)["game"]["stack"]] == ["tovolar", "contamination"]


def test_the_legend_rule_keeps_the_chosen_one(adapter, adapter_corpus) -> None:
    played = play(adapter, adapter_corpus, """
        id: t/legend
        setup:
          players:
            alice:
              battlefield: [{card: Kher Keep, label: old}]
              hand: [{card: Kher Keep, label: new}]
            bob: {}
        actions:
          - play: new
          - choose: {objects: [new]}
        """)
    assert played.statuses == ["ok", "ok"]
    assert (played.obj("old")["zone"], played.obj("new")["zone"]) == ("graveyard", "battlefield")


def test_advance_crosses_turns_and_the_engine_draws(adapter, adapter_corpus) -> None:
    played = play(adapter, adapter_corpus, """
        id: t/turns
        setup:
          players:
            alice: {library: [Forest]}
            bob: {library: [{card: Island, label: island}]}
        actions:
          - advance: {to: precombat-main, turn: 3}
        """)
    state = played.state(0)
    assert (state["game"]["turn"], state["game"]["active"], state["game"]["step"]) == (3, "bob", "precombat-main")
    assert played.obj("island")["zone"] == "hand"


def test_an_engine_exception_is_the_cases_error_and_the_next_case_runs(adapter, adapter_corpus, monkeypatch) -> None:
    from engine_adapters.phase_rs.session import PhaseSession

    def crash(self, player):
        raise RuntimeError("panic in the engine")

    case = """
        id: t/crash
        setup:
          players:
            alice: {}
            bob: {}
        actions:
          - pass: alice
        """
    with monkeypatch.context() as patch:
        patch.setattr(PhaseSession, "pass_priority", crash)
        reply = play(adapter, adapter_corpus, case).reply
    assert reply["errored"]["message"] == "RuntimeError: panic in the engine"
    assert reply["errored"]["context"]["action"] == 0
    assert play(adapter, adapter_corpus, case).statuses == ["ok"]


def test_start_declares_what_phase_lacks() -> None:
    info = PhaseEngine().start({"cmd": "start", "version": 1})
    assert info["engine"]["name"] == "phase.rs" and info["engine"]["version"] == "0.103.0"
    assert "color-identity" not in info["capabilities"] and "stack" in info["capabilities"]
    assert info["engine"]["details"]["adapter_limitations"]


def test_a_permanent_set_up_phased_out_is_treated_as_though_it_does_not_exist(adapter, adapter_corpus) -> None:
    played = play(adapter, adapter_corpus, """
        id: t/phased-out
        setup:
          players:
            alice:
              mana_pool: "{R}{R}"
              hand: [{card: Lightning Bolt, label: bolt}]
            bob:
              battlefield:
                - {card: Grizzly Bears, label: bears, phased_out: true}
                - {card: Watchwolf, label: wolf}
        actions:
          - cast: {card: bolt, targets: [bears]}
          - cast: {card: bolt, targets: [wolf]}
        """)
    assert played.statuses == ["rejected", "ok"]
