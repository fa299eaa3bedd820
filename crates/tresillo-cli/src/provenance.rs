//! What build wrote a file: the version and the git commit of the binary, and
//! whether its work tree had uncommitted changes (from `build.rs`). Every manifest
//! carries it as `build`; it is the same for every thread count and shard of one
//! build, so outputs stay byte-identical there, and it is the one field allowed to
//! differ when another build reproduces a run (`scripts/check-experiments.sh`
//! compares manifests without it).

/// `tresillo --version`: the version, the commit and the state of the tree.
pub const LONG_VERSION: &str = env!("TRESILLO_LONG_VERSION");

/// The build that wrote a manifest (the library's type).
pub use tresillo_runs::Build;

/// This binary's build.
#[must_use]
pub fn current() -> Build {
    let dirty = match env!("TRESILLO_DIRTY") {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    };
    Build { commit: env!("TRESILLO_COMMIT").into(), dirty }
}
