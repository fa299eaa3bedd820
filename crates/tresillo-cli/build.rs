//! Records the git commit the binary is built from, and whether the work tree had
//! changes, for `--version` and every manifest (`TRESILLO_COMMIT`: 40 hex digits or
//! `unknown`; `TRESILLO_DIRTY`: `true`, `false` or `unknown`). Without git, or
//! outside a checkout (a source tarball), both are `unknown`.
//!
//! Reruns when HEAD moves (a commit, a checkout: HEAD, the branch's ref, packed
//! refs), when the index changes (staging), and when any file of the workspace's
//! crates or its manifests changes (an edit makes the tree dirty). Worktrees are
//! handled by asking git for its directories.

use std::path::{Path, PathBuf};
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest_dir.join("../..");
    for p in ["crates", "benches", "Cargo.toml", "Cargo.lock"] {
        println!("cargo:rerun-if-changed={}", root.join(p).display());
    }
    let commit =
        git(&["rev-parse", "HEAD"]).filter(|c| c.len() == 40 && c.bytes().all(|b| b.is_ascii_hexdigit()));
    if commit.is_some() {
        let dir = |arg: &str| git(&["rev-parse", "--path-format=absolute", arg]).map(PathBuf::from);
        if let Some(git_dir) = dir("--git-dir") {
            watch(&git_dir.join("HEAD"));
            watch(&git_dir.join("index"));
            if let Some(head_ref) = git(&["symbolic-ref", "-q", "HEAD"]) {
                let common = dir("--git-common-dir").unwrap_or_else(|| git_dir.clone());
                watch(&common.join(head_ref));
                watch(&common.join("packed-refs"));
            }
        }
    }
    let dirty = match &commit {
        None => "unknown".to_string(),
        Some(_) => match git(&["status", "--porcelain", "--untracked-files=no"]) {
            Some(s) => (!s.is_empty()).to_string(),
            None => "unknown".to_string(),
        },
    };
    let commit = commit.as_deref().unwrap_or("unknown");
    let tree = match dirty.as_str() {
        "false" => "clean",
        "true" => "with uncommitted changes",
        _ => "state unknown",
    };
    let version = std::env::var("CARGO_PKG_VERSION").expect("cargo sets it");
    println!("cargo:rustc-env=TRESILLO_COMMIT={commit}");
    println!("cargo:rustc-env=TRESILLO_DIRTY={dirty}");
    println!("cargo:rustc-env=TRESILLO_LONG_VERSION={version} (commit {commit}, tree {tree})");
}

/// Reruns when `path` changes (also when it appears later: cargo watches it).
fn watch(path: &Path) {
    println!("cargo:rerun-if-changed={}", path.display());
}
