"""For adapter authors: engines registered by installed packages, `engines` to list them, and
`smoke` to check an adapter with advice."""

import json
import textwrap

import pytest

from engine_kit import CAPABILITIES
from harness.cli import main
from tests.conftest import fake_engine, wire_engine


def cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def installed_package(tmp_path, monkeypatch):
    """A package installed on sys.path that registers the engine 'renamed' by its entry point."""
    dist = tmp_path / "renamed_engine-1.2.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: renamed-engine\nVersion: 1.2\n")
    (dist / "entry_points.txt").write_text("[mtg_conformance.engines]\nrenamed = renamed_adapter:RenamedEngine\n")
    (tmp_path / "renamed_adapter.py").write_text(textwrap.dedent('''
        """The reference engine under another name, as a third-party package would register it."""
        from reference_engine.adapter import ReferenceEngine


        class RenamedEngine(ReferenceEngine):
            """The reference engine, renamed."""

            def start(self, request):
                reply = super().start(request)
                reply["engine"]["name"] = "renamed"
                return reply
    '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_engines_lists_the_registered_engines(capsys) -> None:
    code, out, _ = cli(capsys, "engines", "--format", "json")
    engines = {row["name"]: row for row in json.loads(out)}
    assert code == 0
    assert engines["reference"]["target"] == "reference_engine.adapter:ReferenceEngine"
    assert engines["reference"]["package"].startswith("mtg-conformance ")
    assert "mutant" in engines


def test_an_installed_package_registers_an_engine(capsys, installed_package) -> None:
    code, out, _ = cli(capsys, "engines", "--check")
    row = next(line for line in out.splitlines() if line.startswith("renamed "))
    assert code == 0
    assert "renamed-engine 1.2" in row and "The reference engine, renamed." in row and " ok " in row
    code, out, _ = cli(capsys, "run", "--engine", "renamed", "-k", "nightpack")
    assert code == 0 and "engine: renamed 0.1.0" in out


@pytest.mark.parametrize("engine, stop", [("reference", "stopped"),
                                          (wire_engine("reference_engine"), "exited with status 0")])
def test_smoke_passes_for_the_reference_engine(capsys, engine, stop) -> None:
    code, out, _ = cli(capsys, "smoke", "--engine", engine)
    assert code == 0
    for check in (f"handshake: reference 0.1.0, protocol 1, {len(CAPABILITIES)} capabilities",
                  "trivial case: played a land", "skip path: answered skipped",
                  "error path: answered errored", f"stop: {stop}"):
        assert check in out
    assert "FAIL" not in out and out.rstrip().endswith("smoke: the engine speaks the protocol")


def test_smoke_explains_an_engine_that_crashes_instead_of_skipping(capsys) -> None:
    code, out, _ = cli(capsys, "smoke", "--engine", fake_engine("crash", "smoke/unknowable-card"))
    assert code == 1
    assert "  FAIL  skip path: crash: the engine exited with status 3 while running the case" in out
    assert "it should answer {\"skipped\": {\"reason\": ...}}" in out
    assert "engine stderr | fake engine: misbehaving (crash) on smoke/unknowable-card" in out
    assert "  ok    error path" in out  # the engine was restarted for the next check
    assert "smoke: 1 check(s) failed: skip path" in out


def test_smoke_explains_a_reply_on_stdout_mixed_with_logs(capsys) -> None:
    code, out, _ = cli(capsys, "smoke", "--engine", fake_engine("stdout-log", "smoke/play-a-land"))
    assert code == 1
    assert "FAIL  trivial case: error: the engine wrote a line that is not JSON: 'INFO running the case'" in out
    assert "write logs to standard error" in out


def test_smoke_explains_a_failed_handshake(capsys) -> None:
    code, out, _ = cli(capsys, "smoke", "--engine", fake_engine("bad-version"))
    assert code == 1
    assert "FAIL  handshake: the engine did not start" in out
    assert "speaks protocol version 2; this harness speaks version 1" in out


def test_smoke_of_an_unknown_engine_is_a_usage_error(capsys) -> None:
    code, _, err = cli(capsys, "smoke", "--engine", "refrence")
    assert code == 2 and "did you mean reference?" in err


def test_the_adapter_skeleton_in_the_protocol_docs_speaks_the_protocol(capsys, tmp_path) -> None:
    import re
    import shutil

    from tests.conftest import REPO

    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    code = re.search(r"```js\n(.*?)```", (REPO / "docs" / "protocol.md").read_text(), re.S).group(1)
    (tmp_path / "adapter.mjs").write_text(code)
    status, out, _ = cli(capsys, "smoke", "--engine", f"cmd:node {tmp_path / 'adapter.mjs'}")
    assert status == 1  # a skeleton skips everything: smoke says what to do next
    assert "  warn  handshake: my-engine 0.1.0, protocol 1, 0 capabilities" in out
    assert "  ok    skip path: answered skipped: not implemented yet" in out
    assert "  FAIL  error path: answered skipped, not errored" in out
    assert "  ok    stop: exited with status 0" in out
