"""A run's results as they come, without keeping them all in memory: counts by topic and status,
the results that didn't pass (what the table details), and, for reports that list every case (JSON,
JUnit), every result in a temporary file. Memory then stays flat however many cases run."""

from __future__ import annotations

import pickle
import tempfile
from collections import Counter
from typing import Iterable, Iterator

from harness.results import CaseResult, Status

STATUS_ORDER = [s.value for s in Status]


class Tally:
    def __init__(self, *, keep_all: bool = False) -> None:
        self.by_topic: dict[str, Counter[str]] = {}
        self.not_passing: list[tuple[int, CaseResult]] = []  # (position, result)
        self.count = 0
        self._spool = tempfile.TemporaryFile() if keep_all else None
        self._where: list[tuple[int, int]] = []  # (position, offset in the spool)

    @classmethod
    def of(cls, results: Iterable[CaseResult]) -> "Tally":
        """A tally of results already at hand, in their order."""
        tally = cls(keep_all=True)
        for position, result in enumerate(results):
            tally.add(result, position)
        return tally

    def add(self, result: CaseResult, position: int) -> None:
        """Count a result; `position` is its case's place in the corpus order, which reports keep."""
        self.count += 1
        self.by_topic.setdefault(result.case_id.split("/")[0], Counter())[result.status.value] += 1
        if result.status is not Status.PASS:
            self.not_passing.append((position, result))
        if self._spool is not None:
            self._where.append((position, self._spool.tell()))
            pickle.dump(result, self._spool, pickle.HIGHEST_PROTOCOL)

    def summary(self) -> dict[str, int]:
        totals: Counter[str] = Counter()
        for counts in self.by_topic.values():
            totals.update(counts)
        return {status: totals.get(status, 0) for status in STATUS_ORDER}

    def failing(self) -> list[CaseResult]:
        """The results that didn't pass, in the corpus order."""
        return [result for _, result in sorted(self.not_passing, key=lambda item: item[0])]

    def results(self) -> Iterator[CaseResult]:
        """Every result, in the corpus order (only if the tally keeps them all)."""
        if self._spool is None:
            raise ValueError("this tally keeps only the results that didn't pass")
        self._spool.flush()
        for _, offset in sorted(self._where):
            self._spool.seek(offset)
            yield pickle.load(self._spool)
        self._spool.seek(0, 2)

    def close(self) -> None:
        if self._spool is not None:
            self._spool.close()
