"""The JSON Schemas, compiled once per process and reused for every file and message.

Most instances are valid, and for those only the yes matters: jsonschema-rs answers it in
microseconds. When it says no, jsonschema describes the problems, so every message comes from
jsonschema. jsonschema is imported only then: importing it is a tenth of the command's start-up."""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterator

from harness.limits import excerpt
from harness.paths import schema_dir

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError
    from referencing import Registry


@lru_cache(maxsize=None)
def schema(name: str) -> dict[str, Any]:
    """Load schema/<name>.schema.json (or schema/<name>.json for nested paths such as protocol/run)."""
    base = schema_dir()
    path = base / f"{name}.schema.json"
    if not path.exists():
        path = base / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def registry() -> Registry:
    """Every schema by its $id, so one schema can $ref another (protocol/run refers to case.schema.json)."""
    from referencing import Registry, Resource

    resources = []
    for path in sorted(schema_dir().rglob("*.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        if "$id" in contents:
            resources.append((contents["$id"], Resource.from_contents(contents)))
    return Registry().with_resources(resources)


@lru_cache(maxsize=None)
def validator(name: str) -> Draft202012Validator:
    return _strict_validator_class()(schema(name), registry=registry())


@lru_cache(maxsize=None)
def _strict_validator_class():
    """Draft 2020-12 with strict integers: JSON Schema counts 3.0 (and 1e16) as an integer, which would
    let `life: 3.0` through validation only to be blamed on the engine when compared."""
    from jsonschema import Draft202012Validator, validators

    checker = Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _checker, x: isinstance(x, int) and not isinstance(x, bool))
    return validators.extend(Draft202012Validator, type_checker=checker)


@dataclass(frozen=True)
class SchemaProblem:
    path: tuple[str | int, ...]
    message: str
    hint: str | None = None


@lru_cache(maxsize=None)
def fast_validator(name: str) -> Any:
    """jsonschema-rs's validator of schema `name` (draft 2020-12), $refs resolved among our schemas."""
    import jsonschema_rs

    resources = []
    for path in sorted(schema_dir().rglob("*.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        if "$id" in contents:
            resources.append((contents["$id"], contents))
    return jsonschema_rs.Draft202012Validator(schema(name), registry=jsonschema_rs.Registry(resources))


def surely_valid(name: str, instance: Any, *, floats: bool | None = None) -> bool:
    """True if jsonschema-rs finds `instance` valid (final); False if it doesn't or can't read it (a
    value JSON has no type for: jsonschema then decides). An instance with a float is left to
    jsonschema too: jsonschema-rs, like the spec, counts 3.0 as an integer, and our integers are strict.
    `floats` says whether `instance` holds a float, when the caller's own walk found out
    (limits.plain_data_scan); None: it is walked here to find out."""
    if _has_float(instance) if floats is None else floats:
        return False
    try:
        return bool(fast_validator(name).is_valid(instance))
    except (ValueError, TypeError, OverflowError):
        return False


def _has_float(instance: Any) -> bool:
    pending = [instance]
    while pending:
        value = pending.pop()
        if isinstance(value, float):
            return True
        if isinstance(value, dict):
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return False


def problems(name: str, instance: Any, limit: int = 10) -> list[SchemaProblem]:
    """Schema violations of `instance`, most relevant first, one per location. Valid instances (most)
    are recognized by the compiled check; jsonschema describes the problems of the others."""
    if surely_valid(name, instance):
        return []
    found: list[SchemaProblem] = []
    seen: set[tuple] = set()
    from jsonschema.exceptions import relevance

    for error in sorted(validator(name).iter_errors(instance), key=relevance):
        error = _most_specific(error)
        key = tuple(error.absolute_path)
        if key in seen:
            continue
        seen.add(key)
        found.append(_describe(error))
        if len(found) >= limit:
            break
    return found


def _most_specific(error: ValidationError) -> ValidationError:
    """For oneOf/anyOf failures, descend to the branch error that got furthest into the instance."""
    while error.context:
        best = max(error.context, key=lambda e: (len(e.absolute_path), -_branch_penalty(e)))
        if len(best.absolute_path) <= len(error.absolute_path) and best.validator in ("type", "const", "enum", "pattern"):
            break
        error = best
    return error


def _branch_penalty(error: ValidationError) -> int:
    # Prefer errors about a specific key over type mismatches of a whole alternative.
    return 1 if error.validator in ("type", "oneOf", "anyOf") else 0


def _describe(error: ValidationError) -> SchemaProblem:
    path = tuple(error.absolute_path)
    schema: Any = error.schema  # jsonschema's types allow an unset or boolean schema; ours are objects
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = list(schema.get("properties", {}))
        patterns = [re.compile(p) for p in schema.get("patternProperties", {})]
        extras = [key for key in error.instance if key not in allowed and not any(p.search(str(key)) for p in patterns)]
        hints, unmatched = [], False
        for extra in extras[:10]:
            close = difflib.get_close_matches(str(extra)[:100], allowed, n=1)
            if close:
                hints.append(f"{excerpt(extra)}: did you mean {close[0]!r}?" if len(extras) > 1 else
                             f"did you mean {close[0]!r}?")
            else:
                unmatched = True
        if unmatched:  # once, however many keys it is the answer for
            hints.append(f"allowed: {', '.join(allowed)}")
        names = ", ".join(excerpt(e) for e in extras[:10]) + (f" and {len(extras) - 10} more" if len(extras) > 10 else "")
        return SchemaProblem(path, f"unknown key {names}", "; ".join(hints) or None)
    if error.validator == "required":
        return SchemaProblem(path, error.message.replace("is a required property", "is required"))
    if error.validator == "enum":
        options: Any = error.validator_value
        close = difflib.get_close_matches(str(error.instance)[:100], [str(o) for o in options], n=1)
        hint = f"did you mean {close[0]!r}?" if close else f"expected one of: {', '.join(map(str, options))}"
        return SchemaProblem(path, f"{excerpt(error.instance)} is not {_what(schema) or 'allowed here'}", hint)
    if error.validator == "propertyNames":
        return SchemaProblem(path, f"bad key: {error.message}")
    description = schema.get("description") if isinstance(schema, dict) else None
    message = error.message
    shown = repr(error.instance)
    if len(shown) > 100 and shown in message:  # jsonschema quotes the whole value
        message = message.replace(shown, excerpt(error.instance))
    return SchemaProblem(path, message, f"expected: {description}" if description else None)


def _what(schema: Any) -> str | None:
    """'a kind of counter' from a description such as 'A kind of counter.', to name what was expected."""
    description = schema.get("description", "") if isinstance(schema, dict) else ""
    first = description.split(". ")[0].rstrip(".")
    if first.startswith(("A ", "An ")) and ":" not in first:
        return first[0].lower() + first[1:]
    return None


def iter_messages(name: str, instance: Any) -> Iterator[str]:
    """Plain messages, for strict protocol checks."""
    from harness.yamlio import format_path

    for problem in problems(name, instance):
        hint = f" ({problem.hint})" if problem.hint else ""
        yield f"{format_path(problem.path)}: {problem.message}{hint}"
