//! Issue 34: a run directory never claims to be complete while it lacks a file.
//! Each test kills a command at every one of its write points in turn
//! (`TRESILLO_ABORT_AFTER_WRITES=k` aborts right after the k-th change of a run
//! directory's files), resumes it, and compares the result byte for byte with the
//! uninterrupted run.

use crate::common;

use common::{TempDir, read};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tresillo"))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs `args`, aborted after `abort` writes when given; a fixed batch size and one
/// thread make the sequence of writes the same from run to run.
fn go(args: &[&str], abort: Option<u64>) -> Output {
    let mut c = bin();
    c.args(args).env("TRESILLO_BATCH_UNITS", "3").env_remove("TRESILLO_ABORT_AFTER_WRITES");
    if let Some(k) = abort {
        c.env("TRESILLO_ABORT_AFTER_WRITES", k.to_string());
    }
    c.output().unwrap()
}

fn ok(o: &Output, what: &str) {
    assert!(o.status.success(), "{what}: {}", String::from_utf8_lossy(&o.stderr));
}

/// What must not depend on an interruption: every file of the directory (by name)
/// but the measured ones, which are compared by their counts; the manifest without
/// its command line.
fn contents(d: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(d).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        let p = e.path();
        let bytes = if p.is_dir() { b"(a directory)".to_vec() } else { read(&p) };
        let kept = match name.as_str() {
            "run.lock" => continue,
            "manifest.json" => {
                let mut m: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
                m.as_object_mut().unwrap().remove("command_line");
                // The record file is named after the directory (DIR.jsonl).
                if let Some(r) = m.get_mut("record").and_then(|r| r.as_object_mut()) {
                    r.remove("path");
                }
                m.to_string().into_bytes()
            }
            // Times are measured: only the counts (the columns before `timed`).
            "compute.csv" => {
                let text = String::from_utf8(bytes).unwrap();
                let n = text.lines().next().unwrap().split(',').position(|c| c == "timed").unwrap();
                text.lines()
                    .map(|l| l.split(',').take(n).collect::<Vec<_>>().join(",") + "\n")
                    .collect::<String>()
                    .into_bytes()
            }
            "compute.json" => b"(measured)".to_vec(),
            _ => bytes,
        };
        out.insert(name, kept);
    }
    out
}

/// Kills `args` (which write into `dir`, and the record `rec`) at each of its write
/// points, resumes with `resume`, and compares with the uninterrupted run in
/// `whole`; `prepare` sets up `dir` before each try. Returns the number of write
/// points walked.
fn walk(
    args: &dyn Fn(&Path) -> Vec<String>,
    resume: &dyn Fn(&Path) -> Vec<String>,
    base: &Path,
    prepare: &dyn Fn(&Path),
    recover: &dyn Fn(&Path, &Output) -> Output,
) -> u64 {
    let whole = base.join("whole");
    prepare(&whole);
    let a = args(&whole);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    ok(&go(&a, None), "the uninterrupted run");
    let want = contents(&whole);
    let want_rec = std::fs::read(whole.with_extension("jsonl")).ok();
    assert!(want.contains_key("pairs.csv") && want.contains_key("summary.csv"), "{:?}", want.keys());
    for k in 1.. {
        let dir = base.join(format!("cut{k}"));
        prepare(&dir);
        let a = args(&dir);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let cut = go(&a, Some(k));
        if cut.status.success() {
            assert_eq!(contents(&dir), want, "with {k} write points (no kill)");
            return k - 1;
        }
        // Whatever a kill leaves, a directory whose manifest says complete holds
        // every file of the run.
        if let Ok(m) = std::fs::read(dir.join("manifest.json")) {
            let m: serde_json::Value = serde_json::from_slice(&m).unwrap();
            if m["complete"] == true {
                for f in ["summary.csv", "pairs.csv", "compute.csv", "forfeits.csv", "stats.json"] {
                    assert!(dir.join(f).exists(), "killed at write {k}: complete without {f}");
                }
            }
        }
        let r = resume(&dir);
        let r: Vec<&str> = r.iter().map(String::as_str).collect();
        let o = go(&r, None);
        let o = if o.status.success() { o } else { recover(&dir, &o) };
        ok(&o, &format!("the resume after a kill at write {k}"));
        assert_eq!(contents(&dir), want, "killed at write {k}, then resumed");
        if let Some(rec) = &want_rec {
            assert_eq!(&read(&dir.with_extension("jsonl")), rec, "killed at write {k}: the record file");
        }
        let _ = std::fs::remove_dir_all(&dir);
        assert!(k < 500, "the run never finished");
    }
    unreachable!()
}

fn no_recovery(_: &Path, o: &Output) -> Output {
    o.clone()
}

fn tournament_args(format: &'static str) -> impl Fn(&Path) -> Vec<String> {
    move |d: &Path| {
        let rec = d.with_extension("jsonl");
        [
            "tournament",
            "--agents",
            "rule,random,rule",
            "--seed",
            "3",
            "--duplicate",
            "--deals",
            "12",
            "--threads",
            "1",
            "--format",
            format,
            "--out",
            s(d),
            "--record",
            s(&rec),
        ]
        .map(String::from)
        .to_vec()
    }
}

/// Issue 34, finding 1: a kill between `summary.csv` and `pairs.csv` left a run
/// marked complete without `pairs.csv`, `compute.csv` and `forfeits.csv`, and
/// `--resume` said there was nothing to do.
#[test]
fn a_tournament_killed_at_any_write_resumes_to_the_same_bytes() {
    for format in ["csv", "both"] {
        let d = TempDir::new("atomic", &format!("tournament-{format}"));
        let resume = |dir: &Path| {
            let mut a = tournament_args(format)(dir);
            a.push("--resume".into());
            a
        };
        let n = walk(&tournament_args(format), &resume, &d.0, &|_| {}, &no_recovery);
        assert!(n > 20, "{format}: only {n} write points");
    }
}

/// The same for a run that replaces another (`--force`: it plays in `DIR.partial`
/// and moves its files into `DIR` at the end): killed anywhere, the old run stays
/// whole until `--resume` (or `--force` again, before the new run's first
/// checkpoint) finishes the new one, and no file of the old run survives.
#[test]
fn a_replacement_killed_at_any_write_resumes_to_the_same_bytes() {
    let d = TempDir::new("atomic", "replace");
    let args = |dir: &Path| {
        let mut a = tournament_args("csv")(dir);
        a.push("--force".into());
        a
    };
    // An older run of another seed, four deals, Parquet too: different files.
    let prepare = |dir: &Path| {
        let rec = dir.with_extension("jsonl");
        ok(
            &go(
                &[
                    "tournament",
                    "--agents",
                    "rule,random,rule",
                    "--seed",
                    "9",
                    "--duplicate",
                    "--deals",
                    "4",
                    "--format",
                    "both",
                    "--out",
                    s(dir),
                    "--record",
                    s(&rec),
                ],
                None,
            ),
            "the older run",
        );
    };
    let old = |dir: &Path, o: &Output| {
        // Killed before the new run's first checkpoint: nothing to resume; the old
        // run is still there, whole, and --force starts the new one again.
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("another configuration"), "{err}");
        let m: serde_json::Value = serde_json::from_slice(&read(&dir.join("manifest.json"))).unwrap();
        assert_eq!(m["config"]["seed"], 9, "{m}");
        go(&args(dir).iter().map(String::as_str).collect::<Vec<_>>(), None)
    };
    let resume = |dir: &Path| {
        let mut a = tournament_args("csv")(dir);
        a.push("--resume".into());
        a
    };
    walk(&args, &resume, &d.0, &prepare, &old);
}

/// The same for `tresillo run` (it plays in `OUT.partial`, then moves the files).
#[test]
fn an_experiment_killed_at_any_write_resumes_to_the_same_bytes() {
    let d = TempDir::new("atomic", "run");
    let base = d.0.clone();
    let args = move |dir: &Path| {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let toml = base.join(format!("{name}.toml"));
        std::fs::write(
            &toml,
            format!(
                "[tournament]\nagents = [\"rule\", \"random\", \"rule\"]\ndeals = 12\nseed = 3\n\
                 duplicate = true\nout = '{}'\nthreads = 1\n",
                dir.display()
            ),
        )
        .unwrap();
        vec!["run".to_string(), s(&toml).to_string()]
    };
    let resume = |dir: &Path| {
        let mut a = args(dir);
        a.push("--resume".into());
        a
    };
    walk(&args, &resume, &d.0.clone(), &|_| {}, &no_recovery);
}

/// `--resume` of a run that an older version marked complete before writing its
/// last files rebuilds them, byte for byte, and says so; `report` refuses such a
/// run, naming what it lacks.
#[test]
fn a_complete_run_missing_files_is_rebuilt_or_refused_by_name() {
    let d = TempDir::new("atomic", "rebuild");
    let run = d.path("r");
    let a = tournament_args("csv")(&run);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    ok(&go(&a, None), "the run");
    let want = contents(&run);
    for f in ["pairs.csv", "compute.csv", "forfeits.csv", "summary.csv"] {
        std::fs::remove_file(run.join(f)).unwrap();
    }
    let o = bin().args(["report", s(&run), "--out", s(&d.path("r.html"))]).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("lacks summary.csv, pairs.csv ("), "{err}");
    assert!(!d.path("r.html").exists());
    let mut r = a.clone();
    r.push("--resume");
    let o = go(&r, None);
    ok(&o, "the resume");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("marked complete without summary.csv, pairs.csv, compute.csv, forfeits.csv"),
        "{err}"
    );
    assert_eq!(contents(&run), want);
    // The rows cannot be rebuilt: named.
    std::fs::remove_file(run.join("deals.csv")).unwrap();
    let o = go(&r, None);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("deals.csv"), "{err}");
}

/// Issue 34, finding 5: two shards of one league started together into a new
/// directory raced on the league manifest's temporary file, and one failed with
/// `writing lg/league.json: No such file or directory`.
#[test]
fn league_shards_started_together_into_a_new_directory_both_finish() {
    let d = TempDir::new("atomic", "league");
    for attempt in 0..6 {
        let dir = d.path(&format!("lg{attempt}"));
        let start = |shard: &str| {
            bin()
                .args(["league", "--agents", "rule,random,rule:entrada=10,rule:entrada=25", "--deals", "2"])
                .args(["--threads", "1", "--shard", shard, "--out", s(&dir)])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        };
        let (a, b) = (start("0/2"), start("1/2"));
        for (shard, child) in [("0/2", a), ("1/2", b)] {
            let o = child.wait_with_output().unwrap();
            assert!(
                o.status.success(),
                "try {attempt}, shard {shard}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
        // Whichever finished last wrote the ratings; a run of either again does too.
        let o = bin()
            .args(["league", "--agents", "rule,random,rule:entrada=10,rule:entrada=25", "--deals", "2"])
            .args(["--threads", "1", "--shard", "0/2", "--out", s(&dir)])
            .output()
            .unwrap();
        ok(&o, "the league again");
        assert!(dir.join("ratings.csv").exists());
        let left: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect();
        assert!(left.is_empty(), "temporary files left: {left:?}");
    }
}

/// The files of a tune in `d` that must not depend on an interruption: the
/// candidates, the confirmation and the manifest without its command line (and
/// nothing else once it is finished: no checkpoint, no partial file).
fn tune_contents(d: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(d).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = read(&p);
        let kept = match name.as_str() {
            "c.csv.lock" => continue,
            "c.manifest.json" => {
                let mut m: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
                m.as_object_mut().unwrap().remove("command_line");
                m.to_string().into_bytes()
            }
            _ => bytes,
        };
        out.insert(name, kept);
    }
    out
}

/// Issue 34: a tune killed at any of its writes (the checkpoint, each candidate's
/// row, the confirmation, the output's rename, the manifest, the checkpoint's
/// removal) is finished by `--resume` to the bytes of an uninterrupted tune.
#[test]
fn a_tune_killed_at_any_write_resumes_to_the_same_bytes() {
    let d = TempDir::new("atomic", "tune");
    let args = |dir: &Path| -> Vec<String> {
        let out = dir.join("c.csv");
        [
            "tune",
            "--agent",
            "rule",
            "--param",
            "entrada=30,45,60",
            "--method",
            "grid",
            "--opponents",
            "random,random",
            "--deals",
            "30",
            "--confirm",
            "30",
            "--seed",
            "4",
            "--threads",
            "1",
            "--out",
            s(&out),
        ]
        .map(String::from)
        .to_vec()
    };
    let whole = d.path("whole");
    std::fs::create_dir_all(&whole).unwrap();
    let a = args(&whole);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    ok(&go(&a, None), "the uninterrupted tune");
    let want = tune_contents(&whole);
    assert!(want.contains_key("c.csv") && want.contains_key("c.manifest.json"), "{:?}", want.keys());
    for k in 1.. {
        let dir = d.path(&format!("cut{k}"));
        std::fs::create_dir_all(&dir).unwrap();
        let a = args(&dir);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        if go(&a, Some(k)).status.success() {
            assert_eq!(tune_contents(&dir), want, "with {k} write points (no kill)");
            assert!(k > 10, "only {k} write points");
            return;
        }
        let mut r = a.clone();
        r.push("--resume");
        ok(&go(&r, None), &format!("the resume after a kill at write {k}"));
        assert_eq!(tune_contents(&dir), want, "killed at write {k}, then resumed");
        let _ = std::fs::remove_dir_all(&dir);
        assert!(k < 200, "the tune never finished");
    }
}

/// [`contents`] of every file under `d`, by path relative to it (a league's
/// tables too); `league.json` without its command line as a manifest.
fn tree_contents(d: &Path) -> BTreeMap<String, Vec<u8>> {
    fn visit(root: &Path, d: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for (name, bytes) in contents(d) {
            let p = d.join(&name);
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            if p.is_dir() {
                visit(root, &p, out);
            } else if name == "league.json" {
                let mut m: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
                m.as_object_mut().unwrap().remove("command_line");
                out.insert(rel, m.to_string().into_bytes());
            } else {
                out.insert(rel, bytes);
            }
        }
    }
    let mut out = BTreeMap::new();
    visit(d, d, &mut out);
    out
}

/// Kills `args(dir)` at each write point, finishes it with `again(dir)`, and
/// compares every file under `dir` with the uninterrupted run's. Returns the
/// number of write points.
fn walk_tree(base: &Path, args: &dyn Fn(&Path) -> Vec<String>, again: &dyn Fn(&Path) -> Vec<String>) -> u64 {
    let whole = base.join("whole");
    let a = args(&whole);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    ok(&go(&a, None), "the uninterrupted run");
    let want = tree_contents(&whole);
    for k in 1.. {
        let dir = base.join(format!("cut{k}"));
        let a = args(&dir);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        if go(&a, Some(k)).status.success() {
            assert_eq!(tree_contents(&dir), want, "with {k} write points (no kill)");
            return k - 1;
        }
        let r = again(&dir);
        let r: Vec<&str> = r.iter().map(String::as_str).collect();
        ok(&go(&r, None), &format!("the run again after a kill at write {k}"));
        assert_eq!(tree_contents(&dir), want, "killed at write {k}, then run again");
        let _ = std::fs::remove_dir_all(&dir);
        assert!(k < 500, "the run never finished");
    }
    unreachable!()
}

/// Issue 34: a league killed at any write (its tables' and its own: the manifest,
/// ratings, matrix, compute) is finished by `--resume` to the same bytes.
#[test]
fn a_league_killed_at_any_write_resumes_to_the_same_bytes() {
    let d = TempDir::new("atomic", "league");
    let args = |dir: &Path| -> Vec<String> {
        [
            "league",
            "--agents",
            "random,rule,rule:entrada=40",
            "--deals",
            "4",
            "--seed",
            "2",
            "--threads",
            "1",
            "--out",
        ]
        .map(String::from)
        .into_iter()
        .chain([s(dir).to_string()])
        .collect()
    };
    let again =
        |dir: &Path| -> Vec<String> { args(dir).into_iter().chain(["--resume".to_string()]).collect() };
    let n = walk_tree(&d.0, &args, &again);
    assert!(n > 20, "only {n} write points");
}

/// Issue 34: `merge` killed at any write leaves no directory that says it is
/// complete without its files, and `merge --force` then writes the same bytes as
/// an uninterrupted merge.
#[test]
fn a_merge_killed_at_any_write_is_finished_by_merging_again() {
    let d = TempDir::new("atomic", "merge");
    let shards: Vec<_> = (0..2).map(|k| d.path(&format!("s{k}"))).collect();
    for (k, sh) in shards.iter().enumerate() {
        let shard = format!("{k}/2");
        let mut a = tournament_args("both")(sh);
        a.extend(["--shard".to_string(), shard]);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        ok(&go(&a, None), "a shard");
    }
    let base = d.path("merged");
    std::fs::create_dir_all(&base).unwrap();
    let args = |dir: &Path| -> Vec<String> {
        ["merge", s(dir), s(&shards[0]), s(&shards[1])].map(String::from).to_vec()
    };
    let again =
        |dir: &Path| -> Vec<String> { args(dir).into_iter().chain(["--force".to_string()]).collect() };
    let n = walk_tree(&base, &args, &again);
    assert!(n > 5, "only {n} write points");
}

/// The journals of a study directory (`games/ID.jsonl`), by name.
fn journals(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(dir.join("games")).unwrap() {
        let p = e.unwrap().path();
        out.insert(p.file_name().unwrap().to_string_lossy().into_owned(), read(&p));
    }
    out
}

/// The study's journals join the walk (tresillo_runs::durable::Journal passes
/// `write_point` at every append): `study simulate` killed at each of its writes
/// and run again leaves the journals of an uninterrupted simulation byte for byte.
#[test]
fn a_study_simulation_killed_at_any_write_is_finished_by_running_it_again() {
    let d = TempDir::new("atomic", "study");
    let base = d.path("base");
    let new = ["study", "new", s(&base), "--opponents", "random,rule", "--human-seats", "0,1"];
    let sizes = ["--seed", "5", "--deals", "2", "--per-participant", "2", "--participants", "1"];
    ok(&go(&[&new[..], &sizes[..]].concat(), None), "study new");
    // The participants' tokens come from the OS: one study file for every try.
    let file = read(&base.join("study.toml"));
    let fresh = |name: &str| {
        let dir = d.path(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("study.toml"), &file).unwrap();
        dir
    };
    let simulate = |dir: &Path, abort| go(&["study", "simulate", s(dir), "--agent", "rule"], abort);
    let whole = fresh("whole");
    ok(&simulate(&whole, None), "the uninterrupted simulation");
    let want = journals(&whole);
    assert!(!want.is_empty());
    for k in 1.. {
        let dir = fresh(&format!("cut{k}"));
        if simulate(&dir, Some(k)).status.success() {
            assert_eq!(journals(&dir), want, "with {k} write points (no kill)");
            assert!(k > 10, "only {} write points", k - 1);
            return;
        }
        ok(&simulate(&dir, None), &format!("the simulation again after a kill at write {k}"));
        assert_eq!(journals(&dir), want, "killed at write {k}, then simulated again");
        let _ = std::fs::remove_dir_all(&dir);
        assert!(k < 1000, "the simulation never finished");
    }
}
