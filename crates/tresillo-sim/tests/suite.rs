//! tresillo-sim's integration tests, compiled as one test binary: `cargo test -p
//! tresillo-sim --test suite` runs them all, `cargo test -p tresillo-sim --test suite
//! MODULE::` one file's. Each file of tests/ is a module here, not a binary of its
//! own (one compile and link in a release build, CI's). The package sets `autotests
//! = false`, so a new file must be declared here (or as a `[[test]]` of its own in
//! Cargo.toml when it needs a process of its own); `every_test_file_is_compiled`
//! fails until it is.

mod own_agent;
mod portable;
mod rule_sets;

/// Files of tests/ that are binaries of their own (declared in Cargo.toml): test_rule_set
/// registers a rule set in the process-wide registry, which every other test would
/// then see.
const OWN_BINARIES: &[&str] = &["test_rule_set"];

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
