"""The engine kit: what an adapter needs to run the mtg-conformance corpus, standard library only.

- `protocol`: the protocol version and one frozen class per message, with to_json / from_json;
- `vocabulary`: capabilities, steps, zones, action verbs, the defaults of a case's setup;
- `session`: the Session an adapter implements for one case (its moves and observations);
- `script`: the action interpreter, which plays a case's actions on a Session;
- `adapter`: the Adapter base class (start / run / stop around a Session);
- `stdio`: the JSON-lines loop that serves an adapter over stdin/stdout;
- `oracle`: facts read off a case's Oracle data (the activated abilities cases number);
- `values`: `@value_class`, a frozen dataclass that is cheap to make (the kit's messages use it).

docs/adapters.md shows how to write an adapter with it. The kit imports nothing of mtg-conformance's
other packages: the harness, the reference engine and third-party adapters all build on it.
"""

from engine_kit.adapter import Adapter, play
from engine_kit.protocol import (PROTOCOL_MINOR, PROTOCOL_VERSION, ActionOutcome, Case, EngineInfo, Errored, MessageError,
                                 Observation, Reply, Result, Run, Skipped, Start, Started, Stop, reply_from_json,
                                 reply_to_json)
from engine_kit.session import (ActivateSpec, CaseError, CastSpec, Choice, CounterChoice, DamageAssignment, EngineId,
                                ManaPayment,
                                Pending, Rejected, Session, Target, Unsupported)
from engine_kit.stdio import serve
from engine_kit.vocabulary import CAPABILITIES, STEPS

__all__ = [
    "PROTOCOL_VERSION", "PROTOCOL_MINOR", "CAPABILITIES", "STEPS",
    "Start", "Started", "EngineInfo", "Run", "Case", "Stop", "Result", "Skipped", "Errored", "ActionOutcome",
    "Observation", "Reply", "MessageError", "reply_from_json", "reply_to_json",
    "Session", "Pending", "Target", "ManaPayment", "CastSpec", "ActivateSpec", "Choice", "CounterChoice", "DamageAssignment",
    "EngineId", "Rejected", "Unsupported", "CaseError",
    "Adapter", "play", "serve",
]
