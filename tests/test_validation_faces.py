"""Validation of double-faced card faces: a face that doesn't exist, or a back face a card doesn't have."""

from harness.validation import validate_case

DFC_CASE = """
id: demo/faces
description: Tavern Ruffian transforms as it becomes night.
rulings: [tovolar-10]
rules: ["702.145b"]
requires: [day-night, transform]
setup:
  day_night: night
  players:
    alice:
      battlefield:
        - {card: Tavern Ruffian, label: ruffian, face: back}
        - {card: Grizzly Bears, label: bears}
        - {token: {name: Wolf, types: [Creature], subtypes: [Wolf], power: 2, toughness: 2}, label: wolf}
    bob: {}
actions: []
expect:
  objects:
    ruffian: {face: back}
    bears: {face: front}
"""


def problems_for(corpus_builder, text: str) -> list[str]:
    path = corpus_builder.write("demo/faces", text)
    corpus = corpus_builder.corpus()
    return [str(p) for p in validate_case(corpus.load_case(path), corpus)]


def test_double_faced_card_back_face_up_is_valid(corpus_builder) -> None:
    assert problems_for(corpus_builder, DFC_CASE) == []


def test_expecting_a_single_faced_card_back_face_up(corpus_builder) -> None:
    (problem,) = problems_for(corpus_builder, DFC_CASE.replace("bears: {face: front}", "bears: {face: back}"))
    assert problem.startswith("cases/demo/faces.yaml:19: $.expect.objects.bears.face: 'Grizzly Bears' has no back face")
    assert "rule 712.9" in problem


def test_expecting_a_token_back_face_up(corpus_builder) -> None:
    (problem,) = problems_for(corpus_builder, DFC_CASE.replace("bears: {face: front}", "wolf: {face: back}"))
    assert problem.startswith("cases/demo/faces.yaml:19: $.expect.objects.wolf.face: "
                              "a token made from characteristics has no back face")


def test_setting_up_a_single_faced_card_back_face_up(corpus_builder) -> None:
    text = DFC_CASE.replace("{card: Grizzly Bears, label: bears}", "{card: Grizzly Bears, label: bears, face: back}")
    (problem,) = problems_for(corpus_builder, text)
    assert problem.startswith("cases/demo/faces.yaml:12: $.setup.players.alice.battlefield[1].face: "
                              "'Grizzly Bears' has no back face")


def test_a_face_that_does_not_exist(corpus_builder) -> None:
    (problem,) = problems_for(corpus_builder, DFC_CASE.replace("face: back}\n        - {card: Grizzly",
                                                               "face: night}\n        - {card: Grizzly"))
    assert problem == ("cases/demo/faces.yaml:11: $.setup.players.alice.battlefield[0].face: 'night' is not "
                       "allowed here (expected one of: front, back)")


def test_naming_a_card_by_its_back_face(corpus_builder) -> None:
    (problem,) = problems_for(corpus_builder, DFC_CASE.replace("{card: Tavern Ruffian,", "{card: Tavern Smasher,"))
    assert problem.startswith("cases/demo/faces.yaml:11: $.setup.players.alice.battlefield[0].card: "
                              "'Tavern Smasher' is the back face of 'Tavern Ruffian // Tavern Smasher'")
