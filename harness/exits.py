"""The exit codes of `mtg-conformance` (README, "Exit codes"; `mtg-conformance --help`)."""

from __future__ import annotations

import signal

EXIT_OK = 0  # every case played passed (some may have been skipped), or the verb succeeded
EXIT_FAILED = 1  # a case failed, errored, timed out or crashed; with --baseline, a result differs from it
EXIT_USAGE = 2  # bad input or usage: an invalid corpus, an unknown engine or option, no case selected
EXIT_NOTHING_PLAYED = 3  # every selected case was skipped: the engine ran nothing, so proved nothing
EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT); the report of the cases that finished says "interrupted"
EXIT_TERMINATED = 128 + signal.SIGTERM  # 143: SIGTERM, handled like Ctrl-C

EPILOG = ("Exit codes: 0 all played cases passed, 1 a case failed, errored, timed out or crashed (with --baseline: "
          "a result differs from it), 2 bad input or usage, 3 no case was played (all skipped), "
          "130 interrupted (Ctrl-C), 143 terminated (SIGTERM).")


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the harness is, so that it cleans up as after Ctrl-C."""
