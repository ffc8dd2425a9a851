"""Moving the corpus to a new edition of the Comprehensive Rules: which of the numbers the corpus
cites (or exempts) vanished from the new text, or now say something else, so that contributors
re-check the cases that cite them. A vanished rule's text is looked for under another number, since
editions renumber rules (Day and Night has been 724, 728, 730 and 731)."""

from __future__ import annotations

import difflib
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable

from harness.cr import Edition

SIMILAR = 0.8  # how alike two rules' texts must be to suggest one was renumbered to the other


@dataclass
class Change:
    rule: str
    change: str  # "vanished", "text" (the rule says something else), "examples", "title" (of a section)
    old: str
    new: str | None
    cases: list[str] = field(default_factory=list)
    exempt: str | None = None
    moved_to: list[str] = field(default_factory=list)  # numbers of the new edition with (nearly) the old text

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def changes(old: Edition, new: Edition, cited: dict[str, list[str]], exempt: dict[str, str]) -> list[Change]:
    """The changes from `old` to `new` of every number in `cited` (number -> case ids) or `exempt`
    (number -> reason), in the order of the old text."""
    referenced = set(cited) | set(exempt)
    found = []
    for number in (n for n in old.numbers if n in referenced):
        change = _change(old, new, number)
        if change is not None:
            change.cases, change.exempt = list(cited.get(number, [])), exempt.get(number)
            found.append(change)
    return found


def _change(old: Edition, new: Edition, number: str) -> Change | None:
    if number in old.sections:
        title = old.sections[number].title
        if number not in new.sections:
            return Change(number, "vanished", title, None,
                          moved_to=[s.number for s in new.sections.values() if s.title == title])
        new_title = new.sections[number].title
        return Change(number, "title", title, new_title) if new_title != title else None
    rule = old.rules[number]
    now = new.rules.get(number)
    if now is None:
        return Change(number, "vanished", rule.text, None, moved_to=_moved(rule.text, new.rules.values()))
    if now.text != rule.text:
        return Change(number, "text", rule.text, now.text)
    if now.examples != rule.examples:
        return Change(number, "examples", "\n".join(rule.examples), "\n".join(now.examples))
    return None


def _moved(text: str, candidates: Iterable[Any]) -> list[str]:
    """The numbers whose text is `text`; else the one most like it, if it is alike enough."""
    candidates = list(candidates)
    same = [rule.number for rule in candidates if rule.text == text]
    if same:
        return same
    matcher = difflib.SequenceMatcher(autojunk=False)
    matcher.set_seq2(text)
    best, best_ratio = None, SIMILAR
    for rule in candidates:
        matcher.set_seq1(rule.text)
        if matcher.real_quick_ratio() >= best_ratio and matcher.quick_ratio() >= best_ratio:
            ratio = matcher.ratio()
            if ratio >= best_ratio:
                best, best_ratio = rule.number, ratio
    return [best] if best else []
