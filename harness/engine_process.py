"""An engine's process: commands go to its stdin, its stdout is read line by line in a thread (so a
reply can be awaited with a deadline, and a line cut short can be shown), its stderr is kept as a
bounded tail for reports (STDERR_KEPT lines of at most LINE_SHOWN bytes, however long a line is).

Nothing an engine starts outlives it. It runs in a process group of its own, killed when it ends (a
wrapper script and the JVM it starts); descendants that left the group (a new session) are found by
a token in their environment, which they inherit. Every live engine is killed on every way out of the
harness: its end (atexit), SIGTERM and Ctrl-C (kill_all, from the CLI's handlers).
An engine that exited is seen as gone even while a grandchild still holds its stdout open.
"""

from __future__ import annotations

import atexit
import json
import os
import queue
import secrets
import signal
import subprocess
import threading
import time
import weakref
from collections import deque
from typing import Any

STDERR_KEPT = 400  # lines
LINE_SHOWN = 300  # characters of a stray or partial line shown in a report; bytes of a stderr line kept
TOKEN_VARIABLE = "MTG_CONFORMANCE_ENGINE_TOKEN"
EXIT_GRACE = 0.3  # seconds for the output an engine wrote before it exited to be read
_POLL = 0.05

_live: "weakref.WeakSet[EngineProcess]" = weakref.WeakSet()
_live_lock = threading.Lock()


def kill_all() -> None:
    """Kill every engine still running, and what it started (on the harness's way out)."""
    with _live_lock:
        processes = list(_live)
    for process in processes:
        process.kill()


atexit.register(kill_all)


class EngineProcess:
    def __init__(self, argv: list[str]) -> None:
        self.token = secrets.token_hex(16)
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     start_new_session=os.name == "posix",
                                     env={**os.environ, TOKEN_VARIABLE: self.token})
        with _live_lock:
            _live.add(self)
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
        exited_at: float | None = None
        while True:
            now = time.monotonic()
            try:
                line = self._lines.get(timeout=max(0.0, min(deadline - now, _POLL)))
            except queue.Empty:
                if exited_at is None and self.proc.poll() is not None:
                    exited_at = now
                if exited_at is not None and now - exited_at >= EXIT_GRACE:
                    return None  # it exited; what holds its stdout open is not the engine
                if now >= deadline:
                    raise TimeoutError from None
                continue
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
        with _live_lock:
            _live.discard(self)
        return self.proc.returncode, killed

    def kill(self) -> None:
        """Kill the engine and everything it started, now, and reap it."""
        self._kill_group()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover
            pass

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
        for pid in _holders_of(self.token):  # descendants in sessions of their own
            try:
                os.kill(pid, signal.SIGKILL)
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
        """Lines of stderr, each cut to LINE_SHOWN bytes as it is read: memory stays bounded however
        long a line is (a 200 MB line costs 300 bytes)."""
        assert self.proc.stderr is not None
        fd = self.proc.stderr.fileno()
        line = bytearray()
        cut = False
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                break
            start = 0
            while True:
                newline = chunk.find(b"\n", start)
                end = len(chunk) if newline < 0 else newline
                room = max(0, LINE_SHOWN - len(line))
                if room > 0:
                    line += chunk[start:min(end, start + room)]
                cut = cut or end - start > room
                if newline < 0:
                    break
                self._keep_stderr(line, cut)
                line, cut = bytearray(), False
                start = newline + 1
        if line:
            self._keep_stderr(line, cut)

    def _keep_stderr(self, line: bytearray, cut: bool) -> None:
        text = bytes(line).decode("utf-8", "replace").rstrip("\r")
        self._stderr.append(text + (" [cut]" if cut else ""))
        self._stderr_count += 1


def _holders_of(token: str) -> list[int]:
    """Processes whose environment carries `token` (Linux: /proc; elsewhere none are found)."""
    needle = f"{TOKEN_VARIABLE}={token}".encode()
    found: list[int] = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as environ:
                if needle in environ.read():
                    found.append(int(entry))
        except OSError:
            continue
    return found


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
