//! tresillo-core's integration tests, compiled as one test binary: `cargo test -p tresillo-core
//! --test suite` runs them all, `cargo test -p tresillo-core --test suite MODULE::`
//! one file's. Each file of tests/ is a module here, not a binary of its own: a
//! release build (CI's) links one binary instead of 13, and the harness runs
//! the slow tests of one file beside the quick ones of another. The package sets
//! `autotests = false`, so a new file must be declared here (or as a `[[test]]` of
//! its own in Cargo.toml when it needs a process of its own);
//! `scripts/check-test-files.py` (run by CI) fails until it is.
//!
//! Apart: `rule_set_files.rs` and `stakes.rs` register rule sets in the process-wide
//! registry and so run as binaries of their own. The agents', sim's, runs' and the
//! server's tests are laid out alike; those that register a rule set or count
//! allocations stand apart there too (agents' `no_alloc.rs`, the `test_rule_set.rs` of
//! agents and sim).

mod common;

mod four_oracle;
mod four_players;
mod hand_perft;
mod hombre;
mod hombre_oracle;
mod lhombre;
mod options;
mod perft;
mod perft_four;
mod perft_lhombre;
mod properties;
mod rule_sets;
mod rules;
mod scoring;

// Not modules here but binaries of their own (Cargo.toml's `[[test]]`s):
// rule_set_files and stakes register rule sets in the process-wide registry, which
// every other test would then see (rule_sets pins the list of known rule sets in an
// error message).
