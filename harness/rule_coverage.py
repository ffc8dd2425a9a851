"""Coverage by Comprehensive Rules number: for each section, its numbered rules, how many a case
cites, how many are exempt (cases/rules-exempt/).

A section's rules are its numbered rules and subrules ("613.1", "613.1a", ...), not its heading. A
citation is exact: citing "601.2" cites neither "601.2a" nor any other subrule, and citing "601.2g"
does not cite "601.2"; citing a section ("613") is valid but cites none of its rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:
    from harness.corpus import Case
    from harness.cr import Edition
    from harness.exemptions import Exemptions


def citations(cases: Iterable[Case]) -> dict[str, list[str]]:
    """Number -> the ids of the cases citing it exactly, in the corpus order."""
    found: dict[str, list[str]] = {}
    for case in cases:
        for number in case.rules:
            found.setdefault(number, []).append(case.id)
    return found


def rules_coverage(edition: Edition, cases: Iterable[Case], exemptions: Exemptions,
                   sections: list[str] | None = None) -> dict[str, Any]:
    """{"edition", "sections": [{section, title, rules, cited, exempt}], "rules": [{rule, cases, exempt}]},
    for `sections` (default: all), in the order of the text."""
    cited = citations(cases)
    out_sections, out_rules = [], []
    for number in sections if sections is not None else list(edition.sections):
        section = edition.sections[number]
        rows = [{"rule": rule.number, "cases": cited.get(rule.number, []), "exempt": exemptions.reason(rule.number)}
                for rule in edition.under(number)]
        out_sections.append({"section": number, "title": section.title, "rules": len(rows),
                             "cited": sum(1 for row in rows if row["cases"]),
                             "exempt": sum(1 for row in rows if row["exempt"] is not None)})
        out_rules.extend(rows)
    return {"edition": edition.effective, "sections": out_sections, "rules": out_rules}
