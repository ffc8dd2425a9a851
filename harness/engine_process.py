"""An engine's process: commands go to its stdin, its stdout is read line by line in a thread (so a
reply can be awaited with a deadline, and a line cut short can be shown), its stderr is kept as a
tail for reports. Killing it kills its whole process group (a wrapper script and the JVM it starts).
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import threading
import time
from collections import deque
from typing import Any

STDERR_KEPT = 400  # lines
LINE_SHOWN = 300  # characters of a stray or partial line shown in a report


class EngineProcess:
    def __init__(self, argv: list[str]) -> None:
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     start_new_session=os.name == "posix")
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self.partial = b""  # the start of what the engine wrote after its last newline
        self._stderr: deque[str] = deque(maxlen=STDERR_KEPT)
        self._stderr_count = 0
        self._threads = [threading.Thread(target=self._read_stdout, daemon=True),
                         threading.Thread(target=self._read_stderr, daemon=True)]
        for thread in self._threads:
            thread.start()

    # --- talking -------------------------------------------------------------------------------
    def send(self, message: dict[str, Any]) -> None:
        """One line of ASCII JSON. OSError (a broken pipe) if the engine is gone."""
        assert self.proc.stdin is not None
        if self.proc.stdin.closed:
            raise BrokenPipeError("the engine's standard input is closed")
        self.proc.stdin.write(json.dumps(message, separators=(",", ":"), check_circular=False).encode("ascii") + b"\n")
        self.proc.stdin.flush()

    def read_line(self, timeout: float) -> bytes | None:
        """The next non-blank line, None at end of output; TimeoutError if none comes in time."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise TimeoutError from None
            if line is None:
                self._lines.put(None)  # stays at end of output
                return None
            if line.strip():
                return line

    def stray_lines(self) -> list[bytes]:
        """Lines already written and not read: output after a reply, that no command asked for."""
        out: list[bytes] = []
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return out
            if line is None:
                self._lines.put(None)
                return out
            if line.strip():
                out.append(line)

    # --- the log -------------------------------------------------------------------------------
    def stderr_mark(self) -> int:
        return self._stderr_count

    def stderr_since(self, mark: int, limit: int = 20) -> str:
        """The last `limit` lines the engine wrote to stderr since `mark` (after it ended, all of them)."""
        lines = list(self._stderr)
        first_kept = self._stderr_count - len(lines)
        lines = lines[max(0, mark - first_kept):]
        return "\n".join(line[:LINE_SHOWN] for line in lines[-limit:])

    # --- ending --------------------------------------------------------------------------------
    def finish(self, grace: float = 0.0) -> tuple[int | None, bool]:
        """Wait up to `grace` seconds for the process to exit by itself, then kill its process group.
        Returns (exit status, whether it had to be killed). Every pipe is closed and read to the end."""
        killed = False
        try:
            self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            killed = True
        self._kill_group()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover (a process that survives SIGKILL)
            pass
        if self.proc.stdin is not None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
        for thread in self._threads:
            thread.join(timeout=2)
        return self.proc.returncode, killed

    def stop(self, message: dict[str, Any], grace: float) -> tuple[int | None, bool]:
        """Send `message` (the stop command), close stdin, and let the engine exit within `grace` seconds."""
        try:
            self.send(message)
            assert self.proc.stdin is not None
            self.proc.stdin.close()
        except OSError:
            pass
        return self.finish(grace)

    def _kill_group(self) -> None:
        try:
            if os.name == "posix":
                os.killpg(self.proc.pid, signal.SIGKILL)
            else:  # pragma: no cover
                self.proc.kill()
        except (ProcessLookupError, PermissionError):
            pass

    # --- reader threads ------------------------------------------------------------------------
    def _read_stdout(self) -> None:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        pending = bytearray()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                break
            start = 0
            while (newline := chunk.find(b"\n", start)) >= 0:
                pending += chunk[start:newline]
                self._lines.put(bytes(pending))
                pending.clear()
                start = newline + 1
            pending += chunk[start:]
            self.partial = bytes(pending[:LINE_SHOWN])
        self._lines.put(None)

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        for raw in iter(self.proc.stderr.readline, b""):
            self._stderr.append(raw.decode("utf-8", "replace").rstrip("\r\n"))
            self._stderr_count += 1


def describe_exit(status: int | None) -> str:
    if status is None:
        return "did not exit"
    if status < 0:
        try:
            return f"was killed by signal {signal.Signals(-status).name}"
        except ValueError:
            return f"was killed by signal {-status}"
    return f"exited with status {status}"


def shown(data: bytes) -> str:
    """A line of engine output as it reads in a report: decoded, cut short, quoted."""
    text = data.decode("utf-8", "replace")
    return repr(text[:LINE_SHOWN] + ("..." if len(text) > LINE_SHOWN else ""))
