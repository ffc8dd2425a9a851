"""The schemas themselves: valid 2020-12 schemas, a description on every property, closed objects."""

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from tests.conftest import REPO

SCHEMAS = sorted((REPO / "schema").rglob("*.json"))


def walk(node, path="#"):
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from walk(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from walk(value, f"{path}/{index}")


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_schema_is_valid(path: Path) -> None:
    Draft202012Validator.check_schema(json.loads(path.read_text()))


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_every_property_has_a_description(path: Path) -> None:
    schema = json.loads(path.read_text())
    missing = []
    for where, node in walk(schema):
        for name, prop in node.get("properties", {}).items() if isinstance(node.get("properties"), dict) else []:
            if isinstance(prop, dict) and "description" not in prop and "$ref" not in prop:
                missing.append(f"{where}/properties/{name}")
    assert missing == []


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_objects_reject_unknown_keys(path: Path) -> None:
    schema = json.loads(path.read_text())
    open_objects = [where for where, node in walk(schema)
                    if node.get("type") == "object" and "properties" in node
                    and node.get("additionalProperties", True) is not False
                    and "unevaluatedProperties" not in node]
    assert open_objects == []


def test_every_case_file_declares_its_schema_for_editors() -> None:
    schema_of = {"rules-exempt": "rules-exempt"}  # folders of the corpus whose files aren't cases
    missing = [str(p.relative_to(REPO)) for p in (REPO / "cases").rglob("*.yaml")
               if p.parent.name != "cards" and p.name != "rulings.yaml"
               and not p.read_text().startswith("# yaml-language-server: $schema=../../schema/"
                                                f"{schema_of.get(p.parent.name, 'case')}.schema.json")]
    assert missing == []
