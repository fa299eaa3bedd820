//! `tresillo tune`: the candidates CSV, the best spec, determinism, bad input.

use std::fs;
use std::path::Path;
use std::process::Output;

use crate::common;
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
    // The manifest's best is the highest mean, the earliest on a tie; the last
    // line is the spec recommended, which is that best only when confirmed.
    let last = stdout.lines().last().unwrap();
    let top = rows.iter().map(|r| r[3].parse::<f64>().unwrap()).fold(f64::MIN, f64::max);
    let first_top = rows.iter().find(|r| r[3].parse::<f64>().unwrap() == top).unwrap();
    let m: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(d.0.join("candidates.manifest.json")).unwrap()).unwrap();
    assert_eq!(m["best"]["spec"], first_top[0]);
    let rec = &m["recommendation"];
    assert_eq!(rec["spec"], last);
    assert_eq!(rec["search_best"], first_top[0]);
    match rec["decision"].as_str().unwrap() {
        "adopt" => assert_eq!(last, first_top[0]),
        "keep the start" => assert_eq!(last, rows[0][0]),
        other => panic!("{other}"),
    }
    assert_eq!(
        stdout.lines().rev().nth(1).unwrap(),
        format!("verdict: {}", rec["verdict"].as_str().unwrap())
    );
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

fn one_line(err: &str) -> &str {
    assert_eq!(err.trim().lines().count(), 1, "one clear line: {err}");
    err.trim()
}

/// Runs a tune that stops (as if killed) after `n` candidates of this process.
fn tune_stopping(dir: &Path, n: usize, extra: &[&str]) -> String {
    let out = dir.join("candidates.csv");
    let mut args = vec!["tune", "--deals", "12", "--seed", "3", "--opponents", "random,random"];
    args.extend_from_slice(extra);
    let out = out.to_str().unwrap().to_string();
    args.extend_from_slice(&["--out", &out]);
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_tresillo"))
        .args(&args)
        .env("TRESILLO_TUNE_STOP_AFTER", n.to_string())
        .output()
        .unwrap();
    failed(&o)
}

/// Issue 20, item 2: an interrupted tune continues with --resume where it stopped,
/// and ends with the same candidates.csv and manifest, byte for byte, as a tune
/// that was never interrupted; --resume refuses other settings in one line.
#[test]
fn an_interrupted_tune_resumes_to_the_same_bytes() {
    let d = TempDir::new("tune-cli", "resume");
    let csv = d.path("candidates.csv");
    let manifest = d.path("candidates.manifest.json");
    let checkpoint = d.path("candidates.csv.checkpoint.json");
    let args = ["--param", "entrada=35..55:10", "--param", "solo=45,55", "--rounds", "3"];
    let whole_out = ok(&tune(&d.0, &args));
    let (whole_csv, whole_manifest) = (fs::read(&csv).unwrap(), fs::read(&manifest).unwrap());
    let (_, rows) = read_csv(&csv);
    assert!(rows.len() >= 5, "{}", rows.len());
    // Again from nothing, interrupted twice.
    for f in [&csv, &manifest, &d.path("candidates.confirm.csv")] {
        let _ = fs::remove_file(f);
    }
    let err = tune_stopping(&d.0, 2, &args);
    assert!(err.contains("stopped after 2 candidates") && err.contains("--resume"), "{err}");
    assert!(checkpoint.exists() && !csv.exists() && !manifest.exists());
    let (_, partial) = read_csv(&d.path("candidates.csv.partial"));
    assert_eq!(partial, rows[..2]);
    // Without --resume the interrupted search is kept, not overwritten.
    let err = failed(&tune(&d.0, &args));
    assert!(one_line(&err).contains("interrupted search (2 candidates scored)"), "{err}");
    assert!(err.contains("--resume") && err.contains("--force"), "{err}");
    // Other settings are refused, naming each difference.
    let mut other = args.to_vec();
    other[1] = "entrada=35..55:5";
    let err = failed(&tune(&d.0, &[&other[..], &["--opponents", "rule,random", "--resume"]].concat()));
    let err = one_line(&err);
    assert!(err.contains("other settings"), "{err}");
    assert!(err.contains("params: entrada=35,45,55 solo=45,55 in the checkpoint"), "{err}");
    assert!(err.contains("opponents: random,random in the checkpoint, rule,random given"), "{err}");
    let resumed = [&args[..], &["--resume"]].concat();
    let err = tune_stopping(&d.0, 1, &[&resumed[..], &["--threads", "1"]].concat());
    assert!(err.contains("resuming after 2 candidates"), "{err}");
    let (_, partial) = read_csv(&d.path("candidates.csv.partial"));
    assert_eq!(partial, rows[..3]);
    let out = ok(&tune(&d.0, &[&resumed[..], &["--threads", "2"]].concat()));
    assert_eq!(out, whole_out);
    assert!(fs::read(&csv).unwrap() == whole_csv, "candidates.csv differs");
    assert_eq!(
        String::from_utf8(fs::read(&manifest).unwrap()).unwrap(),
        String::from_utf8(whole_manifest).unwrap()
    );
    assert!(!checkpoint.exists() && !d.path("candidates.csv.partial").exists());
    // A finished search is left as it is; the last line is still the best spec.
    let again = ok(&tune(&d.0, &resumed));
    assert!(again.contains("already complete (") && again.contains("nothing to do"), "{again}");
    assert_eq!(again.lines().last(), whole_out.lines().last());
    assert!(fs::read(&csv).unwrap() == whole_csv);
    // --force starts an interrupted search over.
    tune_stopping(&d.0, 1, &[&args[..], &["--force"]].concat());
    assert!(checkpoint.exists());
    let err = failed(&tune(&d.0, &[&args[..], &["--force", "--resume"]].concat()));
    assert!(err.contains("exclude each other"), "{err}");
    ok(&tune(&d.0, &[&args[..], &["--force"]].concat()));
    assert!(fs::read(&csv).unwrap() == whole_csv && !checkpoint.exists());
}

/// Issue 34, finding 10: `--resume` of a finished tune whose manifest is damaged
/// says so in one line (it said "no search to resume; starting it", then that the
/// candidates file already exists), and leaves every file as it was.
#[test]
fn a_damaged_manifest_is_named_on_resume() {
    let d = TempDir::new("tune-cli", "damaged");
    let csv = d.path("candidates.csv");
    let manifest = d.path("candidates.manifest.json");
    let args = ["--param", "entrada=35,45", "--confirm", "0"];
    ok(&tune(&d.0, &args));
    let resumed = [&args[..], &["--resume"]].concat();
    let text = fs::read_to_string(&manifest).unwrap();
    let before = fs::read(&csv).unwrap();
    fs::write(&manifest, &text[..text.len() / 2]).unwrap();
    let err = failed(&tune(&d.0, &resumed));
    let err = one_line(&err);
    assert!(
        err.contains("candidates.manifest.json: not a tune manifest") && err.contains("--force"),
        "{err}"
    );
    assert!(!err.contains("no search to resume"), "{err}");
    fs::remove_file(&manifest).unwrap();
    let err = failed(&tune(&d.0, &resumed));
    let err = one_line(&err);
    assert!(err.contains("its manifest") && err.contains("is missing"), "{err}");
    assert_eq!(fs::read(&csv).unwrap(), before);
    fs::write(&manifest, &text).unwrap();
    let other = [&["--param", "entrada=35,55", "--confirm", "0"][..], &["--resume"]].concat();
    let err = failed(&tune(&d.0, &other));
    let err = one_line(&err);
    assert!(err.contains("holds a search with other settings"), "{err}");
}

/// Issue 20, item 2: two tunes on the same --out: the second is refused, naming
/// the first one's pid, and the first one's files are not touched.
#[test]
fn a_second_tune_on_the_same_out_is_refused() {
    let d = TempDir::new("tune-cli", "lock");
    let csv = d.path("candidates.csv");
    let checkpoint = d.path("candidates.csv.checkpoint.json");
    let args = [
        "tune",
        "--param",
        "entrada=20..70:1",
        "--method",
        "grid",
        "--deals",
        "5000",
        "--threads",
        "1",
        "--out",
        csv.to_str().unwrap(),
    ];
    let mut first = std::process::Command::new(env!("CARGO_BIN_EXE_tresillo"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the first has scored a candidate: it holds the lock.
    let t0 = std::time::Instant::now();
    while !fs::read_to_string(&checkpoint).is_ok_and(|t| t.contains("\"spec\"")) {
        assert!(t0.elapsed() < std::time::Duration::from_secs(120), "the first tune never checkpointed");
        assert!(first.try_wait().unwrap().is_none(), "the first tune ended");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let pid = first.id().to_string();
    for extra in [&[][..], &["--force"], &["--resume"]] {
        let err = failed(&tresillo(&[&args[..], extra].concat()));
        let err = one_line(&err);
        assert!(err.contains("in use by another tresillo process") && err.contains(&pid), "{extra:?}: {err}");
    }
    assert!(first.try_wait().unwrap().is_none(), "the first tune ended: the test proved nothing");
    first.kill().unwrap();
    first.wait().unwrap();
    assert!(!csv.exists());
    // The lock died with its holder: the search can be continued.
    let err = failed(&tresillo(&args));
    assert!(one_line(&err).contains("--resume"), "{err}");
}

/// Issue 20, item 13: counts are in the singular when they are one.
#[test]
fn counts_of_one_are_singular() {
    let d = TempDir::new("tune-cli", "plural");
    let o = tune(&d.0, &["--param", "entrada=45"]);
    let out = ok(&o);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("over entrada (1 value);"), "{err}");
    assert!(out.starts_with("1 candidate evaluated (1 round, converged);"), "{out}");
    let report = d.path("r.html");
    let out = ok(&tresillo(&["report", d.0.to_str().unwrap(), "--out", report.to_str().unwrap()]));
    assert!(out.contains(" from 1 run in "), "{out}");
    let html = fs::read_to_string(&report).unwrap();
    assert!(html.contains("1 candidate, 1 round,"), "{}", &html[..html.len().min(400)]);
}

#[test]
fn the_best_is_judged_against_the_start_and_confirmed_on_fresh_deals() {
    let d = TempDir::new("tune", "confirm");
    let out = d.path("c.csv");
    let confirm_csv = d.path("c.confirm.csv");
    let tune = |extra: &[&str]| {
        let mut args = vec!["tune", "--agent", "rule", "--start", "rule:entrada=10", "--param"];
        args.extend_from_slice(&["entrada=10,45", "--method", "grid", "--deals", "60", "--seed", "3"]);
        args.extend_from_slice(&["--out", out.to_str().unwrap()]);
        args.extend_from_slice(extra);
        tresillo(&args)
    };
    let printed = ok(&tune(&["--confirm", "80"]));
    // Declaring from 45 points rather than 10 is clearly better on the same deals;
    // the search's estimate is called optimistic, the confirmation decides.
    assert!(printed.contains("the search's best gains +"), "{printed}");
    assert!(
        printed.contains("an optimistic estimate (the largest of 2 noisy ones: selection bias)"),
        "{printed}"
    );
    assert!(printed.contains("confirmation on 80 fresh deals (seed 4)"), "{printed}");
    let confirm = std::fs::read_to_string(&confirm_csv).unwrap();
    let rows: Vec<Vec<&str>> = confirm.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 3, "{confirm}");
    assert_eq!(rows[0].last(), Some(&"recommended"), "the verdict's column is last: {confirm}");
    assert_eq!(rows[1][..4], ["start", "rule:entrada=10", "80", "4"], "{confirm}");
    assert_eq!(rows[2][..4], ["best", "rule:entrada=45", "80", "4"], "{confirm}");
    assert_eq!((rows[1][10], rows[2][10]), ("false", "true"), "{confirm}");
    // The verdict is the file's gain and interval; the last line the spec adopted.
    let gain = format!("{:+.4} [{:+.4}, {:+.4}]", num(rows[2][7]), num(rows[2][8]), num(rows[2][9]));
    assert!(num(rows[2][8]) > 0.0, "{confirm}");
    let lines: Vec<&str> = printed.lines().collect();
    assert_eq!(lines[lines.len() - 2], format!("verdict: adopt rule:entrada=45: {gain} on 80 fresh deals"));
    assert_eq!(lines[lines.len() - 1], "rule:entrada=45", "{printed}");
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.path("c.manifest.json")).unwrap()).unwrap();
    let rec = &m["recommendation"];
    assert_eq!((rec["decision"].as_str(), rec["spec"].as_str()), (Some("adopt"), Some("rule:entrada=45")));
    assert_eq!((rec["confirm_deals"].as_u64(), rec["confirm_seed"].as_u64()), (Some(80), Some(4)));
    assert_eq!(format!("{:+.4}", rec["gain_ci95_low"].as_f64().unwrap()), format!("{:+.4}", num(rows[2][8])));

    // An existing confirmation is not overwritten without --force ...
    let e = failed(&tune(&["--confirm", "80"]));
    assert!(e.contains("already exists; use --force"), "{e}");
    // ... --resume of the finished search keeps it, and refuses another size ...
    let again = ok(&tune(&["--confirm", "80", "--resume"]));
    assert!(again.contains("nothing to do") && !again.contains("confirmation on"), "{again}");
    assert!(again.ends_with(&format!("{}\n{}\n", lines[lines.len() - 2], lines[lines.len() - 1])), "{again}");
    assert_eq!(std::fs::read_to_string(&confirm_csv).unwrap(), confirm);
    let e = failed(&tune(&["--confirm", "90", "--resume"]));
    assert!(e.contains("confirmed on 80 fresh deals, not 90"), "{e}");
    // ... and writes it, the same, when it is missing.
    std::fs::remove_file(&confirm_csv).unwrap();
    let again = ok(&tune(&["--confirm", "80", "--resume"]));
    assert!(again.contains("already complete") && again.contains(&gain), "{again}");
    assert_eq!(again.lines().last().unwrap(), "rule:entrada=45", "{again}");
    assert_eq!(std::fs::read_to_string(&confirm_csv).unwrap(), confirm);
    // Without a confirmation (--confirm 0) the start is kept, and the old
    // search's confirmation is removed.
    let printed = ok(&tune(&["--force", "--confirm", "0"]));
    assert!(!confirm_csv.exists());
    assert!(printed.ends_with("verdict: keep the start rule:entrada=10: the search's best is not confirmed (--confirm 0 played no fresh deals)\nrule:entrada=10\n"), "{printed}");
    // The start as the best is kept without a confirmation.
    let printed = ok(&tresillo(&[
        "tune",
        "--agent",
        "rule",
        "--param",
        "entrada=45",
        "--deals",
        "10",
        "--out",
        d.path("n.csv").to_str().unwrap(),
    ]));
    assert!(
        printed.ends_with(
            "verdict: keep the start rule:entrada=45: no candidate beat it in the search\nrule:entrada=45\n"
        ),
        "{printed}"
    );
    assert!(!d.path("n.confirm.csv").exists());
    let e = failed(&tune(&["--force", "--confirm", "1"]));
    assert!(e.contains("--confirm 1: between 2"), "{e}");
    assert_eq!(
        std::fs::read_to_string(&out).unwrap().lines().count(),
        3,
        "refused before anything was written"
    );
}

/// Issue 33, item 1, the reproducer (scaled down): the search's best, not
/// confirmed on fresh deals (here worse than the start), is never recommended:
/// the last line, the manifest, the confirmation's file and the report all keep
/// the start.
#[test]
fn a_candidate_not_confirmed_is_never_recommended() {
    let d = TempDir::new("tune", "unconfirmed");
    let out = d.path("c.csv");
    let printed = ok(&tresillo(&[
        "tune",
        "--agent",
        "rule",
        "--param",
        "entrada=41..49:2",
        "--param",
        "solo=46..54:2",
        "--method",
        "coordinate",
        "--deals",
        DEALS,
        "--seed",
        SEED,
        "--confirm",
        CONFIRM,
        "--out",
        out.to_str().unwrap(),
    ]));
    let confirm = std::fs::read_to_string(d.path("c.confirm.csv")).unwrap();
    let rows: Vec<Vec<&str>> = confirm.lines().map(|l| l.split(',').collect()).collect();
    let (start, best) = (rows[1][1], rows[2][1]);
    assert_ne!(start, best, "the search found a best other than the start: {printed}");
    assert!(num(rows[2][8]) <= 0.0, "this reproducer's best is not confirmed: {confirm}");
    assert_eq!(printed.lines().last().unwrap(), start, "{printed}");
    let verdict = printed.lines().rev().nth(1).unwrap();
    assert!(
        verdict.starts_with(&format!(
            "verdict: keep the start {start}: {best} is not confirmed on {CONFIRM} fresh deals"
        )),
        "{verdict}"
    );
    assert_eq!((rows[1][10], rows[2][10]), ("true", "false"), "{confirm}");
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.path("c.manifest.json")).unwrap()).unwrap();
    assert_eq!(m["recommendation"]["decision"], "keep the start");
    assert_eq!(m["recommendation"]["spec"], start);
    // Issue 52, item 10: `best` is the candidate to use (the start kept); the
    // search's best is still recorded, as the search's.
    assert_eq!(m["best"]["spec"], start, "{m}");
    assert_eq!(m["search_best_result"]["spec"], best, "{m}");
    // The report's tune page says so.
    let page = d.path("r.html");
    ok(&tresillo(&["report", out.to_str().unwrap(), "--out", page.to_str().unwrap()]));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains(&format!("<strong>Verdict: keep the start {start}")), "the verdict on the page");
    assert!(
        html.contains(&format!("fresh deals (seed {})", SEED.parse::<u64>().unwrap() + 1)),
        "the confirmation"
    );
    assert!(html.contains("optimistic"), "the search's estimate is called optimistic");
}

/// The reproducer's deals, seed and confirmation (issue 33: 1000 deals, seed 11,
/// confirmation 3000, scaled down to run in seconds, its property kept: a best
/// that the confirmation does not support).
const DEALS: &str = "300";
const SEED: &str = "11";
const CONFIRM: &str = "900";

/// Issue 33, item 1: a deliberately bad start (declaring from 35 points) is
/// improved, and the gain is confirmed on fresh deals and adopted.
#[test]
fn a_bad_start_is_improved_and_the_gain_confirmed() {
    let d = TempDir::new("tune", "badstart");
    let out = d.path("c.csv");
    let printed = ok(&tresillo(&[
        "tune",
        "--agent",
        "rule",
        "--start",
        "rule:entrada=35",
        "--param",
        "entrada=35..55:5",
        "--deals",
        "200",
        "--seed",
        "5",
        "--confirm",
        "400",
        "--out",
        out.to_str().unwrap(),
    ]));
    let last = printed.lines().last().unwrap();
    assert_ne!(last, "rule:entrada=35", "{printed}");
    let verdict = printed.lines().rev().nth(1).unwrap();
    assert!(
        verdict.starts_with(&format!("verdict: adopt {last}: +")) && verdict.ends_with(" on 400 fresh deals"),
        "{verdict}"
    );
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.path("c.manifest.json")).unwrap()).unwrap();
    let rec = &m["recommendation"];
    assert_eq!(rec["decision"], "adopt");
    assert!(rec["gain_ci95_low"].as_f64().unwrap() > 0.0, "{rec}");
    println!("bad start: {verdict}");
}

fn num(s: &str) -> f64 {
    s.parse().unwrap()
}
