"""A client helper for bots speaking the tresillo protocol (docs/PROTOCOL.md),
standard library only. A bot is a function from a request to an action id:

    from tresillo_bot import run

    def choose(request, rng):
        return request["legal"][0]["action"]

    run("first-legal", choose)

`request` is the toolkit's request message as a dict (the seat's view and the
legal actions, each with its id and words); `rng` is a random.Random seeded
from the request's seed, so a bot that draws only from it is deterministic and
a tournament with it reproducible. The helper answers the greeting, ignores the
messages a bot need not answer, and exits at `bye` or at the end of its input.
"""

import json
import random
import sys

PROTOCOL = 1


def run(name, choose, version="1"):
    """Serve requests on standard input and output until `bye` or EOF."""
    out = sys.stdout
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            out.write(json.dumps({"type": "hello", "protocol": PROTOCOL, "name": name, "version": version}) + "\n")
            out.flush()
        elif kind == "request":
            action = choose(msg, random.Random(msg["seed"]))
            out.write(json.dumps({"type": "action", "id": msg["id"], "action": action}) + "\n")
            out.flush()
        elif kind == "bye":
            return
        # "hand" and any message a later version adds need no answer.
