"""Instructions per case: the reference engine's work counted by callgrind, the same on any machine.

Wall times on a shared machine vary run to run, and between machines; the number of instructions a
case takes does not. So this section is the figure to compare across runs, sessions and machines:
each engine change's cost, or a target set as a rate on another machine (a rate is instructions per
case times the machine's speed). It needs valgrind; without it the section says so.

Each figure is the difference between two processes under callgrind, run side by side: one runs every
case once (cards built, caches warm), the other runs them once more in one of two ways. The extra pass,
divided by the number of cases, is the instructions per case:
- `engine`: the adapter's reply alone (what an engine author's adapter costs);
- `session`: the reply as the harness receives it in process (checked and parsed), what the in-process
  rate of the engines section measures.

    python bench/instructions.py worker MESSAGES.json {none,engine,session}   (what each process runs)
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODES = ("engine", "session")
_COLLECTED = re.compile(r"Collected : (\d+)")


def available() -> str | None:
    """None if callgrind can be run here, else why not."""
    return None if shutil.which("valgrind") else "valgrind is not installed (apt-get install valgrind)"


def _counted(messages: Path, mode: str) -> int:
    """The instructions callgrind counts in a worker process (start-up, one warm pass, and `mode`'s pass)."""
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                          sys.executable, __file__, "worker", str(messages), mode],
                         capture_output=True, text=True, cwd=ROOT, check=True)
    found = _COLLECTED.search(out.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no count:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def per_case(messages: list[dict]) -> dict[str, float]:
    """Instructions per case for each of MODES, over `messages` (the cases as the engine receives them)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "messages.json"
        path.write_text(json.dumps(messages), encoding="utf-8")
        with ThreadPoolExecutor(max_workers=3) as pool:  # three processes: the cores are kept busy
            counts = dict(zip(("none", *MODES), pool.map(lambda mode: _counted(path, mode), ("none", *MODES))))
    return {mode: (counts[mode] - counts["none"]) / len(messages) for mode in MODES}


def worker(messages_path: str, mode: str) -> None:
    sys.path.insert(0, str(ROOT))
    from harness.engines import open_engine

    messages = json.loads(Path(messages_path).read_text(encoding="utf-8"))
    session = open_engine("reference")
    for message in messages:  # warm: every card built, every module loaded
        session.run(message)
    if mode == "engine":
        for message in messages:
            session.call(message)  # type: ignore[attr-defined]
    elif mode == "session":
        for message in messages:
            session.run(message)
    session.close()


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] != "worker" or sys.argv[3] not in ("none", *MODES):
        raise SystemExit(__doc__)
    worker(sys.argv[2], sys.argv[3])
