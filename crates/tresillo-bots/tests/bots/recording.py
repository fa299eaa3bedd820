#!/usr/bin/env python3
"""A test bot that plays like bots/random_bot.py and appends every line it reads
and writes to the file named by RECORD (for the schema test); with AUTO_SINGLE
set, its greeting asks for `auto_single`; with PUBLIC set, it speaks protocol 2
and asks for the public state (`public`)."""
import json, os, random, sys
# Line by line (one write each), so that two recording bots of one run can share the file.
log = open(os.environ["RECORD"], "a", buffering=1)
for line in sys.stdin:
    log.write(line)
    m = json.loads(line)
    out = None
    if m["type"] == "hello":
        out = {"type": "hello", "protocol": 1, "name": "recording", "version": "1",
               "options": [{"name": "x", "type": "int", "min": 0, "max": 3, "default": 0}]}
        if os.environ.get("AUTO_SINGLE"):
            out["auto_single"] = True
        if os.environ.get("PUBLIC"):
            out["protocol"] = 2
            out["public"] = True
    elif m["type"] == "request":
        out = {"type": "action", "id": m["id"], "action": random.Random(m["seed"]).choice(m["legal"])["action"]}
    elif m["type"] == "bye":
        break
    if out is not None:
        text = json.dumps(out)
        log.write(text + "\n")
        print(text, flush=True)
log.close()
