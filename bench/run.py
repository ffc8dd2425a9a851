"""Benchmark: engines side by side, validation, scaling and start-up, measured in one run.

    python bench/run.py [--repeat 5] [--scales 1,10,100] [--engines reference,cmd:...]

Prints one table per measurement (medians over --repeat runs) with the ratios between rows, all
measured on the same cases in this one run. Nothing here asserts a time: read the numbers.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

from tabulate import tabulate

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harness.corpus import Corpus  # noqa: E402
from harness.engines import EngineError, open_engine  # noqa: E402
from harness.validation import validate_corpus  # noqa: E402
from harness.wire import engine_case  # noqa: E402

DEFAULT_ENGINES = ["reference", "cmd:python -m reference_engine", "phase", "python-mtg"]


def median_time(fn: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def engine_rows(corpus: Corpus, specs: list[str], repeat: int) -> list[list[object]]:
    cases = validate_corpus(corpus).valid_cases
    messages = [engine_case(case, corpus) for case in cases]
    rows: list[list[object]] = []
    for spec in specs:
        try:
            session = open_engine(spec.replace("python ", f"{sys.executable} ", 1) if spec.startswith("cmd:python ") else spec)
        except (EngineError, ImportError) as exc:
            rows.append([spec, "-", "-", f"not available: {str(exc).splitlines()[0][:70]}"])
            continue
        try:
            session.run(messages[0])  # warm up (card data loading, caches)
            seconds = median_time(lambda: [session.run(m) for m in messages], repeat)
        finally:
            session.close()
        rows.append([spec, len(messages) / seconds, seconds / len(messages) * 1000, ""])
    fastest = max((r[1] for r in rows if isinstance(r[1], float)), default=None)
    for row in rows:
        row.insert(3, f"{fastest / row[1]:.1f}x slower" if isinstance(row[1], float) and fastest and row[1] != fastest
                   else ("fastest" if isinstance(row[1], float) else "-"))
        if isinstance(row[1], float):
            row[1], row[2] = f"{row[1]:,.0f}", f"{row[2]:.3f}"
    return rows


def validation_rows(repeat: int) -> list[list[object]]:
    def load_and_validate():
        report = validate_corpus(Corpus(ROOT / "cases"))
        return report.case_count
    count = load_and_validate()
    seconds = median_time(load_and_validate, repeat)
    return [["load + schema + lint (cold corpus object)", f"{count / seconds:,.0f}", f"{seconds / count * 1000:.3f}"]]


def synthetic_corpus(target: Path, factor: int) -> int:
    """A copy of the corpus with every case repeated `factor` times under new ids."""
    source = ROOT / "cases"
    shutil.copy(source / "rulings.yaml", target / "rulings.yaml")
    shutil.copytree(source / "cards", target / "cards")
    count = 0
    for path in sorted(source.glob("*/*.yaml")):
        if path.parent.name == "cards":
            continue
        text = path.read_text(encoding="utf-8")
        topic, name = path.parent.name, path.stem
        for copy in range(factor):
            new_name = f"{name}-x{copy}"
            folder = target / topic
            folder.mkdir(exist_ok=True)
            (folder / f"{new_name}.yaml").write_text(
                text.replace(f"id: {topic}/{name}\n", f"id: {topic}/{new_name}\n", 1), encoding="utf-8")
            count += 1
    return count


def run_process(args: list[str]) -> tuple[float, int, int]:
    """Wall time, peak resident memory (KiB) and exit code of a child process."""
    started = time.perf_counter()
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    _, status, usage = os.wait4(process.pid, 0)
    return time.perf_counter() - started, usage.ru_maxrss, os.waitstatus_to_exitcode(status)


def scaling_rows(scales: list[int], repeat: int) -> list[list[object]]:
    rows = []
    base_time = None
    with tempfile.TemporaryDirectory() as tmp:
        for factor in scales:
            folder = Path(tmp) / f"x{factor}" / "cases"
            folder.mkdir(parents=True)
            count = synthetic_corpus(folder, factor)
            command = [sys.executable, "-m", "harness", "run", "--cases", str(folder), "--format", "json"]
            samples = [run_process(command) for _ in range(repeat)]
            seconds = statistics.median(s[0] for s in samples)
            memory = max(s[1] for s in samples)
            codes = {s[2] for s in samples}
            base_time = base_time or seconds / factor
            rows.append([f"{factor}x", count, f"{seconds:.2f}", f"{count / seconds:,.0f}",
                         f"{seconds / (base_time * factor):.2f}", f"{memory / 1024:.0f}",
                         "ok" if codes == {0} else f"exit {sorted(codes)}"])
    return rows


def startup_rows(repeat: int) -> list[list[object]]:
    rows = []
    for label, command in [
        ("python -c 'import harness'", [sys.executable, "-c", "import harness"]),
        ("python -c 'pass' (interpreter alone)", [sys.executable, "-c", "pass"]),
        ("mtg-conformance run (whole corpus)", [sys.executable, "-m", "harness", "run"]),
    ]:
        seconds = statistics.median(run_process(command)[0] for _ in range(repeat))
        rows.append([label, f"{seconds * 1000:.0f}"])
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5, help="repetitions per measurement (median reported)")
    parser.add_argument("--scales", default="1,10,100", help="synthetic corpus sizes, as multiples of the corpus")
    parser.add_argument("--engines", default=",".join(DEFAULT_ENGINES),
                        help="engines to compare, comma-separated (unavailable ones are listed as such)")
    args = parser.parse_args(argv)
    corpus = Corpus(ROOT / "cases")
    print(f"mtg-conformance benchmark: {len(validate_corpus(corpus).valid_cases)} cases, "
          f"median of {args.repeat}, Python {sys.version.split()[0]}, {os.cpu_count()} cores\n")
    print("Engines, same cases in the same process (adapter included):")
    print(tabulate(engine_rows(corpus, args.engines.split(","), args.repeat),
                   headers=["engine", "cases/s", "ms/case", "vs fastest", "note"]))
    print("\nValidation:")
    print(tabulate(validation_rows(args.repeat), headers=["what", "cases/s", "ms/case"]))
    print("\nScaling (`mtg-conformance run` in a fresh process on synthetic corpora):")
    print(tabulate(scaling_rows([int(s) for s in args.scales.split(",")], max(1, args.repeat // 2)),
                   headers=["corpus", "cases", "seconds", "cases/s", "time / linear", "peak MiB", "result"]))
    print("\nStart-up (wall time of a fresh process):")
    print(tabulate(startup_rows(args.repeat), headers=["command", "ms"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
