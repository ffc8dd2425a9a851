"""Safe YAML loading that remembers where every value came from, so errors can say file:line."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Sequence

import yaml

#: The C loader is several times faster; fall back to the pure-Python one when libyaml is absent.
_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_BOOL = "tag:yaml.org,2002:bool"


class SafeLoader(_BaseLoader):  # type: ignore[misc, valid-type]
    """Booleans are only true and false, as in YAML 1.2: `choose: {yes: true}` has the key 'yes'
    (YAML 1.1 would read yes, no, on and off as booleans)."""


SafeLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != _BOOL]
    for first, resolvers in _BaseLoader.yaml_implicit_resolvers.items()
}
SafeLoader.add_implicit_resolver(_BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))

PathItem = str | int


class YamlError(Exception):
    """A file that is not valid YAML (or has a duplicate key): carries file and line."""

    def __init__(self, path: Path, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")
        self.path = path
        self.line = line
        self.message = message


@dataclass
class Document:
    """A loaded YAML document: the data, and the node tree kept to find line numbers on demand."""

    path: Path
    data: Any
    node: yaml.Node | None

    def line_of(self, path: Sequence[PathItem]) -> int:
        """1-based line of the value at `path`, or of its deepest existing ancestor."""
        node = self.node
        if node is None:
            return 1
        line = node.start_mark.line + 1
        for item in path:
            child = _child(node, item)
            if child is None:
                break
            node = child
            line = node.start_mark.line + 1
        return line


def _child(node: yaml.Node, item: PathItem) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value == str(item):
                return value
    elif isinstance(node, yaml.SequenceNode) and isinstance(item, int) and 0 <= item < len(node.value):
        return node.value[item]
    return None


def _duplicate_keys(node: yaml.Node) -> Iterator[tuple[yaml.Node, str]]:
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, yaml.MappingNode):
            seen: set[str] = set()
            for key, value in current.value:
                if isinstance(key, yaml.ScalarNode):
                    if key.value in seen:
                        yield key, key.value
                    seen.add(key.value)
                stack.append(value)
        elif isinstance(current, yaml.SequenceNode):
            stack.extend(current.value)


def load_text(text: str, path: Path) -> Document:
    """Parse one YAML document; YamlError on syntax errors and duplicate keys."""
    loader = SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return Document(path, None, None)
        for key, name in _duplicate_keys(node):
            raise YamlError(path, key.start_mark.line + 1, f"duplicate key {name!r}")
        data = loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        problem = exc.problem or exc.context or "invalid YAML"
        raise YamlError(path, line, f"invalid YAML: {problem}") from None
    except yaml.YAMLError as exc:
        raise YamlError(path, 1, f"invalid YAML: {exc}") from None
    finally:
        loader.dispose()
    return Document(path, data, node)


def load_file(path: Path) -> Document:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise YamlError(path, 1, f"not UTF-8 text: {exc.reason}") from None
    return load_text(text, path)


def format_path(path: Sequence[PathItem]) -> str:
    """A JSONPath-like rendering, e.g. $.actions[3].cast.targets[0]."""
    out = "$"
    for item in path:
        out += f"[{item}]" if isinstance(item, int) else f".{item}"
    return out
