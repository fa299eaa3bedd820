//! Helpers shared by the CLI integration tests (included with `mod common;`).
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh directory under the system temp dir, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// A directory named after the test binary's `prefix`, the process and `name`.
    pub fn new(prefix: &str, name: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!("tresillo-{prefix}-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&p);
        fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }

    /// A path inside the directory.
    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// Writes a file and returns its path.
    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.path(name);
        fs::write(&p, text).unwrap();
        p
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Runs the `tresillo` binary.
pub fn tresillo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tresillo")).args(args).output().expect("run tresillo")
}

/// The standard output of a run that must succeed.
pub fn ok(out: &Output) -> String {
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// The standard error of a run that must fail.
pub fn failed(out: &Output) -> String {
    assert!(!out.status.success(), "unexpected success: {}", String::from_utf8_lossy(&out.stdout));
    String::from_utf8(out.stderr.clone()).unwrap()
}

/// A file's bytes; a panic naming the file when it cannot be read.
pub fn read(p: &Path) -> Vec<u8> {
    fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The standard error of `args`'s run `o`, which must fail with one clear line.
pub fn one_line_error(args: &[&str], o: &Output) -> String {
    assert!(!o.status.success(), "{args:?} should fail");
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(err.trim().lines().count(), 1, "one clear line: {err}");
    err
}

/// Every built-in rule set at every table size it is played at, from the
/// registry (`RuleSet::BUILT_IN`): a new rule set is covered by the tests that
/// loop over these without an edit.
pub fn tables() -> Vec<(&'static str, u8)> {
    let mut out = Vec::new();
    for set in tresillo_core::RuleSet::BUILT_IN {
        for players in [3u8, 4] {
            if tresillo_core::Rules::from(set).check_players(players).is_ok() {
                out.push((set.name(), players));
            }
        }
    }
    out
}
