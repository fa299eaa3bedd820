#!/usr/bin/env python3
"""A test bot that misbehaves on request: FAULT=crash|hang|garbage|illegal|wrongid|
badjson|oversize|partial|extra|slow|silent|dead after AFTER requests (default 20);
otherwise the first legal action. slow: every answer takes SLOW_MS (default 40)
milliseconds; silent: never greets; dead: exits before greeting.

Faults about processes (issue 35): fork: starts a child that sleeps (and holds
the bot's output) at the greeting, then plays; forkcrash: after AFTER requests
starts such a child and exits; noeof: ignores `bye` and the end of its input and
keeps running; linger: keeps running after `bye`. handcrash: exits at the first
request of its hand HAND (the `hand` message's number). With PIDS=DIR, each
process writes its pid to a file of that directory, for the tests to find.
NAME: the name its greeting declares (default faulty); VERSION: the version it
declares (none by default). `--log PATH` on its command line: a log it appends a
line to at each hand (other arguments are labels the tests find it by)."""
import json, os, signal, sys, time
fault = os.environ.get("FAULT", "")
after = int(os.environ.get("AFTER", "20"))
pids = os.environ.get("PIDS", "")


def note_pid():
    if pids:
        os.makedirs(pids, exist_ok=True)
        open(os.path.join(pids, str(os.getpid())), "w").close()


def fork_sleeper():
    if os.fork() == 0:
        note_pid()
        time.sleep(600)
        os._exit(0)


def forever():
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        time.sleep(600)


note_pid()
n = 0
hand = 0
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        if fault == "dead":
            sys.exit(1)
        if fault == "silent":
            time.sleep(60)
        if fault == "fork":
            fork_sleeper()
        name = os.environ.get("NAME", "faulty")
        greeting = {"type": "hello", "protocol": 1, "name": name}
        if os.environ.get("VERSION"):
            greeting["version"] = os.environ["VERSION"]
        print(json.dumps(greeting), flush=True)
    elif m["type"] == "hand":
        hand = m["hand"]
        if "--log" in sys.argv[1:-1]:
            with open(sys.argv[sys.argv.index("--log") + 1], "a") as log:
                log.write(f"hand {hand}\n")
    elif m["type"] == "request":
        n += 1
        if fault == "slow":
            time.sleep(int(os.environ.get("SLOW_MS", "40")) / 1000)
        if fault == "handcrash" and hand >= int(os.environ.get("HAND", "1")):
            sys.exit(3)
        if n > after:
            if fault == "crash":
                sys.exit(3)
            if fault == "forkcrash":
                fork_sleeper()
                os._exit(3)
            if fault == "hang":
                time.sleep(60)
            if fault == "garbage":
                sys.stdout.buffer.write(b"\x00\xff not json\n"); sys.stdout.flush(); continue
            if fault == "illegal":
                print(json.dumps({"type": "action", "id": m["id"], "action": 999}), flush=True); continue
            if fault == "badjson":
                print('{"type": "action", "id": ', flush=True); continue
            if fault == "oversize":
                sys.stdout.write("x" * (1 << 21) + "\n"); sys.stdout.flush(); continue
            if fault == "partial":
                sys.stdout.write('{"type": "act'); sys.stdout.flush(); sys.exit(0)
            if fault == "extra":
                print(json.dumps({"type": "action", "id": m["id"], "action": m["legal"][0]["action"]}), flush=True)
            if fault == "wrongid":
                print(json.dumps({"type": "action", "id": m["id"] + 7, "action": m["legal"][0]["action"]}), flush=True); continue
        print(json.dumps({"type": "action", "id": m["id"], "action": m["legal"][0]["action"]}), flush=True)
    elif m["type"] == "bye":
        if fault == "linger":
            forever()
        if fault != "noeof":
            break
if fault == "noeof":
    forever()
