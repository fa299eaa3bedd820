//! tresillo-runs's integration tests, compiled as one test binary: `cargo test -p
//! tresillo-runs --test suite` runs them all, `cargo test -p tresillo-runs --test suite
//! MODULE::` one file's. Each file of tests/ is a module here, not a binary of its
//! own (one compile and link in a release build, CI's). The package sets `autotests
//! = false`, so a new file must be declared here (or as a `[[test]]` of its own in
//! Cargo.toml when it needs a process of its own); `scripts/check-test-files.py` (run by CI)
//! fails until it is.

mod dataset;
mod deals_schema;
mod own_registry;
mod stoppable;
