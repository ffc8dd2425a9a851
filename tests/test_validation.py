"""Validation errors: one clear line each, with file:line, the path into the case, and a hint."""

from harness.validation import validate_case, validate_corpus
from tests.conftest import elves_case


def problems_for(corpus_builder, text: str, case_id: str = "demo/elves") -> list[str]:
    path = corpus_builder.write(case_id, text)
    corpus = corpus_builder.corpus()
    return [str(p) for p in validate_case(corpus.load_case(path), corpus)]


def test_valid_case_has_no_problems(corpus_builder) -> None:
    assert problems_for(corpus_builder, elves_case()) == []


def test_unknown_key_suggests_the_close_one(corpus_builder) -> None:
    text = elves_case().replace("summoning_sick: true", "sumoning_sick: true")
    (problem,) = problems_for(corpus_builder, text)
    assert problem == ("cases/demo/elves.yaml:10: $.setup.players.alice.battlefield[0]: "
                       "unknown key 'sumoning_sick' (did you mean 'summoning_sick'?)")


def test_schema_violation_names_the_field(corpus_builder) -> None:
    (problem,) = problems_for(corpus_builder, elves_case().replace("ability: 0", "ability: first"))
    assert problem.startswith("cases/demo/elves.yaml:13: $.actions[0].activate.ability: 'first' is not of type 'integer'")


def test_unknown_card_suggests_close_matches(corpus_builder) -> None:
    (problem,) = problems_for(corpus_builder, elves_case().replace("Llanowar Elves", "Llanowar Elf"))
    assert problem.startswith("cases/demo/elves.yaml:10: $.setup.players.alice.battlefield[0].card: "
                              "unknown card 'Llanowar Elf' (did you mean 'Llanowar Elves'?")


def test_undefined_label(corpus_builder) -> None:
    (problem,) = problems_for(corpus_builder, elves_case().replace("object: elves", "object: elfs"))
    assert problem.startswith("cases/demo/elves.yaml:13: $.actions[0].activate.object: undefined label 'elfs'")
    assert "did you mean 'elves'?" in problem


def test_unknown_ruling_id(corpus_builder) -> None:
    (problem,) = problems_for(corpus_builder, elves_case().replace("general-07", "general-70"))
    assert "cases/demo/elves.yaml:3: $.rulings[0]: unknown ruling id 'general-70'" in problem


def test_id_must_match_path(corpus_builder) -> None:
    (problem,) = problems_for(corpus_builder, elves_case(), case_id="demo/other")
    assert problem == ("cases/demo/other.yaml:1: $.id: id 'demo/elves' does not match the file's path "
                       "(expected 'demo/other')")


def test_back_face_of_single_faced_card(corpus_builder) -> None:
    text = elves_case().replace("summoning_sick: true}", "summoning_sick: true, face: back}")
    (problem,) = problems_for(corpus_builder, text)
    assert "$.setup.players.alice.battlefield[0].face: 'Llanowar Elves' has no back face" in problem


def test_level_counters_need_a_leveler(corpus_builder) -> None:
    text = elves_case().replace("summoning_sick: true}", "summoning_sick: true, counters: {level: 2}}")
    (problem,) = problems_for(corpus_builder, text)
    assert "'Llanowar Elves' has no level up ability" in problem


def test_unknown_counter_kind(corpus_builder) -> None:
    text = elves_case().replace("summoning_sick: true}", "summoning_sick: true, counters: {lvl: 2}}")
    (problem,) = problems_for(corpus_builder, text)
    assert problem == ("cases/demo/elves.yaml:10: $.setup.players.alice.battlefield[0].counters: "
                       "'lvl' is not a kind of counter the format knows (did you mean 'level'?)")


def test_unknown_counter_kind_lists_the_known_ones(corpus_builder) -> None:
    text = elves_case().replace("summoning_sick: true}", "summoning_sick: true, counters: {bounty: 1}}")
    (problem,) = problems_for(corpus_builder, text)
    assert "'bounty' is not a kind of counter the format knows (expected one of: +1/+1, -1/-1, loyalty, level," in problem


def test_loyalty_counters_need_a_planeswalker(corpus_builder) -> None:
    text = elves_case().replace("summoning_sick: true}", "summoning_sick: true, counters: {loyalty: 2}}")
    (problem,) = problems_for(corpus_builder, text)
    assert "'Llanowar Elves' is not a planeswalker" in problem


def test_ability_index_beyond_the_card(corpus_builder) -> None:
    (problem,) = problems_for(corpus_builder, elves_case().replace("ability: 0", "ability: 3"))
    assert "$.actions[0].activate.ability: 'Llanowar Elves' has no activated ability 3" in problem


COPY_CASE = """
id: demo/clone
description: A Clone that copied a leveler activates level up, an ability its own text doesn't show.
rulings: [transcendent-master-03]
rules: ["707.2"]
requires: [copy, level-up]
setup:
  players:
    alice:
      mana_pool: "{U}{C}{C}{C}{C}"
      battlefield:
        - {card: Transcendent Master, label: master}
      hand:
        - {card: Clone, label: clone}
    bob: {}
actions:
  - cast: clone
  - resolve: 1
  - choose: {objects: [master]}
  - activate: {object: clone, ability: 0}
"""


def test_ability_index_of_a_card_that_may_become_a_copy_is_not_counted(corpus_builder) -> None:
    assert problems_for(corpus_builder, COPY_CASE, case_id="demo/clone") == []


GUUL_DRAZ_ASSASSIN = """
name: Guul Draz Assassin
layout: leveler
color_identity: [B]
faces:
- name: Guul Draz Assassin
  mana_cost: '{B}'
  colors: [B]
  type_line: Creature — Vampire Assassin
  supertypes: []
  types: [Creature]
  subtypes: [Vampire, Assassin]
  power: '1'
  toughness: '1'
  keywords: [Level up]
  oracle_text: |-
    Level up {1}{B} ({1}{B}: Put a level counter on this. Level up only as a sorcery.)
    LEVEL 2-3
    2/2
    {B}, {T}: Target creature gets -2/-2 until end of turn.
    LEVEL 4+
    4/4
    {B}, {T}: Target creature gets -4/-4 until end of turn.
"""


def test_ability_index_counts_a_level_band(corpus_builder) -> None:
    """A leveler has a band's activated ability after level up while the band applies (rule 711.2)."""
    (corpus_builder.root / "cards" / "guul-draz-assassin.yaml").write_text(GUUL_DRAZ_ASSASSIN.lstrip(), encoding="utf-8")
    text = elves_case().replace("Llanowar Elves", "Guul Draz Assassin").replace(
        "summoning_sick: true}", "summoning_sick: false, counters: {level: 2}}")
    assert problems_for(corpus_builder, text.replace("ability: 0", "ability: 1")) == []
    (problem,) = problems_for(corpus_builder, text.replace("ability: 0", "ability: 2"))
    assert "'Guul Draz Assassin' has no activated ability 2" in problem


def test_action_needs_exactly_one_verb(corpus_builder) -> None:
    text = elves_case().replace("  - activate: {object: elves, ability: 0}",
                                "  - activate: {object: elves, ability: 0}\n    pass: true")
    (problem,) = problems_for(corpus_builder, text)
    assert "$.actions[0]: an action needs exactly one verb, not 2 (activate, pass)" in problem


def test_bad_cr_number(corpus_builder) -> None:
    (problem,) = problems_for(corpus_builder, elves_case().replace('"302.6"', '"302.6.1"'))
    assert "$.rules[0]" in problem


def test_invalid_yaml_and_duplicate_ids_in_a_corpus(corpus_builder) -> None:
    corpus_builder.write("demo/elves", elves_case())
    corpus_builder.write("demo/broken", "id: [unclosed\n")
    report = validate_corpus(corpus_builder.corpus())
    messages = [str(p) for p in report.problems]
    assert any(m.startswith("cases/demo/broken.yaml:") and "invalid YAML" in m for m in messages)
    assert report.case_count == 2 and len(report.valid_cases) == 1


def test_real_corpus_is_valid(real_corpus) -> None:
    report = validate_corpus(real_corpus)
    assert [str(p) for p in report.problems] == []


ARLINN_CASE = """
id: demo/arlinn
description: Arlinn's -6 gives an emblem whose ability the Grizzly Bears then activate.
rulings: [arlinn-kord-02]
rules: ["114.4"]
requires: [loyalty, emblems]
setup:
  players:
    alice:
      battlefield:
        - {card: Arlinn Kord, face: back, label: moon, counters: {loyalty: 6}}
        - {card: Grizzly Bears, label: bears, COUNTERS}
    bob: {}
actions:
  - activate: {object: moon, ability: MOON_ABILITY}
  - resolve: 1
  - activate: {object: bears, ability: 0, targets: [bob]}
"""


def arlinn_case(moon_ability: int = 2, bears_counters: str = "tapped: false") -> str:
    return ARLINN_CASE.replace("MOON_ABILITY", str(moon_ability)).replace("COUNTERS", bears_counters)


def test_granted_ability_index_is_left_to_the_engine(corpus_builder) -> None:
    """Arlinn's emblem grants '{T}: ...': Grizzly Bears' ability 0 may exist by then."""
    assert problems_for(corpus_builder, arlinn_case(), case_id="demo/arlinn") == []


def test_the_granting_card_itself_is_still_checked(corpus_builder) -> None:
    (problem,) = problems_for(corpus_builder, arlinn_case(moon_ability=3), case_id="demo/arlinn")
    assert "$.actions[0].activate.ability: 'Arlinn Kord // Arlinn, Embraced by the Moon' has no activated ability 3" in problem
    assert "its faces have 2 and 3 activated abilities" in problem


def test_loyalty_counters_on_a_back_face_planeswalker(corpus_builder) -> None:
    (problem,) = problems_for(corpus_builder, arlinn_case(bears_counters="counters: {loyalty: 1}"),
                              case_id="demo/arlinn")
    assert "battlefield[1].counters.loyalty: 'Grizzly Bears' is not a planeswalker" in problem


GRUB_CASE = """
id: demo/grub
description: Color identity of a double-faced card in the graveyard.
rulings: [grub-06]
rules: ["903.4d"]
requires: [color-identity]
setup:
  players:
    alice:
      graveyard:
        - {card: "CARD", label: grub}
    bob: {}
actions:
  - pass: alice
expect:
  objects:
    LABEL: {color_identity: [B, R]}
  select:
    - where: {name: "NAME"}
      each: {color_identity: [B, R]}
"""


def grub_case(card: str = "Grub, Storied Matriarch", label: str = "grub", name: str = "Grub, Storied Matriarch") -> str:
    return GRUB_CASE.replace("CARD", card).replace("LABEL", label).replace("NAME", name)


def test_color_identity_query_on_known_card_is_valid(corpus_builder) -> None:
    assert problems_for(corpus_builder, grub_case(), "demo/grub") == []


def test_color_identity_query_on_unknown_card_is_a_clear_error(corpus_builder) -> None:
    (problem,) = problems_for(corpus_builder, grub_case(card="Grub, Storied Matriach"), "demo/grub")
    assert problem.startswith("cases/demo/grub.yaml:10: $.setup.players.alice.graveyard[0].card: "
                              "unknown card 'Grub, Storied Matriach' (did you mean 'Grub, Storied Matriarch'")


def test_color_identity_query_on_undefined_label_is_a_clear_error(corpus_builder) -> None:
    (problem,) = problems_for(corpus_builder, grub_case(label="grb"), "demo/grub")
    assert problem.startswith("cases/demo/grub.yaml:16: $.expect.objects.grb: undefined label 'grb'")


def test_select_each_on_unknown_name_without_count_is_an_error(corpus_builder) -> None:
    """Such a query matches nothing, so its 'each' would check nothing and always pass."""
    (problem,) = problems_for(corpus_builder, grub_case(name="Oko"), "demo/grub")
    assert problem.startswith("cases/demo/grub.yaml:18: $.expect.select[0].where.name: no card named 'Oko'")
    assert "'Oko, Lorwyn Liege'" in problem and "give 'count'" in problem


def test_checking_an_observable_needs_its_capability(corpus_builder) -> None:
    text = elves_case().replace("    elves: {tapped: false}", "    elves: {tapped: false, color_identity: [G]}")
    (problem,) = problems_for(corpus_builder, text)
    assert problem.startswith("cases/demo/elves.yaml:18: $.expect.objects.elves.color_identity: checking "
                              "'color_identity' needs the capability 'color-identity'")
    fixed = text.replace("requires: [mana-abilities]", "requires: [mana-abilities, color-identity]")
    assert problems_for(corpus_builder, fixed) == []


def test_a_permanent_set_up_phased_out_needs_phasing(corpus_builder) -> None:
    text = elves_case().replace("summoning_sick: true}", "summoning_sick: true, phased_out: true}")
    (problem,) = problems_for(corpus_builder, text)
    assert problem.startswith("cases/demo/elves.yaml:10: $.setup.players.alice.battlefield[0].phased_out: "
                              "a permanent phased out in setup needs the capability 'phasing'")
    fixed = text.replace("requires: [mana-abilities]", "requires: [mana-abilities, phasing]")
    assert problems_for(corpus_builder, fixed) == []
