"""A progress bar for long runs: one line of plain text on standard error, redrawn in place, and only
when standard error is a terminal (never in a log or a pipe), the run takes more than a moment, and
--quiet wasn't given. It is erased when the run ends, before the report is printed."""

from __future__ import annotations

import shutil
import sys
import time
from typing import TextIO

from harness.results import FAILING, CaseResult

DELAY = 0.5  # seconds before the bar appears: a short run shows none
INTERVAL = 0.1  # seconds between redraws
WIDTH = 30  # characters of the bar itself


class Progress:
    def __init__(self, total: int, *, enabled: bool = True, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.total = total
        self.enabled = enabled and total > 0 and _is_terminal(self.stream)
        self.done = 0
        self.failing = 0
        self.started = time.monotonic()
        self.drawn_at = 0.0
        self.shown = 0  # characters on screen

    def advance(self, result: CaseResult) -> None:
        self.done += 1
        self.failing += result.status in FAILING
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.started >= DELAY and (now - self.drawn_at >= INTERVAL or self.done == self.total):
            self.drawn_at = now
            self._draw(self.line(now - self.started))

    def line(self, elapsed: float) -> str:
        """'[#########.....] 612/1510 cases, 3 failing, 0:04 left'."""
        filled = WIDTH * self.done // self.total
        text = f"[{'#' * filled}{'.' * (WIDTH - filled)}] {self.done}/{self.total} cases"
        if self.failing:
            text += f", {self.failing} failing"
        if 0 < self.done < self.total:
            left = int(elapsed / self.done * (self.total - self.done))
            text += f", {left // 60}:{left % 60:02d} left"
        return text

    def _draw(self, text: str) -> None:
        text = text[:max(10, shutil.get_terminal_size().columns - 1)]
        self.stream.write("\r" + text + " " * max(0, self.shown - len(text)))
        self.stream.flush()
        self.shown = len(text)

    def close(self) -> None:
        """Erase the bar."""
        if self.shown:
            self.stream.write("\r" + " " * self.shown + "\r")
            self.stream.flush()
            self.shown = 0


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
