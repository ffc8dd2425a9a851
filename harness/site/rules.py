"""The Comprehensive Rules text the site shows beside a case: the one place the site asks for a rule's
text or a section's title. It comes from the harness's parse of the CR (harness/cr.py): the pinned
edition shipped in cr/, or another edition's text file given with `site --rules FILE`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from harness import cr


@dataclass
class RuleBook:
    edition: cr.Edition

    @property
    def source(self) -> str:
        return f"the Comprehensive Rules effective {self.edition.effective} ({Path(self.edition.path).name})"

    @property
    def available(self) -> bool:
        return bool(self.edition.rules)

    def text(self, number: str) -> str | None:
        """The rule's whole text, without examples; a section number gives the section's title."""
        rule = self.edition.rules.get(number)
        if rule is not None:
            return rule.text
        section = self.edition.sections.get(number)
        return section.title if section is not None else None

    def section_title(self, section: str) -> str | None:
        found = self.edition.sections.get(section)
        return found.title if found is not None else None


def section_of(number: str) -> str:
    """The section a rule belongs to: '608.2h' -> '608'."""
    return number.split(".", 1)[0]


def load_rulebook(path: Path | None = None) -> RuleBook:
    """The pinned edition, or the one in the CR text file `path` (cr.CRError if it doesn't parse)."""
    return RuleBook(cr.pinned() if path is None else cr.load(path))
