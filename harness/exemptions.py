"""The rules no case can test in a two-player game with real cards, each with its reason: the files of
cases/rules-exempt/ (schema/rules-exempt.schema.json). `coverage --rules` counts them as exempt,
not as uncited.

Each file is checked when it is read: its schema, that every rule exists in the pinned edition, and
(across the files) that no rule is exempt twice. That a rule is not both exempt and cited by a case
is checked with the corpus (harness/validation.py). A file's findings are cached like a case's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from harness.cache import code_fingerprint, digest
from harness.yamlio import YamlError, format_path

if TYPE_CHECKING:
    from harness.corpus import Corpus
    from harness.validation import Problem


@dataclass(frozen=True)
class Exemption:
    rule: str
    reason: str
    file: str  # as shown: cases/rules-exempt/multiplayer.yaml
    line: int

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass
class Exemptions:
    by_rule: dict[str, Exemption] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    def reason(self, rule: str) -> str | None:
        exemption = self.by_rule.get(rule)
        return exemption.reason if exemption else None


def load_exemptions(corpus: Corpus) -> Exemptions:
    """Every exemption of the corpus, and what is wrong with them."""
    from harness.validation import Problem

    found = Exemptions()
    for path in corpus.exemption_paths():
        entries, problems = _read_file(corpus, path)
        found.problems.extend(problems)
        for index, rule, reason, line in entries:
            exemption = Exemption(rule, reason, _display(corpus, path), line)
            first = found.by_rule.get(rule)
            if first is not None:
                found.problems.append(Problem(exemption.file, line, f"$.exempt[{index}].rule", f"rule {rule} is exempt twice",
                                              f"also at {first.location}; keep one"))
            else:
                found.by_rule[rule] = exemption
    return found


def _read_file(corpus: Corpus, path: Path) -> tuple[list[tuple[int, str, str, int]], list[Problem]]:
    """(index, rule, reason, line) of each valid entry of the file, and the file's problems; from the cache
    if the file, the harness and the pinned rules are as they were."""
    from harness.validation import Problem

    display = _display(corpus, path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return [], [Problem(display, 1, "$", f"can't read it: {exc.strerror or exc}")]
    key = digest(code_fingerprint(), display.encode("utf-8", "surrogateescape"), raw)
    cached = corpus.cache.get("exemptions", path, key)
    if cached is not None:
        entries, problems = cached
        return [tuple(e) for e in entries], [Problem(*p) for p in problems]
    entries, problems = _check_file(corpus, path, display)
    corpus.cache.put("exemptions", path, key, (entries, [(p.file, p.line, p.path, p.message, p.hint) for p in problems]))
    return entries, problems


def _check_file(corpus: Corpus, path: Path, display: str) -> tuple[list[tuple[int, str, str, int]], list[Problem]]:
    from harness import cr, schemas
    from harness.validation import Problem

    try:
        doc = corpus.document(path)
    except YamlError as exc:
        return [], [Problem(display, exc.line, "$", exc.message)]
    problems = [Problem(display, doc.line_of(p.path), format_path(p.path), p.message, p.hint)
                for p in schemas.problems("rules-exempt", doc.data)]
    if problems:
        return [], problems
    edition = cr.pinned()
    entries = []
    for index, entry in enumerate(doc.data["exempt"]):
        where: list[str | int] = ["exempt", index, "rule"]
        rule = entry["rule"]
        if rule not in edition.rules:
            problems.append(Problem(display, doc.line_of(where), format_path(where),
                                    f"no rule {rule} in the Comprehensive Rules effective {edition.effective}",
                                    cr.suggestion(edition, rule)))
        else:
            entries.append((index, rule, entry["reason"], doc.line_of(where)))
    return entries, problems


def _display(corpus: Corpus, path: Path) -> str:
    return f"{corpus.root.name}/{path.relative_to(corpus.root).as_posix()}"
