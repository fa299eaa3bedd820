//! `tresillo tune`: the candidates CSV, the best spec, determinism, bad input.

use std::fs;
use std::path::Path;
use std::process::Output;

mod common;
use common::{TempDir, failed, ok, tresillo};

/// The CSV as a header and rows of fields (no field here holds a comma).
fn read_csv(p: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let text = fs::read_to_string(p).unwrap();
    let mut lines = text.lines().map(|l| l.split(',').map(String::from).collect::<Vec<_>>());
    let header = lines.next().unwrap();
    (header, lines.collect())
}

fn tune(dir: &Path, extra: &[&str]) -> Output {
    let out = dir.join("candidates.csv");
    let mut args = vec!["tune", "--deals", "12", "--seed", "3"];
    if !extra.contains(&"--opponents") {
        args.extend(["--opponents", "random,random"]);
    }
    args.extend_from_slice(extra);
    let out = out.to_str().unwrap().to_string();
    args.extend_from_slice(&["--out", &out]);
    tresillo(&args)
}

#[test]
fn a_grid_writes_every_candidate_and_prints_the_best_spec_last() {
    let d = TempDir::new("tune-cli", "grid");
    let stdout =
        ok(&tune(&d.0, &["--method", "grid", "--param", "entrada=40,50", "--param", "vuelta=40..50:10"]));
    let (header, rows) = read_csv(&d.0.join("candidates.csv"));
    assert_eq!(
        header,
        [
            "spec",
            "entrada",
            "vuelta",
            "mean_tantos",
            "ci95_low",
            "ci95_high",
            "deals",
            "vs_start",
            "vs_start_ci95_low",
            "vs_start_ci95_high",
            "declare_rate",
            "round"
        ]
    );
    // The start (the defaults) first, then the 4 grid points, first parameter outermost.
    let specs: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(
        specs,
        [
            "rule:entrada=45:vuelta=47",
            "rule:entrada=40:vuelta=40",
            "rule:entrada=40:vuelta=50",
            "rule:entrada=50:vuelta=40",
            "rule:entrada=50:vuelta=50"
        ]
    );
    for r in &rows {
        assert_eq!(r[6], "12");
        let (mean, lo, hi): (f64, f64, f64) =
            (r[3].parse().unwrap(), r[4].parse().unwrap(), r[5].parse().unwrap());
        assert!(lo <= mean && mean <= hi, "{r:?}");
        assert_eq!(format!("rule:entrada={}:vuelta={}", r[1], r[2]), r[0]);
    }
    assert_eq!(rows[0][7], "0.0000", "the start against itself");
    // The last line is the best spec alone: the highest mean, the earliest on a tie.
    let best = stdout.lines().last().unwrap();
    let top = rows.iter().map(|r| r[3].parse::<f64>().unwrap()).fold(f64::MIN, f64::max);
    let first_top = rows.iter().find(|r| r[3].parse::<f64>().unwrap() == top).unwrap();
    assert_eq!(best, first_top[0]);
    // The manifest beside the CSV agrees.
    let m: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(d.0.join("candidates.manifest.json")).unwrap()).unwrap();
    assert_eq!(m["best"]["spec"], best);
    assert_eq!(m["evaluations"], 5);
    assert_eq!(m["duplicate"], true);
    assert_eq!(m["method"], "grid");
}

#[test]
fn coordinate_search_is_the_same_whatever_the_thread_count() {
    let d = TempDir::new("tune-cli", "threads");
    let one = d.0.join("one");
    let two = d.0.join("two");
    let args = ["--param", "entrada=35..55:10", "--param", "solo=45,55", "--rounds", "3"];
    let mut a1 = args.to_vec();
    a1.extend(["--threads", "1"]);
    let mut a2 = args.to_vec();
    a2.extend(["--threads", "2"]);
    let s1 = ok(&tune(&one, &a1));
    let s2 = ok(&tune(&two, &a2));
    let c1 = fs::read_to_string(one.join("candidates.csv")).unwrap();
    let c2 = fs::read_to_string(two.join("candidates.csv")).unwrap();
    assert_eq!(c1, c2);
    assert_eq!(s1.replace(one.to_str().unwrap(), ""), s2.replace(two.to_str().unwrap(), ""));
    // Coordinate search: the start in round 0, no spec twice, within its bound.
    let (_, rows) = read_csv(&one.join("candidates.csv"));
    assert_eq!(rows[0][0], "rule:entrada=45:solo=50");
    assert_eq!(rows[0].last().unwrap(), "0");
    let mut specs: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    specs.sort();
    specs.dedup();
    assert_eq!(specs.len(), rows.len());
    assert!(rows.len() <= 1 + 3 * (3 + 2));
    assert!(specs.contains(&s1.lines().last().unwrap()));
}

#[test]
fn a_start_spec_and_fixed_parameters_shape_the_candidates() {
    let d = TempDir::new("tune-cli", "start");
    let stdout = ok(&tune(
        &d.0,
        &[
            "--agent",
            "rule:surrender=30",
            "--param",
            "entrada=40,50",
            "--start",
            "rule:entrada=42",
            "--rounds",
            "1",
        ],
    ));
    let (_, rows) = read_csv(&d.0.join("candidates.csv"));
    assert_eq!(rows[0][0], "rule:surrender=30:entrada=42");
    assert!(rows.iter().all(|r| r[0].starts_with("rule:surrender=30:entrada=")));
    assert!(stdout.lines().last().unwrap().starts_with("rule:surrender=30:entrada="));
}

#[test]
fn bad_input_is_refused_before_anything_is_written() {
    let d = TempDir::new("tune-cli", "bad");
    let csv = d.0.join("candidates.csv");
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["--param", "bogus=1,2"],
            &["bogus", "entrada", "vuelta", "solo", "surrender", "takeover", "vienen"],
        ),
        (&["--param", "entrada=60..30:5"], &["entrada=60..30:5", "below the start", "START..END:STEP"]),
        (&["--param", "entrada=30..60:0"], &["step must be positive"]),
        (&["--param", "entrada"], &["no `=`"]),
        (&["--param", "entrada=1,x"], &["`x` is not a number"]),
        (&["--param", "entrada=1", "--param", "entrada=2"], &["given twice"]),
        (&["--param", "entrada=5000"], &["between"]),
        (&["--param", "entrada=40", "--method", "anneal"], &["anneal", "grid, coordinate"]),
        (&["--param", "entrada=40", "--agent", "nobody"], &["nobody", "rule", "random"]),
        (&["--param", "entrada=40", "--opponents", "rule"], &["2 opponents are needed at a table of 3"]),
        (&["--param", "entrada=40", "--opponents", "rule,robot"], &["robot", "known agents"]),
        (&["--param", "entrada=40", "--start", "rule:vuelta=40"], &["vuelta", "not tuned"]),
        (
            &["--param", "entrada=0..100", "--method", "grid", "--max-evaluations", "50"],
            &["102", "limit of 50"],
        ),
    ];
    for (args, needles) in cases {
        let err = failed(&tune(&d.0, args));
        for n in *needles {
            assert!(err.contains(n), "{args:?}: `{n}` not in: {err}");
        }
        assert!(!csv.exists(), "{args:?} wrote a file");
    }
    // An existing CSV is kept without --force.
    fs::write(&csv, "keep me\n").unwrap();
    let err = failed(&tune(&d.0, &["--param", "entrada=40"]));
    assert!(err.contains("--force"), "{err}");
    assert_eq!(fs::read_to_string(&csv).unwrap(), "keep me\n");
    ok(&tune(&d.0, &["--param", "entrada=40", "--force"]));
    assert!(fs::read_to_string(&csv).unwrap().starts_with("spec,entrada,"));
}
