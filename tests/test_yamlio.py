"""Loading YAML: line numbers for every value, clear errors for bad files."""

from pathlib import Path

import pytest

from harness.yamlio import YamlError, format_path, load_text


def test_line_of_finds_nested_values() -> None:
    doc = load_text("a: 1\nb:\n  - x: 2\n    y: [1, 2]\n", Path("f.yaml"))
    assert doc.data == {"a": 1, "b": [{"x": 2, "y": [1, 2]}]}
    assert doc.line_of(["b", 0, "y", 1]) == 4
    assert doc.line_of(["b", 0, "missing"]) == 3  # falls back to the deepest existing node


def test_duplicate_key_is_an_error_with_its_line() -> None:
    with pytest.raises(YamlError) as info:
        load_text("id: x\nsetup: {}\nid: y\n", Path("f.yaml"))
    assert str(info.value) == "f.yaml:3: duplicate key 'id'"


def test_syntax_error_names_file_and_line() -> None:
    with pytest.raises(YamlError) as info:
        load_text("a: 1\nb: [1, 2\n", Path("f.yaml"))
    assert str(info.value).startswith("f.yaml:")
    assert "invalid YAML" in str(info.value)


def test_format_path() -> None:
    assert format_path(["actions", 3, "cast", "targets", 0]) == "$.actions[3].cast.targets[0]"


def test_only_true_and_false_are_booleans() -> None:
    """`choose: {yes: true}` must keep its key: YAML 1.1 would read yes/no/on/off as booleans."""
    doc = load_text("choose: {yes: true, pay: [m]}\nno: off\nflag: False\n", Path("f.yaml"))
    assert doc.data == {"choose": {"yes": True, "pay": ["m"]}, "no": "off", "flag": False}
