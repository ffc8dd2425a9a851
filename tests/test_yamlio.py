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
    """`choose: {yes: true}` keeps its key: YAML 1.1's yes/no/on/off are plain strings here."""
    doc = load_text("choose: {yes: false}\nother: [no, on, off, True, false]\n", Path("f.yaml"))
    assert doc.data == {"choose": {"yes": False}, "other": ["no", "on", "off", True, False]}


# --- the fast reading agrees with PyYAML's safe constructor ------------------------------------------
SNIPPETS = [
    "a: 012\nb: 0x1F\nc: 1_000\nd: -3\ne: +4\nf: 0\ng: 1:30\n",
    "a: 1.5\nb: .inf\nc: -.INF\nd: 1e3\ne: .nan\n",
    "a: ~\nb: null\nc:\nd: ''\ne: 'true'\nf: !!str 12\ng: !!int '7'\n",
    "base: &b {x: 1, y: [1, 2]}\nother: *b\nlist: [*b, *b]\n",
    "base: &b {x: 1}\nmerged:\n  <<: *b\n  y: 2\n",
    "when: 2024-01-02\nstamp: 2001-12-14t21:59:43.10-05:00\n",
    "set: !!set {a, b}\nbinary: !!binary aGVsbG8=\npairs: !!omap [a: 1, b: 2]\n",
    "1: one\n2.5: float key\nnull: none key\ntrue: bool key\n",
    "- [1, [2, [3]]]\n- {a: {b: {c: d}}}\n- plain text\n- \"quoted: yes\"\n",
    "key: |\n  literal\n  block\nfolded: >\n  folded\n  text\n",
    "",
    "# only a comment\n",
    "just a scalar\n",
]


def reference_load(text: str):
    """What PyYAML's safe constructor builds (the loader's own construction), and its node tree."""
    from harness.yamlio import SafeLoader

    loader = SafeLoader(text)
    try:
        node = loader.get_single_node()
        return (loader.construct_document(node) if node is not None else None), node
    finally:
        loader.dispose()


def same(a, b) -> bool:
    """Equal, with the same types all the way down (1 is not True, 1.0 is not 1)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and a != a:
        return b != b
    return a == b


def node_line(node, path) -> int:
    """The line of `path` found in the node tree, as line_of did before it kept lines itself."""
    import yaml

    line = node.start_mark.line + 1
    for item in path:
        child = None
        if isinstance(node, yaml.MappingNode):
            child = next((v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == str(item)), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(item, int) and 0 <= item < len(node.value):
            child = node.value[item]
        if child is None:
            break
        node, line = child, child.start_mark.line + 1
    return line


def paths(data, path=()):
    yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from paths(value, path + (key,))
        yield path + ("missing",)
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from paths(value, path + (index,))
        yield path + (len(data),)


def yaml_files():
    from tests.conftest import REPO

    return sorted((REPO / "cases").rglob("*.yaml")) + sorted((REPO / "reference_engine" / "cards").glob("*.yaml"))


@pytest.mark.parametrize("text", SNIPPETS)
def test_snippets_read_as_pyyaml_reads_them(text: str) -> None:
    expected, node = reference_load(text)
    doc = load_text(text, Path("f.yaml"))
    assert same(doc.data, expected)
    if node is not None:
        for path in paths(expected):
            assert doc.line_of(list(path)) == node_line(node, path), path


def test_every_yaml_file_reads_as_pyyaml_reads_it_with_the_same_lines() -> None:
    for file in yaml_files():
        text = file.read_text(encoding="utf-8")
        expected, node = reference_load(text)
        doc = load_text(text, file)
        assert same(doc.data, expected), file
        for path in paths(expected):
            assert doc.line_of(list(path)) == node_line(node, path), (file, path)


def test_an_alias_is_the_same_object_and_a_duplicate_key_in_a_merged_document_is_found() -> None:
    doc = load_text("base: &b {x: 1}\nother: *b\n", Path("f.yaml"))
    assert doc.data["other"] is doc.data["base"]
    with pytest.raises(YamlError) as info:
        load_text("base: &b {x: 1}\nm:\n  <<: *b\n  y: 2\n  y: 3\n", Path("f.yaml"))
    assert str(info.value) == "f.yaml:5: duplicate key 'y'"
