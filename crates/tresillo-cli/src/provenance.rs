//! What build wrote a file: the version and the git commit of the binary, and
//! whether its work tree had uncommitted changes (from `build.rs`). Every manifest
//! carries it as `build`; it is the same for every thread count and shard of one
//! build, so outputs stay byte-identical there, and it is the one field allowed to
//! differ when another build reproduces a run (`scripts/check-experiments.sh`
//! compares manifests without it).

use serde::{Deserialize, Serialize};

/// `tresillo --version`: the version, the commit and the state of the tree.
pub const LONG_VERSION: &str = env!("TRESILLO_LONG_VERSION");

/// The build that wrote a manifest.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Build {
    /// The git commit (40 hex digits), or `unknown` for a build outside a checkout.
    pub commit: String,
    /// Whether tracked files differed from the commit (`None`: unknown).
    pub dirty: Option<bool>,
}

impl Build {
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
}
