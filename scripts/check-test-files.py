#!/usr/bin/env python3
"""Every Rust file under a crate's tests/ is compiled by some test binary.

A package that sets `autotests = false` (most of ours: one `tests/suite.rs`
binary per crate instead of one binary per file) compiles only the `[[test]]`
targets its Cargo.toml declares, so a new file in tests/ that nobody declares is
silently never run. This script fails for such a file:

- a top-level `tests/NAME.rs` of an `autotests = false` package must be a
  `[[test]]` path, or a `mod NAME;` of one of the package's test roots;
- a file beside a test root in a folder of its own (`tests/cli/main.rs` and
  `tests/cli/NAME.rs`) must be a `mod NAME;` of a file in that folder.

Folders of helpers without a root of their own (`tests/common/`, declared by a
`mod common;`) are reached through that declaration and not checked further.

Usage: python3 scripts/check-test-files.py [--self-test]
"""

import re
import sys
import tempfile
import tomllib
from pathlib import Path

MOD = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+([A-Za-z_][A-Za-z0-9_]*)\s*;", re.M)


def declared_mods(files):
    """The module names declared (`mod NAME;`) by any of `files`."""
    names = set()
    for f in files:
        names.update(MOD.findall(f.read_text(encoding="utf-8")))
    return names


def check_crate(crate):
    """The files of `crate`'s tests/ that no test binary compiles, as strings."""
    tests = crate / "tests"
    if not tests.is_dir():
        return []
    manifest = tomllib.loads((crate / "Cargo.toml").read_text(encoding="utf-8"))
    auto = manifest.get("package", {}).get("autotests", True)
    roots = [crate / t["path"] for t in manifest.get("test", []) if "path" in t]
    if auto:
        roots += sorted(tests.glob("*.rs")) + sorted(tests.glob("*/main.rs"))
    missing = []
    if not auto:
        mods = declared_mods(r for r in roots if r.parent == tests)
        for f in sorted(tests.glob("*.rs")):
            if f not in roots and f.stem not in mods:
                missing.append(f"{f}: neither a [[test]] of {crate / 'Cargo.toml'} nor a `mod {f.stem};` of a test root")
    for root in roots:
        if root.name != "main.rs" or root.parent == tests or not root.is_file():
            continue
        folder = root.parent
        mods = declared_mods(sorted(folder.glob("*.rs")))
        for f in sorted(folder.glob("*.rs")):
            if f != root and f.stem not in mods:
                missing.append(f"{f}: no `mod {f.stem};` in {folder}")
    return missing


def check(root):
    missing = []
    for manifest in sorted(root.glob("crates/*/Cargo.toml")):
        missing += check_crate(manifest.parent)
    return missing


def self_test():
    """The check fails on a stray file and passes once it is declared."""
    with tempfile.TemporaryDirectory() as d:
        crate = Path(d) / "crates" / "x"
        (crate / "tests" / "cli").mkdir(parents=True)
        (crate / "Cargo.toml").write_text(
            '[package]\nname = "x"\nautotests = false\n\n'
            '[[test]]\nname = "suite"\npath = "tests/suite.rs"\n\n'
            '[[test]]\nname = "cli"\npath = "tests/cli/main.rs"\n'
        )
        (crate / "tests" / "suite.rs").write_text("mod a;\n")
        (crate / "tests" / "a.rs").write_text("")
        (crate / "tests" / "cli" / "main.rs").write_text("mod b;\n")
        (crate / "tests" / "cli" / "b.rs").write_text("")
        assert check(Path(d)) == [], check(Path(d))
        (crate / "tests" / "stray.rs").write_text("")
        (crate / "tests" / "cli" / "stray2.rs").write_text("")
        found = check(Path(d))
        assert len(found) == 2 and "stray.rs" in found[0] and "stray2.rs" in found[1], found
        (crate / "tests" / "suite.rs").write_text("mod a;\nmod stray;\n")
        (crate / "tests" / "cli" / "main.rs").write_text("mod b;\nmod stray2;\n")
        assert check(Path(d)) == [], check(Path(d))


def main():
    self_test()
    root = Path(__file__).resolve().parent.parent
    missing = check(root)
    for m in missing:
        print(f"check-test-files: {m}".replace(f"{root}/", ""), file=sys.stderr)
    if missing:
        sys.exit(1)
    crates = len(list(root.glob("crates/*/tests")))
    print(f"check-test-files: every file of {crates} crates' tests/ is compiled by a test binary")


if __name__ == "__main__":
    if sys.argv[1:] not in ([], ["--self-test"]):
        sys.exit("usage: check-test-files.py [--self-test]")
    main()
