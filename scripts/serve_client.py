"""A small client of `tresillo serve`'s JSON API (docs/SERVE.md), standard library
only: start the server, create games, answer with the first legal choice. Used by
serve-load.py, serve-kill.py and serve-browser.py."""

import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request


def start_server(binary, records, extra=(), addr="127.0.0.1:0"):
    """Starts `tresillo serve` on `addr` (a free loopback port by default);
    returns (process, base URL)."""
    proc = subprocess.Popen(
        [binary, "serve", "--addr", addr, "--records", records, *extra],
        stdout=subprocess.PIPE,
        stderr=sys.stderr,
        text=True,
    )
    line = proc.stdout.readline()
    m = re.search(r"(http://127\.0\.0\.1:\d+)/", line)
    if not m:
        proc.kill()
        sys.exit(f"error: tresillo serve did not say its URL (got {line!r})")
    return proc, m.group(1)


class Client:
    """HTTP calls with their response times (seconds) kept in `times`."""

    def __init__(self, base):
        self.base = base
        self.times = []
        self.polls = 0

    def call(self, method, path, body=None, timed=True):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        t = time.perf_counter()
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                out = (r.status, json.loads(r.read()))
        except urllib.error.HTTPError as e:
            out = (e.code, json.loads(e.read() or b"null"))
        if timed:
            self.times.append(time.perf_counter() - t)
        else:
            self.polls += 1
        return out

    def create(self, **game):
        s, v = self.call("POST", "/api/games", game)
        if s != 201:
            raise RuntimeError(f"creating a game: {s} {v}")
        return v["token"]

    def view(self, token, wait=None):
        q = "" if wait is None else f"?wait={wait}"
        s, v = self.call("GET", f"/api/games/{token}{q}", timed=wait is None)
        if s != 200:
            raise RuntimeError(f"view of {token}: {s} {v}")
        return v

    def until_turn(self, token, v=None):
        """Long polls until it is the person's turn or the game is over."""
        v = v or self.view(token)
        while v["status"] in ("thinking", "waiting"):
            v = self.view(token, wait=v["version"])
        return v

    def decide(self, token, v, decision=None):
        d = decision or first_legal(v)
        return self.call("POST", f"/api/games/{token}/decisions", {"seq": v["seq"], "decision": d})


def first_legal(v):
    """The first choice offered, the first legal card, or the smallest discard."""
    r = v["request"]
    if r["kind"] == "play":
        return {"play": r["legal"][0]}
    if r["kind"] == "discard":
        return {"discard": " ".join(v["view"]["hand"][: r["discard"]["min"]])}
    return r["choices"][0]["decision"]


def percentile(xs, p):
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = min(len(xs) - 1, max(0, int(round(p / 100 * len(xs) + 0.5)) - 1))
    return xs[k]


def rss_kib(pid):
    """The process's resident set (VmRSS, KiB) from /proc, or None."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def binary_path():
    return os.environ.get("TRESILLO", "target/release/tresillo")
