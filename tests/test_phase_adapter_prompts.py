"""The phase.rs adapter on the full corpus's shapes: spells cast earlier in the turn, starting emblems,
sacrifice costs, optional costs, a choice between effects, a 'may' that chooses objects, trample's
damage assignment, and an ability whose source has left.

Runs with the `phase` extra installed; skips without it, unless MTG_REQUIRE_ENGINES is set (CI).
"""

from __future__ import annotations

import pytest

from tests.conftest import engine_module, play, started

engine_module("phase", "phase")

from engine_adapters.phase_rs import PhaseEngine  # noqa: E402


@pytest.fixture(scope="module")
def adapter() -> PhaseEngine:
    return started(PhaseEngine())


# --- the starting state ------------------------------------------------------------------------------
DAY_AFTER_SPELLS = """
id: t/day-after-{n}-spells
setup:
  turn: 2
  active: bob
  step: end
  day_night: day
  players:
    alice:
      battlefield: [{{card: Tavern Ruffian, label: ruffian}}]
    bob:
      spells_cast_this_turn: {n}
actions:
  - advance: upkeep
"""


@pytest.mark.parametrize(("spells", "day_night", "face"), [(0, "night", "back"), (1, "day", "front")])
def test_spells_cast_earlier_in_the_turn_reach_the_engine(adapter, adapter_corpus, spells, day_night, face) -> None:
    played = play(adapter, adapter_corpus, DAY_AFTER_SPELLS.format(n=spells))
    assert played.statuses == ["ok"]
    assert played.state(0)["game"]["day_night"] == day_night
    assert played.obj("ruffian")["face"] == face


def test_a_starting_emblem_works_from_the_command_zone(adapter, adapter_corpus) -> None:
    played = play(adapter, adapter_corpus, """
        id: t/emblem
        setup:
          players:
            alice:
              emblems: [{from: "Arlinn, Embraced by the Moon"}]
              battlefield: [{card: Grizzly Bears, label: bears, summoning_sick: true}]
            bob:
              battlefield: [{card: Grizzly Bears, label: bobs-bears}]
        actions:
          - activate: {object: bears, ability: 0, targets: [bob]}
          - resolve: 1
            expect: {game: {stack: 0}}
          - activate: {object: bobs-bears, ability: 0, targets: [alice]}
        """)
    assert played.statuses == ["ok", "ok", "rejected"]
    assert played.state(1)["players"]["alice"]["emblems"] == 1
    assert played.state(1)["players"]["bob"]["life"] == 18
    assert "Haste" in played.obj("bears")["keywords"] and "Haste" not in played.obj("bobs-bears")["keywords"]


# --- costs ---------------------------------------------------------------------------------------------
def test_a_sacrifice_cost_takes_the_permanent_the_case_names(adapter, adapter_corpus) -> None:
    played = play(adapter, adapter_corpus, """
        id: t/husk
        setup:
          players:
            alice:
              battlefield:
                - {card: Nantuko Husk, label: husk}
                - {card: Grizzly Bears, label: bears}
                - {card: Watchwolf, label: wolf}
                - {card: Blood Pet, label: pet}
            bob: {}
        actions:
          - activate: {object: husk, ability: 0}
            expect: {rejected: true}
          - activate: {object: husk, ability: 0, sacrifice: [wolf]}
          - resolve: 1
            expect: {game: {stack: 0}}
          - activate: {object: pet, ability: 0}
        """)
    assert played.statuses == ["rejected", "ok", "ok", "ok"]
    assert "sacrifices none" in played.reason(0)
    assert (played.obj("wolf")["zone"], played.obj("bears")["zone"]) == ("graveyard", "battlefield")
    assert played.obj("husk", after=2)["power"] == 4
    assert played.obj("pet")["zone"] == "graveyard"  # it sacrifices itself: no choice, nothing to list
    assert played.state(3)["players"]["alice"]["mana_pool"] == {"B": 1}


CLOCKSPINNING = """
id: t/clockspinning-{name}
setup:
  players:
    alice:
      mana_pool: "{pool}"
      battlefield: [{{card: Transcendent Master, label: master, counters: {{level: 5}}}}]
      hand: [{{card: Clockspinning, label: clockspinning}}]
    bob: {{}}
actions:
  - cast: {{card: clockspinning, targets: [master]}}
  - choose: {{yes: {buyback}}}
    expect: {{game: {{stack: 1}}}}
  - resolve: 1
  - choose: {{counter: {{kind: level, action: {action}}}}}
"""


def test_buyback_is_asked_after_the_cast_and_paid_from_the_pool(adapter, adapter_corpus) -> None:
    played = play(adapter, adapter_corpus, CLOCKSPINNING.format(
        name="buyback", pool="{U}{C}{C}{C}", buyback="true", action="add"))
    assert played.statuses == ["ok"] * 4
    assert played.state(1)["players"]["alice"]["mana_pool"] == {}
    master = played.obj("master")
    assert (master["counters"], master["power"]) == ({"level": 6}, 6)
    assert played.obj("clockspinning")["zone"] == "hand"


def test_a_choice_of_effects_is_answered_by_the_counter_action(adapter, adapter_corpus) -> None:
    played = play(adapter, adapter_corpus, CLOCKSPINNING.format(
        name="remove", pool="{U}{C}{C}{C}", buyback="false", action="remove"))
    assert played.statuses == ["ok"] * 4
    assert played.obj("master")["counters"] == {"level": 4}
    assert played.obj("clockspinning")["zone"] == "graveyard"


def test_an_optional_cost_phase_does_not_offer_can_only_be_declined(adapter, adapter_corpus) -> None:
    """phase.rs offers buyback only when it sees it can be paid: with {U} alone it never asks."""
    declined = play(adapter, adapter_corpus, CLOCKSPINNING.format(
        name="unaffordable", pool="{U}", buyback="false", action="add"))
    assert declined.statuses == ["ok"] * 4
    assert declined.obj("master")["counters"] == {"level": 6}
    paid = play(adapter, adapter_corpus, CLOCKSPINNING.format(
        name="unaffordable-paid", pool="{U}", buyback="true", action="add"))
    assert paid.statuses[:2] == ["ok", "rejected"]
    assert "did not offer Clockspinning's optional cost" in paid.reason(1)


# --- decisions while abilities resolve -------------------------------------------------------------------
GRUB_ATTACKS = """
id: t/grub-blights-{name}
setup:
  step: beginning-of-combat
  players:
    alice:
      battlefield:
        - {{card: "Grub, Storied Matriarch", face: back, label: grub}}
        - {{card: Grizzly Bears, label: bears}}
        - {{card: Forest, label: forest}}
    bob: {{}}
actions:
  - pass: alice
  - pass: bob
  - attack: [grub]
  - resolve: 1
  - choose: {{objects: {objects}}}
"""


@pytest.mark.parametrize(("objects", "counters"), [("[bears]", {"-1/-1": 1}), ("[]", {})])
def test_a_may_that_chooses_objects_is_one_choice(adapter, adapter_corpus, objects, counters) -> None:
    """'You may blight 1': a case answers with the creature, or [] for none; phase.rs asks whether,
    then which."""
    played = play(adapter, adapter_corpus, GRUB_ATTACKS.format(name=len(counters), objects=objects))
    assert played.statuses == ["ok"] * 5
    assert played.obj("bears")["counters"] == counters


def test_blighting_a_land_is_rejected_and_the_may_is_still_pending(adapter, adapter_corpus) -> None:
    played = play(adapter, adapter_corpus, GRUB_ATTACKS.format(name="land", objects="[forest]")
                  + "  - choose: {objects: [bears]}\n")
    assert played.statuses == ["ok"] * 4 + ["rejected", "ok"]
    assert played.obj("bears")["counters"] == {"-1/-1": 1}


def test_you_may_pay_accepts_only_the_mana_abilities_listed(adapter, adapter_corpus) -> None:
    case = """
        id: t/grub-pays-{name}
        setup:
          step: draw
          players:
            alice:
              battlefield:
                - {{card: "Grub, Storied Matriarch", label: grub}}
                - {{card: Mountain, label: mountain}}
            bob: {{}}
        actions:
          - advance: precombat-main
          - resolve: 1
          - choose: {{yes: true{pay}}}
        """
    paid = play(adapter, adapter_corpus, case.format(name="listed", pay=", pay: [mountain]"))
    assert paid.statuses == ["ok"] * 3
    assert (paid.obj("grub")["face"], paid.obj("mountain")["tapped"]) == ("back", True)
    unlisted = play(adapter, adapter_corpus, case.format(name="unlisted", pay=""))
    assert unlisted.statuses == ["ok", "ok", "rejected"]
    assert "would activate the mana abilities of Mountain" in unlisted.reason(2)
    assert unlisted.obj("mountain")["tapped"] is False


def test_a_trigger_target_answer_leaves_the_next_decision_to_the_next_action(adapter, adapter_corpus) -> None:
    """phase.rs asks the target of the Clone's enters trigger before the legend rule: answering the
    target doesn't swallow the legend rule's choice."""
    played = play(adapter, adapter_corpus, """
        id: t/clone-grub
        setup:
          players:
            alice:
              mana_pool: "{U}{U}{U}{U}"
              battlefield: [{card: "Grub, Storied Matriarch", label: grub}]
              hand: [{card: Clone, label: clone}]
              graveyard: [{card: Siege-Gang Commander, label: siege}]
            bob: {}
        actions:
          - cast: clone
          - resolve: 1
          - choose: {objects: [grub]}
          - choose: {targets: [siege]}
          - choose: {objects: [clone]}
          - resolve: 1
        """)
    assert played.statuses == ["ok"] * 6
    assert (played.obj("siege")["zone"], played.obj("grub")["zone"]) == ("hand", "graveyard")


def test_a_trampler_assigns_lethal_damage_to_its_blocker_and_the_rest_to_the_player(adapter, adapter_corpus) -> None:
    """phase.rs asks how to divide a trampler's damage; the case format expects lethal to the blocker."""
    played = play(adapter, adapter_corpus, """
        id: t/trample
        setup:
          players:
            alice:
              battlefield:
                - {card: Grizzly Bears, label: bears}
                - {card: Arlinn Kord, face: back, label: moon, counters: {loyalty: 3}}
            bob:
              battlefield: [{card: Watchwolf, label: wolf, damage: 1}]
        actions:
          - activate: {object: moon, ability: 0}
          - resolve: 1
            expect: {game: {stack: 0}}
          - advance: beginning-of-combat
          - pass: alice
          - pass: bob
          - attack: [bears]
          - pass: alice
          - pass: bob
          - block: {wolf: bears}
          - advance: end-of-combat
        """)
    assert played.statuses == ["ok"] * 10
    assert played.obj("bears", after=1)["power"] == 3 and "Trample" in played.obj("bears", after=1)["keywords"]
    assert played.obj("wolf")["zone"] == "graveyard"
    assert played.state(9)["players"]["bob"]["life"] == 19  # 3 power: 2 is lethal to the damaged Watchwolf


def test_an_ability_whose_source_left_is_named_as_the_source_last_existed(adapter, adapter_corpus) -> None:
    played = play(adapter, adapter_corpus, """
        id: t/arlinn-dies
        setup:
          players:
            alice:
              battlefield: [{card: Arlinn Kord, face: back, label: arlinn, counters: {loyalty: 1}}]
            bob: {}
        actions:
          - activate: {object: arlinn, ability: 1, targets: [bob]}
            expect: {game: {stack: 1}}
          - resolve: 1
        """)
    assert played.obj("arlinn", after=0)["zone"] == "graveyard"
    assert played.state(0)["game"]["stack"][0]["name"] == "Arlinn, Embraced by the Moon"
    assert played.state(1)["players"]["bob"]["life"] == 17
