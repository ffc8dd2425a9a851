"""Safe YAML loading that remembers where every value came from, so errors can say file:line."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import yaml

from harness.limits import MAX_DEPTH, MAX_FILE_BYTES, MAX_INT, MAX_INT_DIGITS, MAX_VALUES, excerpt

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
    """A document using what the fast reading doesn't (merge keys, collection tags such as !!set)."""


_FLOAT = "tag:yaml.org,2002:float"
_MERGE = "tag:yaml.org,2002:merge"
_PLAIN_KEY_TAGS = (_STR, _INT, _NULL, _BOOL)
_DIGITS = re.compile(r"[0-9a-fA-F]")


class _Reader:
    """One walk over a document's nodes: its data (as PyYAML's safe constructor builds it, for the
    plain scalars, sequences and mappings cases are made of), the line of every value, duplicate keys,
    and the limits of harness/limits.py. PyYAML's constructor, in Python, took as long as parsing itself.

    Every node is read once: an alias to a node already read reuses its value and its lines (they
    are the same wherever the alias is), so the time is linear in the document even when aliases
    multiply what it expands to; that expanded size is counted, and bounded, without expanding it."""

    def __init__(self, loader: Any, path: Path, *, duplicates: bool = True) -> None:
        self.loader = loader
        self.path = path
        self.duplicates = duplicates  # an error (as written), or skipped (as PyYAML merged keys in)
        self.built: dict[int, tuple[Any, Lines, int, int]] = {}  # node -> (value, lines, values, height)
        self.open: set[int] = set()  # collections being read (an alias to one is recursive)
        self.values = 0  # read so far, aliases expanded

    def fail(self, node: yaml.Node, message: str) -> YamlError:
        return YamlError(self.path, node.start_mark.line + 1, message)

    def count(self, node: yaml.Node, values: int, depth: int, height: int) -> None:
        self.values += values
        if self.values > MAX_VALUES:
            raise self.fail(node, f"the document holds more than {MAX_VALUES} values (aliases counted as often "
                                  "as they repeat what they point to)")
        if depth + height - 1 > MAX_DEPTH:
            raise self.fail(node, f"the document nests deeper than {MAX_DEPTH} levels")

    def read(self, node: yaml.Node, depth: int = 1, *, exotic_ok: bool = False) -> tuple[Any, Lines, int, int]:
        """(value, lines, values, height) of `node`. With exotic_ok, collections the fast reading
        doesn't build (merge keys, !!set...) are walked for their lines and limits only (value None)."""
        if isinstance(node, yaml.ScalarNode):
            self.count(node, 1, depth, 1)
            return self.scalar(node), (node.start_mark.line + 1, None), 1, 1
        key = id(node)
        known = self.built.get(key)
        if known is not None:
            self.count(node, known[2], depth, known[3])
            return known
        if key in self.open:
            raise self.fail(node, "a recursive alias: it refers to a collection it is part of")
        if depth > MAX_DEPTH:
            raise self.fail(node, f"the document nests deeper than {MAX_DEPTH} levels")
        self.open.add(key)
        self.values += 1
        line = node.start_mark.line + 1
        values, height = 1, 1
        if isinstance(node, yaml.SequenceNode):
            if node.tag != _SEQ and not exotic_ok:
                raise _Exotic(node.tag)
            items, item_lines = [], []
            for child in node.value:
                value, child_lines, child_values, child_height = self.read(child, depth + 1, exotic_ok=exotic_ok)
                items.append(value)
                item_lines.append(child_lines)
                values += child_values
                height = max(height, child_height + 1)
            built: tuple[Any, Lines, int, int] = (items, (line, item_lines), values, height)
        else:
            if node.tag != _MAP and not exotic_ok:
                raise _Exotic(node.tag)
            mapping: dict[Any, Any] = {}
            children: dict[str, Lines] = {}
            for key_node, value_node in node.value:
                plain = isinstance(key_node, yaml.ScalarNode) and key_node.tag in _PLAIN_KEY_TAGS
                if not plain and not exotic_ok:
                    raise _Exotic("a key that is not a plain scalar")
                if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == _MERGE:
                    if not isinstance(key_node, yaml.ScalarNode):
                        self.read(key_node, depth + 1, exotic_ok=True)
                    _, _, child_values, child_height = self.read(value_node, depth + 1, exotic_ok=True)
                    values += child_values
                    height = max(height, child_height + 1)
                    continue
                raw = key_node.value
                if raw in children:
                    if self.duplicates:
                        raise self.fail(key_node, f"duplicate key {excerpt(raw)}")
                    continue  # as constructed: the first of a key is where it was written
                value, children[raw], child_values, child_height = self.read(value_node, depth + 1,
                                                                             exotic_ok=exotic_ok)
                if not exotic_ok:
                    mapping[self.scalar(key_node)] = value
                else:
                    self.scalar(key_node)
                values += child_values
                height = max(height, child_height + 1)
            built = (mapping, (line, children), values, height)
        self.open.discard(key)
        self.built[key] = built
        return built

    def scalar(self, node: yaml.ScalarNode) -> Any:
        tag, value = node.tag, node.value
        if tag == _STR:
            return value
        try:
            if tag == _NULL:
                return self.loader.construct_yaml_null(node)
            if tag == _BOOL:
                return self.loader.bool_values[value.lower()]
            if tag == _INT:
                digits = len(_DIGITS.findall(value.split(":")[0] if ":" not in value else value))
                if digits > MAX_INT_DIGITS + 2:  # before converting: Python refuses 4,300 digits
                    raise self.fail(node, f"an integer of more than {MAX_INT_DIGITS} digits ({excerpt(value)})")
                number = int(value) if _DECIMAL.match(value) else self.loader.construct_yaml_int(node)
                if abs(number) > MAX_INT:
                    raise self.fail(node, f"an integer of more than {MAX_INT_DIGITS} digits ({excerpt(value)})")
                return number
            if tag == _FLOAT:
                return self.loader.construct_yaml_float(node)
            return self.loader.construct_object(node)  # !!timestamp, !!binary...: PyYAML's safe types
        except YamlError:
            raise
        except (ValueError, TypeError, KeyError, AttributeError, OverflowError, yaml.YAMLError) as exc:
            short = tag.replace("tag:yaml.org,2002:", "!!")
            raise self.fail(node, f"{excerpt(value)} is not a valid {short} value") from exc


def load_text(text: str, path: Path) -> Document:
    """Parse one YAML document; YamlError on syntax errors, duplicate keys, bad tagged values and
    anything beyond the limits of harness/limits.py."""
    loader = SafeLoader(text)
    try:
        try:
            node = loader.get_single_node()
        except RecursionError:  # the pure-Python composer recurses once per level
            raise YamlError(path, 1, f"the document nests deeper than {MAX_DEPTH} levels") from None
        if node is None:
            return Document(path, None, None)
        reader = _Reader(loader, path)
        try:
            data, lines, _, _ = reader.read(node)
        except _Exotic:  # the safe constructor knows every YAML type
            _Reader(loader, path).read(node, exotic_ok=True)  # limits, tagged values, duplicate keys as written
            try:
                data = loader.construct_document(node)
            except (ValueError, TypeError, KeyError, AttributeError, OverflowError) as exc:
                raise YamlError(path, 1, f"invalid YAML: {excerpt(str(exc))}") from None
            lines = _Reader(loader, path, duplicates=False).read(node, exotic_ok=True)[1]  # as constructed (merge keys merged in)
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
    if len(raw) > MAX_FILE_BYTES:
        raise YamlError(path, 1, f"the file has {len(raw)} bytes, more than the limit of {MAX_FILE_BYTES}")
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
