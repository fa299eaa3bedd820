//! Issue 20, item 11: every subcommand ends quietly when its output is closed
//! (`tresillo tune ... 2>&1 | head -1`): no panic (status 101), and a run whose
//! reader went away still finishes and writes its files.

use std::process::{Command, Output, Stdio};

use crate::common;
use common::TempDir;

/// The write end of a pipe whose read end is already closed: every write to it
/// fails with `BrokenPipe`.
fn closed() -> Stdio {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    writer.into()
}

/// Runs `tresillo` with standard output closed; returns standard error.
fn stdout_closed(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tresillo")).args(args).stdout(closed()).output().unwrap()
}

/// Runs `tresillo` with standard error closed; returns its output.
fn stderr_closed(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tresillo")).args(args).stderr(closed()).output().unwrap()
}

fn quiet(out: &Output, args: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert_ne!(out.status.code(), Some(101), "{args:?} panicked: {err}");
}

#[test]
fn a_closed_standard_output_ends_every_subcommand_quietly() {
    let d = TempDir::new("closed-cli", "stdout");
    let tune_out = d.path("tune/c.csv");
    let tour_out = d.path("tour");
    let cases: Vec<Vec<&str>> = vec![
        vec!["deal", "--seed", "3"],
        vec!["agents"],
        vec!["rules"],
        vec!["--help"],
        vec!["play", "--seed", "2", "--agents", "rule,rule,random"],
        vec!["perft", "--deal", "1o 2o / 1b 2b / 1c 2c", "--trump", "oros", "--depth", "3", "--divide"],
        vec!["replay", "--deal", "4", "--seed", "1", "--agents", "rule,rule,random"],
        vec![
            "tune",
            "--param",
            "entrada=40,50",
            "--deals",
            "6",
            "--opponents",
            "random,random",
            "--out",
            tune_out.to_str().unwrap(),
        ],
        vec!["tournament", "--deals", "6", "--out", tour_out.to_str().unwrap()],
    ];
    for args in &cases {
        let out = stdout_closed(args);
        quiet(&out, args);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    // The runs finished and wrote their files although nobody read their output.
    assert!(tune_out.exists() && d.path("tune/c.manifest.json").exists());
    assert!(tour_out.join("summary.csv").exists());
}

#[test]
fn a_closed_standard_error_ends_runs_and_errors_quietly() {
    let d = TempDir::new("closed-cli", "stderr");
    let csv = d.path("c.csv");
    // Progress lines go to standard error: the tune plays on and writes its files.
    let args = [
        "tune",
        "--param",
        "entrada=40,50",
        "--deals",
        "6",
        "--opponents",
        "random,random",
        "--out",
        csv.to_str().unwrap(),
    ];
    let out = stderr_closed(&args);
    assert_eq!(out.status.code(), Some(0), "tune with stderr closed");
    assert!(String::from_utf8_lossy(&out.stdout).contains("candidates evaluated"));
    assert!(csv.exists() && d.path("c.manifest.json").exists());
    let out =
        stderr_closed(&["tournament", "--deals", "4", "--out", d.path("t").to_str().unwrap(), "--resume"]);
    assert_eq!(out.status.code(), Some(0), "tournament --resume (its note) with stderr closed");
    // An error line that cannot be written still gives the error status.
    for args in [&["tune", "--param", "bogus=1"][..], &["deal", "--seed", "x"], &["nope"]] {
        let out = stderr_closed(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}
