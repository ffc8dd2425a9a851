"""The JSON Schema (2020-12) of the card definitions in reference_engine/cards/, built from the
engine's registries (effects, trigger matchers, filter conditions, game and source conditions,
static modifiers), and the check of each file against it when the definitions are loaded.

Without it an unknown key was silently ignored, and a case then failed as if the engine had
answered a rules question. A file that breaks the schema is a CardDefinitionError naming the file,
the line, the key and its close matches.
"""

from __future__ import annotations

import difflib
from functools import lru_cache
from typing import Any

import yaml

from reference_engine.model import AbilityKind

ABILITY_KINDS = tuple(kind.value for kind in AbilityKind)

#: The keys of each kind of ability (those the rules core reads).
KIND_KEYS: dict[str, dict[str, str]] = {
    "keyword": {"text": "string", "name": "string", "cost": "cost", "additional_cost": "cost", "cast_cost": "cost", "extra_cost": "cost",
                "if_you_control": "filter", "if_x_at_most": "any"},
    "mana": {"text": "string", "cost": "cost", "add": "any", "intrinsic": "any", "spend_only": "any", "timing": "any"},
    "activated": {"text": "string", "cost": "cost", "targets": "targets", "effect": "steps", "timing": "any", "becomes_level": "any",
                  "limit": "any"},
    "loyalty": {"text": "string", "cost": "any", "targets": "targets", "effect": "steps"},
    "triggered": {"text": "string", "when": "trigger", "if": "game_condition", "targets": "targets", "effect": "steps",
                  "mana_ability": "any", "effect_mana": "any", "class_level": "any", "once_each_turn": "any",
                  "modes": "modes_list", "anchor": "string", "choose_modes": "any",
                  "each_mode_different_player": "any"},
    "static": {"text": "string", "affects": "filter", "while": "source_condition", "effects": "modifiers", "cda": "any",
               "anchor": "string"},
    "replacement": {"text": "string", "as_enters_choose": "any", "mana_production": "any", "as_enters_copy": "any",
                    "enters_with_counters": "any", "counters_placed": "any", "graveyard_to_exile": "any", "graveyard_instead": "any",
                    "enters_tapped": "any", "others_enter_tapped": "any", "as_enters_day_if_neither": "any",
                    "damage_prevention": "any", "damage_multiply": "any", "damage_add": "any",
                    "tokens_multiply": "any", "draw_from_empty_library": "any",
                    "opponents_life_gain": "any", "as_enters_turn_face_down": "filter", "as_enters_exile": "any",
                    "as_turned_face_up": "any", "others_enter_with_counters": "any",
                    "opponents_draws_instead": "any", "as_enters_may_pay_life": "any",
                    "pay_life_exiles_library": "any", "as_transforms_into": "any", "effect": "steps",
                    "dies_exile_instead": "any"},
    "spell": {"text": "string", "targets": "targets", "effect": "steps", "divide": "any", "modes": "modes_list",
              "choose_modes": "any"},
    "rule": {"text": "string", "triggers_additional_time": "any", "additional_loyalty_cost": "any", "cant_attack": "any",
             "doesnt_untap": "filter", "max_counters": "any", "player_hexproof": "any",
             "spell_cost_increase_per_other_spell": "any", "instead_of_losing": "any", "no_max_hand_size": "any",
             "alternative_cost": "cost", "cost_reduction": "any", "cast_without_paying": "any", "cant_activate": "any",
             "cant_block": "any", "cant_cast": "any", "life_total_cant_change": "any", "cant_enter": "filter",
             "cant_play_lands": "any", "on_enter": "steps", "keyword": "string", "additional_sacrifice": "filter",
             "cant_be_countered": "any", "enchanted_is_copy_of_chosen": "any", "cant_have_counters": "filter",
             "players_cant_get_counters": "any", "radiation_gains_life": "any", "play_lands_from_top_of_library": "any",
             "cast_from_top_of_library": "any"},
}

#: The parameters of each named effect (tests/test_card_schema.py checks them against what each
#: effect's function reads). An effect missing here takes any parameters.
EFFECT_PARAMS: dict[str, tuple[str, ...]] = {
    "damage": ("amount", "instead", "to"), "damage_divided": (), "spend_as_any_type": (), "destroy": ("cant_be_regenerated", "what"), "sacrifice": ("what",), "counter": ("what",),
    "return_to_battlefield": ("counters", "is", "transformed", "under", "what"), "draw": ("count", "who"),
    "exile_linked": ("others_to_graveyard", "what"),
    "gain_life": ("amount",), "meld": ("with",), "create_token": ("attached_to", "count", "counters", "named", "predefined", "tapped", "token"), "modify": ("effects", "until", "what"),
    "if": ("condition", "then"), "add_counters": ("amount", "kind", "what"), "remove_all_counters": ("what",),
    "add_or_remove_counter": ("what",), "transform": ("what",), "sacrifice_unless": ("filter",),
    "create_emblem": ("abilities",), "fight": ("what",), "choose_any_number": ("describe", "filter", "max"),
    "prevent_damage": ("combat", "source", "to", "until"), "return_to_hand": ("what",), "lose_life": ("amount", "who"),
    "mill": ("count",), "attach": ("to", "what"), "blight": ("amount", "optional", "then"),
    "create_token_copy": ("abilities", "attacking", "of", "tapped"), "may": ("prompt", "then"),
    "may_pay": ("by", "cost", "then"), "may_pay_x": ("cost", "then"), "may_pay_any_number_of_times": ("cost", "then"), "return_all_to_battlefield": ("filter", "tapped", "whose"), "draw_and_reveal": ("discard_unless",), "phase_out": ("what",), "when_resolved_times": ("ability", "n"), "if_resolved_times": ("n", "then"), "copy_card_named": ("among", "may_cast", "not_chosen_before"), "choose_to_hand": ("among", "filter", "what"),
    "become_copy": ("choose", "until", "what"), "exile": ("what",), "look_at_top": ("count",),
    "move_counter": ("from", "kind", "to"), "rest_to_bottom": (), "shuffle_into_library": ("who", "zones"),
    "tap": ("what",), "untap": ("what",), "copy_spell": ("except", "new_targets", "not_legendary", "times", "what"),
    "copy_spell_with_target": ("target", "what"), "copy_spell_for_each": ("each", "what"), "copy_ability": ("new_targets", "what"), "put_on_top_of_library": ("what",), "cast_copy": ("times", "what"), "gain_class_level": ("level",),
    "living_death": (), "manifest": (), "set_life": ("amount",),
    "add_mana": ("any_color",), "delayed_trigger": ("ability", "this_turn"), "reflexive": ("ability",), "discard": ("count", "who"), "player_sacrifices": ("describe", "filter", "who"),
    "drain_power": ("who",), "each_player_sacrifices": ("describe", "filter"), "exile_graveyard": ("player",),
    "may_search": ("describe", "filter", "then", "to"), "opponents_lose_life": ("amount",),
    "player_draws": ("count", "who"), "change_text": ("what", "word"), "turn_face_up": ("what",), "next_spell": ("filter", "rule"),
    "prevent_next": ("amount", "prevented_this_way", "to"),
    "prevent_next_instance": ("choose_source", "from", "prevented_this_way", "to"), "redirect_damage": ("combat", "to"),
    "regenerate": ("what",), "give_counters": ("count", "kind", "who"), "radiation": (), "skip_draw_step": (), "enter_under_your_control": ("filter",), "skip_next": ("player", "step"), "this_turn": (),
}
#: Effects whose parameter is a single value rather than a mapping.
VALUE_EFFECTS = ("become_day_night", "unmodelled", "this_turn", "add_mana")  # add_mana: also {any_color: N}
#: Parameters that hold abilities, steps, a filter or continuous effects, checked as such.
NESTED = {"choose_source": "filter", "each": "filter", "abilities": "abilities", "ability": "ability", "then": "steps", "filter": "filter", "token": "token", "effects": "modifiers"}


class CardDefinitionError(ValueError):
    """A card definition file that breaks the schema: file:line: path: problem (did you mean ...?)."""


def _registries() -> dict[str, list[str]]:
    from reference_engine import conditions, effects, filters, layers, resolve, statics, triggers  # noqa: F401
    from reference_engine.carddefs import KNOWN_KEYWORDS

    return {"effects": sorted(effects.EFFECTS), "matchers": sorted(triggers.MATCHERS),
            "filters": sorted(filters.CONDITIONS), "game_conditions": sorted(conditions.GAME_CONDITIONS),
            "source_conditions": sorted(statics.SOURCE_CONDITIONS), "modifiers": sorted(layers.MODIFIERS),
            "keywords": sorted(KNOWN_KEYWORDS)}


def _one_of_names(names: list[str], value: dict[str, Any] | None = None) -> dict[str, Any]:
    """An object with exactly one key, named from `names`."""
    out: dict[str, Any] = {"type": "object", "minProperties": 1, "maxProperties": 1,
                           "propertyNames": {"enum": names}}
    if value is not None:
        out["additionalProperties"] = value
    return out


@lru_cache(maxsize=None)
def card_schema() -> dict[str, Any]:
    """The schema of one file of reference_engine/cards/: face name -> its abilities in printed order."""
    names = _registries()
    refs = {"string": {"type": "string"}, "cost": {"type": ["string", "integer"]}, "any": {},
            "targets": {"type": "array", "items": {"$ref": "#/$defs/target"}},
            "steps": {"$ref": "#/$defs/steps"}, "filter": {"$ref": "#/$defs/filter"},
            "trigger": _one_of_names(names["matchers"]),
            "game_condition": {"type": "object", "propertyNames": {"enum": names["game_conditions"]}},
            "source_condition": {"type": "object", "propertyNames": {"enum": names["source_conditions"]}},
            "modifiers": {"$ref": "#/$defs/modifiers"},
            # 'choose one —' (700.2): each mode its own targets and steps
            "modes_list": {"type": "array", "minItems": 2, "items": {
                "type": "object", "additionalProperties": False, "required": ["effect"],
                "properties": {"targets": {"type": "array", "items": {"$ref": "#/$defs/target"}},
                               "effect": {"$ref": "#/$defs/steps"}}}}}
    kinds = {kind: {"type": ["object", "null"], "additionalProperties": False,
                    "properties": {key: refs[shape] for key, shape in keys.items()}}
             for kind, keys in KIND_KEYS.items()}
    # {keyword: Name} names a keyword with rules of its own (cumulative upkeep); a bare name must be one
    # the rules core knows.
    kinds["keyword"] = {"oneOf": [{"type": "string"}, {**kinds["keyword"], "required": ["name"]}]}
    effects: dict[str, Any] = {}
    for name in names["effects"]:
        shapes: list[dict[str, Any]] = []
        if name in VALUE_EFFECTS:
            shapes.append({"not": {"type": "object"}})
        if name in EFFECT_PARAMS:
            shapes.append({"type": "object", "additionalProperties": False, "properties": {
                param: {"$ref": f"#/$defs/{NESTED[param]}"} if param in NESTED else {}
                for param in EFFECT_PARAMS[name]}})
        if shapes:
            effects[name] = shapes[0] if len(shapes) == 1 else {"anyOf": shapes}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "reference engine card definitions",
        "description": "Each face name (as in the Oracle data) with its abilities in printed order.",
        "type": ["object", "null"],
        "additionalProperties": {"type": ["array", "null"], "items": {"$ref": "#/$defs/ability"}},
        "$defs": {
            "ability": {"oneOf": [{"enum": names["keywords"]},
                                  {**_one_of_names(list(ABILITY_KINDS)), "properties": kinds}]},
            "abilities": {"type": "array", "items": {"$ref": "#/$defs/ability"}},
            "steps": {"type": "array", "items": {**_one_of_names(names["effects"]), "properties": effects}},
            "filter": {"type": "object", "propertyNames": {"enum": names["filters"]}},
            "target": {"type": "object", "additionalProperties": False, "required": ["what"], "properties": {
                "what": {"type": "string"}, "filter": {"$ref": "#/$defs/filter"}, "optional": {"type": "boolean"},
                "zone": {"type": "string"}, "player": {},
                # targets sharing one instance of the word 'target' ('up to two target creatures', 115.1d)
                "word": {"type": "integer"},
                # 'target activated ability' / 'target triggered ability' (an ability on the stack)
                "ability_kind": {"enum": ["activated", "triggered"]}}},
            "token": {"type": "object", "properties": {"abilities": {"$ref": "#/$defs/abilities"}}},
            "modifiers": {"type": "array", "items": {**_one_of_names(names["modifiers"]),
                                                     "properties": {"grant": {"$ref": "#/$defs/abilities"}}}},
        },
    }


@lru_cache(maxsize=None)
def _fast_validator() -> Any:
    import jsonschema_rs

    return jsonschema_rs.Draft202012Validator(card_schema())


def check_definitions(data: Any, text: str, file: str) -> None:
    """CardDefinitionError if `data` (the YAML `text` of `file`, loaded) breaks the schema."""
    if _fast_validator().is_valid(data):
        return
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    error = best_match(Draft202012Validator(card_schema()).iter_errors(data))
    while error.context:  # a oneOf: the branch that got furthest into the definition
        error = max(error.context, key=lambda e: (len(e.absolute_path), "propertyNames" in e.schema_path
                                                  or e.validator not in ("enum", "type")))
    path = list(error.absolute_path)
    problem, allowed = _problem(error)
    if allowed is not None:
        unknown = problem[0]
        what = "value"
        if not (error.validator == "enum" and "propertyNames" not in error.schema_path):
            path.append(unknown)
            what = "key"
        close = difflib.get_close_matches(str(unknown), allowed, n=3)
        message = f"unknown {what} {unknown!r}" + (f" (did you mean {', '.join(map(repr, close))}?)" if close else
                                                   f" (known: {', '.join(allowed)})")
    else:
        message = problem[1]
    raise CardDefinitionError(f"{file}:{line_of(text, path)}: {_shown(path)}: {message}")


def _problem(error: Any) -> tuple[tuple[Any, str], list[str] | None]:
    """(the unknown key, or None and the message), and the allowed names when a key is unknown."""
    schema, instance = error.schema, error.instance
    if error.validator in ("additionalProperties", "propertyNames", "maxProperties") and isinstance(instance, dict):
        names = schema.get("propertyNames", {}).get("enum") or list(schema.get("properties", {}))
        unknown = [key for key in instance if key not in names]
        if unknown:
            return (unknown[0], ""), list(names)
    if error.validator == "enum":  # a key (propertyNames) or a keyword not in the registry
        return (error.instance, ""), [str(v) for v in error.validator_value]
    return (None, error.message), None


def _shown(path: list[Any]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else str(p)) for i, p in enumerate(path)) or "$"


def line_of(text: str, path: list[Any]) -> int:
    """The line (1-based) of the key or item at `path` in the YAML `text`, or of its nearest parent."""
    node: Any = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    line = 1
    for part in path:
        if isinstance(node, yaml.MappingNode):
            found = next(((k, v) for k, v in node.value if k.value == part), None)
            if found is None:
                break
            line, node = found[0].start_mark.line + 1, found[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            break
    return line
