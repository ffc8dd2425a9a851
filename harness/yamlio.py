"""Safe YAML loading that remembers where every value came from, so errors can say file:line."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import yaml

#: The C loader is several times faster; fall back to the pure-Python one when libyaml is absent.
_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_BOOL = "tag:yaml.org,2002:bool"


class SafeLoader(_BaseLoader):  # type: ignore[misc, valid-type]
    """A safe loader with YAML 1.2 booleans: only true and false. Under YAML 1.1 rules the key of
    `choose: {yes: true}` would be read as the boolean True (and `no`, `on`, `off` as booleans too)."""

    yaml_implicit_resolvers = {
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


#: A value's line and, for a mapping or a sequence, its children's: (line, {raw key: ...} | [...] | None).
Lines = tuple[int, Any]

_STR, _NULL, _BOOL, _INT = (f"tag:yaml.org,2002:{t}" for t in ("str", "null", "bool", "int"))
_MAP, _SEQ = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"
_DECIMAL = re.compile(r"^-?[1-9][0-9]*$|^0$")


@dataclass
class Document:
    """A loaded YAML document: the data, and where each value was written (to say file:line)."""

    path: Path
    data: Any
    lines: Lines | None

    def line_of(self, path: Sequence[PathItem]) -> int:
        """1-based line of the value at `path`, or of its deepest existing ancestor."""
        node = self.lines
        if node is None:
            return 1
        line = node[0]
        for item in path:
            children = node[1]
            if isinstance(children, dict):
                node = children.get(str(item))
            elif isinstance(children, list) and isinstance(item, int) and 0 <= item < len(children):
                node = children[item]
            else:
                node = None
            if node is None:
                break
            line = node[0]
        return line


class _Exotic(Exception):
    """A document using what the fast reading doesn't (merge keys, other tags, a recursive alias)."""


class _Reader:
    """One walk over a document's nodes: its data (as PyYAML's safe constructor builds it, for the
    plain scalars, sequences and mappings cases are made of), the line of every value, and duplicate
    keys. PyYAML's constructor, in Python, took as long as parsing itself."""

    def __init__(self, loader: Any, path: Path) -> None:
        self.loader = loader
        self.path = path
        self.built: dict[int, Any] = {}  # collections by node, for aliases (the same node twice)

    def lines(self, node: yaml.Node, inside: frozenset[int] = frozenset(), *, duplicates: bool = True) -> Lines:
        """Lines only (when the data comes from PyYAML), or duplicate keys (before PyYAML merges keys
        into mappings: then the first of a key is where it was written, as PyYAML ordered them)."""
        line = node.start_mark.line + 1
        if id(node) in inside:  # an alias to a collection it is part of
            return line, None
        inside = inside | {id(node)}
        if isinstance(node, yaml.MappingNode):
            children: dict[str, Lines] = {}
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode):
                    if key.value in children:
                        if duplicates:
                            raise YamlError(self.path, key.start_mark.line + 1, f"duplicate key {key.value!r}")
                        continue
                    children[key.value] = self.lines(value, inside, duplicates=duplicates)
            return line, children
        if isinstance(node, yaml.SequenceNode):
            return line, [self.lines(item, inside, duplicates=duplicates) for item in node.value]
        return line, None

    def read(self, node: yaml.Node) -> tuple[Any, Lines]:
        line = node.start_mark.line + 1
        tag = node.tag
        if tag == _STR:
            return node.value, (line, None)
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node), (line, None)
        if id(node) in self.built:
            value = self.built[id(node)]
            if value is None:
                raise _Exotic("a recursive alias")
            return value, self.lines(node)
        self.built[id(node)] = None
        if tag == _SEQ:
            items, item_lines = [], []
            for child in node.value:
                value, child_lines = self.read(child)
                items.append(value)
                item_lines.append(child_lines)
            self.built[id(node)] = items
            return items, (line, item_lines)
        if tag == _MAP:
            mapping: dict[Any, Any] = {}
            children: dict[str, Lines] = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode) or key_node.tag not in (_STR, _INT, _NULL, _BOOL):
                    raise _Exotic("a key that is not a plain scalar")
                raw = key_node.value
                if raw in children:
                    raise YamlError(self.path, key_node.start_mark.line + 1, f"duplicate key {raw!r}")
                value, children[raw] = self.read(value_node)
                mapping[self.scalar(key_node)] = value
            self.built[id(node)] = mapping
            return mapping, (line, children)
        raise _Exotic(tag)

    def scalar(self, node: yaml.ScalarNode) -> Any:
        tag, value = node.tag, node.value
        if tag == _STR:
            return value
        if tag == _NULL:
            return None
        if tag == _BOOL:
            return self.loader.bool_values[value.lower()]
        if tag == _INT:
            return int(value) if _DECIMAL.match(value) else self.loader.construct_yaml_int(node)
        if tag == "tag:yaml.org,2002:float":
            return self.loader.construct_yaml_float(node)
        raise _Exotic(tag)


def load_text(text: str, path: Path) -> Document:
    """Parse one YAML document; YamlError on syntax errors and duplicate keys."""
    loader = SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return Document(path, None, None)
        reader = _Reader(loader, path)
        try:
            data, lines = reader.read(node)
        except _Exotic:  # the safe constructor knows every YAML type
            reader.lines(node)  # duplicate keys, as written
            data = loader.construct_document(node)
            lines = reader.lines(node, duplicates=False)  # as constructed (merge keys are merged in)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        problem = exc.problem or exc.context or "invalid YAML"
        raise YamlError(path, line, f"invalid YAML: {problem}") from None
    except yaml.YAMLError as exc:
        raise YamlError(path, 1, f"invalid YAML: {exc}") from None
    finally:
        loader.dispose()
    return Document(path, data, lines)


def load_file(path: Path) -> Document:
    return load_bytes(path.read_bytes(), path)


def load_bytes(raw: bytes, path: Path) -> Document:
    """Parse the contents of the file `path`."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise YamlError(path, 1, f"not UTF-8 text: {exc.reason}") from None
    return load_text(text, path)


def format_path(path: Sequence[PathItem]) -> str:
    """A JSONPath-like rendering, e.g. $.actions[3].cast.targets[0]."""
    out = "$"
    for item in path:
        out += f"[{item}]" if isinstance(item, int) else f".{item}"
    return out
