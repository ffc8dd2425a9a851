"""Running cases through an engine session, one result per case, streamed as they finish."""

from __future__ import annotations

import time
from typing import Any, Iterable, Iterator

from harness.corpus import Case, Corpus
from harness.engines import EngineSession, Reply
from harness.evaluate import base_result, evaluate
from harness.protocol import REPLY_KINDS
from harness.results import CaseResult, Status
from harness.wire import engine_case


def run_cases(cases: Iterable[Case], session: EngineSession, corpus: Corpus) -> Iterator[CaseResult]:
    for case in cases:
        yield run_case(case, session, corpus)


def run_case(case: Case, session: EngineSession, corpus: Corpus) -> CaseResult:
    """Run one case; its document is released afterwards (see Case.release)."""
    missing = sorted(set(case.requires) - session.capabilities)
    if missing:
        return base_result(case, Status.SKIP, f"the engine lacks: {', '.join(missing)}")
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
        return value[key]
    return default
