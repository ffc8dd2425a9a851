"""The harness's side of the JSON-lines protocol: an engine in its own process, one case at a time.

Every way an engine can misbehave ends in a fault for that case alone: it crashed (crash), said
nothing in time (timeout), or wrote something that isn't the reply to that case (error). The
engine's stderr written during the case is attached, the process is killed, and a fresh one is
started for the next case, so no other case's result is lost or changed.
"""

from __future__ import annotations

import json
import shlex
import sys
import time
from collections import deque
from typing import Any, Iterable, Iterator

from harness.limits import MAX_DEPTH
from harness.engine_process import EngineProcess, describe_exit, shown
from harness.protocol import (STOP, ProtocolError, check_run_reply, read_run_reply, read_start_reply, run_command,
                              start_command)
from harness.session import DEFAULT_START_TIMEOUT, DEFAULT_TIMEOUT, EngineError, EngineSession, Reply

STOP_GRACE = 3.0  # seconds an engine gets to exit after the stop command
#: Cases written ahead of the one awaited. Two keep the engine from ever waiting on the harness
#: (bench/run.py measures the protocol's cost per case with it).
PIPELINE_DEPTH = 2
ADVICE_STDOUT = "standard output carries protocol messages only: write logs to standard error"
ADVICE_NEWLINE = "end every message with a newline and flush standard output"


class NotJson(ValueError):
    """What Python's json module reads but JSON doesn't have (NaN, Infinity)."""


def _constant(name: str) -> Any:
    raise NotJson(f"{name} is not a JSON number")


def decode(line: bytes) -> Any:
    """A line of JSON, strictly: NaN and Infinity are refused."""
    return json.loads(line, parse_constant=_constant)


BARE_PYTHONS = ("python", "python3")


def engine_argv(argv: list[str]) -> list[str]:
    """The command to start. A bare `python` (or `python3`) is the harness's own interpreter, so
    `cmd:python -m reference_engine` finds the packages installed with the harness from any folder,
    whether or not the virtual environment is active; any other program runs as written."""
    if argv and argv[0] in BARE_PYTHONS:
        return [sys.executable, *argv[1:]]
    return argv


def serve_command(spec: str) -> list[str]:
    """The command that serves the registered engine `spec` over the protocol (harness/serve.py)."""
    return [sys.executable, "-m", "harness.serve", spec]


class SubprocessSession(EngineSession):
    def __init__(self, command: str | list[str], *, name: str | None = None, strict: bool = False,
                 timeout: float = DEFAULT_TIMEOUT, start_timeout: float = DEFAULT_START_TIMEOUT) -> None:
        try:
            self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        except ValueError as exc:
            raise EngineError(f"can't read the command line {command!r}: {exc}") from None
        if not self.argv:
            raise EngineError("no command line after 'cmd:'")
        super().__init__(name or "cmd:" + shlex.join(self.argv))
        self.strict = strict
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.seq = 0
        self.first_seq = 1  # the first seq the current process was sent
        self.restarts = 0
        self.dead = ""  # why the engine can't be restarted, once it couldn't
        self.warnings: list[str] = []
        self.exit: tuple[int | None, bool] | None = None  # (status, killed) once closed
        self.process: EngineProcess | None = self._start()

    # --- starting ------------------------------------------------------------------------------
    def _start(self) -> EngineProcess:
        try:
            process = EngineProcess(engine_argv(self.argv))
        except OSError as exc:
            raise EngineError(f"{self.name}: can't start {self.argv[0]!r}: {exc.strerror or exc}"
                              " (is it installed, and on PATH?)") from exc
        try:
            process.send(start_command())
            line = process.read_line(self.start_timeout)
        except TimeoutError:
            raise self._start_failure(process, f"no answer to the start command within {self.start_timeout:g}s "
                                               f"(--start-timeout); {ADVICE_NEWLINE}") from None
        except OSError:
            line = None
        if line is None:
            status, _ = process.finish(grace=2.0)
            raise self._start_failure(process, f"the engine {describe_exit(status)} before answering the start command")
        try:
            handshake = read_start_reply(decode(line), strict=self.strict)
        except (ValueError, RecursionError):
            raise self._start_failure(process, f"its first line is not JSON: {shown(line)} ({ADVICE_STDOUT})") from None
        except ProtocolError as exc:
            raise self._start_failure(process, str(exc)) from None
        self.accept(handshake)
        return process

    def _start_failure(self, process: EngineProcess, problem: str) -> EngineError:
        process.stop(STOP, grace=0.5)
        message = f"{self.name} did not start: {problem} (docs/protocol.md)"
        log = process.stderr_since(0)
        if log:
            message += "\n  engine stderr (last lines):\n" + "\n".join("  | " + line for line in log.splitlines())
        return EngineError(message)

    # --- running -------------------------------------------------------------------------------
    def run(self, case: dict[str, Any]) -> Reply:
        return next(iter(self.run_stream([case])))

    def run_stream(self, cases: Iterable[dict[str, Any]]) -> Iterator[Reply]:
        """The replies to `cases`, in order. Up to PIPELINE_DEPTH later cases are written before the
        current one is answered, so the engine finds its next case waiting instead of waiting for
        the harness. A fault still costs only its own case: the process ends, and the cases that
        were sent ahead to it are sent again, with new seqs, to a fresh one."""
        upcoming = iter(cases)
        resend: deque[dict[str, Any]] = deque()  # sent to a process that ended before answering
        in_flight: deque[tuple[int, dict[str, Any]]] = deque()  # (seq, case) sent, not yet answered
        exhausted = False
        mark = 0
        while True:
            if self.process is None and (resend or not exhausted):
                failure = self._restart()
                if failure is not None:  # the engine is gone for good: every remaining case crashes
                    for _ in resend:
                        yield failure
                    resend.clear()
                    for _ in upcoming:
                        yield failure
                    return
                assert self.process is not None  # _restart started one
                mark = self.process.stderr_mark()
            if not in_flight and self.process is not None:
                stray = self.process.stray_lines()
                if stray:
                    self.warnings.append(f"{len(stray)} line(s) after the reply to seq {self.seq}, ignored: "
                                         f"{shown(stray[0])}")
                mark = self.process.stderr_mark()
            while self.process is not None and len(in_flight) <= PIPELINE_DEPTH:
                if resend:
                    case = resend.popleft()
                elif not exhausted:
                    try:
                        case = next(upcoming)
                    except StopIteration:
                        exhausted = True
                        break
                else:
                    break
                self.seq += 1
                in_flight.append((self.seq, case))
                try:
                    self.process.send(run_command(self.seq, case))
                except OSError:
                    break  # the process is gone: awaiting the reply reports the crash
            if not in_flight:
                return
            seq, _ = in_flight.popleft()
            # The next case may start as soon as this one is answered, before the harness reads the
            # answer: its stderr is counted from now (it may show the end of this case's log too).
            following = self.process.stderr_mark() if self.process is not None else mark
            reply = self._answer(seq, mark)
            if self.process is None:  # a fault ended the process: what it was sent ahead goes again
                resend.extend(case for _, case in in_flight)
                in_flight.clear()
            else:
                mark = following
            yield reply

    def _restart(self) -> Reply | None:
        """A fresh process after a fault; the crash to report for every remaining case if there can't be one."""
        if self.dead:  # one failed restart is enough: don't wait for it again on every case
            return Reply(None, "crash", self.dead)
        try:
            self.process = self._start()
        except EngineError as exc:
            self.dead = f"the engine could not be restarted after a fault: {exc}"
            return Reply(None, "crash", self.dead)
        self.restarts += 1
        self.first_seq = self.seq + 1
        return None

    def _answer(self, seq: int, mark: int) -> Reply:
        """The engine's reply to the case sent with `seq`, or the fault that ended its process."""
        reply = self._await(seq, mark)
        if isinstance(reply, Reply):
            return reply
        try:
            check_run_reply(reply, seq)
        except ProtocolError as exc:
            return self._fault("error", str(exc), mark)
        try:
            return Reply(read_run_reply(reply))
        except ProtocolError as exc:  # the stream is in step: the engine goes on
            return Reply(None, "error", str(exc))

    def _await(self, seq: int, mark: int) -> Any:
        """Read the engine's answer to `seq` (its timeout counts from now, when the engine is free to
        work on it): the decoded reply, or the fault as a Reply."""
        assert self.process is not None
        process = self.process
        deadline = time.monotonic() + self.timeout
        try:
            while True:
                line = process.read_line(max(0.0, deadline - time.monotonic()))
                if line is None:
                    return self._crashed(mark)
                try:
                    reply = decode(line)
                except RecursionError:
                    return self._fault("error", f"the reply nests deeper than {MAX_DEPTH} levels", mark)
                except ValueError as exc:
                    return self._fault("error", f"the engine wrote a line that is not JSON: {shown(line)} "
                                                f"({exc if isinstance(exc, NotJson) else ADVICE_STDOUT})", mark)
                if not self._earlier_reply(reply, seq):
                    return reply
                self.warnings.append(f"a second reply to seq {reply['seq']} came while seq {seq} ran; ignored")
        except TimeoutError:
            partial = (f"; so far it wrote an unterminated line: {shown(process.partial)} ({ADVICE_NEWLINE})"
                       if process.partial else "")
            return self._fault("timeout", f"no reply within {self.timeout:g}s (--timeout){partial}", mark)
        except OSError:
            return self._crashed(mark)

    def _earlier_reply(self, reply: Any, awaited: int) -> bool:
        """A reply to a case this process already answered (written twice): not this case's business."""
        seq = reply.get("seq") if isinstance(reply, dict) else None
        return type(seq) is int and self.first_seq <= seq < awaited

    def _crashed(self, mark: int) -> Reply:
        assert self.process is not None
        partial = self.process.partial
        status, killed = self.process.finish(grace=2.0)
        what = "closed its standard output" if killed else describe_exit(status)
        detail = f"the engine {what} while running the case"
        if partial:
            detail += f", after writing an unterminated line: {shown(partial)}"
        return self._fault("crash", detail, mark)

    def _fault(self, kind: str, detail: str, mark: int) -> Reply:
        """End the process (a fresh one runs the next case) and report `kind` with its stderr."""
        assert self.process is not None
        self.process.finish()
        stderr = self.process.stderr_since(mark)
        self.process = None
        return Reply(None, kind, detail, stderr)

    def close(self) -> None:
        if self.process is not None:
            self.exit = self.process.stop(STOP, grace=STOP_GRACE)
            self.process = None
