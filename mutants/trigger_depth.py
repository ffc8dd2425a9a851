"""Mutants for the depth of handling triggered abilities (rule 603: issue 21), each named for the rule
it breaks."""

from __future__ import annotations

from mutants.patching import Patcher, mutant  # noqa: F401
