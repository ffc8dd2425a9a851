"""Running cases through an engine session, one result per case, streamed as they finish."""

from __future__ import annotations

import time
from collections import deque
from typing import Any, Iterable, Iterator

from harness.corpus import Case, Corpus
from harness.evaluate import base_result, evaluate
from harness.limits import bounded, plain_data_problem
from harness.protocol import REPLY_KINDS
from harness.results import CaseResult, Status
from harness.session import EngineSession, Reply
from harness.wire import engine_case


def run_cases(cases: Iterable[Case], session: EngineSession, corpus: Corpus) -> Iterator[CaseResult]:
    """One result per case, in order. A session that can take cases ahead of the one it is answering
    (an engine in its own process: SubprocessSession.run_stream) gets them that way."""
    stream = getattr(session, "run_stream", None)
    if stream is None:
        for case in cases:
            yield run_case(case, session, corpus)
        return
    queued: deque[tuple[Case, CaseResult | None]] = deque()  # in order; a result already known: a skip

    def messages() -> Iterator[dict[str, Any]]:
        for case in cases:
            skip = _lacking(case, session)
            queued.append((case, skip))
            if skip is None:
                yield engine_case(case, corpus)

    def known() -> Iterator[CaseResult]:
        while queued and queued[0][1] is not None:
            yield queued.popleft()[1]

    started = time.perf_counter()
    for reply in stream(messages()):
        yield from known()
        case, _ = queued.popleft()
        try:
            result = judge(case, reply)
        finally:
            case.release()
        now = time.perf_counter()
        result.duration, started = now - started, now
        yield result
    yield from known()


def _lacking(case: Case, session: EngineSession) -> CaseResult | None:
    """The skip of a case needing a capability the engine lacks (it is then not sent at all)."""
    missing = sorted(set(case.requires) - session.capabilities)
    if missing:
        result = base_result(case, Status.SKIP, f"the engine lacks: {', '.join(missing)}")
        case.release()
        return result
    return None


def run_case(case: Case, session: EngineSession, corpus: Corpus) -> CaseResult:
    """Run one case; its document is released afterwards (see Case.release)."""
    skip = _lacking(case, session)
    if skip is not None:
        return skip
    try:
        message = engine_case(case, corpus)
        started = time.perf_counter()
        reply = session.run(message)
        result = judge(case, reply)
        result.duration = time.perf_counter() - started
    finally:
        case.release()
    return result


def judge(case: Case, reply: Reply) -> CaseResult:
    if reply.fault is not None:
        status = {"timeout": Status.TIMEOUT, "crash": Status.CRASH}.get(reply.fault, Status.ERROR)
        out = base_result(case, status, reply.detail)
        out.stderr = reply.stderr
        return out
    message = reply.message or {}
    problem = plain_data_problem(message)  # NaN, a set, nesting or an integer beyond the limits
    if problem is not None:
        return base_result(case, Status.ERROR, f"the reply is not plain JSON data within the limits: {problem}")
    kinds = [k for k in REPLY_KINDS if k in message]
    if len(kinds) != 1:
        return base_result(case, Status.ERROR, f"the reply has {' and '.join(kinds) or 'none'} of {', '.join(REPLY_KINDS)}")
    kind = kinds[0]
    if kind == "skipped":
        out = base_result(case, Status.SKIP, _text(message["skipped"], "reason", "skipped (no reason given)"))
        issue = message["skipped"].get("issue") if isinstance(message["skipped"], dict) else None
        if isinstance(issue, str):
            out.details["issue"] = issue
        return out
    if kind == "errored":
        out = base_result(case, Status.ERROR, _text(message["errored"], "message", "the engine reported an error"))
        context = message["errored"].get("context") if isinstance(message["errored"], dict) else None
        if context:
            out.details["context"] = context
        return out
    if not isinstance(message["result"], dict):
        return base_result(case, Status.ERROR, "the result is not an object")
    try:
        return evaluate(case, message)
    except (KeyError, TypeError, AttributeError) as exc:
        return base_result(case, Status.ERROR, f"malformed result ({type(exc).__name__}: {exc})")


def _text(value: Any, key: str, default: str) -> str:
    if isinstance(value, dict) and isinstance(value.get(key), str):
        return bounded(value[key], 2000)  # an engine's message, in reports: not a megabyte of it
    return default
