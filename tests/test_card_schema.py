"""Card definitions (reference_engine/cards/) are checked against their schema when loaded."""

from __future__ import annotations

import ast
import copy
import inspect
import textwrap

import pytest
import yaml

from reference_engine import adapter  # noqa: F401 (every registry filled)
from reference_engine import carddefs, effects
from reference_engine.cardschema import EFFECT_PARAMS, VALUE_EFFECTS, CardDefinitionError, check_definitions

DEFINITION = textwrap.dedent("""\
    # Shock: Shock deals 2 damage to any target.
    Shock:
      - spell:
          targets: [{what: any}]
          effect:
            - damage: {amount: 2, to: target.0}
    """)


def check(text: str) -> None:
    check_definitions(yaml.safe_load(text), text, "reference_engine/cards/shock.yaml")


def test_every_definition_file_is_valid() -> None:
    carddefs.behaviours.cache_clear()
    assert "Arlinn Kord" in carddefs.behaviours()
    check(DEFINITION)


@pytest.mark.parametrize("mistake, message", [
    (("targets:", "targest:"), "shock.yaml:4: Shock[0].spell.targest: unknown key 'targest' (did you mean 'targets'?)"),
    (("- damage:", "- damadge:"), "shock.yaml:6: Shock[0].spell.effect[0].damadge: unknown key 'damadge' "
                                  "(did you mean 'damage'?)"),
    (("amount: 2", "ammount: 2"), "shock.yaml:6: Shock[0].spell.effect[0].damage.ammount: unknown key 'ammount'"),
    (("- spell:", "- spel:"), "shock.yaml:3: Shock[0].spel: unknown key 'spel' (did you mean 'spell'?)"),
])
def test_an_unknown_key_names_the_file_the_line_and_close_matches(mistake, message) -> None:
    with pytest.raises(CardDefinitionError) as raised:
        check(DEFINITION.replace(*mistake))
    assert message in str(raised.value)


def test_an_unknown_filter_condition_or_keyword_is_named() -> None:
    with pytest.raises(CardDefinitionError, match=r"unknown key 'subtype_any' \(did you mean 'subtypes_any'"):
        check(DEFINITION.replace("{what: any}", "{what: creature, filter: {subtype_any: [Wolf]}}"))
    with pytest.raises(CardDefinitionError, match=r"unknown value 'Flyng' \(did you mean 'Flying'"):
        check(DEFINITION + "Wings:\n  - Flyng\n")


def reads(function) -> set[str]:
    """The keys a function reads from its last parameter (params["x"], params.get("x"), "x" in params)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    node = tree.body[0]
    assert isinstance(node, ast.FunctionDef)
    name = node.args.args[-1].arg
    found = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == name \
                and isinstance(n.slice, ast.Constant):
            found.add(n.slice.value)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "get" \
                and isinstance(n.func.value, ast.Name) and n.func.value.id == name and n.args \
                and isinstance(n.args[0], ast.Constant):
            found.add(n.args[0].value)
    return found


@pytest.mark.parametrize("name", sorted(effects.EFFECTS))
def test_each_effects_parameters_are_those_its_function_reads(name: str) -> None:
    """The schema is built from the effect registry: each registered effect is declared, with the
    parameters its function reads (an effect missing from EFFECT_PARAMS would take anything)."""
    assert name in EFFECT_PARAMS or name in VALUE_EFFECTS, f"add {name!r} to EFFECT_PARAMS in reference_engine/cardschema.py"
    if name in EFFECT_PARAMS:
        assert reads(effects.EFFECTS[name]) <= set(EFFECT_PARAMS[name])


def test_loading_leaves_the_definitions_as_written() -> None:
    data = yaml.safe_load((carddefs.resources.files("reference_engine") / "cards" / "arlinn-kord.yaml").read_text())
    before = copy.deepcopy(data)
    for abilities in data.values():
        for ability in abilities:
            carddefs.parse_ability(ability)
    assert data == before
