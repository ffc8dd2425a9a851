"""The conformance site: static HTML and CSS pages built from `run` reports (no JavaScript, works
from file:// and any static host). `build_site` makes it; `mtg-conformance site` is its command."""

from harness.site.build import MARKER, Built, SiteError, build_site

__all__ = ["MARKER", "Built", "SiteError", "build_site"]
