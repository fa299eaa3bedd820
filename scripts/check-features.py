#!/usr/bin/env python3
"""Checks that the workspace's builds resolve every shared dependency with the same
features (crates/tresillo-unify explains why): the command line
(`cargo build -p tresillo-cli`), the example of tresillo-runs (`cargo run -p
tresillo-runs --example own_agent`, dev-dependencies included) and the Python
extension (maturin builds tresillo-py), and the tests (`cargo test --workspace
--release`, CI's one release build, dev-dependencies included). A dependency whose
features differ between two of them is built twice in release, and through
serde_derive or serde the whole tree is.

Usage: scripts/check-features.py   (exit 1, naming each crate that differs)
"""
import subprocess
import sys

BUILDS = {
    "tresillo-cli": ["-p", "tresillo-cli", "-e", "normal,build"],
    "the own_agent example": ["-p", "tresillo-runs", "-e", "normal,dev,build"],
    "tresillo-py": ["-p", "tresillo-py", "-e", "normal,build"],
    "the tests (cargo test --workspace)": ["--workspace", "-e", "normal,dev,build"],
}


def features(args):
    out = subprocess.run(
        ["cargo", "tree", "--locked", *args, "-e", "features", "-f", "{p} {f}", "--prefix", "none"],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        sys.exit(f"error: cargo tree {' '.join(args)}: {out.stderr.strip().splitlines()[-1]}")
    found = {}
    for line in out.stdout.splitlines():
        parts = line.replace(" (*)", "").split(" ")
        if len(parts) < 2 or not parts[1].startswith("v") or parts[0].startswith("tresillo"):
            continue
        f = parts[2] if len(parts) > 2 and not parts[2].startswith("(") else ""
        found.setdefault(f"{parts[0]} {parts[1]}", set()).add(f)
    return found


def main():
    graphs = {name: features(args) for name, args in BUILDS.items()}
    first, base = next(iter(graphs.items()))
    bad = 0
    for name, g in list(graphs.items())[1:]:
        for k in sorted(set(base) & set(g)):
            if base[k] != g[k]:
                bad += 1
                print(f"{k}: {first} builds it with {sorted(base[k])}, {name} with {sorted(g[k])}")
    if bad:
        sys.exit(f"check-features: {bad} shared dependencies with other features: add them to crates/tresillo-unify")
    print(f"check-features: {len(graphs)} builds share every dependency's features")


if __name__ == "__main__":
    main()
