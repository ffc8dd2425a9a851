"""The adapter for python-mtg (PyPI `python-mtg`), registered as the engine `python-mtg`."""

from __future__ import annotations

from engine_adapters.base import PackageAdapter
from engine_kit import Case
from engine_adapters.python_mtg import cards as card_data
from engine_adapters.python_mtg.session import PythonMtgSession
from engine_adapters.python_mtg.setup import build
from engine_kit.session import Unsupported


class PythonMtgEngine(PackageAdapter):
    name = "python-mtg"
    package = "python-mtg"
    modules = ("mtg", "mtg.engine.env")
    extra = "python-mtg"
    homepage = "https://github.com/yevbar/witchcraft"
    issues = "https://github.com/yevbar/witchcraft/issues"
    #: Each checked against python-mtg 0.1.1 (its driver, env and Datalog rules), not taken on trust.
    lacks = {
        "stack": "a spell or ability resolves within the move that casts or activates it: the engine runs the "
                 "whole priority loop (its opponent answering greedily) before the move returns, so nothing "
                 "waits on the stack between moves",
        "priority": "only the active player makes moves; the other player never holds priority (the engine "
                    "casts its responses for it, greedily)",
        "mana-abilities": "a mana ability is not a move: the engine counts untapped mana sources as available "
                          "mana and taps them itself to pay a cost (its one mana move, tap_mana, taps every "
                          "source at once)",
        "marked-damage": "non-lethal damage is not kept marked on a permanent outside combat",
        "day-night": "the engine has no day/night designation",
        "loyalty": "loyalty abilities are not moves: the engine activates one only inside its own main-phase "
                   "play, through its choice seam (declining by default), and leaves their timing (rule 606.3) "
                   "to when it calls them, so it can neither take nor refuse a case's activation",
        "emblems": "the engine has no emblems (its rules name the object kind, its driver never makes one)",
        "level-up": "level up is not an activated ability and level bands are not modeled: a leveler has every "
                    "band's keywords at once",
        "legend-rule": "the engine derives the legend rule's conflict (sba_legend_conflict) but never applies it",
        "choices": "a choice made while a spell or ability resolves is taken inside the move that resolves it, "
                   "through the engine's choice seam, which is answered before the move: the game never waits "
                   "for the case's `choose`",
        "replacement-order": "the replacement effects it models are applied in a fixed way inside the move that "
                             "causes the event (its driver counts life-gain doublers and '+1' effects together), "
                             "with no decision for the order of several (rule 616.1): the game never waits for it",
        "color-identity": "the engine takes a card's color identity from its card data (colorIdentity) instead "
                          "of deriving it from the card (rule 903.4); reporting it would only echo the corpus",
        "object-order": "the engine names objects by their card's name and a counter of its own, not in an order "
                        "the adapter can tie to when they entered their zone",
        "damage-assignment": "combat damage is assigned inside the engine's combat move, with no decision for it",
        "stack-targets": "nothing waits on the stack between moves (see 'stack'), so nothing on it can be targeted",
        "ability-text": "the adapter reports no ability texts",
        "attachments": "the adapter doesn't set up Auras or Equipment attached to a permanent",
        "loyalty-value": "the adapter reports no loyalty: the engine has no planeswalkers (see 'loyalty')",
        "player-counters": "the adapter doesn't set up a player's counters (poison, rad) nor report them",
        # 1.4
        "phasing": "the adapter doesn't set up a permanent phased out",
    }
    adapter_limitations = (
        "A permanent back face up, a token with keywords, or a permanent owned by another player in a "
        "starting state is not built: such a case is skipped.",
        "A card's owner is the player whose zones the case put it in (the engine tracks control only).",
        "The engine's moves are applied without its automatic advance to its next decision point, so each "
        "action is observed where the case observes it; `pass` is the engine's own one-step advance.",
    )

    def open(self, case: Case) -> PythonMtgSession:
        db, own = card_data.engine_data()
        for name, card in sorted(case.cards.items()):
            problems = card_data.problems(card, db, own)
            if problems:
                raise Unsupported(f"python-mtg can't play {name} as printed: " + "; ".join(problems[:3]))
        built = build(case, case.cards)
        return PythonMtgSession(built, list(case.setup["players"]), case.cards)
