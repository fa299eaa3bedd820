#!/usr/bin/env python3
"""Load test of `tresillo serve` on the loopback address only: TABLES tables
played at once through the HTTP API against `rule` opponents (each a person who
answers at once with the first legal choice), bounded by --hands per table and
--max-seconds. Prints the 50th/99th percentile response times of the requests
(game creation, views, decisions; long polls that wait for bots are not counted)
as the client saw them and as the server timed them (`tresillo serve --stats`,
GET /api/stats), the server's peak resident memory and CPU. Usage:

    scripts/serve-load.py [--tables 100] [--hands 2] [--procs 1] [--binary target/release/tresillo]
    scripts/serve-load.py --client rust [--rust-client target/release/examples/serve_load]

`--client rust` plays the same scenario with the Rust client
(crates/tresillo-server/examples/serve_load.rs: blocking threads, keep-alive
connections; built with `cargo build --release -p tresillo-server --example
serve_load`), which takes a fraction of the Python client's CPU.
"""

import argparse
import json
import multiprocessing
import subprocess
import os
import shutil
import sys
import tempfile
import threading
import time

from serve_client import Client, binary_path, percentile, rss_kib, start_server
import urllib.request


def server_cpu(pid):
    """The process's user + system CPU seconds from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_tables(base, indices, a, deadline):
    """Plays the tables `indices` at once, one thread each; returns the request
    times, the errors and the tables finished."""
    clients, errors, done = [], [], []

    def table(i):
        c = Client(base)
        clients.append(c)
        try:
            t = c.create(rules=a.rules, seat=i % 3, hands=a.hands, seed=1000 + i, opponents=["rule", "rule"])
            v = c.until_turn(t)
            while v["status"] == "your_turn" and time.monotonic() < deadline:
                if a.think_ms:
                    time.sleep(a.think_ms / 1000)
                s, v = c.decide(t, v)
                if s != 200:
                    raise RuntimeError(f"decision refused: {s} {v}")
                v = c.until_turn(t, v)
            if v["status"] != "over":
                raise RuntimeError(f"table {i} ended {v['status']}")
            done.append(i)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(f"table {i}: {e}")

    threads = [threading.Thread(target=table, args=(i,)) for i in indices]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return [x for c in clients for x in c.times], errors, done, sum(c.polls for c in clients)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--hands", type=int, default=2)
    ap.add_argument("--rules", default="tresillo")
    ap.add_argument("--max-seconds", type=float, default=300)
    ap.add_argument("--think-ms", type=float, default=0, help="each person waits this long before deciding")
    ap.add_argument("--procs", type=int, default=1, help="client processes the tables are spread over")
    ap.add_argument("--dir", default=None, help="where the records folder is made (e.g. /dev/shm: no disk fsync)")
    ap.add_argument("--binary", default=binary_path())
    ap.add_argument("--client", choices=["python", "rust"], default="python")
    ap.add_argument("--rust-client", default="target/release/examples/serve_load")
    ap.add_argument("--threads", type=int, default=None, help="the server's --threads")
    a = ap.parse_args()
    if a.client == "rust" and not os.path.exists(a.rust_client):
        sys.exit(f"error: {a.rust_client} not found: cargo build --release -p tresillo-server --example serve_load")
    records = tempfile.mkdtemp(prefix="tresillo-load-", dir=a.dir)
    # Every table is created from this one address: no per-address limit.
    extra = ["--stats", "--games-per-minute", "0"] + ([] if a.threads is None else ["--threads", str(a.threads)])
    proc, base = start_server(a.binary, records, extra)
    peak = [rss_kib(proc.pid) or 0]
    stop = threading.Event()

    def sample():
        while not stop.wait(0.1):
            peak[0] = max(peak[0], rss_kib(proc.pid) or 0)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    t0 = time.monotonic()
    deadline = t0 + a.max_seconds
    if a.client == "rust":
        cmd = [a.rust_client, base, "--tables", str(a.tables), "--hands", str(a.hands),
               "--think-ms", str(a.think_ms), "--rules", a.rules, "--max-seconds", str(a.max_seconds)]
        r = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
        out = json.loads(r.stdout)
        times = [t / 1000 for t in out["times_ms"]]
        errors, done, polls = out["errors"], list(range(out["done"])), out["polls"]
        mine = os.times()
        client_cpu = mine.children_user + mine.children_system
    elif a.procs == 1:
        times, errors, done, polls = run_tables(base, range(a.tables), a, deadline)
        mine = os.times()
        client_cpu = mine.user + mine.system
    else:
        # Tables spread over client processes (one GIL each): the client's own
        # queueing kept out of the server's response times.
        with multiprocessing.get_context("fork").Pool(a.procs) as pool:
            parts = pool.starmap(run_tables, [(base, range(p, a.tables, a.procs), a, deadline) for p in range(a.procs)])
        times = [x for p in parts for x in p[0]]
        errors = [x for p in parts for x in p[1]]
        done = [x for p in parts for x in p[2]]
        polls = sum(p[3] for p in parts)
        mine = os.times()
        client_cpu = mine.user + mine.system + mine.children_user + mine.children_system
    wall = time.monotonic() - t0
    stop.set()
    cpu = server_cpu(proc.pid)
    with urllib.request.urlopen(base + "/api/stats", timeout=10) as r:
        stats = json.loads(r.read())
    proc.kill()
    proc.wait()
    shutil.rmtree(records, ignore_errors=True)
    print(f"{len(done)} of {a.tables} tables played {a.hands} hand(s) each in {wall:.1f} s; {len(times)} requests timed, {polls} long polls")
    print(f"response time p50 {percentile(times, 50) * 1000:.1f} ms, p99 {percentile(times, 99) * 1000:.1f} ms, "
          f"max {max(times) * 1000:.1f} ms")
    print(f"server peak RSS {peak[0] / 1024:.1f} MiB; CPU seconds: server {cpu:.1f}, "
          f"this client {client_cpu:.1f} (of {wall * os.cpu_count():.1f} on {os.cpu_count()} cores)")
    def line(name):
        h = stats[name]
        return (f"{name} {h['count']}: p50 {h['p50_ms']:.2f} ms, p99 {h['p99_ms']:.2f} ms, "
                f"max {h['max_ms']:.2f} ms")
    print("server side: " + "; ".join(line(n) for n in ("requests", "decisions", "views")))
    print("server side: " + "; ".join(line(n) for n in ("fsync", "lock_wait", "blocking_wait", "polls")))
    print(f"load average {open('/proc/loadavg').read().split()[0]} after the run")
    for e in errors[:5]:
        print(f"error: {e}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
