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
from mutants import replacement_rules  # noqa: F401  (replacement and prevention effects: 614, 615, 616)
from mutants import trigger_rules  # noqa: F401  (handling triggered abilities: 603)
from mutants import casting_rules  # noqa: F401  (mana, costs, casting, activating, resolving: rules 106, 117, 118, 601-608)
from mutants import layer_rules  # noqa: F401  (layers, dependency, counters, state-based actions, lifelink: issue 20)
from mutants import zonechange  # noqa: F401  (leaving the battlefield together, look-back triggers: cases/dies-together/)
from mutants import combat  # noqa: F401  (combat damage of blocked creatures, trample: cases/combat/)
from mutants import payment  # noqa: F401  (paying costs: {T} after mana abilities, cases/costs/)
from mutants import clauses  # noqa: F401  (one clause of a ruling each: issue 17)
from mutants import relevance  # noqa: F401  (rules some cases cite that no other mutant broke: target restrictions, ...)
from mutants import dfc_rules  # noqa: F401  (tokens, copies, double-faced cards, day/night: cases/tokens/ ...)
from mutants import casting_depth  # noqa: F401  (deeper rules of costs, casting, activating, resolving: issue 18)
from mutants import layer_depth  # noqa: F401  (issue 20 depth: SBAs during resolution, timestamps, lifelink, counters)
from mutants import format_rules  # noqa: F401  (damage assignment, abilities on the stack, granted ability texts, attachments: issue 16)
from mutants import replacement_depth  # noqa: F401  (depth of 614, 615, 616: issue 21)
from mutants import trigger_depth  # noqa: F401  (depth of 603: issue 21)
from mutants import trigger_depth2  # noqa: F401  (more depth of 603 and 614: issue 21)
from mutants import dfc_depth  # noqa: F401  (issue 19: the rest of 111, 707 and 712)
from mutants import dfc_depth2  # noqa: F401  (issue 19, second round: 707.10d-e, 712.15a, 712.19, ...)
from mutants import cov21_rules  # noqa: F401  (the last testable rules of issues 21 and 19: 615.12a, ...)
from mutants import player_effects  # noqa: F401  (targeted discard and sacrifice, sacrificing two, modal spells)
from mutants import loyalty_value  # noqa: F401  (loyalty as a characteristic, 306.5; card types set, 205.1a)
from mutants import activation_limits  # noqa: F401  ("Activate only once"; restrictions of acquired abilities, 602.5c)
from mutants import cast_permissions  # noqa: F401  (what a cast permission gives the spell cast with it: 611.3d)
from mutants import undefined_x  # noqa: F401  (an X no cost defines, chosen as it resolves: 107.3f)
from mutants import counter_order  # noqa: F401  (the order of replacement effects on putting counters: 616.1)
from mutants import entering_counters  # noqa: F401  (which counters an effect puts: entering with them, 614.1c)
from mutants import zone_replacement_order  # noqa: F401  (the order of replacement effects on where an object goes, 616.1; melded permanents leaving, 712.21b, 712.21d)
from mutants import rad_counters  # noqa: F401  (rad counters: 122.1i, 728; milling, 701.17)
