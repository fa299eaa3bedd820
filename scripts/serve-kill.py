#!/usr/bin/env python3
"""Kill -9 test of `tresillo serve`: 20 games played at once through the HTTP API,
the server killed with SIGKILL while decisions are in flight, restarted on the
same records directory; every decision the server acknowledged must be in the
game's log at its place, every game must continue from there and play to its
end, and `tresillo replay` must reproduce every finished hand's record. Exit 0
when all holds. Usage:

    scripts/serve-kill.py [--games 20] [--binary target/release/tresillo]
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from serve_client import Client, binary_path, first_legal, start_server


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--binary", default=binary_path())
    ap.add_argument("--keep", action="store_true", help="keep the records directory")
    a = ap.parse_args()
    records = tempfile.mkdtemp(prefix="tresillo-kill-")
    proc, base = start_server(a.binary, records)
    c = Client(base)
    games = []
    # Every rule set the server offers at every table size (its /api/meta).
    tables = [(r["name"], p) for r in c.call("GET", "/api/meta", timed=False)[1]["rules"] for p in r["players"]]
    for i in range(a.games):
        rules, players = tables[i % len(tables)]
        t = c.create(rules=rules, players=players, seat=i % players, hands=3, seed=500 + i)
        games.append({"token": t, "acked": [], "seat": i % players})
    lock = threading.Lock()

    def play(g):
        cl = Client(base)
        try:
            v = cl.until_turn(g["token"])
            while v["status"] == "your_turn":
                s, nv = cl.decide(g["token"], v)
                if s != 200:
                    return
                with lock:
                    g["acked"].append((v["seq"], v["hand"], first_legal(v)))
                v = cl.until_turn(g["token"], nv)
        except Exception:  # noqa: BLE001 - the server was killed
            return

    threads = [threading.Thread(target=play, args=(g,), daemon=True) for g in games]
    for th in threads:
        th.start()
    t0 = time.monotonic()
    while time.monotonic() - t0 < 30:
        with lock:
            n = sum(len(g["acked"]) for g in games)
        if n >= 8 * a.games:
            break
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    with lock:
        acked = {g["token"]: list(g["acked"]) for g in games}
    print(f"killed after {sum(len(x) for x in acked.values())} acknowledged decisions in {a.games} games")
    failures = []
    for g in games:
        log = os.path.join(records, "games", g["token"] + ".jsonl")
        with open(log) as f:
            lines = f.read().split("\n")
        for seq, hand, dec in acked[g["token"]]:
            want = {"hand": hand, "seat": g["seat"], **dec}
            got = json.loads(lines[seq + 1]) if seq + 1 < len(lines) and lines[seq + 1] else None
            # The person's decision carries its timing (docs/SERVE.md, "Timing and behaviour").
            if got:
                for k in ("server_ms", "page_ms", "at"):
                    got.pop(k, None)
            if got != want:
                failures.append(f"{g['token']}: acknowledged decision {seq} {want} is not in the log (found {got})")
                break
    proc, base = start_server(a.binary, records)
    c = Client(base)
    over = 0
    for g in games:
        v = c.until_turn(g["token"])
        last = acked[g["token"]][-1][0] if acked[g["token"]] else -1
        if v["seq"] <= last:
            failures.append(f"{g['token']}: resumed at seq {v['seq']}, before acknowledged decision {last}")
            continue
        while v["status"] == "your_turn":
            s, v = c.decide(g["token"], v)
            if s != 200:
                failures.append(f"{g['token']}: decision refused after restart: {s} {v}")
                break
            v = c.until_turn(g["token"], v)
        if v["status"] == "over":
            over += 1
        rec = os.path.join(records, "records", g["token"] + ".jsonl")
        r = subprocess.run([a.binary, "replay", rec], capture_output=True, text=True)
        if r.returncode != 0:
            failures.append(f"{g['token']}: tresillo replay failed: {r.stderr.strip()}")
    proc.kill()
    proc.wait()
    print(f"after the restart {over} of {a.games} games played to their end; every record replays"
          if not failures else "")
    for f in failures:
        print(f"error: {f}", file=sys.stderr)
    if not a.keep:
        shutil.rmtree(records, ignore_errors=True)
    return 1 if failures or over != a.games else 0


if __name__ == "__main__":
    sys.exit(main())
