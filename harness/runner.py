"""Running cases through an engine session, one result per case, streamed as they finish."""

from __future__ import annotations

import time
from collections import deque
from typing import Any, Iterable, Iterator

from engine_kit.protocol import Errored, Result, Skipped

from harness.corpus import Case, Corpus
from harness.evaluate import base_result, evaluate
from harness.limits import bounded
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
            skip = queued.popleft()[1]
            assert skip is not None
            yield skip

    started = time.perf_counter()
    for reply in stream(messages()):
        yield from known()
        case, _ = queued.popleft()
        result = judge(case, reply)
        now = time.perf_counter()
        result.duration, started = now - started, now
        yield result
    yield from known()


def _lacking(case: Case, session: EngineSession) -> CaseResult | None:
    """The skip of a case needing a capability the engine lacks (it is then not sent at all)."""
    missing = sorted(set(case.requires) - session.capabilities)
    if missing:
        return base_result(case, Status.SKIP, f"the engine lacks: {', '.join(missing)}")
    return None


def run_case(case: Case, session: EngineSession, corpus: Corpus) -> CaseResult:
    """Run one case."""
    skip = _lacking(case, session)
    if skip is not None:
        return skip
    message = engine_case(case, corpus)
    started = time.perf_counter()
    reply = session.run(message)
    result = judge(case, reply)
    result.duration = time.perf_counter() - started
    return result


def judge(case: Case, reply: Reply) -> CaseResult:
    """The result of a case from its reply. The reply was checked against the protocol's schema when
    it came (a malformed one is the fault "error"): an exception from here on is the harness's own
    bug, and is raised as one."""
    if reply.fault is not None:
        status = {"timeout": Status.TIMEOUT, "crash": Status.CRASH}.get(reply.fault, Status.ERROR)
        out = base_result(case, status, reply.detail)
        out.stderr = reply.stderr
        return out
    message = reply.message
    if isinstance(message, Skipped):
        out = base_result(case, Status.SKIP, bounded(message.reason, 2000))  # an engine's text, in reports
        if message.issue is not None:
            out.details["issue"] = message.issue
        return out
    if isinstance(message, Errored):
        out = base_result(case, Status.ERROR, bounded(message.message, 2000))
        if message.context:
            out.details["context"] = message.context
        return out
    assert isinstance(message, Result), message
    return evaluate(case, message)
