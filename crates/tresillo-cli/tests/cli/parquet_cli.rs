//! End-to-end tests of `--format parquet|both` (issue 25): `deals.parquet` is
//! byte-identical whatever the thread count, the batch sizes, the shard split and
//! an interruption; it holds exactly the rows of `deals.csv`; `report` and `merge`
//! read it; bad input is one line naming the file, and changes no input.
//!
//! Every command runs with `TRESILLO_PARQUET_GROUP_ROWS=50` (row groups of 8
//! duplicate deals), so that these small runs have many row groups.

use crate::common;

use common::read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tresillo"));
    c.env("TRESILLO_PARQUET_GROUP_ROWS", "50");
    c
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tresillo-pq-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn run_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = bin();
    c.args(args);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn run(args: &[&str]) -> Output {
    let o = run_env(args, &[]);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    o
}

fn fails(args: &[&str]) -> String {
    common::one_line_error(args, &run_env(args, &[]))
}

const BASE: [&str; 8] =
    ["tournament", "--agents", "rule,random,rule", "--seed", "5", "--duplicate", "--deals", "120"];

fn args<'a>(out: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut a: Vec<&str> = BASE.to_vec();
    a.extend(["--out", out.to_str().unwrap()]);
    a.extend(extra);
    a
}

fn tournament(out: &Path, extra: &[&str]) {
    run(&args(out, extra));
}

/// deals.parquet written out as CSV text.
fn as_csv(p: &Path) -> Vec<u8> {
    let mut v = Vec::new();
    tresillo_runs::parquet::to_csv(p, &mut v).unwrap();
    v
}

#[test]
fn parquet_is_identical_whatever_the_threads_and_batches_and_holds_the_csv_rows() {
    let (a, b, c, csv) = (tmp("t1"), tmp("t2"), tmp("t3"), tmp("tcsv"));
    tournament(&a, &["--threads", "1", "--format", "both"]);
    let o = run_env(&args(&b, &["--threads", "2", "--format", "both"]), &[("TRESILLO_BATCH_UNITS", "7")]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = run_env(&args(&c, &["--threads", "2", "--format", "parquet"]), &[("TRESILLO_BATCH_UNITS", "1")]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    tournament(&csv, &["--threads", "2"]);
    let pq = read(&a.join("deals.parquet"));
    for d in [&b, &c] {
        assert_eq!(pq, read(&d.join("deals.parquet")), "{}", d.display());
    }
    // The same rows as deals.csv, cell for cell (a null is an empty cell).
    assert_eq!(as_csv(&a.join("deals.parquet")), read(&csv.join("deals.csv")));
    assert_eq!(read(&a.join("deals.csv")), read(&csv.join("deals.csv")));
    // Row groups of whole units counted from deal 0: 8 duplicate deals of 6 rows.
    let groups = tresillo_runs::parquet::row_groups(&a.join("deals.parquet")).unwrap();
    assert_eq!(groups, vec![48; 15]);
    // The statistics do not depend on the format; parquet alone writes no CSV
    // and leaves no part files.
    for d in [&a, &b, &c] {
        for f in ["summary.csv", "stats.json", "pairs.csv"] {
            assert_eq!(read(&csv.join(f)), read(&d.join(f)), "{}: {f}", d.display());
        }
        assert!(!d.join("deals.parquet.parts").exists());
    }
    assert!(!c.join("deals.csv").exists());
    // A CSV run's manifest is unchanged (no format field); the others name theirs.
    let manifest = |d: &Path| String::from_utf8(read(&d.join("manifest.json"))).unwrap();
    assert!(!manifest(&csv).contains("format") && !manifest(&csv).contains("parquet_bytes"));
    assert!(manifest(&c).contains("\"format\": \"parquet\""));
    // report reads a Parquet-only run (compute.csv's measured times, which differ
    // from run to run, left out).
    for d in [&c, &csv] {
        std::fs::remove_file(d.join("compute.csv")).unwrap();
    }
    let html = c.join("report.html");
    run(&["report", c.to_str().unwrap(), "--out", html.to_str().unwrap()]);
    let html_csv = csv.join("report.html");
    run(&["report", csv.to_str().unwrap(), "--out", html_csv.to_str().unwrap()]);
    let strip = |p: &Path| {
        let name = |d: &Path| d.file_name().unwrap().to_str().unwrap().to_string();
        let text = String::from_utf8(read(p)).unwrap().replace(&name(&c), "RUN").replace(&name(&csv), "RUN");
        // (The command lines differ: one names --format parquet.)
        text.lines().filter(|l| !l.contains("<th>command</th>")).collect::<Vec<_>>().join("\n")
    };
    assert!(strip(&html) == strip(&html_csv), "the report is the same from either file");
}

#[test]
fn parquet_shards_merge_into_the_unsplit_run() {
    let whole = tmp("whole");
    tournament(&whole, &["--format", "parquet"]);
    // 7 shards of about 17 deals: their boundaries fall inside row groups of 8 deals.
    let shards: Vec<PathBuf> = (0..7).map(|k| tmp(&format!("shard{k}"))).collect();
    for k in [6, 0, 3, 1, 5, 2, 4] {
        let format = if k % 2 == 0 { "parquet" } else { "both" };
        tournament(&shards[k], &["--shard", &format!("{k}/7"), "--format", format]);
    }
    let merged = tmp("merged");
    let mut a = vec!["merge", merged.to_str().unwrap(), "--format", "parquet"];
    a.extend(shards.iter().rev().map(|p| p.to_str().unwrap()));
    run(&a);
    for f in ["deals.parquet", "summary.csv", "stats.json", "pairs.csv"] {
        assert_eq!(read(&whole.join(f)), read(&merged.join(f)), "{f}");
    }
    assert!(!merged.join("deals.csv").exists());
    // Without --format, merge writes the shards' format; CSV from shards without it
    // is refused in one line naming a shard, and nothing is written.
    let merged2 = tmp("merged2");
    let mut a = vec!["merge", merged2.to_str().unwrap(), "--format", "csv"];
    a.extend(shards.iter().map(|p| p.to_str().unwrap()));
    let e = fails(&a);
    assert!(e.contains("no deals.csv") && e.contains(shards[0].to_str().unwrap()), "{e}");
    assert!(!merged2.join("deals.csv").exists() && !merged2.join("manifest.json").exists());
}

#[test]
fn resume_after_a_kill_gives_the_uninterrupted_parquet() {
    let whole = tmp("rwhole");
    tournament(&whole, &["--format", "both"]);
    let cut = tmp("rcut");
    let a = args(&cut, &["--format", "both", "--threads", "2"]);
    let o = run_env(&a, &[("TRESILLO_ABORT_AFTER_CHECKPOINTS", "2"), ("TRESILLO_BATCH_UNITS", "5")]);
    assert!(!o.status.success(), "the run should have been stopped");
    let parts = cut.join("deals.parquet.parts");
    assert!(parts.is_dir() && !cut.join("deals.parquet").exists());
    // A batch written after the last checkpoint, and a torn temporary file: dropped.
    std::fs::write(parts.join("00000000000000000010-00000000000000000015.parquet"), b"PAR1 torn").unwrap();
    std::fs::write(parts.join("x.parquet.tmp"), b"torn").unwrap();
    // Resuming with another format is refused, and changes nothing.
    let before = read(&cut.join("manifest.json"));
    let e = fails(&args(&cut, &["--resume", "--format", "csv"]));
    assert!(e.contains("--format both"), "{e}");
    assert_eq!(before, read(&cut.join("manifest.json")));
    let a = args(&cut, &["--format", "both", "--threads", "1", "--resume"]);
    let o = run_env(&a, &[("TRESILLO_BATCH_UNITS", "3")]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for f in ["deals.parquet", "deals.csv", "summary.csv", "stats.json", "pairs.csv"] {
        assert_eq!(read(&whole.join(f)), read(&cut.join(f)), "{f}");
    }
    assert!(!parts.exists());
    // A finished run resumed again: already complete.
    let o = run(&args(&cut, &["--format", "both", "--resume"]));
    assert!(String::from_utf8_lossy(&o.stdout).contains("already complete"));
}

#[test]
fn a_truncated_or_foreign_parquet_file_is_one_line_naming_it() {
    // --resume: a damaged part file the manifest counts.
    let cut = tmp("bad-resume");
    let a = args(&cut, &["--format", "parquet", "--threads", "2"]);
    let o = run_env(&a, &[("TRESILLO_ABORT_AFTER_CHECKPOINTS", "2"), ("TRESILLO_BATCH_UNITS", "4")]);
    assert!(!o.status.success());
    let parts = cut.join("deals.parquet.parts");
    let first = std::fs::read_dir(&parts)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "parquet"))
        .min()
        .unwrap();
    let bytes = read(&first);
    std::fs::write(&first, &bytes[..bytes.len() - 9]).unwrap();
    let manifest = read(&cut.join("manifest.json"));
    let e = fails(&args(&cut, &["--format", "parquet", "--resume"]));
    assert!(e.contains(first.to_str().unwrap()) && e.contains("not a readable Parquet file"), "{e}");
    assert_eq!(read(&first), &bytes[..bytes.len() - 9], "the input is unchanged");
    assert_eq!(read(&cut.join("manifest.json")), manifest);
    // merge and report: a shard's deals.parquet cut short, or not Parquet at all.
    let s0 = tmp("bad-s0");
    let s1 = tmp("bad-s1");
    tournament(&s0, &["--shard", "0/2", "--format", "parquet"]);
    tournament(&s1, &["--shard", "1/2", "--format", "parquet"]);
    let p = s1.join("deals.parquet");
    let good = read(&p);
    for (what, bad) in [("truncated", good[..good.len() / 2].to_vec()), ("foreign", vec![b'x'; good.len()])] {
        std::fs::write(&p, &bad).unwrap();
        let out = tmp("bad-merged");
        let e = fails(&["merge", out.to_str().unwrap(), s0.to_str().unwrap(), s1.to_str().unwrap()]);
        assert!(e.contains(p.to_str().unwrap()), "{what}: {e}");
        assert!(!out.join("deals.parquet").exists() && !out.join("manifest.json").exists(), "{what}");
        let html = tmp("bad-report.html");
        let e = fails(&["report", s1.to_str().unwrap(), "--out", html.to_str().unwrap()]);
        assert!(e.contains(p.to_str().unwrap()), "{what}: {e}");
        assert!(!html.exists(), "{what}");
        assert_eq!(read(&p), bad, "{what}: the input is unchanged");
    }
}

#[test]
fn an_experiment_file_takes_a_format() {
    let dir = tmp("exp");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("out");
    let toml = format!(
        "[tournament]\nagents = [\"rule\", \"rule\", \"random\"]\ndeals = 30\nseed = 3\nduplicate = true\n\
         out = \"{}\"\nformat = \"parquet\"\n",
        out.display()
    );
    let file = dir.join("exp.toml");
    std::fs::write(&file, toml).unwrap();
    run(&["run", file.to_str().unwrap()]);
    assert!(out.join("deals.parquet").is_file() && !out.join("deals.csv").exists());
    assert_eq!(tresillo_runs::parquet::row_count(&out.join("deals.parquet")).unwrap(), 30 * 6);
}
