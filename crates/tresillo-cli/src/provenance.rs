//! What build wrote a file: the version and the git commit of the binary, and
//! whether its work tree had uncommitted changes (from `build.rs`). Every manifest
//! carries it as `build`; it is the same for every thread count and shard of one
//! build, so outputs stay byte-identical there, and it is the one field allowed to
//! differ when another build reproduces a run (`scripts/check-experiments.sh`
//! compares manifests without it).

use std::sync::LazyLock;

/// The commit `build.rs` found (vergen-gitcl), or `unknown` outside a checkout
/// (vergen's placeholder, or anything that is not 40 hex digits).
fn commit() -> &'static str {
    let sha = env!("VERGEN_GIT_SHA");
    if sha.len() == 40 && sha.bytes().all(|b| b.is_ascii_hexdigit()) { sha } else { "unknown" }
}

/// Whether the tree had uncommitted changes to tracked files; `None` when unknown.
fn dirty() -> Option<bool> {
    match (commit(), env!("VERGEN_GIT_DIRTY")) {
        ("unknown", _) => None,
        (_, "true") => Some(true),
        (_, "false") => Some(false),
        _ => None,
    }
}

/// `tresillo --version`: the version, the commit and the state of the tree.
pub static LONG_VERSION: LazyLock<String> = LazyLock::new(|| {
    let tree = match dirty() {
        Some(false) => "clean",
        Some(true) => "with uncommitted changes",
        None => "state unknown",
    };
    format!("{} (commit {}, tree {tree})", env!("CARGO_PKG_VERSION"), commit())
});

/// The build that wrote a manifest (the library's type).
pub use tresillo_runs::Build;

/// This binary's build.
#[must_use]
pub fn current() -> Build {
    Build { commit: commit().into(), dirty: dirty() }
}
