"""A quick check for adapter authors: does the engine start, play a trivial case, skip what it can't
know, report what it can't set up as an error, and stop when told? Each check that goes wrong comes
with advice. Every message the engine sends is checked against schema/protocol/ (strict).
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from engine_kit.protocol import Errored, Skipped
from harness.corpus import Case, Corpus
from harness.engines import open_engine
from harness.report import describe
from harness.results import Status
from harness.runner import run_case
from harness.schemas import schema
from harness.session import EngineError, EngineSession, Reply
from harness.wire import engine_case
from harness.yamlio import load_text

TRIVIAL_CASE = """
id: smoke/play-a-land
description: The active player plays a land from their hand in their main phase.
rulings: []
rules: ["305.1"]
requires: []
setup:
  players:
    alice:
      hand:
        - {card: Forest, label: forest}
    bob: {}
actions:
  - play: forest
expect:
  game: {turn: 2, active: alice, step: precombat-main, stack: 0}
  players:
    alice: {life: 20, hand: 0}
  objects:
    forest: {zone: battlefield, controller: alice, tapped: false}
"""

#: A card no engine can know: its ability exists nowhere else.
UNKNOWABLE_CARD = {
    "name": "Smoke Test Gizmo", "layout": "normal", "color_identity": [],
    "faces": [{"name": "Smoke Test Gizmo", "mana_cost": "{2}", "colors": [], "type_line": "Artifact",
               "supertypes": [], "types": ["Artifact"], "subtypes": [], "keywords": [],
               "oracle_text": "{T}: Recalibrate the smoke test gizmo. (No engine implements this ability.)"}],
}

CASE_FORMAT = "docs/case-format.md ('What an engine receives and returns')"


@dataclass
class Check:
    name: str
    outcome: str = "ok"  # ok | warn | FAIL
    summary: str = ""
    advice: list[str] = field(default_factory=list)

    def problem(self, outcome: str, summary: str, *advice: str) -> None:
        if outcome == "FAIL" or self.outcome == "ok":
            self.outcome = outcome
        self.summary = summary
        self.advice.extend(advice)


def trivial_case() -> Case:
    path = Path("<smoke>/smoke/play-a-land.yaml")
    return Case(path, load_text(TRIVIAL_CASE, path), "smoke/play-a-land.yaml")


def skip_message(corpus: Corpus) -> dict[str, Any]:
    """A valid case around a card no engine implements: the engine should answer `skipped`."""
    message = engine_case(trivial_case(), corpus)
    message["id"] = "smoke/unknowable-card"
    message["setup"]["players"]["alice"]["battlefield"] = [{"card": UNKNOWABLE_CARD["name"], "label": "gizmo"}]
    message["actions"] = [{"activate": {"object": "gizmo", "ability": 0}}]
    message["checkpoints"] = [0]
    message["cards"] = {UNKNOWABLE_CARD["name"]: copy.deepcopy(UNKNOWABLE_CARD)}
    return message


def error_message(corpus: Corpus) -> dict[str, Any]:
    """A case that can't be set up (its setup names a card whose data is not sent): `errored`."""
    message = engine_case(trivial_case(), corpus)
    message["id"] = "smoke/missing-card-data"
    message["cards"] = {}
    return message


def smoke(spec: str, corpus: Corpus, *, timeout: float, start_timeout: float,
          report: Callable[[Check], None]) -> list[Check]:
    checks: list[Check] = []

    def done(check: Check) -> None:
        checks.append(check)
        report(check)

    handshake = Check("handshake")
    started = time.perf_counter()
    try:
        session = open_engine(spec, strict=True, timeout=timeout, start_timeout=start_timeout)
    except EngineError as exc:
        handshake.problem("FAIL", "the engine did not start", *str(exc).splitlines(),
                          "the engine must answer {\"cmd\": \"start\", \"version\": 1} with one line: "
                          "{\"version\": 1, \"engine\": {\"name\", \"version\", \"issues\"}, \"capabilities\": [...]} "
                          "(docs/protocol.md)")
        done(handshake)
        return checks
    _check_handshake(handshake, session, time.perf_counter() - started)
    done(handshake)
    try:
        done(_check_trivial(session, corpus))
        done(_check_reply("skip path", session.run(skip_message(corpus)), "skipped",
                          "a case using a card (or rule) the engine does not implement: it should answer "
                          "{\"skipped\": {\"reason\": ...}} so reports tell gaps from bugs"))
        done(_check_reply("error path", session.run(error_message(corpus)), "errored",
                          "a case the engine can't set up (a card's data is missing): it should answer "
                          "{\"errored\": {\"message\": ..., \"context\": {...}}} and go on with the next case"))
    finally:
        session.close()
    done(_check_stop(session))
    return checks


def _check_handshake(check: Check, session: EngineSession, seconds: float) -> None:
    info = session.info
    check.summary = (f"{info.get('name')} {info.get('version')}, protocol 1, {len(session.capabilities)} "
                     f"capabilities, started in {seconds:.1f}s")
    if not info.get("issues"):
        check.problem("warn", check.summary, "add 'issues' (the engine's issue tracker URL) to the start reply: "
                                             "failure reports point people there")
    known = set(schema("case")["$defs"]["capability"]["enum"])
    unknown = sorted(session.capabilities - known)
    if unknown:
        check.problem("warn", check.summary, f"no case requires the capabilities {', '.join(unknown)} "
                                             f"(known: {', '.join(sorted(known))})")
    if not session.capabilities:
        check.problem("warn", check.summary, "no capabilities: every case that requires one will be skipped")


def _check_trivial(session: EngineSession, corpus: Corpus) -> Check:
    check = Check("trivial case")
    result = run_case(trivial_case(), session, corpus)
    if result.status is Status.PASS:
        check.summary = "played a land and observed it on the battlefield"
    elif result.status is Status.SKIP:
        check.problem("FAIL", f"skipped: {result.message}",
                      "this case needs no capability: playing a land from hand in a main phase")
    else:
        lines = result.message.splitlines() or [""]
        details = describe(result, corpus)[2:] if result.status is Status.FAIL else [
            line.strip() for line in lines[1:]] + ["engine stderr | " + line for line in result.stderr.splitlines()]
        check.problem("FAIL", f"{result.status.value}: {lines[0]}", *details,
                      f"the reply lists one result per action and the observed state after each checkpoint: {CASE_FORMAT}")
    return check


def _check_reply(name: str, reply: Reply, wanted: str, advice: str) -> Check:
    check = Check(name)
    if reply.fault is not None:
        detail = reply.detail.split("\nTraceback (most recent call last):")[0]  # the exception says enough
        check.problem("FAIL", f"{reply.fault}: {detail.splitlines()[0] if detail else ''}",
                      *detail.splitlines()[1:], advice,
                      "catch every exception while playing a case and answer errored: the run then goes on "
                      "without restarting the engine")
        check.advice.extend("engine stderr | " + line for line in reply.stderr.splitlines())
        return check
    message = reply.message
    kind = message.kind if message is not None else "nothing"
    if kind == wanted:
        said = message.reason if isinstance(message, Skipped) else message.message if isinstance(message, Errored) else ""
        check.summary = f"answered {kind}: {said}"
    else:
        check.problem("FAIL", f"answered {kind}, not {wanted}", advice)
    return check


def _check_stop(session: EngineSession) -> Check:
    check = Check("stop")
    exit_info = getattr(session, "exit", None)
    if exit_info is None:
        check.summary = "stopped"
        return check
    status, killed = exit_info
    if killed:
        check.problem("FAIL", "did not exit after the stop command", "exit with status 0 on {\"cmd\": \"stop\"}, "
                                                                     "and when standard input is closed")
    elif status != 0:
        check.problem("warn", f"exited with status {status} after the stop command", "exit with status 0 on stop")
    else:
        check.summary = "exited with status 0"
    for warning in getattr(session, "warnings", []):
        check.problem("warn", check.summary, warning, "write exactly one line per command")
    return check
