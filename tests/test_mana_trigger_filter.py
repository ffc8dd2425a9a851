"""'Whenever a player taps a [filter] for mana' judges the source with the whole filter, as every other
trigger does, not only its card types."""

from __future__ import annotations

from types import SimpleNamespace

from reference_engine.triggers import MATCHERS, Event, TriggerSource

TAPS_FOR_MANA = MATCHERS["taps_for_mana"][1]
GAME = SimpleNamespace(state=None)
SOURCE = TriggerSource(1, 1, "Some enchantment", "alice")


def _tapped(subtypes: tuple[str, ...], controller: str = "alice") -> Event:
    chars = SimpleNamespace(types=("Land",), subtypes=subtypes, controller=controller,
                            has_type=lambda t: t == "Land", has_subtype=lambda t: t in subtypes)
    land = SimpleNamespace(id=7, tapped=True, owner=controller, is_token=False)
    return Event("mana_ability_resolved", {"tapped_for_mana": True, "produced": {"G": 1}, "player": controller,
                                           "source_id": 7, "source_object": land, "source_snapshot": chars})


def test_subtypes_of_the_source_count() -> None:
    forests = {"source": {"types": ["Land"], "subtypes": ["Forest"]}}
    assert TAPS_FOR_MANA(GAME, _tapped(("Forest",)), forests, SOURCE)
    assert not TAPS_FOR_MANA(GAME, _tapped(("Mountain",)), forests, SOURCE)


def test_controller_of_the_source_counts() -> None:
    yours = {"source": {"types": ["Land"], "controller": "you"}}
    assert TAPS_FOR_MANA(GAME, _tapped(("Forest",)), yours, SOURCE)
    assert not TAPS_FOR_MANA(GAME, _tapped(("Forest",), controller="bob"), yours, SOURCE)
