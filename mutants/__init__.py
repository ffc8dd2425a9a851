"""Rule mutants: named, deliberately broken variants of the reference engine's rules.

A mutant is applied as a patch by this tooling, never by the engine itself, so the engine stays
clean. Running the corpus against a mutant shows which cases notice that rule being broken; a
case that no mutant makes fail, or a mutant no case notices, is a gap in the corpus.

    from mutants import applied
    with applied("summoning-sickness-ignored"):
        ...  # the reference engine now lets new creatures pay {T}
"""

from mutants.patching import Mutant, MUTANTS, applied  # noqa: F401
from mutants import layers  # noqa: F401  (levelers, P/T sublayers, copies, indestructible: Transcendent Master)
from mutants import catalog  # noqa: F401  (registers the mutants)
from mutants import loyalty  # noqa: F401  (planeswalkers, loyalty, emblems: the Arlinn Kord rulings)
from mutants import daynight  # noqa: F401  (day/night, transform, Tovolar, Moonmist)
from mutants import copy  # noqa: F401  (copies, blight, double-faced cards: the grub/ cases)
from mutants import dfc_rules  # noqa: F401  (tokens, copies, double-faced cards, day/night: cases/tokens/ ...)
