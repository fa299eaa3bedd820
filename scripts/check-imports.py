#!/usr/bin/env python3
"""Fails on an import circle between the modules of a crate (standard library only).

Usage: scripts/check-imports.py [--graph] [CRATE_DIR ...]   (default: crates/*)

A module is a source file: `src/hand.rs` is `hand`, `src/hand/hombre.rs` is
`hand::hombre`, `src/lib.rs` and `src/main.rs` are the crate root. A module depends
on another when its code names it (directly, or through a name the crate root
re-exports: `crate::X` counts as the module that defines `X`): `use crate::a::b`, `use super::x`, a path
`crate::a::Item` in an expression or type, `mod_name::item` after `use crate::mod_name`
(doc comments and `//` comments are left out; `#[cfg(test)] mod tests` blocks count,
as tests import downward too). A path is resolved to the longest module it names.
A module naming its own descendants (a parent's `mod child;` and calls into it) is an
edge like any other, so a parent and a child that name each other are a circle. The
crate root is left out: it declares and re-exports every module.

Prints every circle (each strongly connected component of more than one module) with
the lines behind its edges, and exits 1 when there is one; `--graph` prints every
edge too.

Also checks the layers of the crates (their [dependencies] in Cargo.toml, followed
transitively): each crate of `BELOW` reaches none of the crates it names, so that
the durable-file crate stays at the bottom and the study and the server do not pull
in the run library, the bots or the learned models (issue 53).
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROOTS = {"lib.rs", "main.rs"}


def modules(src):
    """Module path (tuple) -> file, for every .rs file under src (not bins/ tests)."""
    out = {}
    for f in sorted(src.rglob("*.rs")):
        rel = f.relative_to(src)
        if rel.parts[0] == "bin":
            continue
        parts = list(rel.with_suffix("").parts)
        if parts[-1] == "mod":
            parts.pop()
        if rel.name in ROOTS and len(rel.parts) == 1:
            parts = []
        out[tuple(parts)] = f
    return out


IDENT = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def strip_comments(text):
    """The code of a file with comments, string literals and character literals
    blanked, every line kept (a literal's newlines stay, so line numbers hold).

    A tokenizer of Rust's lexical grammar, not a regular expression: `//` and
    nested `/* */` comments; strings (`"..."` with escapes, over any number of
    lines), byte and C strings (`b"..."`, `c"..."`), raw strings (`r"..."`,
    `r#"..."#`, `br##"..."##`: they end only at a quote followed by as many `#`);
    character and byte literals (`'"'`, `'\\''`, `b'x'`, `'\\u{1F600}'`) told
    apart from lifetimes and labels (`'a`, `'static`). A raw identifier (`r#type`)
    is code. See `self_test` for the hard cases."""
    out, i, n = [], 0, len(text)

    def blank(s):
        return "\n" * s.count("\n")

    while i < n:
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        prev_ident = i > 0 and text[i - 1] in IDENT
        if c == "/" and nxt == "/":
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if c == "/" and nxt == "*":
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(blank(text[i:j]))
            i = j
            continue
        # A raw string: r, br or cr at the start of a token, then #s, then a quote.
        if not prev_ident and c in "rbc":
            k = i + 1
            if c in "bc" and k < n and text[k] == "r":
                k += 1
            if k > i + 1 or c == "r":
                hashes = 0
                while k < n and text[k] == "#":
                    hashes, k = hashes + 1, k + 1
                if k < n and text[k] == '"':
                    end = text.find('"' + "#" * hashes, k + 1)
                    end = n if end < 0 else end + 1 + hashes
                    out.append('"' + blank(text[i:end]) + '"')
                    i = end
                    continue
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append('"' + blank(text[i:j]) + '"')
            i = j
            continue
        if c == "'":
            # A character literal ('x', '\\n', '"', '\\u{..}'), or a lifetime or label.
            if nxt == "\\":
                j = text.find("'", i + 3)
                j = n if j < 0 else j + 1
                out.append("' '")
                i = j
                continue
            if i + 2 < n and text[i + 2] == "'" and nxt != "\n":
                out.append("' '")
                i += 3
                continue
            out.append(c)
            i += 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def use_paths(code):
    """(line, path as a list of names) for each path a `use` item imports."""
    for m in re.finditer(r"\buse\s+((?:crate|super|self)\b[^;]*);", code):
        line = code.count("\n", 0, m.start()) + 1
        for path in expand(re.sub(r"\s+", "", m.group(1))):
            yield line, path


def expand(tree):
    """`a::{b,c::{d,e}}` -> [[a,b],[a,c,d],[a,c,e]] (aliases and globs dropped)."""
    brace = tree.find("{")
    if brace < 0:
        return [[p for p in tree.split(" as ")[0].split("::") if p and p != "*"]]
    prefix = [p for p in tree[:brace].split("::") if p]
    inner, depth, parts, start = tree[brace + 1 : tree.rindex("}")], 0, [], 0
    for i, ch in enumerate(inner):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(inner[start:i])
            start = i + 1
    parts.append(inner[start:])
    out = []
    for part in parts:
        if part.strip():
            for sub in expand(part.strip()):
                out.append(prefix + sub)
    return out


def inline_depth(code):
    """For each offset of `code`, how many inline `mod name { ... }` blocks enclose
    it (a `super` there first leaves those, then the file's module)."""
    opens = {m.end() - 1 for m in re.finditer(r"\bmod\s+\w+\s*\{", code)}
    depth, stack, out = 0, [], []
    for i, ch in enumerate(code):
        if ch == "{":
            stack.append(i in opens)
            depth += i in opens
        elif ch == "}" and stack:
            depth -= stack.pop()
        out.append(depth)
    return out


def root_exports(src, mods):
    """Names the crate root re-exports (`pub use a::b::{X, Y}` in lib.rs or
    main.rs) mapped to the module that defines them, so that `crate::X` counts as
    an import of that module and no edge hides behind the root."""
    out = {}
    for root in ROOTS:
        f = src / root
        if not f.is_file():
            continue
        code = strip_comments(f.read_text(encoding="utf-8"))
        for m in re.finditer(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]*);", code):
            for path in expand(re.sub(r"\s+", "", m.group(1))):
                if path and path[0] in ("crate", "self"):
                    path = path[1:]
                for n in range(len(path) - 1, 0, -1):
                    if tuple(path[:n]) in mods:
                        out[path[-1]] = tuple(path[:n])
                        break
                else:
                    if tuple(path) in mods and path:
                        out[path[-1]] = tuple(path)  # a module re-exported by name
    return out


def resolve(path, here, mods, inline=0, exports=None):
    """The module a path names (longest prefix), from module `here` (inside
    `inline` inline modules of its file); None if outside."""
    while inline and path and path[0] in ("super", "self"):
        if path[0] == "self":
            return None  # the inline module itself
        path, inline = ["self"] + path[1:], inline - 1
    if inline and path and path[0] not in ("crate",):
        return None
    if not path:
        return None
    head, rest = path[0], path[1:]
    if head == "crate":
        base = ()
    elif head == "self":
        base = here
    elif head == "super":
        base = here[:-1]
        while rest and rest[0] == "super":
            base, rest = base[:-1], rest[1:]
    else:
        return None
    full = base + tuple(rest)
    if not base and rest and exports and rest[0] in exports and (rest[0],) not in mods:
        full = exports[rest[0]] + tuple(rest[1:])
    for n in range(len(full), -1, -1):
        if full[:n] in mods:
            return full[:n]
    return None


def edges(crate):
    src = crate / "src"
    mods = modules(src)
    exports = root_exports(src, mods)
    out = {}
    for here, f in mods.items():
        if not here:
            continue
        code = strip_comments(f.read_text(encoding="utf-8"))
        found = []
        for line, path in use_paths(code):
            found.append((line, path))
        # `use child::item` (a module declared here, named without `self::`).
        for m in re.finditer(r"\buse\s+(\w+)::", code):
            if here + (m.group(1),) in mods:
                found.append((code.count("\n", 0, m.start()) + 1, ["self", m.group(1)]))
        # Inline paths: crate::a::b, super::x, self::x outside `use` items.
        no_use = re.sub(r"\buse\s+[^;]*;", lambda m: "\n" * m.group(0).count("\n"), code)
        for m in re.finditer(r"\b(crate|super|self)((?:::\w+)+)", no_use):
            line = no_use.count("\n", 0, m.start()) + 1
            found.append((line, [m.group(1)] + [p for p in m.group(2).split("::") if p]))
        # A child module declared here and named by its short name (`four::World`).
        for m in re.finditer(r"\b(\w+)::\w", no_use):
            child = here + (m.group(1),)
            if child in mods:
                line = no_use.count("\n", 0, m.start()) + 1
                found.append((line, ["self", m.group(1)]))
        depth = inline_depth(code)
        line_start = [0] + [i + 1 for i, ch in enumerate(code) if ch == "\n"]
        for line, path in found:
            target = resolve(path, here, mods, depth[min(line_start[line - 1], len(depth) - 1)] if depth else 0, exports)
            if target is None or target == here or not target:
                continue
            # An ancestor named as a prefix only on the way to a deeper module of
            # ours is resolved to that module already; a path that stops at an
            # ancestor names the ancestor's items.
            out.setdefault((here, target), []).append(f"{f.relative_to(ROOT)}:{line}")
    return mods, out


def circles(mods, edge_map):
    """Strongly connected components with more than one module (Tarjan)."""
    graph = {m: [] for m in mods if m}
    for a, b in edge_map:
        graph[a].append(b)
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in index:
            visit(v)
    return comps


def name(m):
    return "::".join(m)


def self_test():
    """The reader on the hard cases of Rust's lexical grammar (each once threw a
    regular-expression reader off, and everything after it went unchecked): each
    source must yield exactly the paths after `want` (line, path)."""
    cases = [
        ("a string over two lines",
         'let s = "one\n  use crate::fake;\n two";\nuse crate::real;\n', [(4, "crate::real")]),
        ("a string ending in r (not a raw string's start)",
         'let e = "entr";\nlet f = "x";\nuse crate::real;\n', [(3, "crate::real")]),
        ("raw strings with quotes and hashes",
         'let r = r#"a "quoted" crate::fake"#;\nlet q = br##"x"#y"##;\nuse crate::real;\n', [(3, "crate::real")]),
        ("a raw string over lines",
         'let r = r"\nuse crate::fake;\n";\nuse crate::real;\n', [(4, "crate::real")]),
        ("character literals of quotes",
         "let q = '\"'; let a = '\\''; let b = b'\"';\nuse crate::real;\n", [(2, "crate::real")]),
        ("escapes in strings and chars",
         'let s = "\\"use crate::fake;\\"";\nlet u = \'\\u{1F600}\';\nuse crate::real;\n', [(3, "crate::real")]),
        ("lifetimes are not characters",
         "fn f<'a>(x: &'a str) -> &'a str { crate::real::g(x) }\n'outer: loop { break 'outer; }\nuse crate::other;\n",
         [(3, "crate::other"), (1, "crate::real::g")]),
        ("byte and C strings",
         'let b = b"crate::fake"; let c = c"crate::fake";\nuse crate::real;\n', [(2, "crate::real")]),
        ("nested block comments",
         "/* a /* crate::fake */ still comment crate::fake2 */\nuse crate::real; // crate::fake3\n",
         [(2, "crate::real")]),
        ("a raw identifier",
         "let r#type = 1;\nuse crate::real;\n", [(2, "crate::real")]),
    ]
    bad = 0
    for what, src, want in cases:
        code = strip_comments(src)
        got = [(line, "::".join(p)) for line, p in use_paths(code)]
        no_use = re.sub(r"\buse\s+[^;]*;", lambda m: "\n" * m.group(0).count("\n"), code)
        got += [(no_use.count("\n", 0, m.start()) + 1, m.group(0))
                for m in re.finditer(r"\bcrate(?:::\w+)+", no_use)]
        if code.count("\n") != src.count("\n") or got != want:
            bad += 1
            print(f"check-imports self-test: {what}: found {got}, want {want}")
    if bad:
        sys.exit(f"check-imports: its reader fails {bad} of its own cases; fix it before trusting its answer")


# A crate, and the workspace crates it must not reach through its dependencies.
BELOW = {
    "tresillo-durable": {"*"},
    "tresillo-deals": {"tresillo-runs", "tresillo-bots", "tresillo-learn", "tresillo-study", "tresillo-server"},
    "tresillo-table": {"tresillo-runs", "tresillo-bots", "tresillo-learn", "tresillo-study", "tresillo-server"},
    "tresillo-study": {"tresillo-runs", "tresillo-bots", "tresillo-learn", "tresillo-server"},
    "tresillo-server": {"tresillo-runs", "tresillo-bots", "tresillo-learn"},
}


def crate_deps():
    """Crate name -> the workspace crates its [dependencies] name (not dev or build)."""
    deps = {}
    for toml in sorted((ROOT / "crates").glob("*/Cargo.toml")):
        section, names = None, set()
        for line in toml.read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if line.startswith("["):
                section = line
            elif section == "[dependencies]" and line.startswith("tresillo-"):
                names.add(re.split(r"[\s.=]", line, maxsplit=1)[0])
        deps[toml.parent.name] = names
    return deps


def check_layers():
    """One line per crate of BELOW that reaches a crate it must not; their count."""
    deps, bad = crate_deps(), 0
    for crate, banned in BELOW.items():
        if crate not in deps:
            continue
        seen, todo = set(), list(deps[crate])
        while todo:
            d = todo.pop()
            if d not in seen:
                seen.add(d)
                todo.extend(deps.get(d, ()))
        hit = sorted(seen if "*" in banned else seen & banned)
        if hit:
            bad += 1
            print(f"{crate}: depends on {', '.join(hit)}, which is above it (check-imports.py BELOW)")
    return bad


def main():
    self_test()
    if check_layers():
        sys.exit("check-imports: a crate depends on a crate above it")
    args = sys.argv[1:]
    show = "--graph" in args
    args = [a for a in args if a != "--graph"]
    crates = [Path(a).resolve() for a in args] or sorted(p for p in (ROOT / "crates").iterdir() if (p / "src").is_dir())
    bad = 0
    for crate in crates:
        if not (crate / "src").is_dir():
            sys.exit(f"error: {crate}: no src/ directory")
        mods, edge_map = edges(crate)
        if show:
            for (a, b), where in sorted(edge_map.items()):
                print(f"{crate.name}: {name(a)} -> {name(b)} ({where[0]})")
        for comp in circles(mods, edge_map):
            bad += 1
            print(f"{crate.name}: import circle: {', '.join(name(m) for m in comp)}")
            members = set(comp)
            for (a, b), where in sorted(edge_map.items()):
                if a in members and b in members:
                    print(f"  {name(a)} -> {name(b)}: {', '.join(where[:3])}{' ...' if len(where) > 3 else ''}")
    if bad:
        sys.exit(f"check-imports: {bad} import circle(s)")
    print(f"check-imports: no import circles in {len(crates)} crates")


if __name__ == "__main__":
    main()
