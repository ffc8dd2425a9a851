"""Where the corpus and the schemas live: the source checkout, or the copies installed with the package."""

from __future__ import annotations

from pathlib import Path

_SOURCE_ROOT = Path(__file__).resolve().parent.parent
_PACKAGED = Path(__file__).resolve().parent / "data"


def _first_existing(*candidates: Path) -> Path:
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return candidates[0]


def default_corpus() -> Path:
    """The corpus shipped with this harness (cases/ of the checkout, or the installed copy)."""
    return _first_existing(_SOURCE_ROOT / "cases", _PACKAGED / "cases")


def schema_dir() -> Path:
    return _first_existing(_SOURCE_ROOT / "schema", _PACKAGED / "schema")


def cr_dir() -> Path:
    """The Comprehensive Rules text the corpus cites (cr/ of the checkout, or the installed copy)."""
    return _first_existing(_SOURCE_ROOT / "cr", _PACKAGED / "cr")
