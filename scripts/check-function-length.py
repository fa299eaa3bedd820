#!/usr/bin/env python3
"""Fails on a function longer than a limit in the crates' library and binary code
(standard library only; issue 53: long functions are split into named steps).

Usage: scripts/check-function-length.py [LIMIT] [--all]   (LIMIT: 150 lines)

Scans crates/*/src/**/*.rs (not tests/, benches or examples). A function's length
is the lines from its `fn` to its closing brace, found by matching braces in the
code with comments, strings and character literals blanked (check-imports.py's
reader). Test code is left out: a `#[cfg(test)]` module, inline or in its own file
(`#[cfg(test)] mod tests;`, with or without `#[path]`), and a `#[cfg(test)]` or
`#[test]` function. Prints `file:line name N lines` for each function over the
limit, longest first, and exits 1 when there is one; `--all` lists every function
over the limit without failing (a survey).
"""
import importlib.util
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("check_imports", ROOT / "scripts" / "check-imports.py")
_imports = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_imports)
strip_comments = _imports.strip_comments

TEST_ATTR = re.compile(r"#\[(?:cfg\(test\)|test)\]")
FN = re.compile(r"\bfn\s+(\w+)")


def block_end(code, start):
    """The index just past the `}` matching the `{` at `start`."""
    depth = 0
    for i in range(start, len(code)):
        c = code[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
    return len(code)


def body_start(code, at):
    """The index of the `{` that opens the body of the item whose name ends at
    `at`, or None for a declaration without a body (`fn f();`, `mod m;`)."""
    depth = 0
    for i in range(at, len(code)):
        c = code[i]
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif depth == 0 and c == ";":
            return None
        elif depth == 0 and c == "{":
            return i
    return None


def test_spans(code):
    """(start, end) of each item marked `#[cfg(test)]` or `#[test]` that has a body."""
    spans = []
    for m in TEST_ATTR.finditer(code):
        item = re.compile(r"\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?(?:\w+\s+)*?(?:mod|fn|impl)\b").match(code, m.end())
        if not item:
            continue
        b = body_start(code, item.end())
        if b is not None:
            spans.append((m.start(), block_end(code, b)))
    return spans


def test_module_files(path, raw):
    """The files of modules that `path` declares under `#[cfg(test)]` (`mod x;`)."""
    out = set()
    here = path.parent if path.name in ("lib.rs", "main.rs", "mod.rs") else path.with_suffix("")
    for m in re.finditer(r"#\[cfg\(test\)\]\s*((?:#\[[^\]]*\]\s*)*)(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", raw):
        attrs, name = m.group(1), m.group(2)
        p = re.search(r"#\[path\s*=\s*\"([^\"]+)\"\]", attrs)
        if p:
            out.add((path.parent / p.group(1)).resolve())
        else:
            out.add((here / f"{name}.rs").resolve())
            out.add((here / name / "mod.rs").resolve())
    return out


def functions(path, code):
    """(line, name, lines) of every function of `code` outside test items."""
    skip = test_spans(code)
    for m in FN.finditer(code):
        if any(a <= m.start() < b for a, b in skip):
            continue
        b = body_start(code, m.end())
        if b is None:
            continue
        end = block_end(code, b)
        first = code.count("\n", 0, m.start()) + 1
        last = code.count("\n", 0, end - 1) + 1
        yield first, m.group(1), last - first + 1


def main():
    args = sys.argv[1:]
    survey = "--all" in args
    args = [a for a in args if a != "--all"]
    limit = int(args[0]) if args else 150
    files = sorted(p for p in (ROOT / "crates").glob("*/src/**/*.rs"))
    texts = {p: p.read_text(encoding="utf-8") for p in files}
    tests = set()
    for p, raw in texts.items():
        tests |= test_module_files(p, raw)
    long = []
    for p, raw in texts.items():
        if p.resolve() in tests:
            continue
        code = strip_comments(raw)
        if code.count("\n") != raw.count("\n"):
            sys.exit(f"error: {p}: the reader lost lines; fix check-imports.py's strip_comments")
        for line, name, n in functions(p, code):
            if n > limit:
                long.append((n, f"{p.relative_to(ROOT)}:{line} {name} {n} lines"))
    for _, text in sorted(long, key=lambda x: (-x[0], x[1])):
        print(text)
    if long and not survey:
        sys.exit(f"check-function-length: {len(long)} function(s) over {limit} lines: split them into named steps")
    if not long:
        print(f"check-function-length: no function over {limit} lines in {len(files)} files")


if __name__ == "__main__":
    main()
