"""The contributor's card importer: keyword abilities are told apart from keyword actions."""

from tests.conftest import tool


def test_a_sentence_starting_with_a_keyword_action_is_not_a_keyword() -> None:
    text = "Transform all Humans. Prevent all combat damage that would be dealt this turn by creatures other than Werewolves and Wolves."
    assert tool("import_cards").face_keywords(text, ["Transform"]) == []


def test_keyword_lines_are_still_found() -> None:
    text = "First strike\nAt the beginning of each upkeep, if no spells were cast last turn, transform this creature."
    assert tool("import_cards").face_keywords(text, ["Double strike", "First strike", "Transform"]) == ["First strike"]
