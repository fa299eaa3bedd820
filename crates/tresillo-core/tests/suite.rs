//! tresillo-core's integration tests, compiled as one test binary: `cargo test -p tresillo-core
//! --test suite` runs them all, `cargo test -p tresillo-core --test suite MODULE::`
//! one file's. Each file of tests/ is a module here, not a binary of its own: a
//! release build (CI's) links one binary instead of 13, and the harness runs
//! the slow tests of one file beside the quick ones of another. The package sets
//! `autotests = false`, so a new file must be declared here (or as a `[[test]]` of
//! its own in Cargo.toml when it needs a process of its own);
//! `every_test_file_is_compiled` fails until it is.

mod common;

mod four_oracle;
mod four_players;
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

/// Files of tests/ that are binaries of their own (declared in Cargo.toml):
/// rule_set_files and stakes register rule sets in the process-wide registry, which
/// every other test would then see (rule_sets pins the list of known rule sets in an
/// error message).
const OWN_BINARIES: &[&str] = &["rule_set_files", "stakes"];

#[test]
fn every_test_file_is_compiled() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let suite = include_str!("suite.rs");
    let manifest = include_str!("../Cargo.toml");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("tests/ is readable") {
        let name = entry.expect("a directory entry").file_name().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix(".rs") else { continue };
        if stem == "suite" {
            continue;
        }
        let own = OWN_BINARIES.contains(&stem) && manifest.contains(&format!("path = \"tests/{name}\""));
        if !own && !suite.lines().any(|l| l == format!("mod {stem};")) {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "tests/{missing:?} compiled by no test binary: add `mod NAME;` to tests/suite.rs"
    );
}
