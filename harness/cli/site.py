"""`site`: a static conformance site (HTML and CSS) from the JSON reports of `run`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from harness.cli.common import add_corpus_option, corpus_from


def add_parser(verbs) -> None:
    parser = verbs.add_parser(
        "site", help="build a static conformance site from run reports",
        description="Build a static site (HTML and CSS, no JavaScript; works from file:// and any static host) from "
                    "JSON or JSON-lines reports of `run`, of any engines, versions or machines: a matrix of engines "
                    "by topic and Comprehensive Rules section, a page per engine, per case (the setup drawn as a "
                    "board, each engine's observations side by side), per change between two reports of one engine, "
                    "and an SVG badge per engine. Needs the `site` extra (Jinja2). Exit 0 when built, 2 on bad input.")
    parser.add_argument("reports", nargs="+", type=Path, metavar="REPORT", help="reports of `run --format json` (or .jsonl)")
    parser.add_argument("--output", type=Path, required=True, metavar="DIR",
                        help="the site's folder: new, empty, or a site this command made (which is replaced)")
    add_corpus_option(parser)
    parser.add_argument("--rules", type=Path, default=None, metavar="FILE",
                        help="the Comprehensive Rules text whose rules the case pages quote (default: the edition the "
                             "corpus cites, shipped in cr/)")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    from harness.cr import CRError
    from harness.site import SiteError, build_site
    from harness.site.rules import load_rulebook

    corpus = corpus_from(args)
    if corpus is None:
        return 2
    if args.rules is not None and not args.rules.is_file():
        print(f"error: --rules {args.rules}: no such file", file=sys.stderr)
        return 2
    try:
        rulebook = load_rulebook(args.rules)
        built = build_site(args.reports, args.output, corpus, rulebook)
    except (SiteError, CRError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    verb = "replaced the site in" if built.replaced else "wrote the site to"
    print(f"{verb} {built.output}: {built.pages} page(s) from {len(args.reports)} report(s) in {built.seconds:.2f} s; "
          f"open {built.output / 'index.html'}", file=sys.stderr)
    return 0
