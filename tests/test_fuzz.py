"""Fuzzing the harness's inputs (issue 23): mutated case files, card files, rulings and engine replies.
Whatever comes in, the harness answers with problems or a result, never a traceback or a hang, and
what it accepts is within its limits (plain JSON data an engine and a report can take).

Seeded (hypothesis, derandomized: the same examples on every run) and bounded: each test has a fixed
number of examples, each example an alarm of ALARM seconds, about 20 s in all on a 2-core machine."""

from __future__ import annotations

import contextlib
import copy
import json
import math
import shutil
import signal

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.corpus import Case, Corpus
from harness.engines import open_engine, received
from harness.limits import plain_data_problem
from harness.protocol_client import decode
from harness.results import CaseResult, Status
from harness.runner import judge, run_case
from harness.validation import Problem, validate_case, validate_corpus
from harness.yamlio import YamlError, load_bytes
from harness.cache import Cache
from tests.conftest import REAL_CORPUS, CorpusBuilder, paths_of

ALARM = 20  # seconds: an example taking longer is a hang
SETTINGS = dict(derandomize=True, database=None, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])
SEED_CASES = ["general/tap-ability-summoning-sick", "general/untap-ability-returns-creature"]

TOKENS = ["&a ", "*a", "!!float ", "!!int ", "!!bool ", "!!timestamp ", "!!binary ", "!!set ", "<<: *a", "[", "]",
          "{", "}", ": ", "- ", "\t", "'", '"', "9" * 40, "0x" + "f" * 40, "\x00", "\ufeff", "#", "\n  ", "? ",
          "|", ">", "%YAML 1.1\n", "---\n", "...\n", "3.0", ".nan", "-.inf", "true", "~", "1e16", "0o17",
          "label: x", "elves", "alice", "bob", "battlefield", "\\u0000", "&b [*a, *a, *a, *a, *a, *a, *a, *a]"]


@contextlib.contextmanager
def alarm(seconds: int = ALARM):
    def hang(signum, frame):
        raise AssertionError(f"no answer within {seconds}s: a hang")
    previous = signal.signal(signal.SIGALRM, hang)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def deep(depth: int, leaf=0):
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


nasty_scalars = st.one_of(
    st.integers(), st.sampled_from([10**15, 10**16, -(10**20), 2**63, 3**2000]),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([3.0, 1e16, -0.0]),
    st.booleans(), st.none(), st.text(max_size=30), st.sampled_from(["x" * 20_000, "", "alice", "elves", "Forest"]),
)
nasty = st.recursive(nasty_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)), max_leaves=10) | \
    st.integers(min_value=40, max_value=3000).map(deep)


def replaced(data, path, value):
    if not path:
        return value
    out = copy.deepcopy(data)
    node = out
    for item in path[:-1]:
        node = node[item]
    node[path[-1]] = value
    return out


def flow(value) -> str:
    """`value` as YAML flow text, without recursion (the fuzzed values nest thousands deep)."""
    out: list[str] = []
    stack: list = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, _Text):
            out.append(item)
        elif isinstance(item, dict):
            parts: list = [_Text("{")]
            for index, (key, child) in enumerate(item.items()):
                parts += [_Text(", ")] if index else []
                parts += [_Text(json.dumps(str(key)) + ": "), child]
            stack.extend(reversed(parts + [_Text("}")]))
        elif isinstance(item, list):
            parts = [_Text("[")]
            for index, child in enumerate(item):
                parts += ([_Text(", ")] if index else []) + [child]
            stack.extend(reversed(parts + [_Text("]")]))
        elif isinstance(item, float) and not math.isfinite(item):
            out.append(".nan" if item != item else (".inf" if item > 0 else "-.inf"))
        elif isinstance(item, bool) or item is None:
            out.append({True: "true", False: "false", None: "null"}[item])
        elif isinstance(item, (int, float)):
            out.append(repr(item) if isinstance(item, float) else str(item) if abs(item) < 10**4000 else "9" * 4400)
        else:
            out.append(json.dumps(item))
    return "".join(out)


class _Text(str):
    """Text already rendered (not a string value to quote)."""


def text_mutation(text: str, edits: list[tuple[int, int, str]]) -> str:
    for position, cut, token in edits:
        at = position % (len(text) + 1)
        text = text[:at] + token + text[at + cut:]
    return text


edits = st.lists(st.tuples(st.integers(min_value=0, max_value=10**6), st.integers(min_value=0, max_value=3),
                           st.sampled_from(TOKENS)), min_size=1, max_size=4)


def check_problems(problems: list[Problem]) -> None:
    for problem in problems:
        assert isinstance(problem, Problem)
        assert len(str(problem)) < 2000, str(problem)[:300]


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return Corpus(REAL_CORPUS, cache=Cache(None))


@pytest.fixture(scope="module")
def reference():
    session = open_engine("reference")
    yield session
    session.close()


def accepted_case_is_sound(case: Case, corpus: Corpus, reference) -> None:
    """An accepted case is data every engine can be sent, and the reference engine can play."""
    from harness.wire import engine_case

    assert plain_data_problem(case.data, "the case") is None
    json.dumps(engine_case(case, corpus), allow_nan=False)
    result = run_case(case, reference, corpus)
    assert isinstance(result, CaseResult)


def seed_text(case_id: str) -> str:
    return (REAL_CORPUS / f"{case_id}.yaml").read_text(encoding="utf-8")


def case_from(text: str | bytes, case_id: str) -> Case | YamlError:
    path = REAL_CORPUS / f"{case_id}.yaml"
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    try:
        doc = load_bytes(raw, path)
    except YamlError as exc:
        return exc
    return Case(path, doc, f"{case_id}.yaml", root=REAL_CORPUS)


@settings(max_examples=120, **SETTINGS)
@given(seed=st.sampled_from(SEED_CASES), changes=edits)
def test_mutated_case_text(corpus, reference, seed: str, changes) -> None:
    with alarm():
        case = case_from(text_mutation(seed_text(seed), changes), seed)
        if isinstance(case, YamlError):
            assert case.line >= 1 and len(str(case)) < 2000
            return
        problems = validate_case(case, corpus)
        check_problems(problems)
        if not problems:
            accepted_case_is_sound(case, corpus, reference)


@settings(max_examples=120, **SETTINGS)
@given(seed=st.sampled_from(SEED_CASES), pick=st.integers(min_value=0), value=nasty)
def test_mutated_case_data(corpus, reference, seed: str, pick: int, value) -> None:
    data = yaml.safe_load(seed_text(seed))
    paths = list(paths_of(data))
    mutated = replaced(data, paths[pick % len(paths)], value)
    text = flow(mutated)
    with alarm():
        case = case_from(text, seed)
        if isinstance(case, YamlError):
            return
        problems = validate_case(case, corpus)
        check_problems(problems)
        if not problems:
            accepted_case_is_sound(case, corpus, reference)


@pytest.fixture(scope="module")
def small_corpus(tmp_path_factory) -> CorpusBuilder:
    builder = CorpusBuilder(tmp_path_factory.mktemp("fuzz") / "cases")
    for case_id in SEED_CASES:
        builder.write(case_id, seed_text(case_id))
    return builder


@settings(max_examples=25, **SETTINGS)
@given(which=st.sampled_from(["cards/llanowar-elves.yaml", "cards/forest.yaml", "rulings.yaml"]), changes=edits,
       pick=st.integers(min_value=0), value=nasty, structural=st.booleans())
def test_mutated_card_and_rulings_files(small_corpus, which: str, changes, pick: int, value, structural: bool) -> None:
    target = small_corpus.root / which
    original = (REAL_CORPUS / which).read_text(encoding="utf-8")
    if structural:
        data = yaml.safe_load(original)
        paths = list(paths_of(data))
        text = flow(replaced(data, paths[pick % len(paths)], value))
    else:
        text = text_mutation(original, changes)
    target.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        with alarm():
            corpus = Corpus(small_corpus.root, cache=Cache(None))
            report = validate_corpus(corpus)
            check_problems(report.problems)
            for card in corpus.cards.values():
                assert plain_data_problem(card.data, "the card") is None or report.problems
    finally:
        shutil.copy(REAL_CORPUS / which, target)


@pytest.fixture(scope="module")
def played(corpus, reference):
    """A real case and the reference engine's real reply to it."""
    from harness.wire import engine_case

    case = next(c for c in validate_corpus(corpus).valid_cases if c.id == SEED_CASES[0])
    return case, reference.adapter.run(engine_case(case, corpus))


@settings(max_examples=200, **SETTINGS)
@given(pick=st.integers(min_value=0), value=nasty, wire=st.booleans())
def test_mutated_engine_replies(played, pick: int, value, wire: bool) -> None:
    case, reply = played
    paths = list(paths_of(reply))
    mutated = replaced(reply, paths[pick % len(paths)], value)
    with alarm():
        if wire:
            line = flow({"seq": 1, **mutated} if isinstance(mutated, dict) else mutated).replace(
                ".nan", "NaN").replace("-.inf", "-Infinity").replace(".inf", "Infinity").encode()
            try:
                mutated = decode(line)
            except (ValueError, RecursionError):
                return  # the session reports it as an error of the case (tests/test_honest_results.py)
            if isinstance(mutated, dict):
                mutated.pop("seq", None)
        result = judge(case, received(mutated, 1))
        assert isinstance(result, CaseResult)
        json.dumps(result.to_json(), allow_nan=False, default=str)
        if result.status is Status.PASS:
            assert plain_data_problem(mutated) is None
            assert not any(isinstance(v, float) and not math.isfinite(v) for v in _leaves(mutated))


def _leaves(value):
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        else:
            yield item
