//! No code: see this crate's Cargo.toml. Its dependencies set the features that
//! every build of the workspace resolves for the procedural macros' `syn`, so
//! that one release build of the dependencies serves the command line, the
//! examples and the Python extension.
//!
//! Its dependencies (syn 2 and 3) carry the union of the features the CLI, the
//! `own_agent` example and the Python extension need: cargo-hakari's workspace-hack, by
//! hand. tresillo-runs depends on it (and on num-traits for the same reason);
//! `scripts/check-features.py` (CI) fails when a build drifts.
