"""An on-disk cache of what reading and validating corpus files found, so that a run on an unchanged
corpus reads each file's bytes and little else.

An entry belongs to one file (by its absolute path) and holds a key made by one recipe, entry_key: a
hash of the file's bytes and of everything else the stored value depends on (the harness's code,
schemas and Comprehensive Rules text, and for a case's validation the corpus's rulings and cards). A file that changed, or a
changed harness, no longer matches its entry: the file is read and validated again and the entry
replaced. The cache lives in $MTG_CONFORMANCE_CACHE, else $XDG_CACHE_HOME/mtg-conformance, else
~/.cache/mtg-conformance; MTG_CONFORMANCE_CACHE=off turns it off. A cache that can't be read or
written is simply not used.

The cache can never make an invalid file valid. Every entry is authenticated with a secret key that
lives next to the folder, not in it (`<folder>.key`, readable by the user alone): an entry that was
not written by this user's harness (copied from another machine, restored from a CI cache, forged)
fails the check and is ignored, as if there were none. Folders are created private (0700).
"""

from __future__ import annotations

import hashlib
import hmac
import marshal
import os
import secrets
import sys
import threading
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any, Iterable

CACHE_VARIABLE = "MTG_CONFORMANCE_CACHE"
OFF = ("off", "0", "no", "false")
FORMAT = 3  # of the entries; part of every key (3: keyed BLAKE2b authenticates them)
KEY_BYTES = 32
MAC_BYTES = 32


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
        self.root = directory
        self.directory = directory / f"v{FORMAT}" if directory is not None else None
        self._secret: bytes | None = None

    @classmethod
    def from_environment(cls) -> "Cache":
        return cls(default_directory())

    @property
    def enabled(self) -> bool:
        return self.directory is not None

    def _key(self) -> bytes | None:
        """The secret that authenticates entries: `<folder>.key`, outside the folder, so that whatever
        copies or restores the folder doesn't carry it. Created on first use; None (no cache) if it
        can't be."""
        if self._secret is not None or self.root is None:
            return self._secret
        where = self.root.with_name(self.root.name + ".key")
        try:
            data = where.read_bytes()
        except FileNotFoundError:
            data = b""
        except OSError:
            self.directory = None
            return None
        if len(data) != KEY_BYTES:
            try:
                where.parent.mkdir(parents=True, exist_ok=True)
                temporary = where.with_name(f"{where.name}.{os.getpid()}.{threading.get_ident()}.tmp")
                descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                with os.fdopen(descriptor, "wb") as out:
                    out.write(secrets.token_bytes(KEY_BYTES))
                try:
                    os.link(temporary, where)  # the first writer wins; the others read its key
                except FileExistsError:
                    pass
                finally:
                    temporary.unlink()
                data = where.read_bytes()
            except OSError:
                self.directory = None
                return None
        if len(data) != KEY_BYTES:
            self.directory = None
            return None
        self._secret = data
        return data

    def _entry(self, kind: str, path: Path) -> Path:
        return Path(self._entry_file(kind, path))

    def _entry_file(self, kind: str, path: Path) -> str:
        """The entry's file name, as a string: a run reads a thousand entries, and building each as a
        Path took as long as reading it."""
        assert self.directory is not None
        text = os.fspath(path)  # absolute, without abspath's normalization (a path's entry only needs to be its own)
        where = (text if os.path.isabs(text) else os.path.join(os.getcwd(), text)).encode("utf-8", "surrogateescape")
        name = hashlib.blake2b(where, digest_size=16).hexdigest()
        return os.sep.join((str(self.directory), kind, name[:2], name[2:]))

    def get(self, kind: str, path: Path, key: bytes) -> Any:
        """The value stored for `path` under `key`; None if there is none (or it was stored for another key)."""
        if self.directory is None:
            return None
        secret = self._key()
        if secret is None:
            return None
        try:
            stored = read_bytes(self._entry_file(kind, path))
        except OSError:
            return None
        mac, data = stored[:MAC_BYTES], stored[MAC_BYTES:]
        if not hmac.compare_digest(mac, _mac(secret, kind, data)):  # not written by this user's harness
            return None
        try:
            stored_key, value = marshal.loads(data)
        except (EOFError, ValueError, TypeError):
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
        secret = self._key()
        if secret is None:
            return
        entry = self._entry(kind, path)
        temporary = entry.with_name(f"{entry.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            _private_folder(entry.parent, self.root)
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "wb") as out:
                out.write(_mac(secret, kind, data) + data)
            os.replace(temporary, entry)  # readers see the old entry or the new one, never half of one
        except OSError:
            self.directory = None  # read-only or full: run without the cache
            try:
                temporary.unlink()
            except OSError:
                pass


_READ_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0)  # O_BINARY: Windows only


def read_bytes(path: str | Path) -> bytes:
    """The bytes of a file, read with os.open and os.read: a run reads two files per case (the case
    and its cache entry), and the io objects `open` builds cost more than reading a small file."""
    descriptor = os.open(path, _READ_FLAGS)
    try:
        chunks: list[bytes] = []
        while True:
            chunk = os.read(descriptor, 1 << 16)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    finally:
        os.close(descriptor)


def _mac(secret: bytes, kind: str, data: bytes) -> bytes:
    """The entry's authentication code: keyed BLAKE2b, a MAC by design (RFC 7693). HMAC-SHA256 through
    OpenSSL costs tens of thousands of instructions per call in set-up alone, and a run checks an entry
    for every case and card file: this was an eighth of validating a cached corpus."""
    mac = hashlib.blake2b(kind.encode() + b"\0", key=secret, digest_size=MAC_BYTES)
    mac.update(data)
    return mac.digest()


def _private_folder(folder: Path, top: Path | None) -> None:
    """Create `folder` and its parents up to `top`, each readable by the user alone."""
    missing = []
    current = folder
    while not current.exists():
        missing.append(current)
        if current == top or current.parent == current:
            break
        current = current.parent
    for path in reversed(missing):
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            pass
        os.chmod(path, 0o700)  # mkdir's mode is filtered by the umask


def entry_key(raw: bytes, *depends: bytes) -> bytes:
    """The one recipe of every entry's key: the harness (code, schemas, versions), what else the
    value depends on, and the file's bytes."""
    return digest(code_fingerprint(), *depends, raw)


def fingerprint(parts: Iterable[bytes]) -> bytes:
    """One digest of many parts (the corpus's rulings and cards, for entry_key's `depends`)."""
    return digest(*parts)
