"""Synthetic corpora: the real corpus copied `factor` times, each copy of a case under a new id, to
see how a run's time and memory grow with the number of cases."""

from __future__ import annotations

import shutil
from pathlib import Path

CARDS = "cards"
RULINGS = "rulings.yaml"
NOT_CASES = (CARDS, "rules-exempt")


def case_files(source: Path) -> list[Path]:
    return sorted(p for p in source.rglob("*.yaml") if p.relative_to(source).parts[0] not in NOT_CASES
                  and p.name != RULINGS)


def synthetic_corpus(source: Path, target: Path, factor: int) -> int:
    """Write `factor` copies of every case of `source` into `target` (with the same rulings and
    cards); the number of cases written. Copy i of topic/name is topic/name-x<i>."""
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy(source / RULINGS, target / RULINGS)
    shutil.copytree(source / CARDS, target / CARDS)
    count = 0
    for path in case_files(source):
        rel = path.relative_to(source)
        case_id = rel.with_suffix("").as_posix()
        text = path.read_text(encoding="utf-8")
        id_line = f"id: {case_id}\n"
        if id_line not in text:
            raise ValueError(f"{path}: no line {id_line.strip()!r} to rename")
        folder = target / rel.parent
        folder.mkdir(parents=True, exist_ok=True)
        for copy in range(factor):
            new_name = f"{rel.stem}-x{copy}"
            new_text = text.replace(id_line, f"id: {rel.parent.as_posix()}/{new_name}\n", 1)
            (folder / f"{new_name}.yaml").write_text(new_text, encoding="utf-8")
            count += 1
    return count
