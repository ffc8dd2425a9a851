"""What the JSON-lines protocol costs: the corpus played by the reference engine in process, over
stdio, and over stdio with two processes (-j 2), each measured in this one run and printed as cases
per second and as a ratio to the in-process run. Ratios, not absolute times, are comparable across
machines.

    python bench/protocol_overhead.py [ROUNDS]
"""

from __future__ import annotations

import shlex
import sys
import time

from harness.corpus import Corpus
from harness.paths import default_corpus
from harness.protocol_client import serve_command
from harness.scheduling import open_sessions, play
from harness.validation import validate_corpus


def measure(spec: str, jobs: int, cases, corpus) -> float:
    sessions = open_sessions(spec, jobs)
    try:
        play(cases[:jobs], sessions, corpus, lambda result: None)  # warm up: card definitions load once per process
        started = time.perf_counter()
        results = play(cases, sessions, corpus, lambda result: None)
        elapsed = time.perf_counter() - started
    finally:
        for session in sessions:
            session.close()
    assert all(r.status.value == "pass" for r in results), [r.case_id for r in results if r.status.value != "pass"]
    return len(cases) / elapsed


def main() -> int:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    corpus = Corpus(default_corpus())
    cases = validate_corpus(corpus).valid_cases * rounds
    wire = "cmd:" + shlex.join(serve_command("reference"))
    runs = [("in process", "reference", 1), ("over stdio", wire, 1), ("over stdio, -j 2", wire, 2)]
    base = None
    print(f"{len(cases)} cases per run")
    for label, spec, jobs in runs:
        rate = measure(spec, jobs, cases, corpus)
        base = base or rate
        print(f"{label:<18} {rate:8.0f} cases/s   {rate / base:5.2f}x in-process")
    return 0


if __name__ == "__main__":
    sys.exit(main())
