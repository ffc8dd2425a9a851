"""Is an instance valid, yes or no: checks compiled once from the JSON Schemas into plain closures.

jsonschema interprets a schema anew for every instance (about 2.5 ms per case) and most instances are
valid: for those, only the yes matters. A compiled check answers it in a fraction of the time; when
it says no, or can't be sure, the harness asks jsonschema for the errors, so every message still
comes from jsonschema.

A compiled check must never say yes where jsonschema would find an error: each keyword below does
what jsonschema's does, and where that is not certain (a value of an unusual type, an equality
jsonschema decides in its own way) the check raises Unsure. A keyword jsonschema implements and this
module doesn't makes the whole schema Unsupported: it is then always left to jsonschema.
"""

from __future__ import annotations

import numbers
import re
from typing import Any, Callable

Check = Callable[[Any], bool]


def asserting_keywords() -> frozenset[str]:
    """Every keyword jsonschema implements for draft 2020-12; others are annotations (description, ...)."""
    from jsonschema import Draft202012Validator

    return frozenset(Draft202012Validator.VALIDATORS)


class Unsure(Exception):
    """The compiled check can't decide exactly as jsonschema would: ask jsonschema."""


class Unsupported(Exception):
    """The schema uses a keyword this module doesn't compile."""


def compile_schema(schema: Any, registry: Any) -> Check:
    """The check of `schema`, whose $refs resolve in `registry` (a `referencing.Registry`)."""
    resolver = registry.resolver()
    if isinstance(schema, dict) and "$id" in schema:  # the registry's own copy, which its $refs lead back to
        resolved = resolver.lookup(schema["$id"])
        if resolved.contents != schema:
            raise Unsupported(f"the registry has another schema with the $id {schema['$id']}")
        schema, resolver = resolved.contents, resolved.resolver
    return _Compiler(asserting_keywords()).compile(schema, resolver)


def _always(instance: Any) -> bool:
    return True


def _never(instance: Any) -> bool:
    return False


def _is_integer(x: Any) -> bool:
    """Strict, as harness.schemas' validator: 3.0 is a number, not an integer (cases and replies are
    data written by people and programs, where a float for a count is a mistake)."""
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number(x: Any) -> bool:
    return isinstance(x, numbers.Number) and not isinstance(x, bool)


TYPES: dict[str, Check] = {
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "string": lambda x: isinstance(x, str),
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
    "integer": _is_integer,
    "number": _is_number,
}
_SCALARS = (str, int, float, bool, type(None))


def _equal_scalar(x: Any, value: Any) -> bool:
    """jsonschema's equality with a scalar `value` (from the schema): True and 1 differ, 1 and 1.0
    don't, a list or an object equals no scalar."""
    if not isinstance(value, _SCALARS):
        raise Unsure
    if isinstance(x, (list, dict)):
        return False
    if not isinstance(x, _SCALARS):
        raise Unsure
    if isinstance(x, bool) or isinstance(value, bool):
        return x is value
    return x == value


def _keys(x: dict) -> dict:
    """The instance's keys are iterated: only string keys are compared as jsonschema compares them."""
    for key in x:
        if type(key) is not str:
            raise Unsure
    return x


class _Compiler:
    def __init__(self, asserting: frozenset[str]) -> None:
        self.asserting = asserting
        self.done: dict[int, Check] = {}

    def compile(self, schema: Any, resolver: Any) -> Check:
        key = id(schema)
        if key in self.done:
            return self.done[key]
        cell: list[Check] = []
        self.done[key] = lambda x: cell[0](x)  # a reference back to a schema being compiled
        check = self._compile(schema, resolver)
        cell.append(check)
        self.done[key] = check
        return check

    def _compile(self, schema: Any, resolver: Any) -> Check:
        if schema is True:
            return _always
        if schema is False:
            return _never
        if not isinstance(schema, dict):
            raise Unsupported(f"a schema that is not an object: {schema!r}")
        checks: list[Check] = []
        for keyword, value in schema.items():
            compile_keyword = KEYWORDS.get(keyword)
            if compile_keyword is not None:
                check = compile_keyword(self, value, schema, resolver)
                if check is not None:
                    checks.append(check)
            elif keyword in self.asserting:
                raise Unsupported(keyword)
            elif keyword == "$id" and resolver.lookup(value).contents is not schema:
                raise Unsupported("a resource embedded in a schema ($id in a subschema)")
        checks.sort(key=lambda c: getattr(c, "first", False), reverse=True)  # the type first: it fails fast
        if not checks:
            return _always
        if len(checks) == 1:
            return checks[0]
        every = tuple(checks)

        def all_of(x: Any) -> bool:
            for check in every:
                if not check(x):
                    return False
            return True
        return all_of


# --- keywords ----------------------------------------------------------------------------------------
KEYWORDS: dict[str, Callable[[_Compiler, Any, dict, Any], Check | None]] = {}


def keyword(name: str):
    def register(fn):
        KEYWORDS[name] = fn
        return fn
    return register


@keyword("type")
def _type(c: _Compiler, value: Any, schema: dict, resolver: Any) -> Check:
    names = value if isinstance(value, list) else [value]
    if any(name not in TYPES for name in names):
        raise Unsupported(f"type {value!r}")
    if len(names) == 1:
        check = TYPES[names[0]]

        def one_type(x: Any) -> bool:
            return check(x)
        one_type.first = True  # type: ignore[attr-defined]
        return one_type
    checks = tuple(TYPES[name] for name in names)

    def any_type(x: Any) -> bool:
        return any(check(x) for check in checks)
    any_type.first = True  # type: ignore[attr-defined]
    return any_type


@keyword("enum")
def _enum(c: _Compiler, values: list, schema: dict, resolver: Any) -> Check:
    if all(isinstance(v, str) for v in values):
        strings = frozenset(values)
        return lambda x: isinstance(x, str) and x in strings  # jsonschema: a string equals only an equal string
    return lambda x: any(_equal_scalar(x, v) for v in values)


@keyword("const")
def _const(c: _Compiler, value: Any, schema: dict, resolver: Any) -> Check:
    return lambda x: _equal_scalar(x, value)


@keyword("required")
def _required(c: _Compiler, names: list, schema: dict, resolver: Any) -> Check:
    names = tuple(names)
    return lambda x: not isinstance(x, dict) or all(name in x for name in names)


@keyword("properties")
def _properties(c: _Compiler, properties: dict, schema: dict, resolver: Any) -> Check:
    checks = {name: c.compile(sub, resolver) for name, sub in properties.items()}

    def check(x: Any) -> bool:
        if not isinstance(x, dict):
            return True
        for name, value in x.items():
            sub = checks.get(name) if type(name) is str else None
            if sub is not None and not sub(value):
                return False
        return True
    return check


@keyword("patternProperties")
def _pattern_properties(c: _Compiler, patterns: dict, schema: dict, resolver: Any) -> Check:
    checks = tuple((re.compile(pattern).search, c.compile(sub, resolver)) for pattern, sub in patterns.items())

    def check(x: Any) -> bool:
        if not isinstance(x, dict):
            return True
        for search, sub in checks:
            for name, value in _keys(x).items():
                if search(name) and not sub(value):
                    return False
        return True
    return check


@keyword("additionalProperties")
def _additional_properties(c: _Compiler, additional: Any, schema: dict, resolver: Any) -> Check:
    known = frozenset(schema.get("properties", {}))
    joined = "|".join(schema.get("patternProperties", {}))  # as jsonschema matches them
    search = re.compile(joined).search if joined else None
    sub = c.compile(additional, resolver)

    def check(x: Any) -> bool:
        if not isinstance(x, dict):
            return True
        for name, value in _keys(x).items():
            if name in known or (search is not None and search(name)):
                continue
            if not sub(value):
                return False
        return True
    return check


@keyword("propertyNames")
def _property_names(c: _Compiler, names: Any, schema: dict, resolver: Any) -> Check:
    sub = c.compile(names, resolver)
    return lambda x: not isinstance(x, dict) or all(sub(name) for name in _keys(x))


@keyword("items")
def _items(c: _Compiler, items: Any, schema: dict, resolver: Any) -> Check:
    if isinstance(items, list):
        raise Unsupported("items as a list")
    sub = c.compile(items, resolver)

    def check(x: Any) -> bool:
        if not isinstance(x, list):
            return True
        for item in x:
            if not sub(item):
                return False
        return True
    return check


@keyword("uniqueItems")
def _unique_items(c: _Compiler, unique: bool, schema: dict, resolver: Any) -> Check | None:
    if not unique:
        return None

    def check(x: Any) -> bool:
        if not isinstance(x, list):
            return True
        if all(type(item) is str or type(item) is int for item in x):  # equal as jsonschema says (not bools)
            return len(set(x)) == len(x)
        raise Unsure
    return check


@keyword("pattern")
def _pattern(c: _Compiler, pattern: str, schema: dict, resolver: Any) -> Check:
    search = re.compile(pattern).search
    return lambda x: not isinstance(x, str) or search(x) is not None


#: Bounds: keyword -> (what it bounds, the instances it applies to (others pass), whether it's a minimum).
BOUNDS: dict[str, tuple[Callable[[Any], Any], Check, bool]] = {
    "minProperties": (len, TYPES["object"], True), "maxProperties": (len, TYPES["object"], False),
    "minItems": (len, TYPES["array"], True), "maxItems": (len, TYPES["array"], False),
    "minLength": (len, TYPES["string"], True), "maxLength": (len, TYPES["string"], False),
    "minimum": (lambda x: x, _is_number, True), "maximum": (lambda x: x, _is_number, False),
}


def _bound(measure: Callable[[Any], Any], applies: Check, minimum: bool):
    def compile_bound(c: _Compiler, n: Any, schema: dict, resolver: Any) -> Check:
        if minimum:
            return lambda x: not applies(x) or measure(x) >= n
        return lambda x: not applies(x) or measure(x) <= n
    return compile_bound


for _name, (_measure, _applies, _minimum) in BOUNDS.items():
    keyword(_name)(_bound(_measure, _applies, _minimum))


@keyword("oneOf")
def _one_of(c: _Compiler, schemas: list, schema: dict, resolver: Any) -> Check:
    checks = tuple(c.compile(sub, resolver) for sub in schemas)

    def check(x: Any) -> bool:
        valid = 0
        for sub in checks:  # every branch is decided (or Unsure): the count is exact
            if sub(x):
                valid += 1
        return valid == 1
    return check


@keyword("anyOf")
def _any_of(c: _Compiler, schemas: list, schema: dict, resolver: Any) -> Check:
    checks = tuple(c.compile(sub, resolver) for sub in schemas)
    return lambda x: any(sub(x) for sub in checks)


@keyword("allOf")
def _all_of(c: _Compiler, schemas: list, schema: dict, resolver: Any) -> Check:
    checks = tuple(c.compile(sub, resolver) for sub in schemas)
    return lambda x: all(sub(x) for sub in checks)


@keyword("if")
def _if(c: _Compiler, condition: Any, schema: dict, resolver: Any) -> Check:
    test = c.compile(condition, resolver)
    then = c.compile(schema["then"], resolver) if "then" in schema else _always
    otherwise = c.compile(schema["else"], resolver) if "else" in schema else _always
    return lambda x: then(x) if test(x) else otherwise(x)


@keyword("format")
def _format(c: _Compiler, value: Any, schema: dict, resolver: Any) -> None:
    """jsonschema asserts formats only when given a format checker; the harness gives it none."""
    return None


@keyword("$ref")
def _ref(c: _Compiler, ref: str, schema: dict, resolver: Any) -> Check:
    resolved = resolver.lookup(ref)
    return c.compile(resolved.contents, resolved.resolver)
