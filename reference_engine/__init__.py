"""The reference rules engine of mtg-conformance: a pure-Python model of the Comprehensive Rules.

It implements the rules, not the answers: cards are data (reference_engine/cards/) interpreted by a
small rules core (zones, priority and the stack, layers, state-based actions, triggers, replacement
effects). The harness reaches it only through its adapter (`reference_engine.adapter`).
"""

__version__ = "0.1.0"
