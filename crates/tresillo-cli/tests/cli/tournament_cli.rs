//! End-to-end tests of `tresillo tournament` and `tresillo merge`: determinism
//! across threads and shards, resume after an interruption, and bad input.

use crate::common;

use common::read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tresillo"))
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tresillo-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn run(args: &[&str]) -> Output {
    let o = bin().args(args).output().unwrap();
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    o
}

fn fails(args: &[&str]) -> String {
    common::one_line_error(args, &bin().args(args).output().unwrap())
}

/// The counts of `compute.csv` (every column before the measured times) and
/// `forfeits.csv`: what must not depend on threads, shards or interruptions.
fn compute_counts(d: &Path) -> (Vec<String>, Vec<u8>) {
    let text = String::from_utf8(read(&d.join("compute.csv"))).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let n = header.iter().position(|c| *c == "timed").expect("a timed column");
    assert_eq!(header[n - 1], "forfeits", "the counts come before the times");
    let rows = text.lines().map(|l| l.split(',').take(n).collect::<Vec<_>>().join(",")).collect();
    (rows, read(&d.join("forfeits.csv")))
}

/// The measured columns of `compute.csv` are present and not negative.
fn check_times(d: &Path) {
    let text = String::from_utf8(read(&d.join("compute.csv"))).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|c| *c == name).expect(name);
    // The measured columns: `timed` to `card_ms_p99` (the inference counts after
    // them may be empty).
    let (first, last) = (col("timed"), col("card_ms_p99"));
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let decisions: u64 = f[2].parse().unwrap();
        assert!(decisions > 0, "{line}");
        for x in &f[first..=last] {
            assert!(x.parse::<f64>().is_ok_and(|v| v >= 0.0), "{line}");
        }
    }
}

const BASE: [&str; 8] =
    ["tournament", "--agents", "rule,random,rule", "--seed", "5", "--duplicate", "--deals", "120"];

fn tournament(out: &Path, extra: &[&str]) {
    let mut a: Vec<&str> = BASE.to_vec();
    a.extend(["--out", out.to_str().unwrap()]);
    a.extend(extra);
    run(&a);
}

#[test]
fn output_is_identical_whatever_the_thread_count() {
    let (a, b) = (tmp("threads1"), tmp("threads2"));
    tournament(&a, &["--threads", "1"]);
    tournament(&b, &["--threads", "2"]);
    for f in ["deals.csv", "summary.csv", "stats.json", "pairs.csv"] {
        assert_eq!(read(&a.join(f)), read(&b.join(f)), "{f}");
    }
    assert_eq!(compute_counts(&a), compute_counts(&b));
    check_times(&a);
    check_times(&b);
    let rows = String::from_utf8(read(&a.join("deals.csv"))).unwrap().lines().count();
    assert_eq!(rows, 1 + 120 * 6);
}

/// The solver agents' work counts too (`nodes` included): each clears its solver
/// tables before a hand, so the nodes a hand's searches visit do not depend on
/// which hands the same worker played before, in any rule set.
#[test]
fn solver_nodes_are_identical_whatever_the_threads_and_batches() {
    for (name, rules) in [("nodes-tresillo", "tresillo"), ("nodes-hombre", "hombre")] {
        let out = |k: &str| tmp(&format!("{name}-{k}"));
        let args = |d: &Path| -> Vec<String> {
            let a = [
                "tournament",
                "--agents",
                "pimc:worlds=3,oracle,rule",
                "--bidding",
                "rule",
                "--rules",
                rules,
            ];
            let mut a: Vec<String> = a.iter().map(|s| s.to_string()).collect();
            a.extend(
                ["--seed", "11", "--duplicate", "--deals", "8", "--out", d.to_str().unwrap()]
                    .map(String::from),
            );
            a
        };
        let (one, two) = (out("1"), out("2"));
        let o = bin().args(args(&one)).args(["--threads", "1"]).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let o = bin()
            .args(args(&two))
            .args(["--threads", "2"])
            .env("TRESILLO_BATCH_UNITS", "1")
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let (a, b) = (compute_counts(&one), compute_counts(&two));
        assert_eq!(a, b, "{rules}");
        let header: Vec<&str> = a.0[0].split(',').collect();
        let nodes = header.iter().position(|c| *c == "nodes").expect("a nodes column");
        for row in &a.0[1..3] {
            let n: u64 = row.split(',').nth(nodes).unwrap().parse().unwrap();
            assert!(n > 0, "{rules}: {row}: the solver agents searched");
        }
    }
}

#[test]
fn shards_merge_into_the_unsplit_run() {
    let whole = tmp("whole");
    tournament(&whole, &[]);
    let shards: Vec<PathBuf> = (0..3).map(|k| tmp(&format!("shard{k}"))).collect();
    // Run the shards in another order than their index.
    for k in [2, 0, 1] {
        tournament(&shards[k], &["--shard", &format!("{k}/3")]);
    }
    let merged = tmp("merged");
    let mut a = vec!["merge", merged.to_str().unwrap()];
    a.extend(shards.iter().rev().map(|p| p.to_str().unwrap()));
    run(&a);
    for f in ["deals.csv", "summary.csv", "stats.json", "pairs.csv"] {
        assert_eq!(read(&whole.join(f)), read(&merged.join(f)), "{f}");
    }
    assert_eq!(compute_counts(&whole), compute_counts(&merged));
    check_times(&merged);
    // A missing shard is refused.
    let e = fails(&[
        "merge",
        tmp("merged2").to_str().unwrap(),
        shards[0].to_str().unwrap(),
        shards[1].to_str().unwrap(),
    ]);
    assert!(e.contains("shard"), "{e}");
}

#[test]
fn merging_shards_of_different_runs_is_refused() {
    let (a, b) = (tmp("runa"), tmp("runb"));
    tournament(&a, &["--shard", "0/2"]);
    let mut args: Vec<&str> = BASE.to_vec();
    args[4] = "6"; // another seed
    args.extend(["--out", b.to_str().unwrap(), "--shard", "1/2"]);
    run(&args);
    let out = tmp("mergeab");
    let e = fails(&["merge", out.to_str().unwrap(), a.to_str().unwrap(), b.to_str().unwrap()]);
    assert!(e.contains("another run"), "{e}");
    assert!(!out.join("deals.csv").exists());
}

#[test]
fn resume_after_a_kill_gives_the_uninterrupted_result() {
    let full = tmp("full");
    let args = ["tournament", "--agents", "rule,rule,random", "--seed", "11", "--deals", "60000"];
    let mut a = args.to_vec();
    a.extend(["--out", full.to_str().unwrap()]);
    run(&a);
    let cut = tmp("cut");
    let mut a = args.to_vec();
    a.extend(["--out", cut.to_str().unwrap(), "--threads", "1"]);
    let mut child = bin().args(&a).spawn().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(400));
    let _ = child.kill(); // SIGKILL: no chance to clean up
    let _ = child.wait();
    // Simulate a torn write as well: half a row after the last checkpoint.
    if cut.join("deals.csv").exists() {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new().append(true).open(cut.join("deals.csv")).unwrap();
        f.write_all(b"12345,678,01").unwrap();
    }
    let mut a = args.to_vec();
    a.extend(["--out", cut.to_str().unwrap(), "--resume"]);
    run(&a);
    for f in ["deals.csv", "summary.csv", "stats.json", "pairs.csv"] {
        assert_eq!(read(&full.join(f)), read(&cut.join(f)), "{f}");
    }
    assert_eq!(compute_counts(&full), compute_counts(&cut));
    check_times(&cut);
}

#[test]
fn resume_takes_the_statistics_the_manifest_counts() {
    // A kill between writing the (last) manifest and renaming `stats.next.json`
    // over `stats.json` leaves the new statistics in `stats.next.json` and no
    // summary.
    let d = tmp("statsnext");
    tournament(&d, &[]);
    let summary = read(&d.join("summary.csv"));
    std::fs::rename(d.join("stats.json"), d.join("stats.next.json")).unwrap();
    std::fs::remove_file(d.join("summary.csv")).unwrap();
    let stale: serde_json::Value = serde_json::to_value(tresillo_sim::Stats::default()).unwrap();
    std::fs::write(d.join("stats.json"), stale.to_string()).unwrap();
    let mut a: Vec<&str> = BASE.to_vec();
    a.extend(["--out", d.to_str().unwrap(), "--resume"]);
    run(&a);
    assert_eq!(read(&d.join("summary.csv")), summary);
    assert!(!d.join("stats.next.json").exists());
    // Likewise the compute checkpoint: left as `compute.next.json` beside a
    // stale `compute.json`, it is the one taken.
    let counts = compute_counts(&d);
    std::fs::rename(d.join("compute.json"), d.join("compute.next.json")).unwrap();
    std::fs::write(d.join("compute.json"), serde_json::to_string(&tresillo_sim::Compute::new(3)).unwrap())
        .unwrap();
    std::fs::remove_file(d.join("summary.csv")).unwrap();
    std::fs::remove_file(d.join("compute.csv")).unwrap();
    run(&a);
    assert_eq!(compute_counts(&d), counts);
    assert!(!d.join("compute.next.json").exists());
    // Statistics that match neither are refused, not double counted.
    std::fs::write(d.join("stats.json"), stale.to_string()).unwrap();
    let e = fails(&a);
    assert!(e.contains("the statistics count 0 deals but the manifest 120"), "{e}");
}

#[test]
fn an_existing_run_is_not_overwritten_without_force() {
    let d = tmp("existing");
    tournament(&d, &[]);
    let before = read(&d.join("deals.csv"));
    let mut a: Vec<&str> = BASE.to_vec();
    a[7] = "30";
    a.extend(["--out", d.to_str().unwrap()]);
    let e = fails(&a);
    assert!(e.contains("--force"), "{e}");
    assert_eq!(read(&d.join("deals.csv")), before);
    // --resume with another configuration is refused too.
    a.push("--resume");
    let e = fails(&a);
    assert!(e.contains("another configuration"), "{e}");
    assert_eq!(read(&d.join("deals.csv")), before);
    a.pop();
    a.push("--force");
    run(&a);
    assert_ne!(read(&d.join("deals.csv")), before);
}

#[test]
fn bad_input_is_a_clear_error() {
    let d = tmp("bad");
    let o = d.to_str().unwrap();
    let e = fails(&["tournament", "--agents", "rule,nobody,random", "--out", o]);
    assert!(e.contains("nobody") && e.contains("random") && e.contains("rule"), "{e}");
    let e = fails(&["tournament", "--agents", "rule:entrada=x,random,random", "--out", o]);
    assert!(e.contains("entrada"), "{e}");
    let e = fails(&["tournament", "--agents", "rule:bogus=1,random,random", "--out", o]);
    assert!(e.contains("bogus") && e.contains("entrada"), "{e}");
    let e = fails(&["tournament", "--agents", "rule,random", "--out", o]);
    assert!(e.contains("3 agents"), "{e}");
    for bad in ["3/3", "1/0", "a/b", "2"] {
        let e = fails(&["tournament", "--shard", bad, "--out", o]);
        assert!(e.contains("shard"), "{e}");
    }
    let e = fails(&["tournament", "--scoring", "session:0", "--out", o]);
    assert!(e.contains("scoring"), "{e}");
    let e = fails(&["tournament", "--scoring", "session:7", "--deals", "10", "--out", o]);
    assert!(e.contains("multiple"), "{e}");
    assert!(!d.join("deals.csv").exists());
}

#[test]
fn session_scoring_runs_and_is_sharded_by_whole_sessions() {
    let whole = tmp("sess");
    let args = ["tournament", "--agents", "rule,rule,random", "--deals", "40", "--scoring", "session:10"];
    let mut a = args.to_vec();
    a.extend(["--out", whole.to_str().unwrap()]);
    run(&a);
    let (s0, s1) = (tmp("sess0"), tmp("sess1"));
    for (k, d) in [(0, &s0), (1, &s1)] {
        let mut a = args.to_vec();
        let sh = format!("{k}/2");
        a.extend(["--out", d.to_str().unwrap(), "--shard", &sh]);
        run(&a);
    }
    let m = tmp("sessm");
    run(&["merge", m.to_str().unwrap(), s0.to_str().unwrap(), s1.to_str().unwrap()]);
    assert_eq!(read(&whole.join("deals.csv")), read(&m.join("deals.csv")));
    assert_eq!(read(&whole.join("summary.csv")), read(&m.join("summary.csv")));
    assert_eq!(read(&whole.join("pairs.csv")), read(&m.join("pairs.csv")));
}

#[test]
fn resume_refuses_rows_missing_before_the_checkpoint() {
    let d = tmp("short");
    tournament(&d, &[]);
    let m = String::from_utf8(read(&d.join("manifest.json")))
        .unwrap()
        .replace("\"complete\": true", "\"complete\": false");
    std::fs::write(d.join("manifest.json"), m).unwrap();
    let csv = read(&d.join("deals.csv"));
    std::fs::write(d.join("deals.csv"), &csv[..csv.len() / 2]).unwrap();
    let mut a: Vec<&str> = BASE.to_vec();
    a.extend(["--out", d.to_str().unwrap(), "--resume"]);
    let e = fails(&a);
    assert!(e.contains("shorter") || e.contains("checkpoint"), "{e}");
}

/// deals.csv keeps one header for every rule set; a column that does not apply is
/// empty (docs/CLI.md, "deals.csv columns").
#[test]
fn deals_csv_columns_that_do_not_apply_to_a_rule_set_are_empty() {
    let base = tmp("columns");
    /// Checks one row, given its columns by name.
    type RowCheck<'a> = &'a dyn Fn(&dyn Fn(&str) -> String);
    let cases: [(&str, Vec<&str>, RowCheck); 4] = [
        ("tresillo", vec![], &|c| {
            assert!(c("gascarille").is_empty() && c("vole_declared").is_empty());
            assert!(c("aip").parse::<i64>().is_ok() && c("debt0").parse::<i64>().is_ok());
        }),
        ("hombre", vec!["--rule-option", "gascarille=true"], &|c| {
            assert!(
                ["0", "1"].contains(&c("gascarille").as_str())
                    && ["0", "1"].contains(&c("vole_declared").as_str())
            );
            if c("gascarille") == "1" {
                assert!(c("forced") == "1" && c("contract") == "entrada");
            }
            if c("vole_declared") == "1" {
                assert!(!c("bola").is_empty(), "a declared vole is made or failed");
            }
            assert!(c("aip").parse::<i64>().is_ok() && c("debt0").is_empty() && c("debt2").is_empty());
        }),
        ("hombre", vec![], &|c| {
            assert!(c("gascarille").is_empty() && ["0", "1"].contains(&c("vole_declared").as_str()));
        }),
        ("lhombre", vec![], &|c| {
            assert!(c("gascarille").is_empty() && c("vole_declared").is_empty());
            assert!(c("aip").is_empty() && c("debt0").is_empty());
        }),
    ];
    for (i, (rules, opts, check)) in cases.iter().enumerate() {
        let out = base.join(format!("r{i}"));
        let mut a = vec![
            "tournament",
            "--rules",
            rules,
            "--agents",
            "rule,rule,random",
            "--deals",
            "30",
            "--duplicate",
        ];
        a.extend(opts);
        a.extend(["--out", out.to_str().unwrap()]);
        run(&a);
        let csv = std::fs::read_to_string(out.join("deals.csv")).unwrap();
        let mut lines = csv.lines();
        let head: Vec<&str> = lines.next().unwrap().split(',').collect();
        assert_eq!(&head[head.len() - 2..], ["gascarille", "vole_declared"]);
        let mut gascarilles = 0;
        for l in lines {
            let row: Vec<&str> = l.split(',').collect();
            assert_eq!(row.len(), head.len(), "{l}");
            let col = |name: &str| row[head.iter().position(|h| *h == name).unwrap()].to_string();
            check(&col);
            gascarilles += usize::from(col("gascarille") == "1");
        }
        if opts.contains(&"gascarille=true") {
            assert!(gascarilles > 0, "a gascarille in 30 deals under six seatings");
        }
    }
    let _ = std::fs::remove_dir_all(&base);
}

/// Issue 20, item 1: the first checkpoint comes after one unit per thread (a slow
/// agent loses seconds to a kill, not the run), and no batch schedule, thread count
/// or interruption changes a byte of the output.
#[test]
fn checkpoints_come_early_and_batch_boundaries_change_no_byte() {
    let files = ["deals.csv", "summary.csv", "stats.json"];
    let whole = tmp("batches-whole");
    let rec = |d: &Path| d.with_extension("jsonl");
    let arg = |d: &Path| -> Vec<String> {
        let mut a: Vec<String> = BASE.iter().map(|s| s.to_string()).collect();
        let r = rec(d);
        a.extend(["--out".into(), d.to_str().unwrap().into(), "--record".into(), r.to_str().unwrap().into()]);
        a
    };
    let run_env = |d: &Path, extra: &[&str], env: &[(&str, &str)]| {
        let mut c = bin();
        c.args(arg(d)).args(extra);
        for (k, v) in env {
            c.env(k, v);
        }
        c.output().unwrap()
    };
    let o = run_env(&whole, &[], &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // Killed (aborted) right after its first checkpoint: two threads, two deals.
    let cut = tmp("batches-cut");
    let o = run_env(&cut, &["--threads", "2"], &[("TRESILLO_ABORT_AFTER_CHECKPOINTS", "1")]);
    assert!(!o.status.success(), "the run should have been stopped at its first checkpoint");
    let m: serde_json::Value = serde_json::from_slice(&read(&cut.join("manifest.json"))).unwrap();
    assert_eq!((m["deals_completed"].as_u64(), m["complete"].as_bool()), (Some(2), Some(false)), "{m}");
    // Resumed in batches of another size, on one thread.
    let o = run_env(&cut, &["--resume", "--threads", "1"], &[("TRESILLO_BATCH_UNITS", "7")]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // And a run in batches of one unit.
    let ones = tmp("batches-ones");
    let o = run_env(&ones, &["--threads", "2"], &[("TRESILLO_BATCH_UNITS", "1")]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for d in [&cut, &ones] {
        for f in files {
            assert_eq!(read(&whole.join(f)), read(&d.join(f)), "{}: {f}", d.display());
        }
        assert_eq!(read(&rec(&whole)), read(&rec(d)), "{}", rec(d).display());
        assert_eq!(compute_counts(&whole), compute_counts(d), "{}", d.display());
    }
    // A bad value is one clear line.
    let o = run_env(&tmp("batches-bad"), &[], &[("TRESILLO_BATCH_UNITS", "0")]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && err.trim().lines().count() == 1 && err.contains("TRESILLO_BATCH_UNITS"),
        "{err}"
    );
}

/// Issue 20, item 14: `--version` and every manifest name the build (version,
/// commit, dirty tree), and one build's manifests are the same on any thread count
/// (but for the command line, which names the threads).
#[test]
fn the_version_and_manifests_name_the_build_and_stay_identical_across_threads() {
    let version = String::from_utf8(run(&["--version"]).stdout).unwrap();
    let git =
        Command::new("git").args(["rev-parse", "HEAD"]).current_dir(env!("CARGO_MANIFEST_DIR")).output();
    let commit = match git {
        Ok(o) if o.status.success() => String::from_utf8(o.stdout).unwrap().trim().to_string(),
        _ => "unknown".into(), // built outside a checkout
    };
    assert!(
        version.starts_with(&format!("tresillo {} (commit {commit}, tree ", env!("CARGO_PKG_VERSION"))),
        "{version}"
    );
    let manifest = |threads: &str| {
        let out = tmp(&format!("build-{threads}"));
        tournament(&out, &["--threads", threads]);
        let text = String::from_utf8(read(&out.join("manifest.json"))).unwrap();
        let mut m: serde_json::Value = serde_json::from_str(&text).unwrap();
        let _ = std::fs::remove_dir_all(&out);
        m.as_object_mut().unwrap().remove("command_line");
        m
    };
    let one = manifest("1");
    assert_eq!(one["build"]["commit"], commit.as_str(), "{one}");
    assert!(one["build"]["dirty"].is_boolean() || commit == "unknown", "{one}");
    assert_eq!(one, manifest("2"));
}

/// Issue 23, section 2: `--ms-per-decision` gives the search agents a time
/// budget (their specs say so in deals.csv, a note says it does not reproduce)
/// and leaves the others alone; a spec that fixes its work is refused.
#[test]
fn ms_per_decision_gives_the_search_agents_an_equal_time_budget() {
    let d = tmp("equal-time");
    let o = run(&[
        "tournament",
        "--agents",
        "pimc,ismcts,rule",
        "--deals",
        "2",
        "--ms-per-decision",
        "2",
        "--out",
        d.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("pimc:ms=2, ismcts:ms=2") && err.contains("do not reproduce"), "{err}");
    let csv = String::from_utf8(read(&d.join("deals.csv"))).unwrap();
    let row = csv.lines().nth(1).unwrap();
    assert!(row.contains("pimc:ms=2") && row.contains("ismcts:ms=2") && row.contains(",rule,"), "{row}");
    let m: serde_json::Value = serde_json::from_slice(&read(&d.join("manifest.json"))).unwrap();
    assert_eq!(m["config"]["agents"], serde_json::json!(["pimc:ms=2", "ismcts:ms=2", "rule"]));
    check_times(&d);
    for spec in ["pimc:worlds=4,rule,rule", "ismcts:iters=9,rule,rule", "pimc:ms=1,rule,rule"] {
        let e = fails(&[
            "tournament",
            "--agents",
            spec,
            "--deals",
            "2",
            "--ms-per-decision",
            "2",
            "--out",
            "out/x",
        ]);
        assert!(e.contains("already sets"), "{e}");
    }
}

/// `tresillo calibrate` on a tiny target prints, last, a spec that builds; a
/// spec that fixes its work, or an agent without one, is refused in one line.
#[test]
fn calibrate_prints_a_reproducible_spec() {
    for (spec, param) in [("pimc", "worlds"), ("ismcts:c=1", "iters")] {
        let o = run(&["calibrate", "--spec", spec, "--ms", "1", "--n", "2", "--max-deals", "4"]);
        let text = String::from_utf8(o.stdout).unwrap();
        let last = text.lines().last().unwrap();
        assert!(last.starts_with(&format!("{spec}:{param}=")), "{text}");
        tresillo_agents::build_agent(last).unwrap_or_else(|e| panic!("{last}: {e}"));
        assert!(text.lines().count() >= 3, "the measurements first: {text}");
    }
    // Several specs together (their deals interleaved): one per line, then all of
    // them on the last line as `--agents` takes them.
    let o = run(&[
        "calibrate",
        "--spec",
        "pimc",
        "--spec",
        "ismcts",
        "--ms",
        "1",
        "--n",
        "2",
        "--max-deals",
        "4",
    ]);
    let text = String::from_utf8(o.stdout).unwrap();
    let last: Vec<&str> = text.lines().last().unwrap().split(',').collect();
    assert!(
        last.len() == 2 && last[0].starts_with("pimc:worlds=") && last[1].starts_with("ismcts:iters="),
        "{text}"
    );
    assert!(text.lines().any(|l| l.starts_with("pimc: worlds=1: ")), "{text}");
    assert!(text.lines().filter(|l| l.starts_with("calibrated: ")).count() == 2, "{text}");
    let e = fails(&["calibrate", "--spec", "pimc:worlds=5", "--ms", "1"]);
    assert!(e.contains("already sets `worlds`"), "{e}");
    let e = fails(&["calibrate", "--spec", "rule", "--ms", "1"]);
    assert!(e.contains("`pimc` or `ismcts`"), "{e}");
}

/// Issue 33: `calibrate` measures an amount as the duplicate tournament the
/// specs are calibrated for charges it: each deal at every seating, so the agent
/// decides from every seat (a fixed seat leads more or less often than a
/// tournament's agent, and a search's cost per decision depends on it). The
/// decisions of a measurement are those `tournament --duplicate` counts for
/// slot 0 on the same deals; with `--fixed-seats`, those of a plain tournament.
#[test]
fn calibrate_measures_the_seatings_of_a_duplicate_tournament() {
    let decisions = |extra: &[&str]| -> u64 {
        let dir = tmp(&format!("calibrate-seats{}", extra.len()));
        let mut args = vec![
            "tournament",
            "--agents",
            "pimc:worlds=1,rule,rule",
            "--deals",
            "2",
            "--seed",
            "3",
            "--threads",
            "1",
            "--quiet",
            "--force",
            "--out",
        ];
        let d = dir.to_str().unwrap().to_string();
        args.push(&d);
        args.extend_from_slice(extra);
        assert!(run(&args).status.success());
        let compute = std::fs::read_to_string(dir.join("compute.csv")).unwrap();
        let mut lines = compute.lines();
        let head: Vec<&str> = lines.next().unwrap().split(',').collect();
        let row: Vec<&str> = lines.next().unwrap().split(',').collect();
        row[head.iter().position(|h| *h == "decisions").unwrap()].parse().unwrap()
    };
    let measured = |extra: &[&str]| -> u64 {
        let mut args = vec!["calibrate", "--spec", "pimc", "--ms", "1", "--n", "2", "--max-deals", "2"];
        args.extend_from_slice(&["--seed", "3"]);
        args.extend_from_slice(extra);
        let o = run(&args);
        let text = String::from_utf8(o.stdout).unwrap();
        let line = text.lines().find(|l| l.starts_with("worlds=1: ")).unwrap_or_else(|| panic!("{text}"));
        let n = line.rsplit_once('(').unwrap().1.split(' ').next().unwrap();
        n.parse().unwrap_or_else(|_| panic!("{line}"))
    };
    assert_eq!(measured(&[]), decisions(&["--duplicate"]));
    assert_eq!(measured(&["--fixed-seats"]), decisions(&[]));
}

/// Issue 34, finding 10: a message that quotes input from outside is one line
/// with nothing a terminal acts on: control characters (a newline that could
/// forge an `error:` line, an ANSI escape) are printed escaped.
#[test]
fn errors_quoting_the_input_escape_control_characters() {
    let err = fails(&["tournament", "--agents", "rando\nforged\u{1b}[31m,rule,rule", "--deals", "1"]);
    assert_eq!(err.trim_end().lines().count(), 1, "{err:?}");
    assert!(err.contains("rando\\nforged\\u{1b}[31m"), "{err:?}");
    assert!(!err.contains('\u{1b}'), "{err:?}");
    // A label (`name=`) or a bot's path that would be printed in every table is refused.
    let err = fails(&["tournament", "--agents", "rule:name=a\u{1b}[2Jb,rule,random", "--deals", "1"]);
    assert!(err.contains("holds a control character") && err.contains("a\\u{1b}[2Jb"), "{err:?}");
}
