"""Protocol v1: the messages match their schemas, the reference engine over stdio gets exactly the
results it gets in process, and a handshake that goes wrong is a clear error (exit 2)."""

import json

import pytest

from harness.cli import main
from harness.engines import InProcessSession, open_engine
from harness.protocol import STOP, ProtocolError, read_start_reply, run_command, schema_problems, start_command
from harness.results import Status
from harness.runner import run_case
from harness.session import EngineError
from harness.validation import validate_corpus
from harness.wire import engine_case
from reference_engine.adapter import ReferenceEngine
from tests.conftest import comparable, elves_case, fake_engine, wire_engine


def json_report(capsys, tmp_path, *args: str) -> tuple[int, dict, str]:
    output = tmp_path / "report.json"
    code = main(["run", *args, "--format", "json", "--output", str(output)])
    err = capsys.readouterr().err
    return code, json.loads(output.read_text()) if output.exists() else {}, err


def test_every_message_the_harness_sends_matches_its_schema(real_corpus) -> None:
    assert schema_problems("start", start_command()) == []
    assert schema_problems("stop", STOP) == []
    cases = validate_corpus(real_corpus).valid_cases
    assert cases
    for seq, case in enumerate(cases, 1):
        assert schema_problems("run", run_command(seq, engine_case(case, real_corpus))) == [], case.id


def test_the_reference_engine_answers_valid_messages(real_corpus) -> None:
    engine = ReferenceEngine()
    assert schema_problems("start-reply", engine.start(start_command())) == []
    for seq, case in enumerate(validate_corpus(real_corpus).valid_cases, 1):
        reply = {"seq": seq, **engine.run(engine_case(case, real_corpus))}
        assert schema_problems("run-reply", reply) == [], case.id


def test_whole_corpus_over_stdio_equals_in_process(capsys, tmp_path) -> None:
    code_in, in_process, _ = json_report(capsys, tmp_path, "--engine", "reference")
    code_wire, wire, _ = json_report(capsys, tmp_path, "--engine", wire_engine("reference_engine"), "--strict")
    assert code_in == code_wire == 0
    assert in_process["summary"]["pass"] == len(in_process["cases"]) > 30
    assert comparable(wire) == comparable(in_process)


def test_schema_problems_name_the_place_and_suggest_the_key() -> None:
    reply = {"seq": 1, "result": {"actions": [{"status": "okay"}], "observations": [
        {"after": 0, "state": {"objects": [{"tappd": True, "x-engine-id": 7}]}}]}}
    problems = schema_problems("run-reply", reply)
    assert "$.result.actions[0].status: 'okay' is not allowed here (did you mean 'ok'?)" in problems
    assert "$.result.observations[0].state.objects[0]: unknown key 'tappd' (did you mean 'tapped'?)" in problems
    assert not any("x-engine-id" in p for p in problems)  # extensions are allowed


@pytest.mark.parametrize("reply, message", [
    ({"version": 2, "engine": {"name": "e", "version": "1"}, "capabilities": []},
     "the engine speaks protocol version 2; this harness speaks version 1 (upgrade mtg-conformance"),
    ({"name": "e", "version": "1.0", "capabilities": []}, "the start reply is flat: put name, version"),
    ({"version": 1, "capabilities": []}, "the start reply needs 'engine'"),
    ({"version": 1, "engine": {"name": "e", "version": "1"}}, "needs 'capabilities'"),
    ([], "the start reply is a list, not an object"),
])
def test_bad_start_replies_are_explained(reply, message) -> None:
    with pytest.raises(ProtocolError) as info:
        read_start_reply(reply)
    assert message in str(info.value)


def test_strict_start_reply_needs_a_homepage_or_issue_tracker() -> None:
    with pytest.raises(ProtocolError) as info:
        read_start_reply({"version": 1, "engine": {"name": "e", "version": "1"}, "capabilities": []}, strict=True)
    assert "schema/protocol/start-reply.json" in str(info.value)


def test_version_mismatch_over_the_wire_is_a_clear_error(capsys) -> None:
    code = main(["run", "-k", "tap-ability-summoning-sick", "--engine", fake_engine("bad-version")])
    err = capsys.readouterr().err
    assert code == 2
    assert "speaks protocol version 2; this harness speaks version 1" in err
    assert "Traceback" not in err


def test_engine_that_dies_before_the_handshake_shows_its_stderr(capsys) -> None:
    code = main(["run", "-k", "tap-ability-summoning-sick", "--engine", fake_engine("no-start")])
    err = capsys.readouterr().err
    assert code == 2
    assert "exited with status 1 before answering the start command" in err
    assert "| fake engine: cannot find my card database" in err


def test_engine_silent_at_start_times_out(capsys) -> None:
    code = main(["run", "-k", "tap-ability-summoning-sick", "--engine", fake_engine("silent-start"),
                 "--start-timeout", "2"])
    err = capsys.readouterr().err
    assert code == 2
    assert "no answer to the start command within 2s (--start-timeout)" in err


@pytest.mark.parametrize("engine, message", [
    ("cmd:no-such-engine-binary --flag", "can't start 'no-such-engine-binary': No such file or directory (is it"),
    ("cmd:java -jar 'unclosed.jar", "can't read the command line \"java -jar 'unclosed.jar\": No closing quotation"),
    ("cmd:  ", "no command line after 'cmd:'"),
])
def test_bad_command_lines_are_clear_errors(capsys, engine, message) -> None:
    code = main(["run", "--engine", engine])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and "Traceback" not in err


def test_any_registered_engine_can_be_served_over_stdio(real_corpus) -> None:
    session = open_engine(wire_engine("harness.serve", "mutant:summoning-sickness-ignored"), strict=True)
    try:
        assert session.info["name"] == "reference~summoning-sickness-ignored"
        case = real_corpus.load_case(real_corpus.root / "general" / "tap-ability-summoning-sick.yaml")
        assert run_case(case, session, real_corpus).status is Status.FAIL
    finally:
        session.close()
    assert session.exit == (0, False)  # it exited by itself on stop


def test_in_process_strict_checks_the_same_messages(corpus_builder) -> None:
    class Sloppy:
        def start(self, request):
            return {"version": 1, "engine": {"name": "sloppy", "version": "0", "homepage": "https://example.org"},
                    "capabilities": ["mana-abilities"]}

        def run(self, case):
            return {"result": {"actions": [{"status": "okay"}], "observations": []}}

        def stop(self):
            pass

    path = corpus_builder.write("demo/elves", elves_case())
    corpus = corpus_builder.corpus()
    case = corpus.load_case(path)
    lenient = run_case(case, InProcessSession("sloppy", Sloppy()), corpus)
    strict = run_case(case, InProcessSession("sloppy", Sloppy(), strict=True), corpus)
    assert lenient.status is not Status.PASS
    assert strict.status is Status.ERROR
    assert "schema/protocol/run-reply.json" in strict.message and "$.result.actions[0].status" in strict.message


def test_in_process_engine_with_a_flat_start_reply_is_told_how_to_fix_it() -> None:
    class Old:
        def start(self, request):
            return {"name": "old", "version": "1", "capabilities": []}

        def run(self, case):
            return {}

        def stop(self):
            pass

    with pytest.raises(EngineError, match="flat"):
        InProcessSession("old", Old())


def test_the_stdio_loop_answers_each_command_once() -> None:
    import io
    import sys

    from engine_kit.stdio import serve

    commands = io.BytesIO(b'{"cmd": "start", "version": 1}\n\nnot json\n{"cmd": "dance", "seq": 4}\n'
                          b'{"cmd": "dance"}\n{"cmd": "stop"}\n{"cmd": "start", "version": 1}\n')
    replies = io.StringIO()
    stdout = sys.stdout
    assert serve(ReferenceEngine(), commands, replies) == 0
    assert sys.stdout is stdout
    lines = [json.loads(line) for line in replies.getvalue().splitlines()]
    assert [sorted(line) for line in lines] == [["capabilities", "engine", "version"], ["errored", "seq"]]
    assert lines[1] == {"seq": 4, "errored": {"message": "unknown command 'dance'"}}
