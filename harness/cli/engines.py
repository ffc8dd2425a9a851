"""`engines`: the engines installed packages register (entry point group mtg_conformance.engines)."""

from __future__ import annotations

import argparse
import json

from tabulate import tabulate

from harness.engines import ENTRY_POINT_GROUP, open_engine, registered
from harness.session import EngineError


def add_parser(verbs) -> None:
    parser = verbs.add_parser(
        "engines", help="list the engines --engine can name",
        description=f"List the engines registered by installed packages (entry point group {ENTRY_POINT_GROUP}). "
                    "Any other engine runs as --engine 'cmd:<command line>' over the JSON-lines protocol.")
    parser.add_argument("--check", action="store_true",
                        help="start each engine (that needs no argument) and show its version and capabilities")
    parser.add_argument("--format", choices=("table", "json"), default="table", help="output format")
    parser.set_defaults(handler=handle)


def describe_engines(check: bool) -> list[dict]:
    rows = []
    for name, entry in sorted(registered().items()):
        dist = getattr(entry, "dist", None)
        row = {"name": name, "target": entry.value,
               "package": f"{dist.name} {dist.version}" if dist is not None else "",
               "description": _first_line(entry)}
        if check:
            row.update(_check(name))
        rows.append(row)
    return rows


def handle(args: argparse.Namespace) -> int:
    rows = describe_engines(args.check)
    if args.format == "json":
        print(json.dumps(rows, indent=2))
        return 0
    columns = ["name", "package", "target", "description"] + (["status", "version", "capabilities"] if args.check else [])
    print(tabulate([[row.get(c, "") for c in columns] for row in rows], headers=columns,
                   maxcolwidths=[None, None, None, 50] + ([40, None, 40] if args.check else [])))
    print()
    print("Run one with --engine NAME (NAME:ARGUMENT passes an argument, e.g. mutant:<mutant name>); "
          "any other engine with --engine 'cmd:<command line>' (docs/protocol.md).")
    return 0


def _first_line(entry) -> str:
    try:
        doc = entry.load().__doc__ or ""
    except Exception as exc:  # a broken package must not hide the others
        return f"(can't be loaded: {type(exc).__name__}: {exc})"
    return doc.strip().splitlines()[0] if doc.strip() else ""


def _check(name: str) -> dict:
    """Start the engine. One that needs an argument (it lists its `variants`, as `mutant` does) is
    started with its first: it is not broken for wanting one."""
    spec, status = name, "ok"
    try:
        variants = getattr(registered()[name].load(), "variants", None)
        names = list(variants()) if callable(variants) else []
    except Exception:  # reported by the start below
        names = []
    if names:
        spec = f"{name}:{names[0]}"
        status = f"ok: takes an argument, {name}:<name> ({len(names)} of them; checked {spec})"
    try:
        session = open_engine(spec, strict=True)
    except EngineError as exc:
        text = str(exc)
        return {"status": "does not start: " + (text if len(text) <= 90 else text[:87] + "...")}
    try:
        return {"status": status, "version": session.info.get("version", ""),
                "capabilities": ", ".join(sorted(session.capabilities))}
    finally:
        session.close()
