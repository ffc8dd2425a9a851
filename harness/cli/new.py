"""`new RULING_ID`: scaffold a case file for a ruling, in the ruling's topic folder."""

from __future__ import annotations

import argparse
import difflib
import re
import sys
import textwrap

from harness.cli.common import add_corpus_option, corpus_from

TEMPLATE = """\
# yaml-language-server: $schema=../../schema/case.schema.json
#
# Ruling {ruling_id}{card_note}:
{ruling_text}
#
# Encode what the ruling says must happen, using real cards (cases/cards/). Write the contrasting
# case too for every "can't", "doesn't" or "only once". Then check it:
#   mtg-conformance validate && mtg-conformance run -k {case_id} && mtg-conformance prove {case_id}
id: {case_id}
description: TODO one line saying what this case shows
rulings: [{ruling_id}]
rules: []  # TODO the Comprehensive Rules numbers it exercises, e.g. "302.6"
requires: []  # TODO capabilities an engine needs, e.g. [stack, triggers] (see docs/case-format.md)
setup:
  turn: 2
  step: precombat-main
  players:
    alice:
      battlefield:
{battlefield}
      hand: []
      library: []
    bob: {{}}
actions:
  - pass: alice  # TODO the actions that show the ruling
expect:
  objects:
{expect}
"""


def add_parser(verbs) -> None:
    parser = verbs.add_parser(
        "new", help="scaffold a case file for a ruling",
        description="Write a case skeleton for RULING_ID in its topic folder: the ruling's text as a comment, "
                    "the schema line for editors, and setup/actions/expectations to fill in. Never overwrites.")
    parser.add_argument("ruling", metavar="RULING_ID", help="a ruling id from cases/rulings.yaml, e.g. general-07")
    parser.add_argument("--name", help="the case's name in its topic folder (default: the ruling id)")
    add_corpus_option(parser)
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    corpus = corpus_from(args)
    if corpus is None:
        return 2
    ruling = corpus.rulings.get(args.ruling)
    if ruling is None:
        close = difflib.get_close_matches(args.ruling, list(corpus.rulings), n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        print(f"error: no ruling {args.ruling!r} in {corpus.root / 'rulings.yaml'}{hint}", file=sys.stderr)
        return 2
    name = args.name or ruling.id
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", name):
        print(f"error: {name!r} is not a case name: use lower case letters, digits and dashes", file=sys.stderr)
        return 2
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", ruling.group):  # the id comes from a file: it may lead anywhere
        print(f"error: the ruling id {ruling.id!r} gives {ruling.group!r}, which is not a folder name of the corpus "
              "(lower case letters, digits and dashes): refusing to write outside the corpus", file=sys.stderr)
        return 2
    path = corpus.root / ruling.group / f"{name}.yaml"
    if not path.parent.resolve().is_relative_to(corpus.root.resolve()):  # a topic folder linked elsewhere
        print(f"error: {path.parent} leads outside the corpus: refusing to write there", file=sys.stderr)
        return 2
    if path.exists():
        print(f"error: {path} already exists; choose another --name", file=sys.stderr)
        return 2
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(corpus, ruling, f"{ruling.group}/{name}"), encoding="utf-8")
    print(f"wrote {path}")
    return 0


def render(corpus, ruling, case_id: str) -> str:
    card = corpus.card(ruling.card) if ruling.card else None
    if card is not None:
        label = re.sub(r"[^a-z0-9]+", "-", card.face_names[0].split(",")[0].lower()).strip("-")
        battlefield = f'        - {{card: "{card.face_names[0]}", label: {label}}}'
        expect = f"    {label}: {{zone: battlefield}}  # TODO what the ruling says must be true"
    else:
        battlefield = "        - {card: Llanowar Elves, label: elves}  # TODO the cards that show the ruling"
        expect = "    elves: {zone: battlefield}  # TODO what the ruling says must be true"
    text = "\n".join(textwrap.wrap(ruling.text, 94, initial_indent="#   ", subsequent_indent="#   "))
    return TEMPLATE.format(ruling_id=ruling.id, card_note=f" ({ruling.card})" if ruling.card else "",
                           ruling_text=text, case_id=case_id, battlefield=battlefield, expect=expect)
