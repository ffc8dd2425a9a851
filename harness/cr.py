"""The Comprehensive Rules as data: the pinned edition shipped in cr/ (Wizards of the Coast's text,
see cr/NOTICE.md), parsed into sections, rules and the glossary.

Numbers: a section is three digits ("601"), a rule adds a number ("601.2"), a subrule a letter or
two ("601.2a", "704.5aa"). A subrule's parent is its rule, a rule's parent its section. Each rule is
one line of the text, followed by its examples (lines starting "Example:"); blank lines hold a
single U+00A0. Parsing takes a few tens of milliseconds, and is done only when a rule's text or
existence is needed (a case validated afresh, a failure report, `rules`, `coverage --rules`); the
parse is kept in the harness's disk cache (harness/cache.py), keyed by the file's bytes.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

from harness.cache import Cache, digest

EDITION_FILE = "MagicCompRules 20260807.txt"
PARSE_FORMAT = b"cr-1"  # of the cached parse; part of its key with this module's source and the file

_CHAPTER = re.compile(r"([1-9])\. (\S.*)")
_SECTION = re.compile(r"([1-9][0-9]{2})\. (\S.*)")
_RULE = re.compile(r"([1-9][0-9]{2}\.[0-9]+[a-z]{0,2})\.? (\S.*)")  # "100.1. Text", "100.1a Text" (and "606.5 Text")
_EFFECTIVE = re.compile(r"These rules are effective as of (\w+ \d{1,2}, \d{4})\.")
_BLANK = "\u00a0 \t\r"


class CRError(Exception):
    """A Comprehensive Rules file that can't be read as one: where, and why."""

    def __init__(self, path: Path | str, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")
        self.path, self.line, self.message = str(path), line, message


@dataclass(frozen=True, slots=True)
class Rule:
    number: str
    text: str  # the whole rule, without its examples
    examples: tuple[str, ...]  # each without its "Example: "
    line: int

    @property
    def section(self) -> str:
        return self.number[:3]

    @property
    def parent(self) -> str:
        """The rule a subrule belongs to ("601.2a" -> "601.2"); a rule's section ("601.2" -> "601")."""
        return self.number.rstrip("abcdefghijklmnopqrstuvwxyz") if self.is_subrule else self.section

    @property
    def is_subrule(self) -> bool:
        return self.number[-1].isalpha()


@dataclass(frozen=True, slots=True)
class Section:
    number: str
    title: str
    line: int
    chapter: str  # "6. Spells, Abilities, and Effects"


@dataclass
class Edition:
    """One edition of the Comprehensive Rules: its rules in the order of the text."""

    path: Path
    effective: str  # ISO date, e.g. "2026-08-07"
    sections: dict[str, Section]
    rules: dict[str, Rule]
    glossary: dict[str, str] = field(default_factory=dict)

    def __contains__(self, number: object) -> bool:
        return number in self.rules or number in self.sections

    @cached_property
    def _by_parent(self) -> dict[str, list[Rule]]:
        found: dict[str, list[Rule]] = {}
        for rule in self.rules.values():
            found.setdefault(rule.parent, []).append(rule)
        return found

    def children(self, number: str) -> list[Rule]:
        """A section's rules ("601" -> 601.1, 601.2, ...), a rule's subrules ("601.2" -> 601.2a, ...)."""
        return list(self._by_parent.get(number, []))

    def under(self, number: str) -> list[Rule]:
        """The rule `number` and everything numbered under it, in the order of the text (for a section:
        its rules and their subrules)."""
        if number in self.sections:
            return [rule for child in self.children(number) for rule in (child, *self.children(child.number))]
        rule = self.rules.get(number)
        return [rule, *self.children(number)] if rule is not None else []

    def section_of(self, number: str) -> Section | None:
        return self.sections.get(number[:3])

    @cached_property
    def numbers(self) -> list[str]:
        return list(self.sections) + list(self.rules)

    def close_matches(self, number: str, n: int = 3) -> list[str]:
        """Existing numbers most like `number` (a typo, a renumbered subrule): those of its own section
        first, then any."""
        section = number[:3]
        near = [r.number for r in self.under(section)] if section in self.sections else []
        close = difflib.get_close_matches(number, near, n=n, cutoff=0.6) if near else []
        if not close:
            close = difflib.get_close_matches(number, self.numbers, n=n, cutoff=0.6)
        return close


def suggestion(edition: Edition, number: str) -> str:
    """A hint for an unknown number: the closest existing ones."""
    close = edition.close_matches(number)
    if close:
        return "did you mean " + " or ".join(repr(c) for c in close) + "?"
    if number[:3] not in edition.sections:
        first, *_, last = edition.sections
        return f"there is no section {number[:3]}: sections run from {first} to {last}"
    return f"no similar number in section {number[:3]}"


# --- reading ----------------------------------------------------------------------------------
def parse(text: str, path: Path | str = "<text>") -> Edition:
    """The edition in `text` (CRError, naming the line, if it isn't one)."""
    lines = text.split("\n")  # not splitlines(): the glossary separates a term's senses with U+2028
    effective = _effective_date(lines, path)
    start, glossary_at, credits_at = _parts(lines, path)
    sections: dict[str, Section] = {}
    rules: dict[str, Rule] = {}
    chapter = ""
    current: Section | None = None
    number = text_of = None
    examples: list[str] = []
    first = 0

    def close_rule() -> None:
        if number is not None:
            rules[number] = Rule(number, text_of, tuple(examples), first)

    for index in range(start, glossary_at):
        line = lines[index]
        if not line.strip(_BLANK):
            continue
        if line.startswith("Example: "):
            if number is None:
                raise CRError(path, index + 1, "an example before any rule")
            examples.append(line[len("Example: "):])
            continue
        match = _RULE.fullmatch(line)
        if match:
            close_rule()
            number, text_of = match.group(1), match.group(2)
            examples, first = [], index + 1
            if current is None or number[:3] != current.number:
                raise CRError(path, index + 1, f"rule {number} is not under its section's heading ({number[:3]})")
            if number in rules:
                raise CRError(path, index + 1, f"rule {number} appears twice (first on line {rules[number].line})")
            if number[-1].isalpha() and number.rstrip("abcdefghijklmnopqrstuvwxyz") not in rules:
                raise CRError(path, index + 1, f"subrule {number} comes before any rule {number.rstrip('abcdefghijklmnopqrstuvwxyz')}")
            continue
        match = _SECTION.fullmatch(line)
        if match:
            close_rule()
            number = None
            if match.group(1) in sections:
                raise CRError(path, index + 1, f"section {match.group(1)} appears twice")
            current = sections[match.group(1)] = Section(match.group(1), match.group(2), index + 1, chapter)
            continue
        match = _CHAPTER.fullmatch(line)
        if match:
            close_rule()
            number, current, chapter = None, None, line
            continue
        raise CRError(path, index + 1, f"neither a rule, an example nor a heading: {line[:60]!r}")
    close_rule()
    if not rules:
        raise CRError(path, start + 1, "no numbered rules")
    return Edition(Path(path), effective, sections, rules, _glossary(lines, glossary_at + 1, credits_at))


def _effective_date(lines: list[str], path: Path | str) -> str:
    for index, line in enumerate(lines[:20]):
        match = _EFFECTIVE.fullmatch(line.strip(_BLANK))
        if match:
            from datetime import datetime

            try:
                return datetime.strptime(match.group(1), "%B %d, %Y").date().isoformat()
            except ValueError:
                raise CRError(path, index + 1, f"not a date: {match.group(1)!r}") from None
    raise CRError(path, 1, "no line 'These rules are effective as of <date>.' near the top: "
                           "is this the Comprehensive Rules text?")


def _parts(lines: list[str], path: Path | str) -> tuple[int, int, int]:
    """Where the rules start (their first chapter heading, after the contents), the Glossary heading
    and the Credits heading after it (all 0-based line indexes)."""
    headings = [i for i, line in enumerate(lines) if line.strip(_BLANK) in ("Glossary", "Credits")]
    named = [lines[i].strip(_BLANK) for i in headings]
    if named[-2:] != ["Glossary", "Credits"] or named.count("Credits") < 2:
        raise CRError(path, len(lines), "expected the contents, the rules, then a 'Glossary' and a 'Credits' heading")
    contents_end, glossary_at, credits_at = headings[named.index("Credits")], headings[-2], headings[-1]
    for index in range(contents_end + 1, glossary_at):
        if _CHAPTER.fullmatch(lines[index]):
            return index, glossary_at, credits_at
    raise CRError(path, contents_end + 2, "no chapter heading ('1. Game Concepts') after the contents")


def _glossary(lines: list[str], start: int, end: int) -> dict[str, str]:
    """Term -> definition (its lines joined by newlines); entries are separated by blank lines."""
    glossary: dict[str, str] = {}
    block: list[str] = []
    for line in lines[start:end] + [""]:
        if line.strip(_BLANK):
            block.append(line)
        elif block:
            glossary[block[0]] = "\n".join(block[1:])
            block = []
    return glossary


def load(path: Path, cache: Cache | None = None) -> Edition:
    """The edition in the file `path`; its parse comes from the cache when the file is unchanged."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise CRError(path, 1, f"can't read it: {exc.strerror or exc}") from None
    cache = cache if cache is not None else Cache.from_environment()
    key = digest(PARSE_FORMAT, _SOURCE, raw)
    stored = cache.get("cr", path, key)
    if stored is not None:
        return _from_data(path, stored)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise CRError(path, line, "not UTF-8 text") from None
    edition = parse(text, path)
    cache.put("cr", path, key, _to_data(edition))
    return edition


def _to_data(edition: Edition) -> tuple:
    return (edition.effective,
            [(s.number, s.title, s.line, s.chapter) for s in edition.sections.values()],
            [(r.number, r.text, r.examples, r.line) for r in edition.rules.values()],
            edition.glossary)


def _from_data(path: Path, data: tuple) -> Edition:
    effective, sections, rules, glossary = data
    return Edition(path, effective, {s[0]: Section(*s) for s in sections},
                   {r[0]: Rule(*r) for r in rules}, glossary)


_SOURCE = Path(__file__).read_bytes()


def pinned_path() -> Path:
    from harness.paths import cr_dir

    return cr_dir() / EDITION_FILE


@lru_cache(maxsize=None)
def pinned() -> Edition:
    """The edition the corpus cites (cr/MagicCompRules 20260807.txt)."""
    return load(pinned_path())
