"""Replacement effects (rule 614): how permanents enter, and what mana abilities produce.

Entering: 'enters with N counters', 'as this enters, you may have it enter as a copy', 'as this
enters, choose a color', daybound entering transformed at night (702.145b), planeswalkers' loyalty
(306.5b).
Mana: 'if a land is tapped for mana, it produces {B} instead' (106.12b), 'produces twice as much'.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import permutations
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

from reference_engine.filters import FilterContext, matches
from reference_engine.layers import abilities_on_battlefield, characteristics, printed
from reference_engine.mana import Counts
from reference_engine.model import CardDef, Face
from reference_engine.moves import Decision, Procedure, yes_or_no

if TYPE_CHECKING:
    from reference_engine.game import Game


# --- the order of several effects on one event (616.1) --------------------------------------------
@dataclass(frozen=True, eq=False)
class Applicable:
    """A replacement or prevention effect that applies to an event, and the object it comes from (how a
    player names it when choosing the order)."""

    source_uid: int | None
    source_name: str
    timestamp: int
    spec: Any


def choose_order(game: Game, player: str, effects: Sequence[Applicable], outcome: Callable[[list[Applicable]], Any],
                 what: str) -> Procedure:
    """Rule 616.1: the affected player chooses one of the applicable effects to apply, then another among
    those left, and so on (616.1e-f). `outcome(order)` is the result of applying them in that order;
    the player is asked only while the orders left give different results. Returns the order."""
    chosen: list[Applicable] = []
    remaining = sorted(effects, key=lambda e: e.timestamp)
    while len(remaining) > 1:
        if len({outcome(chosen + list(rest)) for rest in permutations(remaining)}) == 1:
            break
        first = yield from _ask_first(game, player, remaining, what)
        chosen.append(first)
        remaining.remove(first)
    return chosen + remaining


def _ask_first(game: Game, player: str, effects: list[Applicable], what: str) -> Procedure:
    names = ", ".join(e.source_name for e in effects)
    decision = Decision(player, "replacement", f"choose which effect applies first to {what}: {names}",
                        {"sources": [e.source_uid for e in effects]})
    while True:
        move = yield decision
        found = next((e for e in effects if move.replacement is not None and e.source_uid == move.replacement), None)
        if found is not None:
            return found
        game.state.rejection = (f"name the source of one of the effects that apply to {what}: {names}"
                                if move.replacement is not None else
                                f"choose which replacement or prevention effect applies first ({names})")


# --- entering the battlefield --------------------------------------------------------------------
def entry_replacements(game: Game, card: CardDef, controller: str, entry, spell_x: int | None) -> Procedure:
    """Apply the entering permanent's own 'as enters' / 'enters with' abilities to `entry` (614.12)."""
    state = game.state
    if (entry.face == 0 and card.double_faced and state.day_night == "night"
            and any(a.keyword == "Daybound" for a in card.faces[0].abilities)):
        entry.face = 1  # rule 702.145b: if it is night, it enters transformed
    face = card.faces[entry.face]
    controller = entering_control(game, face, card, controller, entry)
    own_counters, applied = entry.counters, set()
    while (ability := next((a for a in face.abilities if a.kind == "replacement" and "as_enters_copy" in a.data
                            and id(a) not in applied), None)) is not None:
        # A copy that gains an 'enter as a copy' ability (copying a Clone that copied nothing) applies that
        # one too (707.9e); each replacement effect applies once to the event (614.5).
        applied.add(id(ability))
        spec = ability.data["as_enters_copy"]
        copied = yield from _choose_copy(game, face, controller, spec)
        if copied is None:
            break
        from reference_engine.copying import copiable_for_permanent
        from reference_engine.linked_copy import note_linked_trigger

        chosen = copiable_for_permanent(game, state.objects[copied])
        note_linked_trigger(entry, spec, copied)  # 707.9g: only the last copy effect's linked trigger triggers
        # An exception that is an additional effect (X more counters) doesn't happen once another copy
        # effect is applied after it (707.9e): only the last copy effect's exception counts.
        base = counters_before_exceptions(own_counters, entry.counters)
        entry.counters = _additional_counters(spec.get("except"), _exception_counters(chosen[0], spec.get("except"), base),
                                              spell_x)
        chosen = keep_own_colors(copy_exceptions(chosen, spec.get("except")), spec.get("except"), card.faces[entry.face])
        entry.copy_of = chosen
        face = chosen[0]
    for ability in face.abilities:
        if ability.kind == "replacement" and ability.data.get("as_enters_day_if_neither") and state.day_night is None:
            from reference_engine.daynight import become

            become(game, "day")  # 'if it's neither day nor night, it becomes day as this enters' (731.1)
        if ability.kind == "replacement" and _enters_tapped(game, ability, controller):
            entry.tapped = True  # 'this permanent enters tapped' (614.1c)
        if ability.kind == "replacement" and "as_enters_turn_face_down" in ability.data:
            from reference_engine.face_down import turn_face_down_as_enters

            turn_face_down_as_enters(game, controller, None, ability.data["as_enters_turn_face_down"])
    for ability in face.abilities:
        if ability.kind == "replacement" and "as_enters_may_pay_life" in ability.data:
            yield from may_pay_life_as_enters(game, face, controller, entry, ability.data["as_enters_may_pay_life"])
    for ability in face.abilities:
        if ability.kind == "replacement" and "as_enters_exile" in ability.data:
            from reference_engine.linked import exile_as_enters

            yield from exile_as_enters(game, face, controller, entry, ability.data["as_enters_exile"])
    for ability in face.abilities:
        if ability.kind == "replacement" and "as_enters_choose" in ability.data:
            what = ability.data["as_enters_choose"]
            answer = yield from _choose_as_enters(game, face, controller, what)
            key = "option" if isinstance(what, dict) else what
            entry.choices = dict(entry.choices or {}, **{key: answer})
    counters: Counter[str] = Counts(entry.counters or {})
    for ability in face.abilities:
        if ability.kind == "replacement" and "enters_with_counters" in ability.data:
            for kind, amount in ability.data["enters_with_counters"].items():
                counters[kind] += entering_count(game, controller, amount, spell_x)
    counters.update(counters_from_others(game, face, card, controller))
    if "Planeswalker" in face.types and face.loyalty is not None:
        counters["loyalty"] += int(face.loyalty)
    if "Saga" in face.subtypes:
        counters["lore"] += 1  # 714.3a: a Saga has "This Saga enters with a lore counter on it"
    entry.counters = dict(counters)
    if any(a.kind == "replacement" and _enters_tapped(game, a, controller) for a in face.abilities) or \
            enters_tapped_by_others(game, face, card, controller):
        entry.tapped = True  # 'this creature enters tapped'; '[objects] enter tapped' (614.1d)


def entering_count(game: Game, controller: str, amount: Any, spell_x: int | None) -> int:
    """How many counters 'enters with' puts: a number, X, or `{count: <filter>, graveyard: <filter>}` ('a
    +1/+1 counter for each other Zombie you control and each Zombie card in your graveyard'), counted as it
    enters (the entering permanent is not yet on the battlefield, so it is never one of the others)."""
    if amount == "X":
        return spell_x or 0
    if not isinstance(amount, dict):
        return int(amount)
    from reference_engine.model import Zone

    state, ctx = game.state, FilterContext(controller)
    total = sum(1 for o in state.battlefield() if matches(state, o, amount.get("count"), ctx)) if "count" in amount else 0
    if "graveyard" in amount:
        total += sum(1 for o in state.in_zone(Zone.GRAVEYARD, controller) if matches(state, o, amount["graveyard"], ctx))
    return total


def may_pay_life_as_enters(game: Game, face: Face, controller: str, entry, amount: int) -> Procedure:
    """'As this land enters, you may pay 2 life. If you don't, it enters tapped.' The life is paid as it
    enters. For permanents entering at the same time, their controller can't make choices whose combined
    costs can't be paid (614.12b): each payment is judged on the life left after those already chosen."""
    from reference_engine.casting import check_life_payment
    from reference_engine.model import DecisionKind
    from reference_engine.moves import Illegal
    from reference_engine.ops import pay_life

    def problem(move) -> str | None:
        try:
            check_life_payment(game, controller, amount)
        except Illegal as exc:
            return str(exc)
        return None

    decision = Decision(controller, DecisionKind.MAY, f"pay {amount} life as {face.name} enters? (if not, it enters tapped)")
    if (yield from yes_or_no(game.state, decision, problem)) is None:
        entry.tapped = True
        return
    pay_life(game, controller, amount, entering=entry.entering)


def entering_control(game: Game, face: Face, card: CardDef, controller: str, entry) -> str:
    """Rule 616.1b: an effect that modifies under whose control the permanent enters ('if a creature would
    enter under an opponent's control this turn, it enters under your control instead') is applied before
    the other effects on how it enters, which then see it under its new controller. Sets
    `entry.controller` and returns the controller the rest of the entry is judged with."""
    state = game.state
    for player, filt in state.entering_control:
        if player != controller and matches(state, None, filt, FilterContext(player), chars=printed(face, card, controller)):
            controller = player
            break
    entry.controller = controller
    return controller
def _enters_tapped(game: Game, ability, controller: str) -> bool:
    """`enters_tapped: true`, or `{unless_you_control: filter}`: 'this land enters tapped unless you
    control a Mountain or a Forest'."""
    spec = ability.data.get("enters_tapped")
    if not isinstance(spec, dict):
        return bool(spec)
    state = game.state
    ctx = FilterContext(controller)
    return not any(characteristics(state, o).controller == controller and matches(state, o, spec["unless_you_control"], ctx)
                   for o in state.battlefield())


def _replacements_of_permanents(state, key: str) -> Iterator[tuple[Any, FilterContext]]:
    """The `key` of each replacement ability of the permanents that has it, with the context its
    filters are read in (its controller, its source)."""
    for obj, chars, ability in abilities_on_battlefield(state, "replacement"):
        spec = ability.data.get(key)
        if spec:
            yield spec, FilterContext(chars.controller, obj.id, obj.uid)


def enters_tapped_by_others(game: Game, face: Face, card: CardDef, controller: str) -> bool:
    """'Creatures and nonbasic lands your opponents control enter tapped' (614.1d): applies if the permanent,
    as it would exist on the battlefield (the face or copy it enters as, under `controller`), matches one
    of the filters (614.12). A permanent's own such ability can't apply to it: it is not there yet."""
    state = game.state
    would_be = None
    for filters, ctx in _replacements_of_permanents(state, "others_enter_tapped"):
        would_be = would_be or printed(face, card, controller)
        if any(matches(state, None, filt, ctx, chars=would_be) for filt in filters):
            return True
    return False


def counters_from_others(game: Game, face: Face, card: CardDef, controller: str) -> Counter[str]:
    """'Each other non-Human creature you control enters with an additional +1/+1 counter on it'
    (`others_enter_with_counters: {filter, counters}`): judged on the permanent as it would exist on the
    battlefield (614.12), the face it enters with once an effect made it enter back face up (616.1d)."""
    state = game.state
    extra: Counter[str] = Counter()
    would_be = None
    for spec, ctx in _replacements_of_permanents(state, "others_enter_with_counters"):
        would_be = would_be or printed(face, card, controller)
        if matches(state, None, spec.get("filter"), ctx, chars=would_be):
            extra.update({kind: int(n) for kind, n in spec["counters"].items()})
    return extra


def copy_exceptions(chosen: tuple[Face, CardDef], exceptions: dict[str, Any] | None) -> tuple[Face, CardDef]:
    """'... except it's 7/7' / 'except it's a Shapeshifter Rogue in addition to its other types': the
    exception changes the copiable values themselves (707.9b). An exception that sets power and
    toughness drops a characteristic-defining ability that would define them; one that adds types
    'in addition' keeps those that define types, such as changeling (707.9d); 'and it has "..."'
    adds abilities to the copiable values (707.9b)."""
    if not exceptions:
        return chosen
    from dataclasses import replace

    face, _ = chosen
    changes: dict[str, Any] = {}
    if exceptions.get("not_legendary"):
        changes["supertypes"] = tuple(s for s in face.supertypes if s != "Legendary")
    if "add_subtypes" in exceptions:
        changes["subtypes"] = face.subtypes + tuple(s for s in exceptions["add_subtypes"] if s not in face.subtypes)
    if "power" in exceptions:
        changes["power"], changes["toughness"] = str(exceptions["power"]), str(exceptions["toughness"])
        changes["abilities"] = tuple(a for a in face.abilities if not a.data.get("defines_pt"))
    if "abilities" in exceptions:  # '... except it has "{X}: ..."': an ability it gains (its X is its own, 107.3j)
        from reference_engine.carddefs import parse_ability

        changes["abilities"] = (tuple(changes.get("abilities", face.abilities))
                                + tuple(parse_ability(a) for a in exceptions["abilities"]))
    face = replace(face, **changes)
    return face, CardDef(name=face.name, layout="copy", faces=(face,))


def keep_own_colors(chosen: tuple[Face, CardDef], exceptions: dict[str, Any] | None,
                    own: Face) -> tuple[Face, CardDef]:
    """'... except it doesn't copy that creature's color': the copy keeps the colors of its own face
    (`own`), not the copied ones (707.9c)."""
    if not (exceptions or {}).get("keep_own_colors"):
        return chosen
    from dataclasses import replace

    face = replace(chosen[0], color_indicator=own.colors)
    return face, CardDef(name=face.name, layout="copy", faces=(face,))


def counters_before_exceptions(own: dict[str, int] | None, so_far: dict[str, int] | None) -> dict[str, int] | None:
    """The counters an entering permanent has before a copy effect's exception adds any: its own, not
    those an earlier copy effect's exception added, whose effect doesn't happen once another copy effect
    is applied after it (707.9e)."""
    return own


def _additional_counters(exceptions: dict[str, Any] | None, counters: dict[str, int] | None,
                         spell_x: int | None) -> dict[str, int] | None:
    """'... except it enters with X additional +1/+1 counters on it' (Altered Ego)."""
    extra = (exceptions or {}).get("counters", {})
    if not extra:
        return counters
    out = Counter(counters or {})
    for kind, amount in extra.items():
        out[kind] += (spell_x or 0) if amount == "X" else int(amount)
    return dict(out)


def _exception_counters(copied: Face, exceptions: dict[str, Any] | None,
                        counters: dict[str, int] | None) -> dict[str, int] | None:
    """'... except it enters with an additional +1/+1 counter on it if it's a creature': whether such an
    exception applies is judged by what the copy would be without it (707.9f), here the copied face."""
    conditional = (exceptions or {}).get("counters_if", {})
    if not conditional:
        return counters
    out = Counter(counters or {})
    for card_type, extra in conditional.items():
        if card_type in copied.types:
            out.update(extra)
    return dict(out)


def _choose_copy(game: Game, face: Face, controller: str, spec: dict[str, Any]) -> Procedure:
    """'You may have this enter as a copy of any creature on the battlefield' (rule 707.5): the id of the
    creature chosen, or None."""
    state = game.state
    filt = spec.get("filter", {})
    ctx = FilterContext(controller)
    options = [o.id for o in state.battlefield() if matches(state, o, filt, ctx)]
    if not options:
        return None
    decision = Decision(controller, "objects", f"choose what {face.name} enters as a copy of (or nothing)",
                        {"candidates": options, "min": 0, "max": 1})
    while True:
        move = yield decision
        chosen = move.objects if move.objects is not None else (() if move.yes is False else None)
        if chosen is None:
            game.state.rejection = "choose an object to copy, or none"
            continue
        if len(chosen) > 1 or any(c not in options for c in chosen):
            wrong = next((c for c in chosen if c not in options), None)
            what = characteristics(state, state.objects[wrong]).name if wrong in state.objects else "that"
            game.state.rejection = (f"{what} is not a creature on the battlefield {face.name} can copy"
                                    if wrong is not None else f"{face.name} copies one creature at most")
            continue
        if not chosen:
            return None
        return chosen[0]


def _choose_as_enters(game: Game, face: Face, controller: str, what: str) -> Procedure:
    """'As this creature enters, choose a color': the choice is made before it enters (614.12a), by
    whoever it enters under, even for a copy of a permanent that made that choice (707.6)."""
    from reference_engine.mana import COLORS
    from reference_engine.model import DecisionKind

    if isinstance(what, dict):  # {one_of: [Khans, Dragons]}: the anchor words of 614.12c
        words = [str(w) for w in what["one_of"]]
        decision = Decision(controller, DecisionKind.OPTION, f"choose {' or '.join(words)} as {face.name} enters")
        while True:
            move = yield decision
            if move.option in words:
                return move.option
            game.state.rejection = f"choose {' or '.join(words)}"
    if what == "card_name":
        from reference_engine.card_names import choose_card_name

        return (yield from choose_card_name(game, face.name, controller))
    if what == "creature_to_copy":
        from reference_engine.copy_statics import choose_creature_to_copy

        return (yield from choose_creature_to_copy(game, face.name, controller))
    if what != "color":
        raise KeyError(f"unknown 'as enters' choice {what!r}")
    decision = Decision(controller, "color", f"choose a color as {face.name} enters")
    while True:
        move = yield decision
        if move.color in COLORS:
            return move.color
        game.state.rejection = f"choose one of the colors {', '.join(COLORS)}"


# --- mana production -----------------------------------------------------------------------------
def mana_replacements(game: Game, source, source_chars, player: str, tapped_for_mana: bool) -> list[Any]:
    """Replacement abilities that apply to a mana ability of `source` (with characteristics
    `source_chars`, as it was when activated) resolving for `player`."""
    return [e.spec for e in mana_replacement_effects(game, source, source_chars, player, tapped_for_mana)]


def mana_replacement_effects(game: Game, source, source_chars, player: str, tapped_for_mana: bool) -> list[Applicable]:
    """The same, with the permanent each comes from, in timestamp order."""
    state = game.state
    found = []
    for obj, chars, ability in abilities_on_battlefield(state, "replacement"):
        if "mana_production" in ability.data:
            spec = ability.data["mana_production"]
            if mana_replacement_applies(game, spec, chars.controller, obj.id, source, source_chars, player,
                                        tapped_for_mana):
                found.append(Applicable(obj.uid, chars.name, obj.timestamp, spec))
    return sorted(found, key=lambda e: e.timestamp)


def order_mana_replacements(game: Game, player: str, effects: list[Applicable], produced: Counter[str]) -> Procedure:
    """The specs of `effects` in the order the player who gets the mana chooses (616.1)."""
    if len(effects) <= 1:
        return [e.spec for e in effects]
    order = yield from choose_order(game, player, effects,
                                    lambda order: tuple(sorted(_apply_all([e.spec for e in order], produced).items())),
                                    "the mana produced")
    return [e.spec for e in order]


def mana_replacement_applies(game: Game, spec: dict[str, Any], controller: str, effect_source_id: int, source,
                             source_chars, player: str, tapped_for_mana: bool) -> bool:
    """Rule 106.12b: 'if a [filter] is tapped for mana' applies only to mana abilities with {T}
    of matching permanents; 'if you tap' only when the effect's controller is the one tapping."""
    if spec.get("tapped_for_mana") and not tapped_for_mana:
        return False
    if spec.get("player") == "you" and player != controller:
        return False
    if "source" in spec:
        return matches(game.state, source, spec["source"], FilterContext(controller, effect_source_id), chars=source_chars)
    return True


def _apply_one(spec: dict[str, Any], produced: Counter[str]) -> Counter[str]:
    if not produced:
        return produced
    if sum(produced.values()) < spec.get("min_amount", 0):  # 'if a land is tapped for two or more mana'
        return produced
    if "produce" in spec:  # '... produces {B} instead of any other type and amount'
        return Counter({spec["produce"]: 1})
    if "multiply" in spec:  # '... produces twice as much of that mana instead'
        return Counter({k: v * spec["multiply"] for k, v in produced.items()})
    raise KeyError(f"unknown mana replacement {spec}")


def replace_production(specs: list[dict[str, Any]], produced: Counter[str]) -> Counter[str]:
    """The mana actually produced: each applicable effect applied once (614.5), in the order the
    affected player chose (616.1, order_mana_replacements)."""
    return _apply_all(specs, produced)


def _apply_all(specs, produced: Counter[str]) -> Counter[str]:
    for spec in specs:
        produced = _apply_one(spec, produced)
    return produced


def possible_types(specs: list[dict[str, Any]], types: set[str]) -> set[str]:
    """Types a production of any of `types` could end up as, in any order of the effects (rule 106.7)."""
    result: set[str] = set()
    for mana_type in types:
        for order in permutations(specs) if specs else [()]:
            result |= set(_apply_all(list(order), Counter({mana_type: 1})))
    return result
