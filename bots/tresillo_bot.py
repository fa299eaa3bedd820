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

A bot with tunable options declares them, and its `choose` then takes a third
argument, the options' values (the defaults, or what the toolkit's spec sets
with `opt.NAME=V`):

    run("mine", choose, options={"aggr": {"type": "int", "min": 0, "max": 100, "default": 50}})
"""

import json
import random
import sys

PROTOCOL = 1


def run(name, choose, version="1", options=None):
    """Serve requests on standard input and output until `bye` or EOF."""
    out = sys.stdout
    values = {k: o["default"] for k, o in (options or {}).items()}
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            hello = {"type": "hello", "protocol": PROTOCOL, "name": name, "version": version}
            if options is not None:
                hello["options"] = [dict(name=k, **o) for k, o in options.items()]
                # The toolkit checks the values against this declaration.
                values.update(msg.get("bot_options", {}))
            out.write(json.dumps(hello) + "\n")
            out.flush()
        elif kind == "request":
            rng = random.Random(msg["seed"])
            action = choose(msg, rng, values) if options is not None else choose(msg, rng)
            out.write(json.dumps({"type": "action", "id": msg["id"], "action": action}) + "\n")
            out.flush()
        elif kind == "bye":
            return
        # "hand" and any message a later version adds need no answer.
