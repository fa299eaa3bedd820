//! tresillo-sim's integration tests, compiled as one test binary: `cargo test -p
//! tresillo-sim --test suite` runs them all, `cargo test -p tresillo-sim --test suite
//! MODULE::` one file's. Each file of tests/ is a module here, not a binary of its
//! own (one compile and link in a release build, CI's). The package sets `autotests
//! = false`, so a new file must be declared here (or as a `[[test]]` of its own in
//! Cargo.toml when it needs a process of its own); `scripts/check-test-files.py` (run by CI)
//! fails until it is.

mod own_agent;
mod portable;
mod records_bytes;
mod rule_sets;

// Not modules here but binaries of their own (Cargo.toml's `[[test]]`s): test_rule_set
// registers a rule set in the process-wide registry, which every other test would
// then see.
