"""The corpus on disk: rulings, card Oracle data and case files."""

from __future__ import annotations

import fnmatch
import marshal
import os
import sys
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from harness.cache import Cache, entry_key, fingerprint
from harness.yamlio import Document, Lines, YamlError, load_bytes

CARDS_DIRNAME = "cards"
RULINGS_FILENAME = "rulings.yaml"
EXEMPT_DIRNAME = "rules-exempt"  # the rules no case can test, with the reason (harness/exemptions.py)
NOT_CASES = (CARDS_DIRNAME, EXEMPT_DIRNAME)  # folders of the corpus that hold no cases


@dataclass(frozen=True)
class Ruling:
    id: str
    text: str
    card: str | None = None
    topic: str | None = None

    @property
    def group(self) -> str:
        """The card or topic the ruling belongs to: its id without the number."""
        return self.id.rsplit("-", 1)[0]


class StoredDocument(Document):
    """A document from the cache: its lines are stored packed, and unpacked when first asked for. Only
    a problem or a failure asks, so a run of passing cases never unpacks them (half of reading a
    document from the cache)."""

    def __init__(self, path: Path, data: Any, packed_lines: bytes) -> None:
        self.path = path
        self.data = data
        self._packed: bytes | None = packed_lines
        self._lines: Lines | None = None

    @property  # type: ignore[override]
    def lines(self) -> Lines | None:
        if self._packed is not None:
            self._lines, self._packed = marshal.loads(self._packed), None
        return self._lines

    @lines.setter
    def lines(self, value: Lines | None) -> None:
        self._lines, self._packed = value, None


@dataclass(frozen=True)
class CardData:
    """Oracle data of one card, as stored in cases/cards/."""

    name: str
    data: dict[str, Any]
    path: Path

    @property
    def faces(self) -> list[dict[str, Any]]:
        return self.data["faces"]

    @property
    def face_names(self) -> list[str]:
        return [face["name"] for face in self.faces]

    @property
    def is_double_faced(self) -> bool:
        return len(self.faces) > 1


@dataclass(frozen=True, slots=True)
class CaseFacts:
    """What is known of a case without its document: enough to select it, and to report on it. A run
    of many cases holds these, so they are small (ruling ids and capabilities are shared strings)."""

    id: str
    rulings: tuple[str, ...]
    requires: tuple[str, ...]
    id_line: int
    rules: tuple[str, ...] = ()  # Comprehensive Rules numbers

    def to_data(self) -> tuple:
        return (self.id, self.rulings, self.requires, self.id_line, self.rules)

    @classmethod
    def from_data(cls, data: Any) -> "CaseFacts":
        case_id, rulings, requires, id_line, rules = data
        return cls(case_id, tuple(map(sys.intern, rulings)), tuple(map(sys.intern, requires)), id_line,
                   tuple(map(sys.intern, rules)))


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(sys.intern(v) for v in value if isinstance(v, str)) if isinstance(value, list) else ()


class Case:
    """One case file, loaded but not necessarily valid.

    Its document (data and lines) is read once: when the case is loaded, or, if its facts came from
    the cache, when it is first needed (to be played)."""

    __slots__ = ("_where", "_under", "rel_path", "root_name", "_doc", "_load", "_facts")

    def __init__(self, path: Path, doc: Document | None, rel_path: str, root_name: str = "cases", *,
                 load: Callable[[Path], Document] | None = None, facts: CaseFacts | None = None,
                 root: Path | None = None) -> None:
        # A run holds every case it selected: a case keeps its path as the corpus root (shared) and
        # its path under it, not a Path of its own.
        if root is None and path.parts[-len(Path(rel_path).parts):] == Path(rel_path).parts:
            root = path.parents[len(Path(rel_path).parts) - 1]
        self._where, self._under = (root, True) if root is not None else (path, False)
        self.rel_path = rel_path
        self.root_name = root_name
        self._doc = doc
        self._load = load  # how to read the document when the facts came from the cache
        self._facts = facts

    @property
    def path(self) -> Path:
        return self._where / self.rel_path if self._under else self._where

    def __repr__(self) -> str:
        return f"Case({self.display_path!r})"

    @property
    def doc(self) -> Document:
        if self._doc is None:
            assert self._load is not None
            self._doc = self._load(self.path)
        return self._doc

    @property
    def loaded(self) -> bool:
        """Whether the document is in memory."""
        return self._doc is not None

    def release(self) -> None:
        """Forget the document (it is read again, from the cache, if asked for): a run streaming its
        results keeps no case's document once the case is judged, so memory doesn't grow with the corpus."""
        if self._load is not None:
            if self._facts is None:
                self._facts = self.facts  # what identifies the case stays known without the document
            self._doc = None

    @property
    def facts(self) -> CaseFacts:
        if self._facts is not None:
            return self._facts
        data = self.data
        value = data.get("id")
        return CaseFacts(value if isinstance(value, str) else self.expected_id, _strings(data.get("rulings")),
                         _strings(data.get("requires")), self.doc.line_of(["id"]), _strings(data.get("rules")))

    @property
    def data(self) -> dict[str, Any]:
        return self.doc.data if isinstance(self.doc.data, dict) else {}

    @property
    def id(self) -> str:
        return self.facts.id

    @property
    def expected_id(self) -> str:
        """The id this file must have: its path under cases/ without the extension."""
        return self.rel_path.removesuffix(".yaml")

    @property
    def topic(self) -> str:
        return self.id.split("/", 1)[0]

    @property
    def rulings(self) -> list[str]:
        return list(self.facts.rulings)

    @property
    def requires(self) -> list[str]:
        return list(self.facts.requires)

    @property
    def rules(self) -> list[str]:
        """The Comprehensive Rules numbers the case cites."""
        return list(self.facts.rules)

    @property
    def description(self) -> str:
        value = self.data.get("description")
        return value if isinstance(value, str) else ""

    def line_of(self, path: Iterable[str | int]) -> int:
        path = list(path)
        if path == ["id"] and self._facts is not None:
            return self._facts.id_line
        return self.doc.line_of(path)

    def location(self, path: Iterable[str | int] = ()) -> str:
        return f"{self.display_path}:{self.line_of(path)}"

    @property
    def display_path(self) -> str:
        """The file as people know it: under the corpus folder's name (cases/general/x.yaml)."""
        return f"{self.root_name}/{self.rel_path}"


def _parts(name: str) -> list[str]:
    return name.split("/")


@dataclass
class Corpus:
    """A corpus directory: rulings.yaml, cards/ and one folder of cases per topic.

    Files are read through the harness's cache (harness/cache.py): a file that hasn't changed since
    it was last read is not parsed again."""

    root: Path
    cache: Cache = field(default_factory=Cache.from_environment, repr=False)
    _case_cache: dict[str, Case] = field(default_factory=dict, repr=False)  # by path under the root
    invalid_card_files: set[Path] = field(default_factory=set, repr=False)

    def document(self, path: Path) -> Document:
        """The document of the file `path` (YamlError if it isn't valid YAML)."""
        raw = path.read_bytes()
        return self._document(path, raw, entry_key(raw))

    def _document(self, path: Path, raw: bytes, key: bytes) -> Document:
        cached = self.cache.get("document", path, key)
        if cached is not None:
            return StoredDocument(path, cached[0], cached[1])
        doc = load_bytes(raw, path)
        self.cache.put("document", path, key, (doc.data, marshal.dumps(doc.lines)))
        return doc

    @cached_property
    def _load_document(self) -> Callable[[Path], Document]:
        """`document`, bound once: every case holds this one (a bound method per case is 64 bytes more)."""
        return self.document

    @cached_property
    def real_root(self) -> Path:
        return self.root.resolve()

    def inside(self, path: Path) -> bool:
        """Whether `path`, symbolic links followed, is in the corpus: a link out of it (to a file the
        CI machine has, in an untrusted pull request) is never read, so never shown in an error."""
        try:
            return path.resolve().is_relative_to(self.real_root)
        except (OSError, RuntimeError):  # a link loop
            return False

    @cached_property
    def refused(self) -> list[tuple[Path, str]]:
        """Files of the corpus that are not read, and why: links out of it, and case or card files with
        another extension than .yaml (.yml, .YAML), which would otherwise be silently left out."""
        found: list[tuple[Path, str]] = []
        rulings = self.root / RULINGS_FILENAME
        if rulings.is_symlink() and not self.inside(rulings):
            found.append((rulings, "a symbolic link to outside the corpus: not read"))
        for folder in NOT_CASES:
            if not self._folder_inside(self.root / folder):
                found.append((self.root / folder, "a symbolic link to a folder outside the corpus: not read"))
                continue
            try:
                entries = sorted(os.scandir(self.root / folder), key=lambda e: e.name)
            except OSError:
                continue
            for entry in entries:
                path = Path(entry.path)
                if entry.is_symlink() and not self.inside(path):
                    found.append((path, "a symbolic link to outside the corpus: not read"))
                elif entry.is_file():
                    self._check_extension(path, found)
        found.extend(self._scanned_topics[1])
        return found

    @cached_property
    def _scanned_topics(self) -> tuple[list[str], list[tuple[Path, str]]]:
        """The topic folders as they were first walked: like its rulings and cards, a Corpus reads its
        case list once (validation, the run and the report's corpus version all use it), and a corpus
        changed on disk is seen by a new Corpus. Each case file is kept as its name under the root, not
        as a Path: a run holds the list for its whole length, and a Path costs about 400 bytes."""
        return self._scan_topics()

    @cached_property
    def _root_prefix(self) -> str:
        """What the string of a path under the root begins with ('cases/'; '' for the root '.', whose
        paths begin with their own names)."""
        return str(self.root / "x")[:-1]

    def _scan_topics(self) -> tuple[list[str], list[tuple[Path, str]]]:
        """The names of the case files of every topic folder (sorted by path, topic by topic), and what
        is refused there. One walk with os.scandir: only symbolic links are resolved (the rest is inside)."""
        cases: list[str] = []
        found: list[tuple[Path, str]] = []
        for topic in self._topics():
            if topic.is_symlink() and not self.inside(topic):
                found.append((topic, "a symbolic link to a folder outside the corpus: not read"))
                continue
            files: list[str] = []
            start = str(topic)  # every path found below begins with it: the name is the topic's and the rest
            stack, seen = [start], {topic.resolve()}
            while stack:
                try:
                    entries = list(os.scandir(stack.pop()))
                except OSError:
                    continue
                for entry in entries:
                    link = entry.is_symlink()
                    if link and not self.inside(Path(entry.path)):
                        found.append((Path(entry.path), "a symbolic link to outside the corpus: not read"))
                    elif entry.is_dir():
                        real = Path(entry.path).resolve() if link else None
                        if real is None or real not in seen:  # a link back up the tree is not walked twice
                            seen.add(real) if real else None
                            stack.append(entry.path)
                    elif entry.is_file():
                        if entry.name.endswith(".yaml"):
                            files.append(topic.name + entry.path[len(start):].replace(os.sep, "/"))
                        else:
                            self._check_extension(Path(entry.path), found)
            cases.extend(sorted(files, key=_parts))  # as Paths sort: folder by folder
        return cases, found

    def _folder_inside(self, folder: Path) -> bool:
        return not folder.is_symlink() or self.inside(folder)

    @staticmethod
    def _check_extension(path: Path, found: list[tuple[Path, str]]) -> None:
        if path.suffix != ".yaml" and path.suffix.lower() in (".yaml", ".yml"):
            found.append((path, f"a YAML file ending in {path.suffix!r}: only .yaml files are read, rename it"))

    def _listed(self, folder: Path, pattern: str) -> list[Path]:
        return sorted(folder.glob(pattern)) if folder.is_dir() else []

    def _topics(self) -> list[Path]:
        return sorted(p for p in self.root.iterdir() if p.is_dir() and p.name not in NOT_CASES)

    @cached_property
    def support_files(self) -> dict[Path, bytes]:
        """rulings.yaml and cards/*.yaml, as bytes: validation of every case depends on them."""
        cards = self.root / CARDS_DIRNAME
        paths = [self.root / RULINGS_FILENAME] + (self._listed(cards, "*.yaml") if self._folder_inside(cards) else [])
        return {path: path.read_bytes() for path in paths
                if path.is_file() and (not path.is_symlink() or self.inside(path))}

    @cached_property
    def context(self) -> bytes:
        """What validating a file depends on besides the file: the harness, its schemas, the corpus's
        rulings and cards (by name and contents)."""
        return fingerprint(part for path, raw in self.support_files.items()
                           for part in (path.relative_to(self.root).as_posix().encode(), raw))

    @cached_property
    def rulings_doc(self) -> Document:
        path = self.root / RULINGS_FILENAME
        raw = self.support_files.get(path)
        if raw is None:
            raise FileNotFoundError(f"{path}: no such file")
        return self._document(path, raw, entry_key(raw))

    @cached_property
    def rulings(self) -> dict[str, Ruling]:
        """The rulings by id; none when rulings.yaml can't be read (validation reports why)."""
        try:
            data = self.rulings_doc.data or {}
        except (YamlError, FileNotFoundError):
            return {}
        out: dict[str, Ruling] = {}
        entries = data.get("rulings") if isinstance(data, dict) else None
        for entry in entries if isinstance(entries, list) else []:
            if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                out[entry["id"]] = Ruling(entry["id"], str(entry.get("text", "")),
                                          entry.get("card"), entry.get("topic"))
        return out

    @cached_property
    def card_docs(self) -> dict[Path, Document]:
        """The card files that are valid YAML (card_errors has the others)."""
        docs = {}
        for path, raw in self.support_files.items():
            if path.parent.name == CARDS_DIRNAME:
                try:
                    docs[path] = self._document(path, raw, entry_key(raw))
                except YamlError as exc:
                    self.card_errors.append(exc)
        return docs

    @cached_property
    def card_errors(self) -> list[YamlError]:
        return []

    def exclude_cards(self, paths: Iterable[Path]) -> None:
        """Leave out the card files validation found problems in, so that no check of a case trips
        over their malformed data (validation reports them)."""
        self.invalid_card_files.update(paths)
        for name in ("cards", "card_names"):
            self.__dict__.pop(name, None)

    @cached_property
    def cards(self) -> dict[str, CardData]:
        """Cards by Oracle name ('Front // Back' for double-faced cards)."""
        out: dict[str, CardData] = {}
        for path, doc in self.card_docs.items():
            if path in self.invalid_card_files:
                continue
            if isinstance(doc.data, dict) and isinstance(doc.data.get("name"), str):
                out[doc.data["name"]] = CardData(doc.data["name"], doc.data, path)
        return out

    @cached_property
    def card_names(self) -> dict[str, str]:
        """Every name a case may use for a card (full name, each face's name) -> the card's full name."""
        names: dict[str, str] = {}
        for card in self.cards.values():
            names[card.name] = card.name
            for face in card.data.get("faces", []):
                if isinstance(face, dict) and isinstance(face.get("name"), str):
                    names.setdefault(face["name"], card.name)
        return names

    def card(self, name: str) -> CardData | None:
        full = self.card_names.get(name)
        return self.cards.get(full) if full else None

    def case_paths(self) -> list[Path]:
        """Every case file, in a stable order (sorted by path)."""
        return [self.root / name for name in self._scanned_topics[0]]

    def case_names(self) -> list[str]:
        """The name under the root of every case file (demo/elves.yaml), in the order of case_paths."""
        return list(self._scanned_topics[0])

    def exemption_paths(self) -> list[Path]:
        """The files of rules-exempt/, sorted (not those linked from outside the corpus)."""
        return [path for path in sorted((self.root / EXEMPT_DIRNAME).glob("*.yaml")) if self.inside(path)]

    def load_case(self, path: Path, raw: bytes | None = None, name: str | None = None) -> Case:
        """The case in the file `path` (whose bytes, and name under the root, may be given); YamlError if
        it isn't valid YAML."""
        rel = name or self.name_of(path)
        cached = self._case_cache.get(rel)
        if cached is not None:
            return cached
        if raw is None:
            raw = path.read_bytes()
        doc = self._document(path, raw, entry_key(raw))
        case = self._case_cache[rel] = Case(path, doc, rel, self.root.name, load=self._load_document, root=self.root)
        return case

    def known_case(self, path: Path, facts: CaseFacts, name: str | None = None) -> Case:
        """A case whose facts are known (from the cache): its document is read when needed. `name`: its
        name under the root, if known (the case then holds that string, not a copy)."""
        rel = name or self.name_of(path)
        case = self._case_cache.get(rel)
        if case is None:
            case = self._case_cache[rel] = Case(path, None, rel, self.root.name, load=self._load_document, facts=facts,
                                                root=self.root)
        return case

    def name_of(self, path: Path) -> str:
        """`path` (a file of the corpus) under the root, with forward slashes: demo/elves.yaml."""
        text, prefix = str(path), self._root_prefix
        if prefix and text.startswith(prefix):  # the usual case, without pathlib's relative_to (slow)
            return text[len(prefix):].replace(os.sep, "/")
        return path.relative_to(self.root).as_posix()

    def iter_cases(self) -> Iterator[Case | YamlError]:
        """Every case, or the YamlError of a file that cannot be parsed."""
        for name in self.case_names():
            try:
                yield self.load_case(self.root / name, name=name)
            except YamlError as exc:
                yield exc


def select(cases: Iterable[Case], patterns: list[str] | None = None, tags: list[str] | None = None) -> list[Case]:
    """Cases whose id contains or glob-matches one of `patterns`, and that require every tag in `tags`."""
    chosen = []
    for case in cases:
        if patterns and not any(_matches(case.id, pattern) for pattern in patterns):
            continue
        if tags and not all(tag in case.requires for tag in tags):
            continue
        chosen.append(case)
    return chosen


def _matches(case_id: str, pattern: str) -> bool:
    if any(ch in pattern for ch in "*?["):
        return fnmatch.fnmatchcase(case_id, pattern)
    return pattern in case_id
