"""The kill matrix: which rule mutants (and the null engine) make each case fail.

A case is *proven* when it fails on the null engine and on at least one *relevant* mutant: one that
breaks a rule the case cites. Relevance compares Comprehensive Rules numbers:

- the parent of a subrule is the rule without its letter: `601.2g` -> `601.2`;
- the parent of a numbered rule is its section: `601.2` -> `601`; a section has no parent;
- a mutant's rule and a case's rule are *related* when they are equal, or one is the other's parent
  (`601.2g` and `601.2` are, `601.2g` and `601.2h` are not, nor `601.2g` and `601`);
- a mutant is relevant to a case when one of its rules is related to one of the case's rules.

`mtg-conformance prove --all` prints this matrix and `tests/test_strength.py` checks it; both get
it from `compute` here. The engines are run in up to `workers` processes (forked, so they share the
loaded cases and the messages built once for all engines); each process runs whole engines, one at a
time. A mutant runs only the cases it can change: those whose run on the reference engine calls a
function the mutant replaces (the mutant engine says which, mutants/reach.py); any other case runs
call for call as on the reference engine, which passes it. `exhaustive=True` runs every pair, and
tests/test_killmatrix.py checks both give the same matrix. A case still running after the protocol's
timeout (a mutant whose engine never settles) is cut off and counted caught, as a run counts a timeout;
like an error or a crash under a mutant, it is one of that mutant's faults, which prove nothing.
"""

from __future__ import annotations

import os
import re
import signal
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Sequence

from harness.corpus import Case, Corpus
from harness.engines import InProcessSession, open_engine, registered
from harness.results import Status
from harness.runner import judge
from harness.session import DEFAULT_TIMEOUT, EngineError, EngineSession, Reply
from harness.wire import engine_case

#: A case is caught by an engine when its result is one of these; all but a fail are faults.
CAUGHT = (Status.FAIL, Status.ERROR, Status.TIMEOUT, Status.CRASH)
FAULTS = (Status.ERROR, Status.TIMEOUT, Status.CRASH)
NULL = "null"
_SUBRULE = re.compile(r"^(\d{3}\.\d+)[a-z]+$")
_RULE = re.compile(r"^(\d{3})\.\d+$")


def parent(rule: str) -> str | None:
    """`601.2g` -> `601.2`, `601.2` -> `601`, `601` -> None."""
    for pattern in (_SUBRULE, _RULE):
        match = pattern.match(rule)
        if match:
            return match.group(1)
    return None


def related(a: str, b: str) -> bool:
    """Equal rules, or one the parent of the other."""
    return a == b or parent(a) == b or parent(b) == a


def relevant(mutant_rules: Iterable[str], case_rules: Iterable[str]) -> bool:
    case_rules = list(case_rules)
    return any(related(m, c) for m in mutant_rules for c in case_rules)


def case_rules(case: Case) -> list[str]:
    rules = case.data.get("rules")
    return [r for r in rules if isinstance(r, str)] if isinstance(rules, list) else []


@dataclass(frozen=True)
class MutantInfo:
    name: str
    breaks: str
    rules: tuple[str, ...]


def mutants() -> dict[str, MutantInfo]:
    """The mutants the installed 'mutant' engine offers, by name."""
    entry = registered().get("mutant")
    if entry is None:
        raise EngineError("no 'mutant' engine is installed (it ships with mtg-conformance's mutants package)")
    engine = entry.load()
    return {name: MutantInfo(name, breaks, tuple(engine.rules_broken()[name]))
            for name, breaks in engine.variants().items()}


@dataclass
class KillMatrix:
    """Per case, the mutants that make it fail (`killed_by`) and those of them relevant to it; per mutant,
    its rules, the cases it makes fail, and those where the engine faulted under it (an error, a crash, a
    run past the deadline: `faults`); and whether the null engine makes each case fail.

    A fault catches a case as a run counts it, but proves nothing: the mutant broke the engine, not the
    rule. So a relevant killer is one that makes the case fail without a fault."""

    case_rules: dict[str, list[str]]
    mutants: dict[str, MutantInfo]
    kills: dict[str, list[str]]  # mutant -> case ids it makes fail, in corpus order
    null_caught: dict[str, bool] = field(default_factory=dict)
    faults: dict[str, list[str]] = field(default_factory=dict)  # mutant -> case ids it faulted on, of its kills

    def killed_by(self, case_id: str) -> list[str]:
        return [name for name, ids in self.kills.items() if case_id in ids]

    def relevant_killers(self, case_id: str) -> list[str]:
        rules = self.case_rules[case_id]
        return [name for name in self.killed_by(case_id) if relevant(self.mutants[name].rules, rules)
                and case_id not in self.faults.get(name, ())]

    def as_json(self) -> dict:
        return {
            "cases": {case_id: {"killed_by": self.killed_by(case_id), "relevant": self.relevant_killers(case_id)}
                      for case_id in self.case_rules},
            "mutants": {name: {"rules": list(info.rules), "kills": list(self.kills[name]),
                               "faults": list(self.faults.get(name, []))}
                        for name, info in self.mutants.items()},
        }


# The cases the worker processes run, each with the message an engine receives: built once before
# forking (every engine gets the same message), inherited by the children.
_WORK: list[tuple[Case, dict]] | None = None
# Per case of _WORK: the reference engine's reply as its adapter returned it, and whether that reply is
# caught. A mutant that returns the very same reply is judged the same without judging it again: most
# mutants change nothing in most of the cases they reach, and judging costs a third of a run.
_REFERENCE: list[tuple[Any, Status]] | None = None


class _Overrun(BaseException):
    """A case ran past its deadline: a BaseException, so no `except Exception` in an engine swallows it."""


@contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """Interrupt the block after `seconds` (an in-process engine has no process to kill, and a mutant
    can loop forever: state-based actions that never settle). Where there is no SIGALRM, or off the main
    thread, the block runs unbounded."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def overrun(signum: int, frame: object) -> None:
        raise _Overrun

    previous = signal.signal(signal.SIGALRM, overrun)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _caught_by(job: tuple[str, list[int] | None]) -> tuple[str, list[str], list[str]]:
    """The ids of the cases engine `spec` makes fail, of those at `indexes` (None: all). Like
    runner.run_case, but the message is built once for every engine and the case's document stays
    loaded (it is judged by every engine). A case that runs past the protocol's timeout is caught, as a
    timeout is in a run, and the engine is opened afresh after it."""
    assert _WORK is not None
    spec, indexes = job
    session = open_engine(spec)
    caught: list[str] = []
    faults: list[str] = []
    try:
        for index in (range(len(_WORK)) if indexes is None else indexes):
            case, message = _WORK[index]
            if set(case.requires) - session.capabilities:
                continue  # skipped: not caught
            try:
                with _deadline(DEFAULT_TIMEOUT):
                    answer = session.call(message) if isinstance(session, InProcessSession) else session.run(message)
            except _Overrun:
                caught.append(case.id)
                faults.append(case.id)
                session.close()
                session = open_engine(spec)
                continue
            status = _status(case, session, answer, index)
            if status in CAUGHT:
                caught.append(case.id)
            if status in FAULTS:
                faults.append(case.id)
        return spec, caught, faults
    finally:
        session.close()


def _status(case: Case, session: EngineSession, answer: Any, index: int) -> Status:
    """The result's status for the answer to case `index` of _WORK (a Reply, or an in-process adapter's
    reply as it returned it); a reply equal to the reference engine's is judged as that one was."""
    if not isinstance(answer, Reply):
        if _REFERENCE is not None and answer == _REFERENCE[index][0]:
            return _REFERENCE[index][1]
        answer = session.receive(answer)  # type: ignore[attr-defined]
    return judge(case, answer).status


def _worker_signals() -> None:
    """A worker process is stopped by the pool (SIGTERM, as it closes) and leaves Ctrl-C to the process that
    started it: it doesn't keep the handlers it was forked with (the command line's raise an exception,
    which a worker would print as a traceback while the pool shuts down)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _reference_replies(work: list[tuple[Case, dict]]) -> list[tuple[Any, Status]] | None:
    """The reference engine's reply to each case, as its adapter returns it, and its result's status
    (None if the reference engine isn't in process here)."""
    session = open_engine("reference")
    try:
        if not isinstance(session, InProcessSession):
            return None
        out = []
        for case, message in work:
            answer = session.call(message)
            reply = answer if isinstance(answer, Reply) else session.receive(answer)
            out.append((answer, judge(case, reply).status))
        return out
    finally:
        session.close()


def _reachable(names: list[str]) -> dict[str, list[int] | None]:
    """For each mutant, the indexes of the cases it can change: those whose run on the reference engine
    calls a function the mutant replaces (mutants/reach.py); None where that can't be told (run all)."""
    assert _WORK is not None
    engine = registered()["mutant"].load()
    if not hasattr(engine, "reached"):
        return {name: None for name in names}
    reached = engine.reached([message for _, message in _WORK])
    out: dict[str, list[int] | None] = {}
    for name in names:
        codes = engine.touched(name)
        out[name] = None if codes is None else [i for i, calls in enumerate(reached) if calls & codes]
    return out


def compute(cases: Sequence[Case], corpus: Corpus, *, workers: int | None = None,
            only: Iterable[str] | None = None, exhaustive: bool = False) -> KillMatrix:
    """Run every case on the null engine and on every mutant (or those named in `only`). A mutant runs
    only the cases it can change (see _reachable), unless `exhaustive`: the same matrix, slower."""
    global _WORK, _REFERENCE
    known = mutants()
    names = list(known) if only is None else [n for n in only if n in known]
    workers = workers or min(2, os.cpu_count() or 1)
    _WORK = [(case, engine_case(case, corpus)) for case in cases]
    try:
        _REFERENCE = _reference_replies(_WORK)
        reach = {name: None for name in names} if exhaustive else _reachable(names)
        jobs = [(NULL, None)] + [(f"mutant:{name}", reach[name]) for name in names]
        import multiprocessing  # imported here: every command loads this module (prove), few use it

        if workers > 1 and "fork" in multiprocessing.get_all_start_methods():
            with multiprocessing.get_context("fork").Pool(workers, initializer=_worker_signals) as pool:
                results = {spec: (caught, faults) for spec, caught, faults in pool.imap_unordered(_caught_by, jobs)}
        else:
            results = {spec: (caught, faults) for spec, caught, faults in map(_caught_by, jobs)}
    finally:
        _WORK = _REFERENCE = None
    null = set(results.pop(NULL)[0])
    rules = {case.id: case_rules(case) for case in cases}
    return KillMatrix(
        case_rules=rules,
        mutants={name: known[name] for name in names},
        kills={name: results[f"mutant:{name}"][0] for name in names},
        null_caught={case.id: case.id in null for case in cases},
        faults={name: results[f"mutant:{name}"][1] for name in names},
    )
