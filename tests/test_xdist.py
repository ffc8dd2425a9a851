"""The pytest plugin under pytest-xdist: `pytest cases -n 2` gives every case the result a run
without it gives (each worker opens its own engine; the cache is shared safely)."""

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from harness.corpus import Corpus
from tests.conftest import REPO
from tests.site_support import MUTANT


def outcomes(junit: Path) -> dict[str, str]:
    out = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        outcome = next((child.tag for child in case if child.tag in ("failure", "error", "skipped")), "passed")
        out[case.get("name")] = outcome
    return out


def test_pytest_cases_with_two_workers_gives_the_same_results(tmp_path) -> None:
    pytest.importorskip("xdist")
    results = {}
    for name, extra in [("serial", []), ("xdist", ["-n", "2"])]:
        junit = tmp_path / f"{name}.xml"
        done = subprocess.run([sys.executable, "-m", "pytest", "cases", "-q", "-p", "no:randomly", "--mtg-engine", MUTANT,
                               f"--junitxml={junit}", *extra], cwd=REPO, capture_output=True, text=True, timeout=600)
        assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]  # the mutant fails some cases
        results[name] = outcomes(junit)
    assert len(results["serial"]) == len(Corpus(REPO / "cases").case_paths())
    assert results["xdist"] == results["serial"]
    assert "failure" in results["serial"].values() and "passed" in results["serial"].values()
