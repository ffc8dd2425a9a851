"""An in-process adapter: the protocol's start / run / stop around an engine's Session.

`run` plays one case: it opens a session (the case's state in the engine), applies each action, and
observes the state at the checkpoints. An action the engine refuses is `rejected` and the case goes
on; a case the engine can't express is `skipped` with the reason; a CaseError is that case's
`errored` reply with its message, and any other fault (an engine exception, an adapter bug) is
`errored` with the traceback; the run goes on.

The harness calls `start`, `run` and `stop` with the protocol's messages as dicts (the same JSON an
engine over stdio reads and writes); engine_kit.stdio serves any adapter over stdin/stdout.
"""

from __future__ import annotations

import traceback
from abc import ABC, abstractmethod
from typing import Any

from engine_kit.protocol import (OK, ActionOutcome, Case, EngineInfo, Errored, JSON, Observation, Reply, Result,
                                 Skipped, Started, reply_to_json)
from engine_kit.script import Script
from engine_kit.session import CaseError, Rejected, Session, Unsupported
from engine_kit.vocabulary import CAPABILITIES, verb_of


class Adapter(ABC):
    """Subclasses name the engine, declare what it lacks, and open a session per case."""

    name: str = ""
    version: str = "0"
    language: str | None = "python"
    homepage: str | None = None
    issues: str | None = None
    #: Capabilities the engine lacks, each with the reason: cases requiring one are skipped.
    lacks: dict[str, str] = {}

    # --- the protocol, as dicts ---------------------------------------------------------------------
    def start(self, request: JSON | None = None) -> JSON:
        """The start reply. Whatever version is asked for, it names the one the kit speaks: a harness
        speaking another version then says so."""
        return self.started().to_json()

    def run(self, case: JSON) -> JSON:
        return reply_to_json(self.play(Case.from_json(case)))

    def stop(self) -> None:  # noqa: B027 (an adapter with nothing to release needn't say so)
        pass

    # --- what subclasses provide --------------------------------------------------------------------
    def started(self) -> Started:
        return Started(self.info(), tuple(c for c in CAPABILITIES if c not in self.lacks))

    def info(self) -> EngineInfo:
        return EngineInfo(self.name, self.version, self.language, self.homepage, self.issues)

    @abstractmethod
    def open(self, case: Case) -> Session:
        """The case's starting state in the engine: Unsupported if the engine can't express it,
        CaseError if it can't be built."""

    # --- playing ------------------------------------------------------------------------------------
    def play(self, case: Case) -> Reply:
        try:
            session = self.open(case)
        except Unsupported as exc:
            return Skipped(str(exc))
        except CaseError as exc:
            return Errored(str(exc), {"action": None})
        except Exception as exc:
            return errored(exc, {"action": None})
        return play(session, case)


def play(session: Session, case: Case) -> Reply:
    """Apply the case's actions and observe the checkpoints."""
    script = Script(session)
    actions = case.actions
    checkpoints = set(case.observed_after())
    observations: list[Observation] = []
    outcomes: list[ActionOutcome] = []
    index: int | None = None
    try:
        if -1 in checkpoints:
            observations.append(Observation(-1, session.observe()))
        for index, action in enumerate(actions):
            try:
                script.apply(action, actions[index + 1] if index + 1 < len(actions) else None)
                outcomes.append(OK)
            except Rejected as exc:
                outcomes.append(ActionOutcome("rejected", str(exc)))
            if index in checkpoints:
                observations.append(Observation(index, session.observe()))
    except Unsupported as exc:
        where = f"action {index} ({verb_of(actions[index])})" if index is not None else "the starting state"
        return Skipped(f"{where}: {exc}")
    except CaseError as exc:
        return Errored(str(exc), {"action": index})
    except Exception as exc:
        return errored(exc, {"action": index})
    return Result(tuple(outcomes), tuple(observations))


def errored(exc: BaseException, context: dict[str, Any]) -> Errored:
    """An unexpected exception as the case's error, with its traceback."""
    return Errored(f"{type(exc).__name__}: {exc}", {**context, "traceback": traceback.format_exc()})
