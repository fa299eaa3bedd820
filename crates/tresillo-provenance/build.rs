//! Records the git commit the binary is built from, and whether the work tree had
//! changes (tracked files), for `--version` and every manifest: vergen-gitcl's
//! `VERGEN_GIT_SHA` and `VERGEN_GIT_DIRTY`, read by `src/lib.rs` (which says
//! `unknown` for a build outside a checkout, a source tarball). Only this package
//! sees them: the commands (tresillo-commands) are told the build at startup, so a
//! rerun of this script recompiles this small library and relinks the binary. This script adds
//! what must rerun it besides HEAD and the branch's ref: the index (staging), the
//! reflog of HEAD (every commit or checkout appends to it, also in a worktree or when
//! the branch's ref lives in packed-refs), packed refs, and the workspace's Rust
//! sources and manifests (an edit makes the tree dirty).
//!
//! Only paths that exist are watched: cargo reruns a build script whose watched path
//! is missing on every build, which recompiled the CLI each time in a checkout
//! without `.git/packed-refs`. `.ci/run` checks that a second build compiles nothing.

use std::path::{Path, PathBuf};
use std::process::Command;

use vergen_gitcl::{Emitter, GitclBuilder};

fn main() {
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    // vergen's `git status` would refresh and rewrite the index when its stat data is
    // stale (as in a fresh clone): the index, watched below, would then be newer than
    // this script's run, and the next build would run it and recompile the CLI again.
    // Git's own switch for read-only callers keeps it from writing.
    #[allow(unsafe_code)]
    // SAFETY: set before any thread is started; this build script is single-threaded.
    unsafe {
        std::env::set_var("GIT_OPTIONAL_LOCKS", "0");
    }
    // VERGEN_GIT_SHA and VERGEN_GIT_DIRTY (placeholders outside a checkout: see
    // provenance.rs), and vergen's rerun lines for HEAD and the branch's ref.
    let git = GitclBuilder::default().sha(false).dirty(false).build().expect("a valid vergen configuration");
    Emitter::default()
        .quiet()
        .add_instructions(&git)
        .and_then(|e| e.emit())
        .expect("vergen writes to standard output");
    watch_sources(&manifest_dir.join("../.."));
    watch_git();
}

/// The workspace's Rust sources and manifests: an edit there changes the dirty flag.
/// (Tests, examples and Python files are not watched: they do not make the binary,
/// and pytest's caches under them would rebuild the CLI after every test run.)
fn watch_sources(root: &Path) {
    for p in ["Cargo.toml", "Cargo.lock", "benches"] {
        watch(&root.join(p));
    }
    let Ok(crates) = std::fs::read_dir(root.join("crates")) else { return };
    let mut dirs: Vec<PathBuf> = crates.filter_map(|e| e.ok().map(|e| e.path())).collect();
    dirs.sort();
    for dir in dirs {
        for p in ["Cargo.toml", "build.rs", "src"] {
            watch(&dir.join(p));
        }
    }
}

/// What moves when git stages, commits or checks out, wherever the checkout keeps it.
fn watch_git() {
    let dir = |arg: &str| git(&["rev-parse", "--path-format=absolute", arg]).map(PathBuf::from);
    let Some(git_dir) = dir("--git-dir") else { return };
    let common = dir("--git-common-dir").unwrap_or_else(|| git_dir.clone());
    for p in [git_dir.join("index"), git_dir.join("logs/HEAD"), common.join("packed-refs")] {
        watch(&p);
    }
}

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Reruns when `path` changes, if it exists (a missing path would rerun every build).
fn watch(path: &Path) {
    if path.exists() {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}
