"""Outcomes of running a case: one status each, with what is needed to act on it."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any


class Status(StrEnum):
    PASS = "pass"
    FAIL = "fail"  # the engine answered, and the answer breaks a ruling
    SKIP = "skip"  # the engine lacks a capability the case needs, or said it can't run it
    ERROR = "error"  # the adapter raised, or replied something that isn't a valid reply
    TIMEOUT = "timeout"  # no reply in time
    CRASH = "crash"  # the engine process died


#: Statuses that make `run` exit 1.
FAILING = (Status.FAIL, Status.ERROR, Status.TIMEOUT, Status.CRASH)


@dataclass(frozen=True)
class Mismatch:
    """One expectation the observed state did not meet."""

    when: str  # "after action 2 (cast: bolt)" or "at the end"
    path: str  # where the expectation is written: $.actions[2].expect.objects.elves.tapped
    line: int
    expected: Any
    observed: Any
    note: str = ""


@dataclass(frozen=True)
class Check:
    """One expectation as it was checked: what the case expects and what the engine observed, met
    or not. A report keeps every check of a case (passing ones too), so the observed values of
    several engines can be set side by side."""

    when: str
    path: str
    expected: Any
    observed: Any
    met: bool


@dataclass
class CaseResult:
    case_id: str
    status: Status
    message: str = ""
    rulings: list[str] = field(default_factory=list)
    file: str = ""
    line: int = 1
    mismatches: list[Mismatch] = field(default_factory=list)
    duration: float = 0.0
    stderr: str = ""
    details: dict[str, Any] = field(default_factory=dict)
    rules: list[str] = field(default_factory=list)  # the Comprehensive Rules numbers the case cites
    checks: list[Check] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.case_id, "status": self.status.value, "rulings": self.rulings, "rules": self.rules,
               "message": self.message, "file": self.file, "line": self.line, "duration": round(self.duration, 6)}
        if self.mismatches:
            out["mismatches"] = [asdict(m) for m in self.mismatches]
        if self.checks:
            out["observed"] = [asdict(c) for c in self.checks]
        if self.stderr:
            out["stderr"] = self.stderr
        if self.details:
            out["details"] = self.details
        return out
