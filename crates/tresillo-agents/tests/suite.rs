//! tresillo-agents's integration tests, compiled as one test binary: `cargo test -p tresillo-agents
//! --test suite` runs them all, `cargo test -p tresillo-agents --test suite MODULE::`
//! one file's. Each file of tests/ is a module here, not a binary of its own: a
//! release build (CI's) links one binary instead of 12, and the harness runs
//! the slow tests of one file beside the quick ones of another. The package sets
//! `autotests = false`, so a new file must be declared here (or as a `[[test]]` of
//! its own in Cargo.toml when it needs a process of its own);
//! `scripts/check-test-files.py` (run by CI) fails until it is.

mod common;

mod alphamu;
mod cancel;
mod exhaustive;
mod four_players;
mod general_search;
mod ismcts;
mod ismcts_rule_sets;
mod legality;
mod pimc;
mod rule;
mod rule_sets;
mod sampler;
mod solver;

// Not modules here but binaries of their own (Cargo.toml's `[[test]]`s): no_alloc
// installs a counting global allocator, test_rule_set registers a rule set in the
// process-wide registry; either would reach every test of a shared binary.
