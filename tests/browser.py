"""Headless Chromium driven over the DevTools protocol, with the standard library only.

Chromium is started with --remote-debugging-pipe: it reads protocol commands on file descriptor 3
and writes replies and events on 4, each message a JSON text ended by a NUL byte. No port is
opened and nothing is downloaded: the browser is the system's `chromium` (the Debian package).
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

#: Flags for a browser that never reaches the network and starts the same way every time.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--disable-default-apps", "--hide-scrollbars", "--mute-audio",
         "--remote-debugging-pipe"]


def find_chromium() -> str | None:
    """The Chromium executable: $MTG_CHROMIUM, else `chromium` (Debian) or `chromium-browser` on PATH."""
    configured = os.environ.get("MTG_CHROMIUM")
    if configured:
        return configured
    return shutil.which("chromium") or shutil.which("chromium-browser")


class BrowserError(Exception):
    pass


def _high(fds: tuple[int, int]) -> tuple[int, int]:
    """The pipe's ends moved above 9, so that putting them at 3 and 4 in the child clobbers neither
    (which is also why the launcher is bash: POSIX sh only redirects file descriptors 0 to 9)."""
    out = []
    for fd in fds:
        moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(fd)
        out.append(moved)
    return out[0], out[1]


class Browser:
    def __init__(self, executable: str, *, width: int = 1280, height: int = 900, timeout: float = 60) -> None:
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="mtg-site-chromium-")  # a fresh --user-data-dir
        commands_read, self._commands = _high(os.pipe())
        self._replies, replies_write = _high(os.pipe())
        args = [executable, *FLAGS, f"--user-data-dir={self.profile}", f"--window-size={width},{height}", "about:blank"]
        # bash puts the two pipe ends where Chromium looks for them (3: commands in, 4: replies out).
        launcher = f'exec "$0" "$@" 3<&{commands_read} 4>&{replies_write} {commands_read}<&- {replies_write}>&-'
        self.process = subprocess.Popen(["bash", "-c", launcher, *args], pass_fds=(commands_read, replies_write),
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        os.close(commands_read)
        os.close(replies_write)
        self._next_id = 0
        self._pending: dict[int, queue.Queue] = {}
        self._lock = threading.Lock()
        self.events: list[dict[str, Any]] = []
        self._stderr: list[bytes] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        self.send("Target.setDiscoverTargets", {"discover": True})

    # --- the protocol --------------------------------------------------------------------------
    def _read(self) -> None:
        buffer = b""
        with os.fdopen(self._replies, "rb", buffering=0) as stream:
            while True:
                chunk = stream.read(65536)
                if not chunk:
                    break
                buffer += chunk
                while b"\0" in buffer:
                    raw, buffer = buffer.split(b"\0", 1)
                    message = json.loads(raw)
                    if "id" in message:
                        with self._lock:
                            waiting = self._pending.pop(message["id"], None)
                        if waiting is not None:
                            waiting.put(message)
                    else:
                        self.events.append(message)
        with self._lock:
            for waiting in self._pending.values():
                waiting.put({"error": {"message": "the browser closed the connection"}})
            self._pending.clear()

    def _drain_stderr(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            if len(self._stderr) < 200:
                self._stderr.append(line)

    def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> dict[str, Any]:
        with self._lock:
            self._next_id += 1
            ident = self._next_id
            waiting: queue.Queue = queue.Queue()
            self._pending[ident] = waiting
        message: dict[str, Any] = {"id": ident, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        try:
            reply = waiting.get(timeout=self.timeout)
        except queue.Empty:
            raise BrowserError(f"{method}: no reply in {self.timeout} s; stderr: {self.stderr_text()}") from None
        if "error" in reply:
            raise BrowserError(f"{method}: {reply['error'].get('message')}")
        return reply.get("result", {})

    def stderr_text(self) -> str:
        return b"".join(self._stderr[-20:]).decode("utf-8", "replace")

    def new_page(self) -> "Page":
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        return Page(self, session)

    def close(self) -> None:
        try:
            self.send("Browser.close")
        except BrowserError:
            pass
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        try:
            os.close(self._commands)
        except OSError:
            pass
        shutil.rmtree(self.profile, ignore_errors=True)


class Page:
    """One tab: navigate, read the DOM with JavaScript (the site has none of its own), screenshot."""

    def __init__(self, browser: Browser, session: str) -> None:
        self.browser = browser
        self.session = session
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable")

    def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.browser.send(method, params, self.session)

    def _events(self) -> list[dict[str, Any]]:
        return [e for e in self.browser.events if e.get("sessionId") == self.session]

    def navigate(self, url: str) -> None:
        seen = len(self._events())
        reply = self.send("Page.navigate", {"url": url})
        if reply.get("errorText"):
            raise BrowserError(f"{url}: {reply['errorText']}")
        deadline = time.monotonic() + self.browser.timeout
        while time.monotonic() < deadline:
            if any(e.get("method") == "Page.loadEventFired" for e in self._events()[seen:]):
                return
            time.sleep(0.02)
        raise BrowserError(f"{url}: the page did not finish loading in {self.browser.timeout} s")

    def problems(self) -> list[str]:
        """Console errors, uncaught exceptions and failed loads (missing CSS, images) so far."""
        out = []
        for event in self._events():
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                out.append("exception: " + params.get("exceptionDetails", {}).get("text", "?"))
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                out.append("console: " + " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                entry = params["entry"]
                out.append(f"log ({entry.get('source')}): {entry.get('text')} {entry.get('url', '')}".rstrip())
        return out

    def evaluate(self, expression: str) -> Any:
        reply = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in reply:
            raise BrowserError(f"{expression[:60]}...: {reply['exceptionDetails'].get('text')}")
        return reply.get("result", {}).get("value")

    def screenshot(self, path: Path, *, full_page: bool = True) -> None:
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            size = self.send("Page.getLayoutMetrics")["cssContentSize"]
            params.update(captureBeyondViewport=True,
                          clip={"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], 12000), "scale": 1})
        data = self.send("Page.captureScreenshot", params)["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))
