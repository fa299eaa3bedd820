//! End-to-end tests of `tresillo properties`.

use crate::common;

use common::TempDir;
use std::process::Command;

fn tresillo(args: &[&str]) -> (bool, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_tresillo")).args(args).output().unwrap();
    (o.status.success(), String::from_utf8_lossy(&o.stdout).into(), String::from_utf8_lossy(&o.stderr).into())
}

const SMALL: [&str; 7] = ["--deals", "3", "--worlds", "2", "--playouts", "2", "--seed"];

#[test]
fn the_table_and_the_csv_hold_every_measure_and_do_not_depend_on_threads() {
    let dir = TempDir::new("properties", "threads");
    let csv = |t: &str| dir.path(&format!("p{t}.csv"));
    let mut outs = Vec::new();
    for t in ["1", "2"] {
        let path = csv(t);
        let mut args = vec!["properties"];
        args.extend(SMALL);
        args.extend(["5", "--threads", t, "--out", path.to_str().unwrap()]);
        let (ok, out, err) = tresillo(&args);
        assert!(ok, "{err}");
        outs.push((out, std::fs::read_to_string(&path).unwrap()));
    }
    assert_eq!(outs[0], outs[1], "the thread count changed the output");
    let (table, csv) = &outs[0];
    assert!(table.starts_with("properties of tresillo at 3 players: 3 deals of seed 5"), "{table}");
    for line in ["leaf correlation lc", "bias b", "disambiguation df", "    9  defender"] {
        assert!(table.contains(line), "{line} missing from\n{table}");
    }
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("rules,players,deals,seed,worlds,playouts,measure,side,trick,n,k,value"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    // 6 whole-hand tallies, 3 disambiguation factors, 5 measures per trick and side.
    assert_eq!(rows.len(), 6 + 3 + 9 * 2 * 5);
    assert!(rows.iter().all(|r| r.len() == 12 && r[..6] == ["tresillo", "3", "3", "5", "2", "2"]));
    let played = rows.iter().find(|r| r[6] == "played").unwrap();
    assert_eq!((played[9], played[7], played[8]), ("3", "all", "all"));
}

#[test]
fn each_rule_set_and_table_is_measured_and_seeds_differ() {
    for (set, players) in common::tables() {
        let players = players.to_string();
        let rules = ["--rules", set, "--players", players.as_str()];
        let mut args = vec!["properties"];
        args.extend(SMALL);
        args.push("1");
        args.extend(rules);
        let (ok, out, err) = tresillo(&args);
        assert!(ok, "{rules:?}: {err}");
        assert!(out.contains("leaf correlation lc"), "{out}");
    }
    let run = |seed: &str| {
        let mut args = vec!["properties"];
        args.extend(SMALL);
        args.push(seed);
        tresillo(&args).1
    };
    assert_eq!(run("2"), run("2"));
    assert_ne!(run("2"), run("3"));
}

#[test]
fn bad_arguments_are_one_line_errors() {
    for (args, says) in [
        (&["--deals", "0"][..], "between 1 and"),
        (&["--deals", "-3"], "non-negative"),
        (&["--worlds", "1000000"], "at most 100000"),
        (&["--rules", "whist"], "whist"),
        (&["--rules", "lhombre", "--players", "4"], "lhombre"),
        (&["--threads", "5000"], "1024"),
    ] {
        let mut a = vec!["properties"];
        a.extend(args);
        let (ok, out, err) = tresillo(&a);
        assert!(!ok, "{args:?} succeeded: {out}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // A file that cannot be written (its directory would be a file): one `error:` line.
    let dir = TempDir::new("properties", "bad-out");
    let file = dir.write("file", "");
    let bad = file.join("p.csv");
    let (ok, _, err) =
        tresillo(&["properties", "--deals", "1", "--worlds", "0", "--out", bad.to_str().unwrap()]);
    assert!(!ok);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: creating "), "{err}");
    // A missing directory is made.
    let nested = dir.path("a/b/p.csv");
    let (ok, _, err) =
        tresillo(&["properties", "--deals", "1", "--worlds", "0", "--out", nested.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(std::fs::read_to_string(&nested).unwrap().starts_with("rules,"));
}
