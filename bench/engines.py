"""Per-case time of engines on the corpus, measured in one run, as ratios to the reference engine.

    python bench/engines.py [--engine NAME ...] [--repeat N]

Each case is run N times through the harness (validation excluded); the table shows, per engine, the
median and mean time per case (setup, actions and observations, as the runner measures them) and
the ratio of the mean to the reference engine's. Skipped cases are left out of the timing.
"""

from __future__ import annotations

import argparse
import statistics
import time

from harness.corpus import Corpus
from harness.engines import open_engine
from harness.paths import default_corpus
from harness.results import Status
from harness.runner import run_case
from harness.validation import validate_corpus


def measure(spec: str, cases, corpus, repeat: int) -> tuple[list[float], float, int]:
    started = time.perf_counter()
    session = open_engine(spec)
    start_time = time.perf_counter() - started
    times: list[float] = []
    ran = 0
    try:
        for case in cases:
            for _ in range(repeat):
                result = run_case(case, session, corpus)
                if result.status is Status.SKIP:
                    break
                times.append(result.duration)
            else:
                ran += 1
    finally:
        session.close()
    return times, start_time, ran


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", dest="engines", action="append", default=None)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    engines = args.engines or ["reference", "phase", "python-mtg"]
    corpus = Corpus(default_corpus())
    cases = validate_corpus(corpus).valid_cases
    rows = []
    for spec in dict.fromkeys(["reference", *engines]):
        times, start_time, ran = measure(spec, cases, corpus, args.repeat)
        rows.append((spec, times, start_time, ran))
    reference_mean = statistics.mean(rows[0][1])
    print(f"{len(cases)} cases, each run {args.repeat} times; skipped cases are not timed")
    print(f"{'engine':<12} {'start s':>8} {'cases run':>10} {'median ms':>10} {'mean ms':>9} {'x reference':>12}")
    for spec, times, start_time, ran in rows:
        if not times:
            print(f"{spec:<12} {start_time:>8.2f} {ran:>10} {'-':>10} {'-':>9} {'-':>12}")
            continue
        mean = statistics.mean(times)
        print(f"{spec:<12} {start_time:>8.2f} {ran:>10} {statistics.median(times) * 1000:>10.2f} "
              f"{mean * 1000:>9.2f} {mean / reference_mean:>12.1f}")


if __name__ == "__main__":
    main()
