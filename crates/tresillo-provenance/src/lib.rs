//! The build's provenance: the git commit this package was built from, and whether
//! its work tree had uncommitted changes (from `build.rs`, vergen-gitcl's
//! `VERGEN_GIT_SHA` and `VERGEN_GIT_DIRTY`). The binary (tresillo-cli) hands it to
//! the commands (`tresillo_commands::main`), which write it into every manifest as
//! `build` and into `--version`; the Python extension reads it here too, without
//! linking the commands.
//!
//! It is this small library, and not the commands, that the build script's output
//! recompiles: a commit, or an edit that changes the dirty flag, reruns the script,
//! then rebuilds this file and relinks the binary (issue 37).
//!
//! The binary (`src/bin/tresillo.rs`) runs `tresillo_commands::main` with this build.
//! `build.rs` (vergen-gitcl asks git) watches only paths that exist, so a second build
//! compiles nothing (`scripts/check-rebuild.sh`, run by CI). The command line's
//! integration tests live in this package (`tests/cli/`) because they run the binary.

/// The build that wrote a manifest (the run directories' type).
pub use tresillo_runs::Build;

/// The commit `build.rs` found, or `unknown` outside a checkout (vergen's
/// placeholder, or anything that is not 40 hex digits).
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

/// This build: its commit and the state of its tree.
#[must_use]
pub fn current() -> Build {
    Build { commit: commit().into(), dirty: dirty() }
}
