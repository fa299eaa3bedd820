//! tresillo-server's integration tests, compiled as one test binary: `cargo test -p
//! tresillo-server --test suite` runs them all, `cargo test -p tresillo-server --test
//! suite MODULE::` one file's. Each file of tests/ is a module here, not a binary of
//! its own: each of the three compiled the HTTP stack's generic code again (38 CPU s
//! of a release build, CI's, against about 18 for one). The package sets `autotests
//! = false`, so a new file must be declared here; `every_test_file_is_compiled`
//! fails until it is.

mod api;
mod replay;
mod study;

#[test]
fn every_test_file_is_compiled() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let suite = include_str!("suite.rs");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("tests/ is readable") {
        let name = entry.expect("a directory entry").file_name().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix(".rs") else { continue };
        if stem != "suite" && !suite.lines().any(|l| l == format!("mod {stem};")) {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "tests/{missing:?} compiled by no test binary: add `mod NAME;` to tests/suite.rs"
    );
}
