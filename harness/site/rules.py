"""The Comprehensive Rules text the site shows beside a case: the one place the site asks for a rule's
text or a section's title, so the source can change without touching the pages.

Until the harness ships the CR as data, this reads a CR text file (`site --rules FILE`) in a
minimal way: a line that starts with a rule number holds that rule's text; "Example:" lines are left
out; a section's line ("608. Resolving Spells and Abilities") gives its title."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

_NUMBERED = re.compile(r"^(\d{3})(?:\.(\d+)([a-z]?))?\.?\s+(\S.*)$")


@dataclass
class RuleBook:
    """Rule texts by number ('608.2h', '302.6'), and section titles by section ('608')."""

    rules: dict[str, str] = field(default_factory=dict)
    sections: dict[str, str] = field(default_factory=dict)
    source: str = ""

    def text(self, number: str) -> str | None:
        """The rule's text, without examples; a section number gives the section's title."""
        return self.rules.get(number) or self.sections.get(number)

    def section_title(self, section: str) -> str | None:
        return self.sections.get(section)


def section_of(number: str) -> str:
    """The section a rule belongs to: '608.2h' -> '608'."""
    return number.split(".", 1)[0]


def load_rulebook(path: Path | None) -> RuleBook:
    """The rules in the CR text file `path`; an empty book (no text shown) without one."""
    if path is None:
        return RuleBook()
    book = RuleBook(source=str(path))
    text = path.read_text(encoding="utf-8-sig")
    for raw in text.splitlines():
        line = raw.replace("\u00a0", " ").strip()
        match = _NUMBERED.match(line)
        if not match:
            continue
        section, number, letter, body = match.groups()
        if number is None:
            if line[3:4] == ".":  # "608. Resolving Spells and Abilities" (the contents list first, then the rules)
                book.sections[section] = body
            continue
        book.rules[f"{section}.{number}{letter}"] = body
    return book
