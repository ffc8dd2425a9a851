"""No file the project ships or documents carries a merge's conflict markers: a merge resolved in a
hurry once left a table of docs/reference-engine.md with both sides and the markers between them.
(CI runs in a copy without .git, so the files are found by walking the project's folders.)"""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("bench", "cases", "docs", "engine_adapters", "engine_kit", "examples", "harness", "mutants",
           "reference_engine", "schema", "tests", "tools", ".ci")
SUFFIXES = (".py", ".md", ".yaml", ".yml", ".json", ".toml", ".txt", ".html", ".j2", "")
MARKERS = ("<<<<<<< ", ">>>>>>> ")  # the lines that open and close a conflict


def project_text_files() -> list[Path]:
    files = [p for p in ROOT.iterdir() if p.is_file() and p.suffix in (".md", ".toml", ".cfg")]
    for folder in FOLDERS:
        files.extend(p for p in (ROOT / folder).rglob("*") if p.is_file() and not p.is_symlink()
                     and p.suffix in SUFFIXES and "__pycache__" not in p.parts)
    return files


def test_no_conflict_markers() -> None:
    found = []
    for path in project_text_files():
        for number, line in enumerate(path.read_bytes().decode("utf-8", "replace").splitlines(), 1):
            if line.startswith(MARKERS):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line}")
    assert not found, "merge conflict markers:\n" + "\n".join(found)


def test_the_walk_finds_the_project_files() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in project_text_files()}
    assert {"README.md", "docs/reference-engine.md", "reference_engine/ops.py", ".ci/run"} <= names
