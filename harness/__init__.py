"""mtg-conformance harness: load, validate and run rules-conformance cases against engines."""

__version__ = "0.1.0"
