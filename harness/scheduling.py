"""Which cases a run plays (--shard), in what order (--shuffle), on how many engines at once (-j).

A case's result never depends on any of these: each case is sent the same message whatever ran
before it, and results are reported in the corpus order. Only the order in which they are played,
and streamed, changes.
"""

from __future__ import annotations

import gc
import hashlib
import queue
import random
import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterator, Sequence, TypeVar

from harness.corpus import Case, Corpus
from harness.engines import check_spec, open_engine
from harness.results import CaseResult
from harness.runner import run_case, run_cases
from harness.session import EngineError, EngineSession

T = TypeVar("T")
#: Seconds an interrupted parallel run waits for the cases being played, before the engines are
#: stopped (a hanging engine would otherwise hold the run for its whole --timeout).
INTERRUPT_GRACE = 2.0


@contextmanager
def settled_loaded() -> Iterator[None]:
    """What a command has loaded before it plays cases (the corpus's documents and cases, the engines,
    their card definitions) lives while it plays them: it is moved out of the garbage collector's
    generations meanwhile (gc.freeze), and back afterwards. Otherwise every full collection during the
    run walks all of it again, though none of it is garbage: a fifth of an in-process run's time,
    measured by bench/run.py. For the commands (run, prove): a library call leaves the collector alone."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def parse_shard(text: str) -> tuple[int, int]:
    """'2/4' -> (2, 4): the second of four shards. ValueError with the reason otherwise."""
    index, sep, count = text.partition("/")
    if not sep or not index.strip().isdigit() or not count.strip().isdigit():
        raise ValueError(f"--shard takes I/N, e.g. 1/4 (got {text!r})")
    i, n = int(index), int(count)
    if n < 1 or not 1 <= i <= n:
        raise ValueError(f"--shard {text}: I must be between 1 and N")
    return i, n


def shard_of(case_id: str, count: int) -> int:
    """The shard (1-based, of `count`) a case belongs to: a hash of its id alone, so adding, removing
    or reordering other cases never moves it, and every machine agrees."""
    number = int.from_bytes(hashlib.sha256(case_id.encode("utf-8")).digest()[:8], "big")
    return number % count + 1


def shard(items: Sequence[T], index: int, count: int, key: Callable[[T], str] = lambda item: item.id) -> list[T]:  # type: ignore[attr-defined]
    """The items of shard `index` of `count` (1-based), by the stable hash of each one's id (`key`):
    shards are disjoint and cover everything, in the order given."""
    return [item for item in items if shard_of(key(item), count) == index]


def shuffled(items: Sequence[T], seed: int) -> list[T]:
    order = list(items)
    random.Random(seed).shuffle(order)
    return order


def open_sessions(spec: str, count: int, **options) -> list[EngineSession]:
    """`count` started engines. More than one in-process engine run isolated, each in its own process."""
    if count <= 1:
        return [open_engine(spec, **options)]
    check_spec(spec)  # a misspelled name is reported once, with close matches
    from concurrent.futures import ThreadPoolExecutor  # only for several sessions (-j)

    with ThreadPoolExecutor(max_workers=count) as pool:
        futures = [pool.submit(open_engine, spec, isolated=True, **options) for _ in range(count)]
    sessions, errors = [], []
    for future in futures:
        try:
            sessions.append(future.result())
        except EngineError as exc:
            errors.append(exc)
    if errors:
        for session in sessions:
            session.close()
        raise errors[0]
    return sessions


def play(cases: Sequence[Case], sessions: Sequence[EngineSession], corpus: Corpus,
         emit: Callable[[CaseResult], None], *, keep: bool = True) -> list[CaseResult]:
    """Run `cases` on `sessions`, one case at a time per session; `emit` each result in the order of
    `cases` as soon as it and every case before it are done. Returns the results in that order, or
    nothing with keep=False (a long run then holds no result, nor any case's document, once emitted)."""
    if len(sessions) == 1:
        results = []
        for index, result in enumerate(run_cases(cases, sessions[0], corpus)):  # one per case, in order
            emit(result)
            if keep:
                results.append(result)
            elif corpus.cache.enabled:  # read again from the cache if asked for (not parsed again)
                cases[index].release()
        return results
    return _play_parallel(cases, sessions, corpus, emit, keep)


def _play_parallel(cases: Sequence[Case], sessions: Sequence[EngineSession], corpus: Corpus,
                   emit: Callable[[CaseResult], None], keep: bool) -> list[CaseResult]:
    todo: queue.Queue[int] = queue.Queue()
    for index in range(len(cases)):
        todo.put(index)
    done: queue.Queue[tuple[int, CaseResult | BaseException]] = queue.Queue()
    stopping = threading.Event()

    def work(session: EngineSession) -> None:
        while not stopping.is_set():
            try:
                index = todo.get_nowait()
            except queue.Empty:
                return
            try:
                done.put((index, run_case(cases[index], session, corpus)))
            except BaseException as exc:  # a bug in the harness: stop the run and show it
                done.put((index, exc))
                return

    workers = [threading.Thread(target=work, args=(session,), daemon=True) for session in sessions]
    for worker in workers:
        worker.start()
    results: list[CaseResult | None] = [None] * len(cases)
    emitted = 0
    try:
        for _ in range(len(cases)):
            index, outcome = done.get()
            if isinstance(outcome, BaseException):
                raise outcome
            results[index] = outcome
            while emitted < len(cases) and results[emitted] is not None:
                emit(results[emitted])  # type: ignore[arg-type]
                if not keep:
                    results[emitted] = None
                    if corpus.cache.enabled:
                        cases[emitted].release()
                emitted += 1
    except KeyboardInterrupt:
        stopping.set()
        deadline = time.monotonic() + INTERRUPT_GRACE
        for worker in workers:  # the cases about to finish are kept; a busy engine is not waited for
            worker.join(timeout=max(0.0, deadline - time.monotonic()))
        while not done.empty():
            index, outcome = done.get()
            if isinstance(outcome, CaseResult):
                results[index] = outcome
        for result in results[emitted:]:
            if result is not None:
                emit(result)
        raise
    finally:
        stopping.set()
    return [r for r in results if r is not None] if keep else []
