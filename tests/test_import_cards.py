"""The contributor's card importer: keyword abilities are told apart from keyword actions."""

import importlib.util

from tests.conftest import REPO


def _importer():
    spec = importlib.util.spec_from_file_location("import_cards", REPO / "tools" / "import_cards.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_sentence_starting_with_a_keyword_action_is_not_a_keyword() -> None:
    text = "Transform all Humans. Prevent all combat damage that would be dealt this turn by creatures other than Werewolves and Wolves."
    assert _importer().face_keywords(text, ["Transform"]) == []


def test_keyword_lines_are_still_found() -> None:
    text = "First strike\nAt the beginning of each upkeep, if no spells were cast last turn, transform this creature."
    assert _importer().face_keywords(text, ["Double strike", "First strike", "Transform"]) == ["First strike"]
