"""The reference engine with one mutant applied, as an engine the harness can run: `mutant:<name>`."""

from __future__ import annotations

from typing import Any

from mutants.patching import MUTANTS, Patcher
from reference_engine.adapter import ReferenceEngine


class MutantEngine(ReferenceEngine):
    """The reference engine with one rule broken on purpose: mutant:<name> (see mutants/catalog.py)."""

    def __init__(self, name: str | None = None) -> None:
        if name is None or name not in MUTANTS:
            known = ", ".join(sorted(MUTANTS))
            raise ValueError(f"name a mutant, e.g. --engine mutant:{next(iter(sorted(MUTANTS)), 'NAME')} (known: {known})")
        super().__init__()
        self.mutant = MUTANTS[name]
        self._patcher: Patcher | None = None

    @classmethod
    def variants(cls) -> dict[str, str]:
        """Each mutant's name and the rule it breaks (for `mtg-conformance prove`)."""
        return {name: mutant.breaks for name, mutant in sorted(MUTANTS.items())}

    @classmethod
    def rules_broken(cls) -> dict[str, tuple[str, ...]]:
        """Each mutant's name and the Comprehensive Rules numbers it breaks (for relevance, harness/killmatrix.py)."""
        return {name: mutant.rules for name, mutant in sorted(MUTANTS.items())}

    def start(self, request: dict[str, Any] | None = None) -> dict[str, Any]:
        reply = super().start(request)
        self._patcher = Patcher()
        self.mutant.apply(self._patcher)
        engine = reply["engine"]
        engine["name"] = f"reference~{self.mutant.name}"
        engine["details"] = {"mutant": {"name": self.mutant.name, "breaks": self.mutant.breaks,
                                        "rules": list(self.mutant.rules)}}
        return reply

    def stop(self) -> None:
        if self._patcher is not None:
            self._patcher.undo()
            self._patcher = None
