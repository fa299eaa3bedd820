#!/usr/bin/env python3
"""A test bot that waits DELAY seconds (default 0.03) before each answer, the
first legal action, and appends the `clock` of each request (JSON, `null` when
none) to the file named by RECORD, when set; for the clock tests."""
import json, os, sys, time

delay = float(os.environ.get("DELAY", "0.03"))
record = open(os.environ["RECORD"], "a", buffering=1) if os.environ.get("RECORD") else None
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 2, "name": "slow"}), flush=True)
    elif m["type"] == "request":
        if record:
            record.write(json.dumps(m.get("clock")) + "\n")
        time.sleep(delay)
        print(json.dumps({"type": "action", "id": m["id"], "action": m["legal"][0]["action"]}), flush=True)
    elif m["type"] == "bye":
        break
