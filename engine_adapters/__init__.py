"""Adapters for third-party rules engines: phase.rs (`phase`) and python-mtg (`python-mtg`).

Each adapter speaks the protocol's messages as dicts (start / run / stop, as reference_engine/adapter.py
does) and is registered in the `mtg_conformance.engines` entry point group. An adapter translates a
case into its engine's own state model and moves, and the engine's state back into observations; it
never computes an answer itself. What an engine lacks is declared (capabilities, per-case skips with
a reason); everything else runs and is compared.

The engines are optional extras (`pip install 'mtg-conformance[phase]'`, `'mtg-conformance[python-mtg]'`);
nothing here imports them until an adapter is started.
"""
