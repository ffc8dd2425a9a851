"""The corpus on disk: rulings, card Oracle data and case files."""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Iterable, Iterator

from harness.yamlio import Document, YamlError, load_file

CARDS_DIRNAME = "cards"
RULINGS_FILENAME = "rulings.yaml"


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


@dataclass
class Case:
    """One case file, loaded but not necessarily valid."""

    path: Path
    doc: Document
    rel_path: str
    root_name: str = "cases"

    @property
    def data(self) -> dict[str, Any]:
        return self.doc.data if isinstance(self.doc.data, dict) else {}

    @property
    def id(self) -> str:
        value = self.data.get("id")
        return value if isinstance(value, str) else self.expected_id

    @property
    def expected_id(self) -> str:
        """The id this file must have: its path under cases/ without the extension."""
        return self.rel_path.removesuffix(".yaml")

    @property
    def topic(self) -> str:
        return self.id.split("/", 1)[0]

    @property
    def rulings(self) -> list[str]:
        value = self.data.get("rulings")
        return [r for r in value if isinstance(r, str)] if isinstance(value, list) else []

    @property
    def requires(self) -> list[str]:
        value = self.data.get("requires")
        return [r for r in value if isinstance(r, str)] if isinstance(value, list) else []

    @property
    def description(self) -> str:
        value = self.data.get("description")
        return value if isinstance(value, str) else ""

    def line_of(self, path: Iterable[str | int]) -> int:
        return self.doc.line_of(list(path))

    def location(self, path: Iterable[str | int] = ()) -> str:
        return f"{self.display_path}:{self.line_of(path)}"

    @property
    def display_path(self) -> str:
        """The file as people know it: under the corpus folder's name (cases/general/x.yaml)."""
        return f"{self.root_name}/{self.rel_path}"


@dataclass
class Corpus:
    """A corpus directory: rulings.yaml, cards/ and one folder of cases per topic."""

    root: Path
    _case_cache: dict[Path, Case] = field(default_factory=dict, repr=False)

    @cached_property
    def rulings_doc(self) -> Document:
        return load_file(self.root / RULINGS_FILENAME)

    @cached_property
    def rulings(self) -> dict[str, Ruling]:
        data = self.rulings_doc.data or {}
        out: dict[str, Ruling] = {}
        for entry in data.get("rulings", []) if isinstance(data, dict) else []:
            if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                out[entry["id"]] = Ruling(entry["id"], str(entry.get("text", "")),
                                          entry.get("card"), entry.get("topic"))
        return out

    @cached_property
    def card_docs(self) -> dict[Path, Document]:
        return {path: load_file(path) for path in sorted((self.root / CARDS_DIRNAME).glob("*.yaml"))}

    @cached_property
    def cards(self) -> dict[str, CardData]:
        """Cards by Oracle name ('Front // Back' for double-faced cards)."""
        out: dict[str, CardData] = {}
        for path, doc in self.card_docs.items():
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
        paths = []
        for topic in sorted(p for p in self.root.iterdir() if p.is_dir() and p.name != CARDS_DIRNAME):
            paths.extend(sorted(topic.rglob("*.yaml")))
        return paths

    def load_case(self, path: Path) -> Case:
        cached = self._case_cache.get(path)
        if cached is not None:
            return cached
        rel = path.relative_to(self.root).as_posix()
        case = Case(path, load_file(path), rel, self.root.name)
        self._case_cache[path] = case
        return case

    def iter_cases(self) -> Iterator[Case | YamlError]:
        """Every case, or the YamlError of a file that cannot be parsed."""
        for path in self.case_paths():
            try:
                yield self.load_case(path)
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
