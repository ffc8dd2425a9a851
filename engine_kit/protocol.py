"""The JSON-lines protocol's messages (docs/protocol.md), one frozen class each.

`to_json` gives the message as the protocol writes it (plain dicts, lists, strings and numbers);
`from_json` reads one back, raising MessageError when a field is missing or of the wrong type.
schema/protocol/*.json is normative: the harness validates every reply against it before reading
it here, and tests/test_engine_kit.py checks that these classes have the schemas' fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Literal, Union

from engine_kit.values import value_class

PROTOCOL_VERSION: Final = 1
#: Additions within version 1 that an engine can rely on the harness understanding (docs/protocol.md,
#: "Versions"). 1: the case format's object order, damage assignment, stack targets, ability texts
#: and attachments (each also a capability tag). 2: observed loyalty (loyalty-value). 3: players' counters (player-counters).
#: 4: permanents set up phased out (phasing).
PROTOCOL_MINOR: Final = 4

JSON = dict[str, Any]


class MessageError(ValueError):
    """A message that can't be read as the protocol's: the text names the field."""


def _get(data: Any, key: str, kind: type | tuple[type, ...], where: str, *, required: bool = True) -> Any:
    if not isinstance(data, dict):
        raise MessageError(f"{where} is not an object")
    if key not in data:
        if required:
            raise MessageError(f"{where} has no {key!r}")
        return None
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise MessageError(f"{where}.{key} is {type(value).__name__}, not {_names(kind)}")
    return value


def _names(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join({dict: "an object", list: "a list", str: "a string", int: "an integer",
                        bool: "a boolean"}.get(k, k.__name__) for k in kinds)


def _compact(values: dict[str, Any]) -> JSON:
    """The message's fields without those left out (None)."""
    return {key: value for key, value in values.items() if value is not None}


# --- harness to engine ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Start:
    """The first message: the protocol version the harness speaks."""

    version: int = PROTOCOL_VERSION
    minor: int = PROTOCOL_MINOR

    def to_json(self) -> JSON:
        return {"cmd": "start", "version": self.version, "minor": self.minor}

    @classmethod
    def from_json(cls, data: Any) -> Start:
        minor = _get(data, "minor", int, "the start command", required=False)
        return cls(_get(data, "version", int, "the start command"), 0 if minor is None else minor)


@value_class
class Case:
    """A case as an engine receives it: setup (defaults filled in), actions without expectations, the
    checkpoints to observe after (-1: the starting state; the last action always), and the Oracle
    data of every card used, by name. setup, actions and cards keep the case format's JSON
    (docs/case-format.md)."""

    id: str
    setup: JSON
    actions: tuple[JSON, ...]
    checkpoints: tuple[int, ...]
    cards: dict[str, JSON]

    def to_json(self) -> JSON:
        return {"id": self.id, "setup": self.setup, "actions": list(self.actions),
                "checkpoints": list(self.checkpoints), "cards": self.cards}

    @classmethod
    def from_json(cls, data: Any) -> Case:
        where = "the case"
        return cls(_get(data, "id", str, where), _get(data, "setup", dict, where),
                   tuple(_get(data, "actions", list, where)), tuple(_get(data, "checkpoints", list, where)),
                   _get(data, "cards", dict, where))

    def observed_after(self) -> tuple[int, ...]:
        """The checkpoints in order, with the last action's always among them."""
        return tuple(sorted(set(self.checkpoints) | {len(self.actions) - 1}))


@dataclass(frozen=True)
class Run:
    """Play one case; the reply carries the same seq."""

    seq: int
    case: Case

    def to_json(self) -> JSON:
        return {"cmd": "run", "seq": self.seq, "case": self.case.to_json()}

    @classmethod
    def from_json(cls, data: Any) -> Run:
        return cls(_get(data, "seq", int, "the run command"), Case.from_json(_get(data, "case", dict, "the run command")))


@dataclass(frozen=True)
class Stop:
    """The last message: the engine exits, without a reply."""

    def to_json(self) -> JSON:
        return {"cmd": "stop"}


# --- engine to harness --------------------------------------------------------------------------------
@dataclass(frozen=True)
class EngineInfo:
    """Who the engine is, for reports and for people reporting a problem to its authors."""

    name: str
    version: str
    language: str | None = None
    homepage: str | None = None
    issues: str | None = None
    source: str | None = None
    details: JSON | None = None  # free-form: what it lacks, a mutant's broken rule, build flags

    def to_json(self) -> JSON:
        return _compact({"name": self.name, "version": self.version, "language": self.language,
                         "homepage": self.homepage, "issues": self.issues, "source": self.source,
                         "details": self.details})

    @classmethod
    def from_json(cls, data: Any) -> EngineInfo:
        where = "the start reply's engine"
        text = {key: _get(data, key, str, where, required=False) for key in ("language", "homepage", "issues", "source")}
        return cls(_get(data, "name", str, where), _get(data, "version", str, where), **text,
                   details=_get(data, "details", dict, where, required=False))


@dataclass(frozen=True)
class Started:
    """The start reply: the version the engine speaks, who it is, and the capabilities it has."""

    engine: EngineInfo
    capabilities: tuple[str, ...]
    version: int = PROTOCOL_VERSION

    def to_json(self) -> JSON:
        return {"version": self.version, "engine": self.engine.to_json(), "capabilities": list(self.capabilities)}

    @classmethod
    def from_json(cls, data: Any) -> Started:
        where = "the start reply"
        capabilities = _get(data, "capabilities", list, where)
        if not all(isinstance(c, str) for c in capabilities):
            raise MessageError(f"{where}.capabilities is not a list of strings")
        return cls(EngineInfo.from_json(_get(data, "engine", dict, where)), tuple(capabilities),
                   _get(data, "version", int, where))


@dataclass(frozen=True)
class ActionOutcome:
    """What the engine did with one action: performed it (ok), or refused it as the rules forbid."""

    status: Literal["ok", "rejected"] = "ok"
    reason: str | None = None  # why it was rejected, for people

    def to_json(self) -> JSON:
        return {"status": self.status} if self.reason is None else {"status": self.status, "reason": self.reason}

    @classmethod
    def from_json(cls, data: Any) -> ActionOutcome:
        status = _get(data, "status", str, "an action's result")
        if status not in ("ok", "rejected"):
            raise MessageError(f"an action's status is {status!r}, not 'ok' or 'rejected'")
        reason = _get(data, "reason", str, "an action's result", required=False)
        if status == "ok" and reason is None:
            return OK  # most outcomes: one value for all
        return cls(status, reason)  # type: ignore[arg-type]

    @property
    def rejected(self) -> bool:
        return self.status == "rejected"


OK: Final = ActionOutcome()


@value_class
class Observation:
    """The observed state after one checkpoint: {"game", "players", "objects"} as in the protocol."""

    after: int
    state: JSON

    def to_json(self) -> JSON:
        return {"after": self.after, "state": self.state}

    @classmethod
    def from_json(cls, data: Any) -> Observation:
        return cls(_get(data, "after", int, "an observation"), _get(data, "state", dict, "an observation"))


@value_class
class Result:
    """The engine played the case: one outcome per action, and the observations."""

    actions: tuple[ActionOutcome, ...]
    observations: tuple[Observation, ...]
    kind: ClassVar[str] = "result"

    def body(self) -> JSON:
        return {"actions": [a.to_json() for a in self.actions],
                "observations": [o.to_json() for o in self.observations]}

    @classmethod
    def from_body(cls, data: Any) -> Result:
        return cls(tuple(ActionOutcome.from_json(a) for a in _get(data, "actions", list, "the result")),
                   tuple(Observation.from_json(o) for o in _get(data, "observations", list, "the result")))

    def states(self) -> dict[int, JSON]:
        """The observed states by checkpoint."""
        return {o.after: o.state for o in self.observations}


@dataclass(frozen=True)
class Skipped:
    """The engine can't run this case (a card or rule it doesn't implement): not a failure."""

    reason: str
    issue: str | None = None  # the engine's issue about it
    kind: ClassVar[str] = "skipped"

    def body(self) -> JSON:
        return _compact({"reason": self.reason, "issue": self.issue})

    @classmethod
    def from_body(cls, data: Any) -> Skipped:
        return cls(_get(data, "reason", str, "skipped"), _get(data, "issue", str, "skipped", required=False))


@dataclass(frozen=True)
class Errored:
    """Something went wrong while playing the case; the run goes on. Conventional context keys:
    action (the index of the action being played), traceback."""

    message: str
    context: JSON | None = field(default=None)
    kind: ClassVar[str] = "errored"

    def body(self) -> JSON:
        return _compact({"message": self.message, "context": self.context})

    @classmethod
    def from_body(cls, data: Any) -> Errored:
        return cls(_get(data, "message", str, "errored"), _get(data, "context", dict, "errored", required=False))


Reply = Union[Result, Skipped, Errored]
REPLY_KINDS: Final = ("result", "skipped", "errored")
_REPLY_CLASSES: dict[str, Any] = {"result": Result, "skipped": Skipped, "errored": Errored}


def reply_to_json(reply: Reply, seq: int | None = None) -> JSON:
    """The run reply: {"seq", "<kind>": {...}} (an in-process adapter returns it without seq)."""
    body = {reply.kind: reply.body()}
    return body if seq is None else {"seq": seq, **body}


def reply_from_json(data: Any) -> Reply:
    """The reply in a run reply (its seq, if any, is the caller's business)."""
    if not isinstance(data, dict):
        raise MessageError("the reply is not an object")
    kinds = [kind for kind in REPLY_KINDS if kind in data]
    if len(kinds) != 1:
        raise MessageError(f"the reply has {' and '.join(kinds) or 'none'} of {', '.join(REPLY_KINDS)}")
    reply: Reply = _REPLY_CLASSES[kinds[0]].from_body(data[kinds[0]])
    return reply
