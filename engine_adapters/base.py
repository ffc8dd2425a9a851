"""An adapter for an engine published as a Python package: the kit's Adapter (engine_kit/adapter.py),
plus importing the engine, reporting its installed version, and declaring what it lacks and what the
adapter itself can't express (both read by `mtg-conformance table`)."""

from __future__ import annotations

import importlib
from importlib.metadata import version

from engine_kit import Adapter, EngineInfo


class EngineMissing(RuntimeError):
    """The engine's package is not installed (the optional extra was not installed)."""


class PackageAdapter(Adapter):
    package: str = ""  # the distribution on the package index
    modules: tuple[str, ...] = ()  # what the adapter imports from it
    extra: str = ""  # the optional extra of mtg-conformance that installs it
    #: What the adapter, not the engine, can't do or derives itself: listed in the reports as such.
    adapter_limitations: tuple[str, ...] = ()

    def info(self) -> EngineInfo:
        return EngineInfo(self.name, self.load_engine(), self.language, self.homepage, self.issues,
                          # What the engine lacks (capability -> why), and what this adapter can't
                          # express although the engine may.
                          details={"limitations": dict(self.lacks),
                                   "adapter_limitations": list(self.adapter_limitations)})

    def load_engine(self) -> str:
        """Import the engine (EngineMissing if it is not installed) and return its version."""
        try:
            for module in self.modules:
                importlib.import_module(module)
        except ImportError as exc:
            raise EngineMissing(f"the {self.package} package is not installed ({exc}); "
                                f"install it with: pip install 'mtg-conformance[{self.extra}]'") from exc
        return version(self.package)
