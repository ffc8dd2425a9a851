"""How the benchmark measures: medians of repeated timings, and child processes timed with their own
peak memory.

A child's peak resident memory (ru_maxrss) counts the memory of the process it was forked from, until
it runs the new program: forked from the benchmark (which holds the engines, a few hundred MiB), every
child would look that big. So children are started by a small launcher, a fresh interpreter that
forks them and reports their wall time, peak memory and exit code.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent

LAUNCHER = """
import json, os, subprocess, sys, time
started = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
print(json.dumps([time.perf_counter() - started, usage.ru_maxrss * scale, os.waitstatus_to_exitcode(status)]))
"""


def median_time(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of `fn` over `repeat` calls, in seconds."""
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def median_times(fns: list[Callable[[], object]], repeat: int) -> list[float]:
    """Median wall time of each of `fns`, called in turn in every round (in reverse order every other
    round), so that they are compared under the same conditions (other work on the machine, CPU
    frequency, what ran just before)."""
    samples: list[list[float]] = [[] for _ in fns]
    for round_ in range(repeat):
        order = list(zip(fns, samples))
        for fn, times in order if round_ % 2 == 0 else reversed(order):
            started = time.perf_counter()
            fn()
            times.append(time.perf_counter() - started)
    return [statistics.median(times) for times in samples]


@dataclass(frozen=True)
class ProcessRun:
    seconds: float
    peak_bytes: int
    exit_code: int


def run_process(argv: list[str], env: dict[str, str] | None = None) -> ProcessRun:
    """Wall time, peak resident memory and exit code of `argv` run to completion (output discarded)."""
    out = subprocess.run([sys.executable, "-c", LAUNCHER, *argv], capture_output=True, text=True, cwd=ROOT,
                         env=env, check=True)
    seconds, peak, code = json.loads(out.stdout)
    return ProcessRun(seconds, peak, code)


def median_process(argv: list[str], repeat: int, env: dict[str, str] | None = None) -> ProcessRun:
    """Median time and largest peak memory over `repeat` runs; the exit code if all agree, else -1."""
    runs = [run_process(argv, env) for _ in range(repeat)]
    codes = {r.exit_code for r in runs}
    return ProcessRun(statistics.median(r.seconds for r in runs), max(r.peak_bytes for r in runs),
                      codes.pop() if len(codes) == 1 else -1)


def environment(**changes: str | None) -> dict[str, str]:
    """This process's environment with `changes` (None removes a variable)."""
    env = dict(os.environ)
    for key, value in changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env
