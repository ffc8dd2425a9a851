"""An on-disk cache of what reading and validating corpus files found, so that a run on an unchanged
corpus reads each file's bytes and little else.

An entry belongs to one file (by its absolute path) and holds a key: a hash of the file's bytes and
of everything else the stored value depends on (the harness's code, schemas and Comprehensive Rules
text, and for validation the corpus's rulings and cards). A file that changed, or a changed harness, no longer matches its
entry: the file is read and validated again and the entry replaced. The cache lives in
$MTG_CONFORMANCE_CACHE, else $XDG_CACHE_HOME/mtg-conformance, else ~/.cache/mtg-conformance;
MTG_CONFORMANCE_CACHE=off turns it off. A cache that can't be read or written is simply not used.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
import threading
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any, Iterable

CACHE_VARIABLE = "MTG_CONFORMANCE_CACHE"
OFF = ("off", "0", "no", "false")
FORMAT = 1  # of the entries; part of every key


def default_directory() -> Path | None:
    """Where the cache is, from the environment (None: off)."""
    setting = os.environ.get(CACHE_VARIABLE)
    if setting is not None:
        return None if setting.strip().lower() in OFF or not setting.strip() else Path(setting)
    base = os.environ.get("XDG_CACHE_HOME") or (Path.home() / ".cache")
    return Path(base) / "mtg-conformance"


def digest(*parts: bytes) -> bytes:
    h = hashlib.blake2b(digest_size=20)
    for part in parts:
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.digest()


@lru_cache(maxsize=None)
def code_fingerprint() -> bytes:
    """The harness's own code, schemas and Comprehensive Rules, and the versions of what reads and
    checks files: a change to any of them may change what a file reads as, or what validation says."""
    from harness.paths import cr_dir, schema_dir

    package = Path(__file__).resolve().parent
    kit = package.parent / "engine_kit"  # validation reads the case vocabulary and Oracle facts there
    files = (sorted(package.rglob("*.py")) + sorted(kit.rglob("*.py")) + sorted(schema_dir().rglob("*.json"))
             + sorted(cr_dir().glob("*.txt")))
    versions = [sys.version, str(FORMAT)] + [_version(name) for name in ("pyyaml", "jsonschema", "jsonschema-rs")]
    return digest(*(v.encode() for v in versions), *(f.read_bytes() for f in files))


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "?"


class Cache:
    def __init__(self, directory: Path | None) -> None:
        self.directory = directory / f"v{FORMAT}" if directory is not None else None

    @classmethod
    def from_environment(cls) -> "Cache":
        return cls(default_directory())

    @property
    def enabled(self) -> bool:
        return self.directory is not None

    def _entry(self, kind: str, path: Path) -> Path:
        assert self.directory is not None
        where = os.path.abspath(path).encode("utf-8", "surrogateescape")
        name = hashlib.blake2b(where, digest_size=16).hexdigest()
        return self.directory / kind / name[:2] / name[2:]

    def get(self, kind: str, path: Path, key: bytes) -> Any:
        """The value stored for `path` under `key`; None if there is none (or it was stored for another key)."""
        if self.directory is None:
            return None
        try:
            stored_key, value = marshal.loads(self._entry(kind, path).read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            return None
        return value if stored_key == key else None

    def put(self, kind: str, path: Path, key: bytes, value: Any) -> None:
        """Store `value` (plain data: what marshal can write) for `path` under `key`."""
        if self.directory is None:
            return
        try:
            data = marshal.dumps((key, value))
        except ValueError:  # a value marshal can't write (a YAML timestamp...): not cached
            return
        entry = self._entry(kind, path)
        temporary = entry.with_name(f"{entry.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            entry.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_bytes(data)
            os.replace(temporary, entry)  # readers see the old entry or the new one, never half of one
        except OSError:
            self.directory = None  # read-only or full: run without the cache
            try:
                temporary.unlink()
            except OSError:
                pass


def fingerprint(parts: Iterable[bytes]) -> bytes:
    return digest(code_fingerprint(), *parts)
