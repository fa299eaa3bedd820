#!/usr/bin/env python3
"""A test bot that misbehaves on request: FAULT=crash|hang|garbage|illegal|wrongid|
badjson|oversize|partial|extra|slow|silent|dead after AFTER requests (default 20);
otherwise the first legal action. slow: every answer takes SLOW_MS (default 40)
milliseconds; silent: never greets; dead: exits before greeting."""
import json, os, sys, time
fault = os.environ.get("FAULT", "")
after = int(os.environ.get("AFTER", "20"))
n = 0
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        if fault == "dead":
            sys.exit(1)
        if fault == "silent":
            time.sleep(60)
        print(json.dumps({"type": "hello", "protocol": 1, "name": "faulty"}), flush=True)
    elif m["type"] == "request":
        n += 1
        if fault == "slow":
            time.sleep(int(os.environ.get("SLOW_MS", "40")) / 1000)
        if n > after:
            if fault == "crash":
                sys.exit(3)
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
        break
