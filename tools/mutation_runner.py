"""The test command for mutation testing the reference engine with mutmut: play the whole corpus
in-process and exit 1 at the first case that doesn't pass (0 if every case passes).

A developer's tool, not used at run time. mutmut is not a dependency; install it in a scratch
environment and point it at the rules modules:

    pip install mutmut==2.5.1
    mutmut run --paths-to-mutate reference_engine/casting.py,reference_engine/layers.py,... \
               --runner "python tools/mutation_runner.py"
    mutmut results

Stopping at the first failure keeps a killed mutant cheap; a surviving mutant costs one whole run.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harness.corpus import Corpus  # noqa: E402
from harness.engines import open_engine  # noqa: E402
from harness.results import Status  # noqa: E402
from harness.runner import run_case  # noqa: E402


def main(cases_dir: Path = ROOT / "cases") -> int:
    corpus = Corpus(cases_dir)
    session = open_engine("reference")
    try:
        for path in corpus.case_paths():
            case = corpus.load_case(path)
            result = run_case(case, session, corpus)
            if result.status is not Status.PASS:
                print(f"killed by {case.id}: {result.status.value}", file=sys.stderr)
                return 1
    finally:
        session.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
