"""A fake external engine for the protocol tests: the reference engine over stdio that misbehaves in
one chosen way, only on the cases whose id contains MARKER (or at the handshake).

    python tests/fake_engine.py MODE [MARKER] [ARGUMENT]

Modes on a marked case: crash, hang, garbage, partial (an unterminated line, then hang),
partial-exit (an unterminated line, then exit), wrong-seq, slow (sleep ARGUMENT seconds, then
answer), stdout-log (a log line on stdout before the reply), bad-schema (a reply the schema
rejects), twice (the reply written twice), record (append each case received, and the reply
without its seq, to ARGUMENT.<pid>).
orphan (start a grandchild in a session of its own that holds stdout open and sleeps, write its pid
to ARGUMENT, then crash), stderr-flood (ARGUMENT megabytes on stderr in one line, then answer).
skip (answer skipped), nan (a NaN in the observed state), deep (a reply nested ARGUMENT deep, or 100,000),
duplicate-observation (the last observation twice), extra-observation (one after an action that is
not a checkpoint).
With FAKE_ENGINE_PIDS set, each engine process appends its pid to that file when it starts.
Modes at the handshake: bad-version, no-start, silent-start; crash-for-good crashes on a marked
case and can't start again afterwards (ARGUMENT: a file it creates).
Sleeps are far longer than the timeouts the tests use, so the tests can't be flaky.
"""

from __future__ import annotations

import json
import os
import sys
import time

from reference_engine.adapter import ReferenceEngine

FOREVER = 600.0


def log(text: str) -> None:
    print(f"fake engine: {text}", file=sys.stderr, flush=True)


def send(out, message) -> None:
    out.write(json.dumps(message) + "\n")
    out.flush()


def main() -> int:
    mode = sys.argv[1]
    marker = sys.argv[2] if len(sys.argv) > 2 else "\0"
    argument = sys.argv[3] if len(sys.argv) > 3 else ""
    out = sys.stdout
    engine = ReferenceEngine()
    log(f"started in mode {mode}")
    if os.environ.get("FAKE_ENGINE_PIDS"):
        with open(os.environ["FAKE_ENGINE_PIDS"], "a", encoding="utf-8") as pids:
            pids.write(f"{os.getpid()}\n")
    if mode == "no-start" or (mode == "crash-for-good" and os.path.exists(argument)):
        log("cannot find my card database")
        return 1
    for line in sys.stdin:
        message = json.loads(line)
        if message["cmd"] == "stop":
            return 0
        if message["cmd"] == "start":
            if mode == "silent-start":
                time.sleep(FOREVER)
            reply = engine.start(message)
            if mode == "bad-version":
                reply["version"] = 2
            send(out, reply)
            continue
        seq, case = message["seq"], message["case"]
        outcome = engine.run(case)
        if mode == "record":  # the case as received and the reply, byte for byte (dicts keep the wire's order)
            with open(f"{argument}.{os.getpid()}", "a", encoding="utf-8") as record:  # a file per process
                record.write(json.dumps({"case": case, "reply": outcome}) + "\n")
        reply = {"seq": seq, **outcome}
        if marker not in case["id"]:
            send(out, reply)
            continue
        log(f"misbehaving ({mode}) on {case['id']}")
        if mode in ("crash", "crash-for-good"):
            if mode == "crash-for-good":
                open(argument, "w").close()  # it won't start again
            os._exit(3)
        elif mode == "orphan":
            import subprocess

            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)
            with open(argument, "w", encoding="utf-8") as pid:
                pid.write(str(child.pid))
            os._exit(3)
        elif mode == "stderr-flood":
            sys.stderr.write("x" * (int(argument) * 1024 * 1024))
            sys.stderr.flush()
            send(out, reply)
        elif mode == "skip":
            send(out, {"seq": seq, "skipped": {"reason": "this engine runs nothing"}})
        elif mode == "nan":
            reply["result"]["observations"][-1]["state"]["unasked"] = float("nan")
            send(out, reply)
        elif mode == "deep":
            depth = int(argument or 100_000)
            text = json.dumps(reply)
            out.write(text[:-1] + ', "deep": ' + "[" * depth + "]" * depth + "}\n")
            out.flush()
        elif mode == "duplicate-observation":
            reply["result"]["observations"].append(reply["result"]["observations"][-1])
            send(out, reply)
        elif mode == "extra-observation":
            observations = reply["result"]["observations"]
            observations.append({**observations[-1], "after": observations[-1]["after"] + 5})
            send(out, reply)
        elif mode == "hang":
            time.sleep(FOREVER)
        elif mode == "garbage":
            out.write("this is not JSON\n")
            out.flush()
        elif mode in ("partial", "partial-exit"):
            out.write(json.dumps(reply)[:20])
            out.flush()
            if mode == "partial-exit":
                os._exit(4)
            time.sleep(FOREVER)
        elif mode == "wrong-seq":
            send(out, {**reply, "seq": seq + 1000})
        elif mode == "slow":
            time.sleep(float(argument))
            send(out, reply)
        elif mode == "stdout-log":
            out.write("INFO running the case\n")
            send(out, reply)
        elif mode == "bad-schema":
            reply["result"]["actions"] = [{"status": "okay"} for _ in reply["result"]["actions"]]
            send(out, reply)
        elif mode == "twice":
            send(out, reply)
            send(out, reply)
        else:
            send(out, reply)
    return 0


if __name__ == "__main__":
    sys.exit(main())
