"""Validation of the corpus: the schema first, then semantic lint (rulings, cards, labels, ids)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from engine_kit.oracle import activated_ability_count, grants_abilities, has_level_up, is_planeswalker_face
from engine_kit.vocabulary import ACTION_VERBS
from harness import schemas
from harness.cache import entry_key, read_bytes
from harness.corpus import Case, CaseFacts, Corpus
from harness.exemptions import Exemptions, load_exemptions
from harness.limits import bounded
from harness.yamlio import Document, YamlError, format_path

VERBS = ACTION_VERBS
ZONE_KEYS = ("battlefield", "hand", "library", "graveyard", "exile")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input file, located precisely."""

    file: str
    line: int
    path: str
    message: str
    hint: str | None = None

    def __post_init__(self) -> None:  # a message never carries a megabyte of a bad value
        object.__setattr__(self, "path", bounded(self.path, 200))
        object.__setattr__(self, "message", bounded(self.message, 300))
        if self.hint is not None:
            object.__setattr__(self, "hint", bounded(self.hint, 300))

    def __str__(self) -> str:
        text = f"{self.file}:{self.line}: {self.path}: {self.message}"
        return f"{text} ({self.hint})" if self.hint else text


def _suggest(name: str, choices: Iterable[str], what: str) -> str:
    if not isinstance(name, str) or len(name) > 200:  # difflib takes quadratic time
        return f"no {what} with a similar name"
    choices = list(choices)
    close = difflib.get_close_matches(name, choices, n=3, cutoff=0.6)
    if not close and name:  # a short name for a long one: 'Oko' for 'Oko, Lorwyn Liege'
        close = [c for c in choices if c.casefold().startswith(name.casefold())][:3]
    if close:
        return "did you mean " + " or ".join(repr(c) for c in close) + "?"
    return f"no {what} with a similar name"


class CaseLinter:
    """Semantic checks of one schema-valid case against the corpus."""

    def __init__(self, case: Case, corpus: Corpus) -> None:
        self.case = case
        self.corpus = corpus
        self.data = case.data
        self.problems: list[Problem] = []
        setup = self.data.get("setup", {})
        self.players: list[str] = list(setup.get("players", {}))
        self.labels: dict[str, dict[str, Any]] = {}
        self.cards_in_setup: list[Any] = []
        self.token_names: set[str] = set()

    def report(self, path: list[str | int], message: str, hint: str | None = None) -> None:
        self.problems.append(Problem(self.case.display_path, self.case.line_of(path),
                                     format_path(path), message, hint))

    def run(self) -> list[Problem]:
        self.check_identity()
        self.check_setup()
        for index, action in enumerate(self.data.get("actions", [])):
            self.check_action(index, action)
        self.check_possible(self.data.get("actions", []))
        if "expect" in self.data:
            self.check_expectation(["expect"], self.data["expect"])
        return self.problems

    # --- identity -------------------------------------------------------------------------
    def check_identity(self) -> None:
        if self.data["id"] != self.case.expected_id:
            self.report(["id"], f"id {self.data['id']!r} does not match the file's path",
                        f"expected {self.case.expected_id!r}")
        for index, ruling in enumerate(self.data.get("rulings", [])):
            if ruling not in self.corpus.rulings:
                self.report(["rulings", index], f"unknown ruling id {ruling!r}",
                            _suggest(ruling, self.corpus.rulings, "ruling"))
        self.check_rules()

    def check_rules(self) -> None:
        """Every number cited exists in the pinned edition (cr/): citations mean something only against
        one edition, since the Comprehensive Rules renumber rules between editions."""
        from harness import cr  # only when a case is validated afresh: a run on a known corpus needs no rules

        edition = cr.pinned()
        for index, number in enumerate(self.data["rules"]):
            if number not in edition:
                self.report(["rules", index],
                            f"no rule {number} in the Comprehensive Rules effective {edition.effective}",
                            cr.suggestion(edition, number))

    # --- setup ----------------------------------------------------------------------------
    def check_setup(self) -> None:
        setup = self.data["setup"]
        active = setup.get("active")
        if active is not None and active not in self.players:
            self.report(["setup", "active"], f"{active!r} is not one of the players",
                        f"players: {', '.join(self.players)}")
        for player, state in setup["players"].items():
            base = ["setup", "players", player]
            for zone in ZONE_KEYS:
                for index, entry in enumerate(state.get(zone, [])):
                    self.check_setup_object(base + [zone, index], zone, entry)
            for index, emblem in enumerate(state.get("emblems", [])):
                path = base + ["emblems", index]
                if self.corpus.card(emblem["from"]) is None:
                    self.report(path + ["from"], f"unknown card {emblem['from']!r}",
                                _suggest(emblem["from"], self.corpus.card_names, "card"))
                if "label" in emblem:
                    self.define_label(path + ["label"], emblem["label"], {"emblem": True})
            if state.get("counters"):
                self.require(base + ["counters"], "player-counters", "a player's counters in setup")
            if "owner" in state:
                pass
        for player, state in setup["players"].items():  # once every label of the setup is known
            for index, entry in enumerate(state.get("battlefield", [])):
                if isinstance(entry, dict) and "attached_to" in entry:
                    path = ["setup", "players", player, "battlefield", index, "attached_to"]
                    self.require(path, "attachments", "a permanent attached in setup")
                    host = self.labels.get(entry["attached_to"])
                    if host is None:  # a player's name: an Aura that enchants a player (303.4)
                        self.check_ref(path, entry["attached_to"], players_ok=True)
                    elif host.get("zone") != "battlefield":
                        self.report(path, f"{entry['attached_to']!r} is not on the battlefield",
                                    "an Aura or Equipment is attached to a permanent (rules 301.5, 303.4)")
                    elif entry.get("label") is not None and entry["attached_to"] == entry["label"]:
                        self.report(path, "a permanent can't be attached to itself (rules 301.5c, 303.4d)")

    def check_setup_object(self, path: list[str | int], zone: str, entry: Any) -> None:
        if isinstance(entry, str):
            self.check_card_name(path, entry)
            return
        if "token" in entry:
            card = None
            self.token_names.add(entry["token"]["name"])
        else:
            card = self.check_card_name(path + ["card"], entry["card"])
        if "label" in entry:
            self.define_label(path + ["label"], entry["label"], {"card": card, "zone": zone, "entry": entry,
                                                                 "player": path[2]})
        if entry.get("phased_out"):
            self.require(path + ["phased_out"], "phasing", "a permanent phased out in setup")
        owner = entry.get("owner")
        if owner is not None and owner not in self.players:
            self.report(path + ["owner"], f"{owner!r} is not one of the players")
        if card is None:
            if entry.get("face") == "back":
                self.report(path + ["face"], "a token made from characteristics has no back face")
            return
        face_index = 1 if entry.get("face") == "back" else 0
        if face_index == 1 and not card.is_double_faced:
            self.report(path + ["face"], f"{card.name!r} has no back face", "only double-faced cards can be back face up")
        face = card.faces[min(face_index, len(card.faces) - 1)]
        counters = entry.get("counters", {})
        if "level" in counters and not has_level_up(face):
            self.report(path + ["counters", "level"], f"{face['name']!r} has no level up ability",
                        "level counters only mean something on a leveler, rule 711")
        if "loyalty" in counters and not is_planeswalker_face(face):
            self.report(path + ["counters", "loyalty"], f"{face['name']!r} is not a planeswalker",
                        "loyalty counters belong on planeswalkers (rule 306.5b)")

    def check_has_back_face(self, path: list[str | int], info: dict[str, Any]) -> None:
        """Only a double-faced card can ever be back face up (rules 701.27c, 712.9)."""
        card = info.get("card")
        if card is not None and not card.is_double_faced:
            self.report(path, f"{card.name!r} has no back face",
                        "it can't transform or be back face up: only double-faced cards can (rule 712.9)")
        elif card is None and "token" in info.get("entry", {}):
            self.report(path, "a token made from characteristics has no back face",
                        "it can't transform or be back face up (rule 712.9)")

    def check_card_name(self, path: list[str | int], name: str):
        card = self.corpus.card(name)
        if card is None:
            self.report(path, f"unknown card {name!r}",
                        _suggest(name, self.corpus.card_names, "card in cases/cards/") +
                        " (add it with tools/import_cards.py)")
            return None
        self.cards_in_setup.append(card)
        if card.is_double_faced and name == card.face_names[1]:
            self.report(path, f"{name!r} is the back face of {card.name!r}",
                        "name the card by its front face and set 'face: back'")
        return card

    def define_label(self, path: list[str | int], label: str, info: dict[str, Any]) -> None:
        if label in self.labels:
            self.report(path, f"label {label!r} is defined twice", "labels must be unique in a case")
        elif label in self.players:
            self.report(path, f"label {label!r} is also a player's name", "pick another label")
        else:
            self.labels[label] = info

    # --- references -----------------------------------------------------------------------
    def require(self, path: list[str | int], capability: str, what: str) -> None:
        """A case using a construct only some engines support must require its capability."""
        if capability not in self.data.get("requires", []):
            self.report(path, f"{what} needs the capability {capability!r}",
                        "add it to 'requires', so an engine lacking it skips this case")

    def check_ref(self, path: list[str | int], ref: Any, *, players_ok: bool = False) -> None:
        if isinstance(ref, dict) and "stack" in ref:
            if not players_ok:
                self.report(path, "{stack: N} names a spell or ability to target: it is only a target")
            self.require(path, "stack-targets", "a {stack: N} target")
            return
        if isinstance(ref, dict):
            self.check_selector(path + ["select"], ref["select"])
            if "nth" in ref["select"]:
                self.require(path + ["select", "nth"], "object-order", "a selector with nth")
            return
        if ref in self.labels:
            return
        if ref in self.players:
            if not players_ok:
                self.report(path, f"{ref!r} is a player, but an object is needed here")
            return
        known = list(self.labels) + (self.players if players_ok else [])
        self.report(path, f"undefined label {ref!r}",
                    _suggest(ref, known, "label") + "; labels are defined in setup")

    def check_select_can_fail(self, path: list[str | int], group: dict[str, Any]) -> None:
        """`each` without `count` checks nothing when nothing matches: a misspelled or unknown name
        (e.g. a color identity query on a card that isn't in cards/) would pass silently."""
        name = group["where"].get("name")
        if "each" not in group or "count" in group or name is None:
            return
        if self.corpus.card(name) is None and name not in self.token_names:
            self.report(path + ["where", "name"], f"no card named {name!r}, so 'each' may check nothing",
                        _suggest(name, self.corpus.card_names, "card") +
                        "; a token made during the case is fine, but give 'count' so the expectation can fail")

    def check_player(self, path: list[str | int], name: Any) -> None:
        if name not in self.players:
            self.report(path, f"{name!r} is not one of the players", f"players: {', '.join(self.players)}")

    def check_selector(self, path: list[str | int], selector: dict[str, Any]) -> None:
        for key in ("controller", "owner"):
            if key in selector:
                self.check_player(path + [key], selector[key])

    def check_payments(self, path: list[str | int], payments: list[Any]) -> None:
        for index, payment in enumerate(payments):
            if isinstance(payment, str):
                self.check_ref(path + [index], payment)
            else:
                self.check_ref(path + [index, "object"], payment["object"])

    # --- actions --------------------------------------------------------------------------
    def check_action(self, index: int, action: dict[str, Any]) -> None:
        path: list[str | int] = ["actions", index]
        verbs = [verb for verb in VERBS if verb in action]
        if len(verbs) != 1:
            self.report(path, "an action needs exactly one verb" + (f", not {len(verbs)} ({', '.join(verbs)})" if verbs else ""),
                        f"one of: {', '.join(VERBS)}")
            return
        verb = verbs[0]
        value = action[verb]
        if "by" in action:
            self.check_player(path + ["by"], action["by"])
            if verb == "pass":
                self.report(path + ["by"], "write the player as the value of pass", "e.g. 'pass: bob'")
        vpath = path + [verb]
        if verb == "play":
            self.check_ref(vpath + ["card"] if isinstance(value, dict) and "card" in value else vpath,
                           value["card"] if isinstance(value, dict) and "card" in value else value)
        elif verb == "cast":
            if isinstance(value, dict) and "card" in value:
                self.check_ref(vpath + ["card"], value["card"])
                for t_index, target in enumerate(value.get("targets", [])):
                    self.check_ref(vpath + ["targets", t_index], target, players_ok=True)
                self.check_payments(vpath + ["pay"], value.get("pay", []))
            else:
                self.check_ref(vpath, value)
        elif verb == "activate":
            self.check_ref(vpath + ["object"], value["object"])
            self.check_activated_index(vpath, value)
            for t_index, target in enumerate(value.get("targets", [])):
                self.check_ref(vpath + ["targets", t_index], target, players_ok=True)
            for s_index, sacrificed in enumerate(value.get("sacrifice", [])):
                self.check_ref(vpath + ["sacrifice", s_index], sacrificed)
            self.check_payments(vpath + ["pay"], value.get("pay", []))
        elif verb == "pass":
            if value is not True:
                self.check_player(vpath, value)
        elif verb == "attack":
            items = value.items() if isinstance(value, dict) else ((a, None) for a in value)
            for attacker, defender in items:
                self.check_ref(vpath + ([attacker] if isinstance(value, dict) else []), attacker)
                if defender is not None:
                    self.check_ref(vpath + [attacker], defender, players_ok=True)
        elif verb == "block":
            for blocker, attacker in value.items():
                self.check_ref(vpath, blocker)
                self.check_ref(vpath + [blocker], attacker)
        elif verb == "assign":
            self.require(vpath, "damage-assignment", "a combat damage assignment")
            for creature, split in value.items():
                self.check_ref(vpath, creature)
                for recipient in split:
                    self.check_ref(vpath + [creature], recipient, players_ok=True)
        elif verb == "choose":
            for key in ("objects", "order"):
                for o_index, ref in enumerate(value.get(key, [])):
                    self.check_ref(vpath + [key, o_index], ref)
            for t_index, target in enumerate(value.get("targets", [])):
                self.check_ref(vpath + ["targets", t_index], target, players_ok=True)
            self.check_payments(vpath + ["pay"], value.get("pay", []))
        if "expect" in action:
            self.check_expectation(path + ["expect"], action["expect"])

    # --- what no game allows -------------------------------------------------------------------
    def check_possible(self, actions: list[dict[str, Any]]) -> None:
        """Actions the rules make impossible in every game, unless the case expects the engine to
        reject them (that is a fine thing to test). Only what nothing earlier in the case could have
        made possible is refused: a permanent may return to its owner's hand, control may change."""
        setup = self.data["setup"]
        turn = setup.get("turn", 2)
        unchanged = True  # no accepted action yet: the state is the setup's
        over = False
        for index, action in enumerate(actions):
            path: list[str | int] = ["actions", index]
            expect = action.get("expect") or {}
            if over:
                self.report(path, "an action after the game is over",
                            "an earlier expectation says a player of this two-player game has lost (rule 104.2a)")
                return
            rejected = bool(expect.get("rejected"))
            advance = action.get("advance")
            if isinstance(advance, dict) and isinstance(advance.get("turn"), int) and advance["turn"] < turn and not rejected:
                self.report(path + ["advance", "turn"], f"turn {advance['turn']} is an earlier turn than the case "
                            f"starts in (turn {turn})", "turn numbers only go forward")
            for verb in ("cast", "play"):
                value = action.get(verb)
                ref = value.get("card") if isinstance(value, dict) else value
                info = self.labels.get(ref) if isinstance(ref, str) else None
                if info and info.get("zone") == "battlefield" and unchanged and not rejected:
                    self.report(path + [verb], f"{ref!r} is on the battlefield: it can't be {'cast' if verb == 'cast' else 'played'}",
                                "no rule or effect lets a permanent be cast, or played as a land, from the battlefield "
                                "(rules 601.3, 116.2a); "
                                "expect 'rejected: true' to test that an engine refuses it")
            block = action.get("block")
            if isinstance(block, dict) and not rejected and self.control_unchanged(actions[:index]):
                for blocker, attacker in block.items():
                    ours, theirs = self.labels.get(blocker), self.labels.get(attacker)
                    if ours and theirs and ours.get("zone") == theirs.get("zone") == "battlefield" \
                            and ours.get("player") == theirs.get("player"):
                        self.report(path + ["block", blocker], f"{blocker!r} would block a creature of its own "
                                    f"controller ({attacker!r})", "blockers are the defending player's creatures (rule 509.1a)")
            if not rejected:
                unchanged = False
            given = expect.get("players")
            players = given if isinstance(given, dict) else {}
            if len(self.players) == 2 and any(isinstance(p, dict) and p.get("lost") is True for p in players.values()):
                over = True

    @staticmethod
    def control_unchanged(earlier: list[dict[str, Any]]) -> bool:
        """Whether nothing before could have changed who controls what: only attacks declared and
        actions expected to be rejected (an effect changing control needs something to resolve)."""
        return all("attack" in a or (a.get("expect") or {}).get("rejected") for a in earlier)

    def check_activated_index(self, path: list[str | int], value: dict[str, Any]) -> None:
        """An index beyond every face's printed activated abilities is an error, unless abilities may be granted."""
        ref = value["object"]
        info = self.labels.get(ref) if isinstance(ref, str) else None
        card = info.get("card") if info else None
        if card is None or self.may_grant_abilities(card):
            return
        index = value.get("ability", 0)
        counts = [activated_ability_count(face) for face in card.faces]
        if index >= max(counts):
            self.report(path + ["ability"], f"{card.name!r} has no activated ability {index}",
                        f"its faces have {' and '.join(map(str, counts))} activated abilities, counted from 0")

    def may_grant_abilities(self, card: Any) -> bool:
        """Emblems in setup, or other cards whose text grants abilities (an emblem made during the case,
        a quoted ability), may give `card` more activated abilities: don't second-guess its indexes
        then; the engine rejects an index the object doesn't have when the action is played."""
        if any(state.get("emblems") for state in self.data["setup"]["players"].values()):
            return True
        return any(grants_abilities(face) for other in self.cards_in_setup if other.name != card.name
                   for face in other.faces)

    # --- expectations ---------------------------------------------------------------------
    def check_observables_are_required(self, path: list[str | int], expect: dict[str, Any]) -> None:
        """A case that checks what only some engines can report must require that capability."""
        required = set(self.data.get("requires", []))
        for section, key, where in _observables(expect):
            capability = OBSERVABLE_CAPABILITIES.get((section, key))
            if capability and capability not in required:
                self.report(path + where, f"checking {key!r} needs the capability {capability!r}",
                            "add it to 'requires', so an engine lacking it skips this case")

    def check_expectation(self, path: list[str | int], expect: dict[str, Any]) -> None:
        self.check_observables_are_required(path, expect)
        for player, expected in expect.get("players", {}).items():
            self.check_player(path + ["players", player], player)
            for zone in ("hand", "library", "graveyard", "exile"):
                names = expected.get(zone)
                listed = names if isinstance(names, list) else (
                    names.get("includes", []) + names.get("excludes", []) if isinstance(names, dict) else [])
                for n_index, name in enumerate(listed):
                    if self.corpus.card(name) is None:
                        self.report(path + ["players", player, zone], f"unknown card {name!r}",
                                    _suggest(name, self.corpus.card_names, "card"))
        for label, expected in expect.get("objects", {}).items():
            if label not in self.labels:
                self.report(path + ["objects", label], f"undefined label {label!r}",
                            _suggest(label, self.labels, "label"))
            elif expected.get("face") == "back":
                self.check_has_back_face(path + ["objects", label, "face"], self.labels[label])
            for key in ("controller", "owner"):
                if key in expected:
                    self.check_player(path + ["objects", label, key], expected[key])
            if expected.get("attached_to") is not None:
                self.check_ref(path + ["objects", label, "attached_to"], expected["attached_to"])
        for index, group in enumerate(expect.get("select", [])):
            self.check_selector(path + ["select", index, "where"], group["where"])
            self.check_select_can_fail(path + ["select", index], group)
        game = expect.get("game", {})
        for key in ("active", "priority"):
            if key in game:
                self.check_player(path + ["game", key], game[key])
        stack = game.get("stack")
        if isinstance(stack, list):
            for s_index, entry in enumerate(stack):
                if "source" in entry and entry["source"] not in self.labels:
                    self.report(path + ["game", "stack", s_index, "source"], f"undefined label {entry['source']!r}")
                if "controller" in entry:
                    self.check_player(path + ["game", "stack", s_index, "controller"], entry["controller"])


#: Observables that only an engine with a capability can report: a case checking one must require it,
#: so an engine lacking it skips the case instead of failing it for the wrong reason.
OBSERVABLE_CAPABILITIES = {
    ("objects", "color_identity"): "color-identity",
    ("select", "color_identity"): "color-identity",
    ("game", "day_night"): "day-night",
    ("players", "mana_pool"): "mana-abilities",
    ("players", "emblems"): "emblems",
    ("objects", "abilities"): "ability-text",
    ("select", "abilities"): "ability-text",
    ("objects", "attached_to"): "attachments",
    ("select", "attached_to"): "attachments",
    ("objects", "loyalty"): "loyalty-value",
    ("select", "loyalty"): "loyalty-value",
    ("players", "counters"): "player-counters",
}


def _observables(expect: dict[str, Any]):
    """(section, field, path) for every field an expectation block checks."""
    for key, value in expect.get("game", {}).items():
        yield "game", key, ["game", key]
    for player, fields in expect.get("players", {}).items():
        for key in fields:
            yield "players", key, ["players", player, key]
    for label, fields in expect.get("objects", {}).items():
        for key in fields:
            yield "objects", key, ["objects", label, key]
    for index, group in enumerate(expect.get("select", [])):
        for key in group.get("each", {}):
            yield "select", key, ["select", index, "each", key]




def validate_case(case: Case, corpus: Corpus) -> list[Problem]:
    """Schema problems if any (lint needs a well-formed case), else lint problems."""
    found = [Problem(case.display_path, case.line_of(p.path), format_path(p.path), p.message, p.hint)
             for p in schemas.problems("case", case.doc.data)]
    if found:
        return found
    return CaseLinter(case, corpus).run()


def validate_document(doc: Document, schema_name: str, display: str) -> list[Problem]:
    return [Problem(display, doc.line_of(p.path), format_path(p.path), p.message, p.hint)
            for p in schemas.problems(schema_name, doc.data)]


@dataclass
class CorpusReport:
    problems: list[Problem]
    valid_cases: list[Case]
    case_count: int
    exemptions: Exemptions = field(default_factory=Exemptions)

    @property
    def ok(self) -> bool:
        return not self.problems


def validate_corpus(corpus: Corpus, cases: Iterable[Case | YamlError] | None = None) -> CorpusReport:
    """Validate rulings, cards, rule exemptions and cases; unique ids across the corpus; no rule both
    cited and exempt."""
    problems: list[Problem] = []
    problems.extend(_validate_support_files(corpus))
    valid: list[Case] = []
    count = 0
    try:
        exemptions = load_exemptions(corpus)
        count = _validate_cases(corpus, cases, problems, valid)
    except Exception as exc:
        from harness.cr import CRError  # not imported before: a run on a known corpus reads no rules

        if not isinstance(exc, CRError):
            raise
        # the harness's own copy of the rules is broken: nothing can be checked
        return CorpusReport(problems + [Problem(exc.path, exc.line, "$", exc.message)], [], count)
    problems.extend(exemptions.problems)
    problems.extend(_cited_and_exempt(valid, exemptions))
    return CorpusReport(problems, valid, count, exemptions)


def _cited_and_exempt(cases: list[Case], exemptions: Exemptions) -> Iterator[Problem]:
    from harness.rule_coverage import citations

    cited = citations(cases)
    for number, exemption in exemptions.by_rule.items():
        if number in cited:
            yield Problem(exemption.file, exemption.line, "$.exempt", f"rule {number} is exempt, but cases cite it: "
                          + ", ".join(cited[number]), "a rule a case tests is not exempt: remove the exemption")


def _validate_cases(corpus: Corpus, cases: Iterable[Case | YamlError] | None, problems: list[Problem],
                    valid: list[Case]) -> int:
    seen_ids: dict[str, Case] = {}
    count = 0
    checked = _checked_cases(corpus) if cases is None else ((item, None) for item in cases)
    for item, case_problems in checked:
        count += 1
        if isinstance(item, YamlError):
            problems.append(Problem(_display(corpus, item.path), item.line, "$", item.message))
            continue
        if case_problems is None:
            case_problems = validate_case(item, corpus)
        problems.extend(case_problems)
        first = seen_ids.get(item.id)
        if first is not None:
            problems.append(Problem(item.display_path, item.line_of(["id"]), "$.id",
                                    f"duplicate case id {item.id!r}", f"also used by {first.display_path}"))
        else:
            seen_ids[item.id] = item
        if not case_problems:
            valid.append(item)
    return count


def _checked_cases(corpus: Corpus) -> Iterator[tuple[Case | YamlError, list[Problem]]]:
    """Every case of the corpus with its problems. A file that hasn't changed since it was validated,
    in a corpus whose rulings and cards haven't either, is not read again: its problems and facts
    come from the cache (harness/cache.py). A document read here is released once validated: it is in
    the cache then, and read from there again (a few microseconds) when the case runs, so a corpus read
    for the first time doesn't hold every document at once."""
    for rel in corpus.case_names():
        path = corpus.root / rel
        raw = read_bytes(path)
        key = entry_key(raw, corpus.context, rel.encode("utf-8", "surrogateescape"))
        cached = corpus.cache.get("validation", path, key)
        if cached is not None:
            facts, found = cached
            case = corpus.known_case(path, CaseFacts.from_data(facts), name=rel)
            yield case, [Problem(case.display_path, *problem) for problem in found]
            continue
        try:
            case = corpus.load_case(path, raw, name=rel)
        except YamlError as exc:
            yield exc, []
            continue
        case_problems = validate_case(case, corpus)
        corpus.cache.put("validation", path, key, (case.facts.to_data(), [
            (p.line, p.path, p.message, p.hint) for p in case_problems]))
        if corpus.cache.enabled:  # else reading it again would mean parsing it again
            case.release()
        yield case, case_problems


def _display(corpus: Corpus, path) -> str:
    try:
        return f"{corpus.root.name}/{path.relative_to(corpus.root).as_posix()}"
    except ValueError:
        return str(path)


def _validate_support_files(corpus: Corpus) -> Iterator[Problem]:
    for path, reason in corpus.refused:
        yield Problem(_display(corpus, path), 1, "$", reason)
    try:
        doc = corpus.rulings_doc
    except (YamlError, FileNotFoundError) as exc:
        yield Problem(f"{corpus.root.name}/rulings.yaml", getattr(exc, "line", 1), "$", str(getattr(exc, "message", exc)))
    else:
        yield from _cached_problems(corpus, doc.path,
                                    lambda: validate_document(doc, "rulings", f"{corpus.root.name}/rulings.yaml"))
    docs = corpus.card_docs
    for error in corpus.card_errors:
        yield Problem(_display(corpus, error.path), error.line, "$", error.message)
    invalid = []
    for path, card_doc in docs.items():
        def problems(path: Any = path, card_doc: Document = card_doc) -> list[Problem]:
            return _card_problems(corpus, path, card_doc)
        found = _cached_problems(corpus, path, problems)
        if found:
            invalid.append(path)
        yield from found
    corpus.exclude_cards(invalid)


def _card_problems(corpus: Corpus, path, card_doc: Document) -> list[Problem]:
    display = _display(corpus, path)
    found = validate_document(card_doc, "card", display)
    if not found:
        from harness.cards import card_file_slug

        expected = card_file_slug(card_doc.data["name"]) + ".yaml"
        if path.name != expected:
            found.append(Problem(display, 1, "$.name", "file name does not match the card name", f"expected {expected}"))
    return found


def _cached_problems(corpus: Corpus, path, validate: Callable[[], list[Problem]]) -> list[Problem]:
    """The problems of a rulings or card file, from the cache if it was validated as it is now."""
    key = entry_key(corpus.support_files[path], _display(corpus, path).encode("utf-8", "surrogateescape"))
    cached = corpus.cache.get("validation", path, key)
    if cached is not None:
        return [Problem(*problem) for problem in cached]
    found = validate()
    corpus.cache.put("validation", path, key, [(p.file, p.line, p.path, p.message, p.hint) for p in found])
    return found
