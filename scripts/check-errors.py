#!/usr/bin/env python3
"""Fails when a library crate reports errors as text (standard library only;
issue 53: library errors are types, anyhow only in the binaries).

Usage: scripts/check-errors.py

A library crate is every crate of crates/ but the binaries and edges named in
EDGES (the CLI, its subcommands and the Python extension, which may turn any
error into a message). For each library crate it reports, one line each
(`file:line what`):
- `anyhow` among its [dependencies] or [build-dependencies] in Cargo.toml;
- a `-> Result<T, String>` or `-> Result<T, &str>` outside test code in
  src/ (a function, a method, a closure or `Fn` type, a type alias), test code
  left out as check-function-length.py leaves it out (`#[cfg(test)]` modules,
  inline or in their own file, and `#[test]` functions).
"""
import importlib.util
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("check_length", ROOT / "scripts" / "check-function-length.py")
_length = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_length)

# The binaries and edges: they may use anyhow and return messages.
EDGES = {"tresillo-cli", "tresillo-commands", "tresillo-py"}

# Files whose `Result<_, String>` stays for now (paths from the repository root).
ARROW_RESULT = re.compile(r"->\s*(?:std::result::)?Result\s*<")
ALIAS_RESULT = re.compile(r"\btype\s+\w+(?:<[^=]*>)?\s*=\s*(?:std::result::)?Result\s*<")
TEXT = re.compile(r"^(?:String|std::string::String|&\s*(?:'\w+\s+)?str)$")


def type_args(code, start):
    """The top-level arguments of the `<...>` whose `<` is just before `start`."""
    depth, args, at = 1, [], start
    for i in range(start, len(code)):
        c = code[i]
        if c in "<([":
            depth += 1
        elif c in ">)]":
            # `->` inside the arguments (an `Fn(..) -> T`) is no bracket.
            if c == ">" and code[i - 1] == "-":
                continue
            depth -= 1
            if depth == 0:
                args.append(code[at:i])
                return [a.strip() for a in args]
        elif c == "," and depth == 1:
            args.append(code[at:i])
            at = i + 1
    return None


FN = re.compile(r"\bfn\s+(\w+)")


def function_at(code, at):
    """The name of the last `fn` that starts before `at` (the function a return type belongs to)."""
    names = [m.group(1) for m in FN.finditer(code, 0, at)]
    return names[-1] if names else ""


def text_results(code):
    """(offset, type) of each `Result<_, String>` or `Result<_, &str>` returned or aliased."""
    for pattern in (ARROW_RESULT, ALIAS_RESULT):
        for m in pattern.finditer(code):
            args = type_args(code, m.end())
            if args and len(args) == 2 and TEXT.match(re.sub(r"\s+", " ", args[1])):
                yield m.start(), args[1]


def library_crates():
    return sorted(p for p in (ROOT / "crates").iterdir() if (p / "Cargo.toml").exists() and p.name not in EDGES)


def anyhow_dependencies(crate):
    """(line, section) of each `anyhow` dependency outside [dev-dependencies]."""
    section = ""
    for n, line in enumerate((crate / "Cargo.toml").read_text(encoding="utf-8").splitlines(), 1):
        s = line.strip()
        if s.startswith("["):
            section = s
            continue
        if section in ("[dependencies]", "[build-dependencies]") and re.match(r"anyhow\b", s):
            yield n, section
        if re.match(r"\[(?:build-)?dependencies\.anyhow\]", s):
            yield n, s


def main():
    findings = []
    for crate in library_crates():
        manifest = (crate / "Cargo.toml").relative_to(ROOT)
        for line, section in anyhow_dependencies(crate):
            findings.append(f"{manifest}:{line} anyhow in {section}: a library crate's errors are types (thiserror)")
        files = sorted(crate.glob("src/**/*.rs"))
        texts = {p: p.read_text(encoding="utf-8") for p in files}
        tests = set()
        for p, raw in texts.items():
            tests |= _length.test_module_files(p, raw)
        for p, raw in texts.items():
            if p.resolve() in tests:
                continue
            code = _length.strip_comments(raw)
            skip = _length.test_spans(code)
            rel = str(p.relative_to(ROOT))
            for at, err in text_results(code):
                if any(a <= at < b for a, b in skip):
                    continue
                line = code.count("\n", 0, at) + 1
                name = function_at(code, at)
                text = f"{rel}:{line} {name} returns Result<_, {err}>: give the error a type (an enum, thiserror)"
                findings.append(text)
    for f in findings:
        print(f)
    if findings:
        sys.exit(f"check-errors: {len(findings)} finding(s): library crates report errors as types, anyhow only in "
                 f"{', '.join(sorted(EDGES))}")
    print("check-errors: no anyhow and no Result<_, String> in the library crates")


if __name__ == "__main__":
    main()
