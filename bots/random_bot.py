#!/usr/bin/env python3
"""A random bot: a legal action chosen uniformly, from the request's seed (so a
tournament with it is reproducible). Standard library only; see docs/PROTOCOL.md."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tresillo_bot import run  # noqa: E402


def choose(request, rng):
    return rng.choice(request["legal"])["action"]


if __name__ == "__main__":
    run("random-bot", choose)
