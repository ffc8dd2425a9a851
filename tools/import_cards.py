"""Copy Oracle data for cards into cases/cards/, one YAML file per card.

A contributor's tool, not used at run time: it reads an Oracle dump (a gzipped
JSON list, one entry per card face, as in the project's shared reference data)
and writes files that `schema/card.schema.json` validates.  The dump lacks the
color indicators of back faces, so a back face without a mana cost needs
``--color-indicator "Face Name=RG"`` (or ``--no-indicator "Face Name"``). A meld card is written
with its front face only: add the combined back face (a separate entry of the dump) by hand.

    python tools/import_cards.py --oracle oracle-cards.json.gz "Llanowar Elves"
"""

from __future__ import annotations

import argparse
import difflib
import gzip
import json
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
CARDS_DIR = ROOT / "cases" / "cards"
COLOR_ORDER = "WUBRG"
SCHEMA_LINE = "# yaml-language-server: $schema=../../schema/card.schema.json\n"


def slug(name: str) -> str:
    """File name for a card: its front face name, lower case, dashes."""
    front = name.split(" // ")[0]
    return re.sub(r"[^a-z0-9]+", "-", front.lower()).strip("-")


def ordered_colors(colors) -> list[str]:
    return [c for c in COLOR_ORDER if c in set(colors)]


def colors_of_cost(cost: str | None) -> list[str]:
    if not cost:
        return []
    found = set()
    for symbol in re.findall(r"\{([^}]+)\}", cost):
        found.update(ch for ch in symbol if ch in COLOR_ORDER)
    return ordered_colors(found)


#: Keyword actions (rule 701) that the Oracle dump lists among a card's keywords: a line such as
#: "Transform all Humans." starts with one, but it is an instruction, not a keyword ability.
KEYWORD_ACTIONS = frozenset({
    "activate", "amass", "attach", "blight", "cast", "connive", "convert", "counter", "create", "destroy",
    "discard", "double", "exchange", "exile", "explore", "fight", "goad", "incubate", "investigate",
    "manifest", "meld", "mill", "play", "populate", "proliferate", "regenerate", "reveal", "sacrifice",
    "scry", "search", "shuffle", "support", "surveil", "tap", "transform", "untap", "venture into the dungeon",
})


def face_keywords(text: str, oracle_keywords: list[str]) -> list[str]:
    """Keyword abilities printed on a face (not keyword actions, not level-band abilities)."""
    known = {k.lower(): k for k in oracle_keywords if k.lower() not in KEYWORD_ACTIONS}
    found: list[str] = []
    for line in text.splitlines():
        if re.match(r"^LEVEL \d", line):
            break  # what follows belongs to level bands, not to the card itself
        line = re.sub(r"\s*\([^)]*\)", "", line).strip()
        # "Enchant creature, land, or planeswalker": one keyword whose quality is a list (rule 702.5a)
        pieces = [line] if line.lower().startswith("enchant ") else [p.strip() for p in line.split(",")]
        names = []
        for piece in pieces:
            match = next((k for k in sorted(known, key=len, reverse=True)
                          if piece.lower() == k or piece.lower().startswith(k + " ")), None)
            if match is None:
                names = []
                break
            names.append(match)
        for name in names:
            pretty = name[0].upper() + name[1:]
            if pretty not in found:
                found.append(pretty)
    return found


def build_face(entry: dict, indicator: list[str] | None) -> dict:
    face: dict = {"name": entry["name"].split(" // ")[0]}
    if entry.get("manaCost") is not None:
        face["mana_cost"] = entry["manaCost"]
    if indicator:
        face["color_indicator"] = ordered_colors(indicator)
    face["colors"] = ordered_colors(indicator) if indicator else colors_of_cost(entry.get("manaCost"))
    face["type_line"] = entry["type"]
    face["supertypes"] = list(entry.get("supertypes") or [])
    face["types"] = list(entry.get("types") or [])
    face["subtypes"] = list(entry.get("subtypes") or [])
    for key in ("power", "toughness", "loyalty"):
        if entry.get(key) is not None:
            face[key] = str(entry[key])
    text = entry.get("text") or ""
    face["keywords"] = face_keywords(text, entry.get("keywords") or [])
    face["oracle_text"] = text
    return face


def build_card(front: dict, back: dict | None, indicators: dict[str, list[str]],
               no_indicator: set[str]) -> dict:
    card = {"name": front["name"], "layout": front["layout"],
            "color_identity": ordered_colors(front.get("colorIdentity") or [])}
    faces = [build_face(front, indicators.get(front["name"].split(" // ")[0]))]
    if back is not None:
        indicator = indicators.get(back["name"])
        if indicator is None and not back.get("manaCost") and back["name"] not in no_indicator \
                and "Land" not in back.get("types", []):
            sys.exit(f"error: {back['name']!r} is a back face without a mana cost: give its color "
                     f"indicator with --color-indicator \"{back['name']}=...\" "
                     f"(the Oracle dump does not carry it), or --no-indicator")
        faces.append(build_face(back, indicator))
    card["faces"] = faces
    return card


class _CardDumper(yaml.SafeDumper):
    """Short lists inline, Oracle text as a literal block: easy to read and to diff."""


def _represent_str(dumper: yaml.SafeDumper, value: str):
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


def _represent_list(dumper: yaml.SafeDumper, value: list):
    flow = all(isinstance(v, str) and "\n" not in v for v in value)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=flow)


_CardDumper.add_representer(str, _represent_str)
_CardDumper.add_representer(list, _represent_list)


def dump_card(card: dict) -> str:
    return SCHEMA_LINE + yaml.dump(card, Dumper=_CardDumper, sort_keys=False, allow_unicode=True, width=100)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="+", help="Oracle names (front face name or 'Front // Back')")
    parser.add_argument("--oracle", required=True, type=Path, help="gzipped JSON Oracle dump")
    parser.add_argument("--color-indicator", action="append", default=[], metavar="FACE=COLORS",
                        help="color indicator of a face, e.g. 'Tovolar, the Midnight Scourge=RG'")
    parser.add_argument("--no-indicator", action="append", default=[], metavar="FACE",
                        help="a colorless back face that has no color indicator")
    parser.add_argument("--force", action="store_true", help="overwrite existing files")
    args = parser.parse_args(argv)

    entries = json.load(gzip.open(args.oracle))
    by_name = {e["name"]: e for e in entries}
    fronts = {e["name"].split(" // ")[0]: e for e in entries if e.get("face") != "back"}
    indicators = {}
    for item in args.color_indicator:
        face, _, colors = item.partition("=")
        indicators[face.strip()] = list(colors.strip().upper())

    for name in args.names:
        front = by_name.get(name) or fronts.get(name)
        if front is None or front.get("face") == "back":
            close = difflib.get_close_matches(name, list(fronts), n=3)
            sys.exit(f"error: no card named {name!r}" + (f"; did you mean {', '.join(map(repr, close))}?" if close else ""))
        back = by_name.get(front["back"]) if front.get("back") else None
        card = build_card(front, back, indicators, set(args.no_indicator))
        path = CARDS_DIR / f"{slug(card['name'])}.yaml"
        if path.exists() and not args.force:
            print(f"skip {path.relative_to(ROOT)} (exists; --force to overwrite)")
            continue
        path.write_text(dump_card(card), encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
