//! What build wrote a file: the version and the git commit of the binary, and
//! whether its work tree had uncommitted changes. Every manifest carries it as
//! `build`; it is the same for every thread count and shard of one build, so outputs
//! stay byte-identical there, and it is the one field allowed to differ when another
//! build reproduces a run (`scripts/check-experiments.py` compares manifests without
//! it).
//!
//! This library is compiled without knowing its commit (its dependents'
//! build script knows it: crates/tresillo-provenance/build.rs): [`main_with`](crate::main_with)
//! is told the build once, at startup, and the commands read it here.

use std::sync::OnceLock;

/// The build that wrote a manifest (the library's type).
pub use tresillo_runs::Build;

/// The build [`set`] was told, once per process.
static BUILD: OnceLock<Build> = OnceLock::new();

/// Says which build runs the commands; the first call wins (a second
/// `main_with` in one process, as the Python package's, runs the same build).
pub(crate) fn set(build: Build) {
    let _ = BUILD.set(build);
}

/// The build running the commands (`unknown` when none was set: a unit test).
#[must_use]
pub fn current() -> Build {
    BUILD.get().cloned().unwrap_or_else(|| Build { commit: "unknown".into(), dirty: None })
}

/// `tresillo --version` for `build`: the version, the commit and the state of the
/// tree.
#[must_use]
pub fn version_text(build: &Build) -> String {
    build.version_text()
}

/// [`version_text`] of the build running the commands.
pub(crate) fn long_version() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| version_text(&current()))
}
