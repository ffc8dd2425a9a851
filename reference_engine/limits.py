"""What the reference engine does not model: such a case is the engine's error, not a rules answer."""

from __future__ import annotations

from engine_kit import CaseError


class EngineLimit(CaseError):
    """A situation the reference engine does not model (reported as an engine error, not a rules answer)."""
