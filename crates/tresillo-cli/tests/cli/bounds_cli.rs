//! Issue 13, items 4 to 8: numbers are bounded and checked before any work starts,
//! and malformed input is refused with one clear line instead of a panic, an abort
//! or unbounded work.

use crate::common;
use common::{TempDir, failed, tresillo};

/// The first line of a failed run's standard error.
fn first_line(args: &[&str]) -> String {
    let err = failed(&tresillo(args));
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    err.lines().next().unwrap().to_string()
}

#[test]
fn a_huge_tune_deal_count_is_refused_before_any_allocation() {
    let d = TempDir::new("bounds-cli", "tune");
    let out = d.path("hh.csv");
    for deals in ["18446744073709551615", "10000000000"] {
        let e = first_line(&[
            "tune",
            "--param",
            "entrada=40,45",
            "--deals",
            deals,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(e.contains("deals") && e.contains("10000000"), "{deals}: {e}");
        assert!(!out.exists(), "{deals}: a refused tune wrote its CSV");
    }
    // A session is held in memory until it ends: its length is bounded too.
    let o = d.path("sessions");
    let e = first_line(&[
        "tournament",
        "--scoring",
        "session:4294967295",
        "--deals",
        "4294967295",
        "--out",
        o.to_str().unwrap(),
    ]);
    assert!(e.contains("session:K") && e.contains("10000"), "{e}");
    assert!(!o.exists());
}

#[test]
fn thread_counts_far_above_the_cores_are_refused() {
    let d = TempDir::new("bounds-cli", "threads");
    let o = d.path("t");
    let o = o.to_str().unwrap();
    for args in [
        vec!["tournament", "--deals", "3", "--threads", "100000", "--out", o],
        vec!["tune", "--param", "entrada=40", "--deals", "3", "--threads", "1025", "--out", o],
    ] {
        let e = first_line(&args);
        assert!(e.contains("--threads") && e.contains("1024"), "{args:?}: {e}");
    }
    let exp = d.write(
        "x.toml",
        &format!(
            "[tournament]\nagents = [\"rule\", \"rule\", \"random\"]\ndeals = 3\nseed = 1\nout = '{o}'\nthreads = 5000\n"
        ),
    );
    let e = first_line(&["run", exp.to_str().unwrap()]);
    assert!(e.contains("x.toml") && e.contains("threads") && e.contains("1024"), "{e}");
    assert!(!e.contains("--threads"), "a TOML error names the key, not a flag: {e}");
    let e = first_line(&["run", exp.to_str().unwrap(), "--threads", "2000"]);
    assert!(e.contains("--threads") && e.contains("1024"), "{e}");
    assert!(!d.path("t").exists());
}

const HANDS: &str = "5E 1B 2B / 1E 4E 7E / 11E 3B 4B";

#[test]
fn perft_refuses_depths_beyond_the_cards_and_empty_hands() {
    let e = first_line(&["perft", "--deal", HANDS, "--trump", "espadas", "--depth", "100"]);
    assert!(e.contains("100") && e.contains("9 plies"), "{e}");
    let full = "5E 1B 2B 11B 4C 11C 2O 5O 10O / 1E 4E 7E 10E 1C 2C 7C 10C 6O / \
                11E 3B 4B 5B 7B 10B 5C 11O 12O";
    let e = first_line(&["perft", "--deal", full, "--trump", "espadas", "--depth", "28", "--divide"]);
    assert!(e.contains("27 plies"), "{e}");
    for deal in [" / / ", "/ / / 1E 2E"] {
        let e = first_line(&["perft", "--deal", deal, "--trump", "espadas", "--depth", "1"]);
        assert!(e.contains("empty"), "{deal}: {e}");
    }
    // The deepest depth the cards allow still runs.
    let out = tresillo(&["perft", "--deal", HANDS, "--trump", "espadas", "--depth", "9"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn negative_numbers_are_called_negative_on_every_integer_flag() {
    let d = TempDir::new("bounds-cli", "negative");
    let o = d.path("o");
    let o = o.to_str().unwrap();
    let exp = d.write(
        "x.toml",
        &format!(
            "[tournament]\nagents = [\"rule\", \"rule\", \"random\"]\ndeals = 3\nseed = 1\nout = '{o}'\n"
        ),
    );
    let exp = exp.to_str().unwrap();
    let t = ["--deal", HANDS, "--trump", "espadas"];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["deal", "--seed", "-5"], "--seed"),
        ([&["perft"], &t[..], &["--depth", "-5"]].concat(), "--depth"),
        ([&["perft"], &t[..], &["--depth", "2", "--leader", "-1"]].concat(), "--leader"),
        (vec!["play", "--seed", "-5"], "--seed"),
        (vec!["play", "--seed", "1", "--dealer", "-1"], "--dealer"),
        (vec!["tournament", "--deals", "-5", "--out", o], "--deals"),
        (vec!["tournament", "--seed", "-5", "--out", o], "--seed"),
        (vec!["tournament", "--threads", "-2", "--out", o], "--threads"),
        (vec!["tune", "--param", "entrada=40", "--deals", "-5", "--out", o], "--deals"),
        (vec!["tune", "--param", "entrada=40", "--seed", "-5", "--out", o], "--seed"),
        (vec!["tune", "--param", "entrada=40", "--rounds", "-1", "--out", o], "--rounds"),
        (vec!["tune", "--param", "entrada=40", "--max-evaluations", "-1", "--out", o], "--max-evaluations"),
        (vec!["tune", "--param", "entrada=40", "--threads", "-1", "--out", o], "--threads"),
        (vec!["run", exp, "--threads", "-3"], "--threads"),
        (vec!["bench", "movegen", "--n", "-5"], "--n"),
        (vec!["bench", "playouts", "--n", "-5"], "--n"),
        (vec!["bench", "deals", "--n", "-5"], "--n"),
        (vec!["bench", "sampler", "--n", "-5"], "--n"),
        (vec!["bench", "solver", "--n", "-5"], "--n"),
        (vec!["bench", "solver", "--seed", "-5"], "--seed"),
        (vec!["bench", "gsolver", "--n", "-5"], "--n"),
    ];
    for (args, flag) in &cases {
        let e = first_line(args);
        assert!(e.contains("must be a non-negative integer") && e.contains(flag), "{args:?}: {e}");
        assert!(!e.contains("unexpected argument"), "{args:?}: {e}");
    }
    // Not a number at all says so too, and an overflow says it is too large.
    let e = first_line(&["tournament", "--deals", "many", "--out", o]);
    assert!(e.contains("must be a non-negative integer"), "{e}");
    let e = first_line(&["perft", "--deal", HANDS, "--trump", "espadas", "--depth", "99999999999"]);
    assert!(e.contains("at most"), "{e}");
    let e = first_line(&["bench", "solver", "--n", "18446744073709551615"]);
    assert!(e.contains("--n") && e.contains("at most"), "{e}");
    assert!(!d.path("o").exists());
}

#[test]
fn a_repeated_agent_parameter_is_refused() {
    let d = TempDir::new("bounds-cli", "repeat");
    let o = d.path("o");
    let e = first_line(&[
        "tournament",
        "--agents",
        "rule:entrada=40:entrada=50,rule,random",
        "--deals",
        "3",
        "--out",
        o.to_str().unwrap(),
    ]);
    assert!(e.contains("entrada") && e.contains("twice"), "{e}");
    let e = first_line(&["play", "--agents", "rule,rule,cheat:rollouts=2:rollouts=3", "--seed", "1"]);
    assert!(e.contains("rollouts") && e.contains("twice"), "{e}");
    assert!(!o.exists());
}
