"""No file the project ships or documents carries a merge's conflict markers: a merge resolved in a
hurry once left a table of docs/reference-engine.md with both sides and the markers between them."""

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARKERS = ("<<<<<<< ", ">>>>>>> ")  # the lines that open and close a conflict


def tracked_text_files() -> list[Path]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [ROOT / name for name in out.splitlines()
            if name.endswith((".py", ".md", ".yaml", ".yml", ".json", ".toml", ".txt", ".html", ".j2"))]


def test_no_conflict_markers() -> None:
    found = []
    for path in tracked_text_files():
        if not path.is_file():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(True), 1):
            if line.startswith(MARKERS):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.rstrip()}")
    assert not found, "merge conflict markers:\n" + "\n".join(found)
