//! Paired differences (issue 23): every run writes `pairs.csv`, prints it under
//! the summary, and the report shows it; each row equals what
//! `scripts/paired.py RUN A B` computes from deals.csv; merged shards give the
//! whole run's file.

use crate::common;
use common::{TempDir, ok, tresillo};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Line `line` of what `scripts/paired.py RUN A B` prints (1: the mean and its
/// interval; 3: the Elo difference and its interval).
fn paired_py(run: &Path, a: &str, b: &str, line: usize) -> String {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/paired.py");
    let out = Command::new("python3").arg(script).arg(run).args([a, b]).output().expect("python3");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().nth(line).unwrap().to_string()
}

fn rows(run: &Path) -> Vec<Vec<String>> {
    std::fs::read_to_string(run.join("pairs.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

/// Every row of the run's pairs.csv equals `scripts/paired.py RUN A B`, and is
/// printed in `out`; each row counts `units` units.
fn check_against_paired_py(run: &Path, out: &str, pairs: usize, units: &str) {
    let r = rows(run);
    assert_eq!(r.len(), pairs);
    for row in &r {
        let (a, b) = (&row[0], &row[2]);
        let want = paired_py(run, a, b, 1);
        let mean: f64 = row[5].parse().unwrap();
        let (lo, hi): (f64, f64) = (row[6].parse().unwrap(), row[7].parse().unwrap());
        assert_eq!(format!("{mean:+.4} [{lo:+.4}, {hi:+.4}]"), want, "slots {a} and {b}");
        // Issue 55: the Elo columns, which paired.py computes on its own.
        let elo: Vec<f64> = row[12..15].iter().map(|x| x.parse().unwrap()).collect();
        assert_eq!(
            format!("Elo {:+.1} [{:+.1}, {:+.1}]", elo[0], elo[1], elo[2]),
            paired_py(run, a, b, 3),
            "slots {a} and {b}"
        );
        assert!(out.contains(&format!("{mean:+.4} [{lo:+.4}, {hi:+.4}]")), "{out}");
        assert_eq!(row[4], units);
    }
}

#[test]
fn pairs_csv_equals_paired_py_and_is_printed_and_reported() {
    let d = TempDir::new("pairs", "run");
    let run = d.path("run");
    let out = ok(&tresillo(&[
        "tournament",
        "--agents",
        "rule,random,rule:entrada=60",
        "--deals",
        "150",
        "--duplicate",
        "--out",
        run.to_str().unwrap(),
    ]));
    assert!(out.contains("paired differences, tantos per deal (A minus B, 95% CI by Student's t; "), "{out}");
    check_against_paired_py(&run, &out, 3, "150");
    // rule against random is clearly decided on 150 duplicate deals.
    let first = &rows(&run)[0];
    assert!(first[6].parse::<f64>().unwrap() > 0.0, "{first:?}");
    let html = d.path("r.html");
    ok(&tresillo(&["report", run.to_str().unwrap(), "--out", html.to_str().unwrap()]));
    assert!(std::fs::read_to_string(html).unwrap().contains("paired differences"));
}

#[test]
fn pairs_csv_equals_paired_py_at_four_players_and_with_sessions() {
    let d = TempDir::new("pairs", "four");
    for (name, players, agents, scoring, units) in [
        ("four", "4", "rule,random,rule:entrada=60,random", "deal", "20"),
        ("four-sessions", "4", "rule,random,rule:entrada=60,random", "session:4", "5"),
        ("three-sessions", "3", "rule,random,rule:entrada=60", "session:5", "16"),
    ] {
        let run = d.path(name);
        let out = ok(&tresillo(&[
            "tournament",
            "--players",
            players,
            "--agents",
            agents,
            "--deals",
            if players == "4" { "20" } else { "80" },
            "--duplicate",
            "--scoring",
            scoring,
            "--out",
            run.to_str().unwrap(),
        ]));
        let pairs = if players == "4" { 6 } else { 3 };
        check_against_paired_py(&run, &out, pairs, units);
    }
}

#[test]
fn merged_shards_and_sessions_have_their_pairs() {
    let d = TempDir::new("pairs", "shards");
    let run = |name: &str, extra: &[&str]| {
        let p = d.path(name);
        let mut args = vec!["tournament", "--agents", "rule,random,random", "--deals", "120", "--duplicate"];
        args.extend_from_slice(&["--scoring", "session:4", "--out", p.to_str().unwrap()]);
        args.extend_from_slice(extra);
        ok(&tresillo(&args));
        p
    };
    let whole = run("whole", &[]);
    let s0 = run("s0", &["--shard", "0/2"]);
    let s1 = run("s1", &["--shard", "1/2"]);
    let merged = d.path("merged");
    let out = ok(&tresillo(&["merge", merged.to_str().unwrap(), s0.to_str().unwrap(), s1.to_str().unwrap()]));
    assert!(out.contains("paired differences, tantos per session"), "{out}");
    assert_eq!(
        std::fs::read(merged.join("pairs.csv")).unwrap(),
        std::fs::read(whole.join("pairs.csv")).unwrap()
    );
    // Sessions of four deals: 30 units.
    assert!(rows(&whole).iter().all(|r| r[4] == "30"));
}
