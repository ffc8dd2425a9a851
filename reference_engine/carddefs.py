"""Cards as data: Oracle characteristics (sent with each case) plus behaviour from reference_engine/cards/.

Each file in cards/ maps face names to their abilities, in printed order, written in a small
vocabulary of ability kinds and named effects (see docs/reference-engine.md). A face with no entry
is supported only if its Oracle text is nothing but keywords the engine knows.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping

import yaml

from reference_engine.cardschema import ABILITY_KINDS, check_definitions
from reference_engine.costs import Cost
from reference_engine.mana import ManaCost
from reference_engine.model import Ability, CardDef, Face

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

#: Keywords the rules core implements; a face whose text is only these needs no definition.
KNOWN_KEYWORDS = frozenset({
    "Flash", "Flying", "Reach", "Haste", "Vigilance", "Trample", "Lifelink", "Deathtouch", "Menace",
    "First strike", "Double strike", "Indestructible", "Defender", "Changeling", "Daybound", "Nightbound", "Infect",
    "Hexproof", "Start your engines!", "Phasing",
})


class UnsupportedCard(Exception):
    """The engine has no definition for a card a case uses."""


@lru_cache(maxsize=None)
def behaviours() -> dict[str, tuple[Ability, ...]]:
    """Every definition in reference_engine/cards/, by face name."""
    out: dict[str, tuple[Ability, ...]] = {}
    folder = resources.files("reference_engine").joinpath("cards")
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".yaml"):
            continue
        text = entry.read_text(encoding="utf-8")
        data = yaml.load(text, Loader=Loader) or {}
        check_definitions(data, text, f"reference_engine/cards/{entry.name}")
        for face_name, abilities in data.items():
            if face_name in out:
                raise ValueError(f"{entry.name}: {face_name!r} is defined twice")
            try:
                out[face_name] = tuple(parse_ability(spec) for spec in abilities or [])
            except (ValueError, KeyError, TypeError) as exc:
                raise ValueError(f"{entry.name}: {face_name}: {exc}") from None
    return out


def parse_ability(spec: Mapping[str, Any] | str) -> Ability:
    """One ability entry: {kind: data}. Keywords may be written as a bare name. `text` gives the
    ability's text where the Oracle text of its face can't (a granted ability: the quoted text)."""
    ability = _parse_ability(spec)
    data = next(iter(spec.values())) if isinstance(spec, Mapping) and len(spec) == 1 else None
    if isinstance(data, Mapping) and isinstance(data.get("text"), str):
        return replace(ability, text=data["text"])
    return ability


def _parse_ability(spec: Mapping[str, Any] | str) -> Ability:
    if isinstance(spec, str):
        return Ability("keyword", {}, keyword=spec)
    if len(spec) != 1:
        raise ValueError(f"an ability has exactly one kind, got {list(spec)}")
    (kind, data), = spec.items()
    if kind not in ABILITY_KINDS:
        raise ValueError(f"unknown ability kind {kind!r}")
    if kind == "keyword":
        if isinstance(data, str):
            return Ability("keyword", {}, keyword=data)
        data = dict(data)
        keyword = data.pop("name")
        # an optional additional cost such as buyback (rule 601.2b)
        extra = ManaCost.parse(data["additional_cost"]) if "additional_cost" in data else None
        # flash for a cost increase (rule 601.3c)
        flash = ManaCost.parse(data["extra_cost"]) if "extra_cost" in data else None
        # a cost paid rather than the mana cost, such as disturb's (702.146a)
        instead = ManaCost.parse(data["cast_cost"]) if "cast_cost" in data else None
        return Ability("keyword", data, keyword=keyword, cost=Cost.parse(data["cost"]) if "cost" in data else None,
                       additional_cost=extra, extra_cost=flash, cast_cost=instead)
    data = dict(data or {})
    cost = None
    if kind in ("mana", "activated"):
        cost = Cost.parse(data["cost"])
    elif kind == "loyalty":
        cost = Cost.loyalty_cost(int(data["cost"]))
    elif kind == "static":
        data["effects"] = [_static_part(part) for part in data["effects"]]
    elif kind == "rule" and "alternative_cost" in data:  # 'you may pay ... rather than pay its mana cost'
        if "on_enter" in data:  # what paying it does as the permanent enters (dash, 608.3g)
            data["on_enter"] = [_parsed_step(step) for step in data["on_enter"]]
        return Ability(kind, data, alternative_cost=ManaCost.parse(data["alternative_cost"]))
    if "effect" in data:
        data["effect"] = [_parsed_step(step) for step in data["effect"] or []]
    if "modes" in data:  # a modal spell or triggered ability: each mode's steps parsed the same way (700.2)
        data["modes"] = [dict(mode, effect=[_parsed_step(step) for step in mode["effect"] or []])
                         for mode in data["modes"]]
    return Ability(kind, data, cost=cost)


def _parsed_step(step: dict[str, Any]) -> dict[str, Any]:
    """A step with the abilities inside it (granted abilities, emblems, tokens' abilities) parsed up
    front, also in the steps it runs afterwards ('If you do, ...': `then`); the definition as loaded
    is left as it was."""
    out = {}
    for name, params in step.items():
        if isinstance(params, dict):
            params = dict(params)
            for key in ("abilities", "grant", "has"):
                if key in params and isinstance(params[key], list):
                    params[key] = [a if isinstance(a, Ability) else parse_ability(a) for a in params[key]]
            if isinstance(params.get("ability"), dict):  # a delayed triggered ability (603.7)
                params["ability"] = parse_ability(params["ability"])
            if params.get("then"):
                params["then"] = [_parsed_step(inner) for inner in params["then"]]
        out[name] = params
    return out


def _static_part(part: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    from reference_engine.layers import MODIFIERS

    (name, params), = part.items()
    if name not in MODIFIERS:
        raise ValueError(f"unknown static effect {name!r}")
    if name == "grant":
        params = {"abilities": [parse_ability(a) for a in params]}
    return name, dict(params or {})


def _keyword_only(face: dict[str, Any]) -> tuple[Ability, ...] | None:
    """Abilities of a face whose text is nothing but known keywords (reminder text aside)."""
    import re

    keywords = []
    for line in face.get("oracle_text", "").splitlines():
        line = re.sub(r"\s*\([^)]*\)", "", line).strip()
        if not line:
            continue
        for piece in (p.strip() for p in line.split(",")):
            name = piece[0].upper() + piece[1:] if piece else piece
            if name not in KNOWN_KEYWORDS:
                return None
            keywords.append(Ability("keyword", {}, keyword=name))
    return tuple(keywords)


def build_face(face: dict[str, Any]) -> Face:
    defined = behaviours().get(face["name"])
    if defined is None:
        defined = _keyword_only(face)
        if defined is None:
            raise UnsupportedCard(f"the reference engine has no definition for {face['name']!r}")
    indicator = face.get("color_indicator")
    return Face(
        name=face["name"],
        mana_cost=ManaCost.parse(face.get("mana_cost")),
        color_indicator=frozenset(indicator) if indicator else None,
        supertypes=tuple(face.get("supertypes", ())),
        types=tuple(face.get("types", ())),
        subtypes=tuple(face.get("subtypes", ())),
        power=face.get("power"),
        toughness=face.get("toughness"),
        loyalty=face.get("loyalty"),
        abilities=with_texts(defined, face.get("oracle_text", "")),
        text=face.get("oracle_text", ""),
    )


def with_texts(abilities: tuple[Ability, ...], oracle_text: str) -> tuple[Ability, ...]:
    """The face's abilities, each non-keyword one given its paragraph of the Oracle text (reminder
    text left out), when the definition has one entry per such paragraph, in printed order; otherwise
    only those whose definition gives a `text`."""
    keywords = {a.keyword.casefold() for a in abilities if a.kind == "keyword" and a.keyword} | \
        {k.casefold() for k in KNOWN_KEYWORDS}
    paragraphs = []
    for line in oracle_text.split("\n"):
        line = re.sub(r"\s*\([^)]*\)", "", line).strip()
        parts = [p.strip().casefold() for p in line.split(",")]
        if line and not all(any(p == k or p.startswith(k + " ") for k in keywords) for p in parts):
            paragraphs.append(line)
    untexted = [i for i, a in enumerate(abilities) if a.kind != "keyword" and a.text is None]
    if len(untexted) != len(paragraphs):
        return abilities
    out = list(abilities)
    for index, paragraph in zip(untexted, paragraphs):
        out[index] = replace(out[index], text=paragraph)
    return tuple(out)


def build_card(oracle: dict[str, Any]) -> CardDef:
    """A CardDef from the Oracle data of cases/cards/ (sent in the run message)."""
    return CardDef(name=oracle["name"], layout=oracle.get("layout", "normal"),
                   faces=tuple(build_face(face) for face in oracle["faces"]))


@lru_cache(maxsize=None)
def predefined_tokens() -> dict[str, Any]:
    """Rule 111.10: the predefined tokens' characteristics (reference_engine/data/predefined_tokens.yaml)."""
    text = resources.files("reference_engine").joinpath("data/predefined_tokens.yaml").read_text(encoding="utf-8")
    return yaml.load(text, Loader=Loader)


@lru_cache(maxsize=None)
def predefined_token(name: str) -> CardDef:
    """A predefined token (111.10), named by its subtype ('Treasure'); a double-faced one (an Incubator,
    111.10i) is a double-faced token whose back face has its own name."""
    spec = predefined_tokens().get(name)
    if spec is None:
        raise KeyError(f"unknown predefined token {name!r}")
    faces = spec.get("faces") or [spec]
    cards = [token_card(dict(face, abilities=[parse_ability(a) for a in face.get("abilities", [])])) for face in faces]
    if len(cards) == 1:
        return cards[0]
    return CardDef(name=" // ".join(c.name for c in cards), layout="token", faces=tuple(c.front for c in cards))


def token_card(spec: dict[str, Any]) -> CardDef:
    """A token's definition from the characteristics an effect (or a case setup) gives it (rule 111.4)."""
    abilities = tuple(parse_ability(a) if not isinstance(a, Ability) else a
                      for a in list(spec.get("keywords", [])) + list(spec.get("abilities", [])))
    colors = spec.get("colors", [])
    # Rule 111.4: a token the effect doesn't name is named after its subtypes plus the word "Token".
    name = spec.get("name") or " ".join(list(spec.get("subtypes", ())) + ["Token"])
    face = Face(
        name=name, mana_cost=None, color_indicator=frozenset(colors),
        supertypes=tuple(spec.get("supertypes", ())), types=tuple(spec.get("types", ())),
        subtypes=tuple(spec.get("subtypes", ())),
        power=str(spec["power"]) if "power" in spec else None,
        toughness=str(spec["toughness"]) if "toughness" in spec else None,
        loyalty=None, abilities=abilities)
    return CardDef(name=name, layout="token", faces=(face,))
