//! Issue 13, items 1, 2, 3 and 9: one writer per run directory (two real processes),
//! a merge that never touches its inputs and never leaves less than there was, and
//! `--resume` that changes nothing on a finished run and explains a changed
//! configuration field by field.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common;
use common::{TempDir, failed, ok, tresillo};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

const BASE: [&str; 8] =
    ["tournament", "--agents", "rule,random,rule", "--seed", "5", "--duplicate", "--deals", "60"];

fn tournament(out: &Path, extra: &[&str]) -> std::process::Output {
    let mut a: Vec<&str> = BASE.to_vec();
    a.extend(["--out", s(out)]);
    a.extend(extra);
    tresillo(&a)
}

fn one_line(err: &str) -> &str {
    assert_eq!(err.trim().lines().count(), 1, "one clear line: {err}");
    err.trim()
}

/// A child process killed when dropped, so that a failed assertion leaves no run
/// going on in the background.
struct Running(std::process::Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `tresillo args` in the background and waits until `watch` (where it
/// writes) has checkpointed more than its header: the run is under way.
fn start_until_checkpointed(args: &[&str], watch: &Path) -> Running {
    let run = Running(
        Command::new(env!("CARGO_BIN_EXE_tresillo"))
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let t0 = Instant::now();
    while !(watch.join("manifest.json").exists() && checkpointed(watch) > 2000) {
        assert!(t0.elapsed() < Duration::from_secs(120), "{} never checkpointed", watch.display());
        std::thread::sleep(Duration::from_millis(50));
    }
    run
}

fn checkpointed(dir: &Path) -> u64 {
    let m: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    m["csv_bytes"].as_u64().unwrap()
}

#[test]
fn a_second_writer_on_a_running_directory_is_refused() {
    let d = TempDir::new("runs-cli", "conc");
    let dir = d.path("conc");
    let args = [
        "tournament",
        "--agents",
        "rule,rule,random",
        "--deals",
        "200000",
        "--duplicate",
        "--seed",
        "11",
        "--threads",
        "1",
        "--out",
        s(&dir),
    ];
    // Started, and past its first checkpoint: the run is under way.
    let mut first = start_until_checkpointed(&args, &dir);
    let pid = first.0.id().to_string();
    let seconds: Vec<Vec<&str>> =
        vec![[&args[..], &["--resume"]].concat(), [&args[..], &["--force"]].concat(), args.to_vec()];
    for a in &seconds {
        let err = failed(&tresillo(a));
        let err = one_line(&err);
        assert!(err.contains(s(&dir)) && err.contains(&pid), "{a:?}: {err}");
    }
    // A running directory is not a mergeable shard either.
    let err = failed(&tresillo(&["merge", s(&d.path("m")), s(&dir)]));
    assert!(one_line(&err).contains(&pid), "{err}");
    // The first run's files are still there and consistent: nothing else wrote.
    assert!(dir.join("deals.csv").exists() && dir.join("stats.json").exists());
    first.0.kill().unwrap();
    first.0.wait().unwrap();
    let len = fs::metadata(dir.join("deals.csv")).unwrap().len();
    let at = checkpointed(&dir);
    assert!(len >= at, "deals.csv {len} shorter than its checkpoint {at}");
    // The lock died with its holder: the run can now be taken over (and refused
    // again only for what it is: an unfinished run).
    let err = failed(&tresillo(&args));
    assert!(one_line(&err).contains("--resume"), "{err}");
}

#[test]
fn merge_refuses_a_shard_whose_rows_disagree_with_its_checkpoint() {
    let d = TempDir::new("runs-cli", "torn");
    let (a, b) = (d.path("s0"), d.path("s1"));
    ok(&tournament(&a, &["--shard", "0/2"]));
    ok(&tournament(&b, &["--shard", "1/2"]));
    let csv = fs::read(b.join("deals.csv")).unwrap();
    fs::write(b.join("deals.csv"), [&csv[..], b"9999,1,012\n"].concat()).unwrap();
    let out = d.path("m");
    let err = failed(&tresillo(&["merge", s(&out), s(&a), s(&b)]));
    let err = one_line(&err);
    assert!(err.contains(s(&b)) && err.contains("checkpoint"), "{err}");
    assert!(!out.join("deals.csv").exists());
}

#[test]
fn merge_never_writes_into_its_inputs_and_keeps_the_old_output_until_done() {
    let d = TempDir::new("runs-cli", "mergeio");
    let (a, b) = (d.path("s0"), d.path("s1"));
    ok(&tournament(&a, &["--shard", "0/2"]));
    ok(&tournament(&b, &["--shard", "1/2"]));
    let before: Vec<Vec<u8>> = ["deals.csv", "manifest.json", "stats.json", "summary.csv"]
        .iter()
        .map(|f| fs::read(a.join(f)).unwrap())
        .collect();
    let a_sub = a.join("merged");
    let a_deep = a.join("x/y");
    let outs = [a.clone(), a_sub, a_deep, d.0.clone(), d.path("s0/../s0")];
    for out in &outs {
        let err = failed(&tresillo(&["merge", s(out), s(&a), s(&a), s(&b), "--force"]));
        assert!(one_line(&err).contains("input"), "{}: {err}", out.display());
        let err = failed(&tresillo(&["merge", s(out), s(&a), s(&b), "--force"]));
        assert!(one_line(&err).contains("input"), "{}: {err}", out.display());
    }
    let after: Vec<Vec<u8>> = ["deals.csv", "manifest.json", "stats.json", "summary.csv"]
        .iter()
        .map(|f| fs::read(a.join(f)).unwrap())
        .collect();
    assert!(before == after, "an input was touched");
    assert!(!a.join("merged").exists() && !a.join("x").exists());
    // A merge that fails half-way leaves the earlier output as it was.
    let out = d.path("m");
    ok(&tresillo(&["merge", s(&out), s(&a), s(&b)]));
    let good = fs::read(out.join("deals.csv")).unwrap();
    let csv = fs::read(b.join("deals.csv")).unwrap();
    let mut bad = csv.clone();
    bad[0] = b'X'; // same size, broken header: found while copying the second shard
    fs::write(b.join("deals.csv"), &bad).unwrap();
    let err = failed(&tresillo(&["merge", s(&out), s(&a), s(&b), "--force"]));
    assert!(one_line(&err).contains("header"), "{err}");
    assert_eq!(fs::read(out.join("deals.csv")).unwrap(), good);
    assert!(out.join("summary.csv").exists() && out.join("manifest.json").exists());
    let leftovers: Vec<String> = fs::read_dir(&d.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !["s0", "s1", "m"].contains(&n.as_str()))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
    let mut inside: Vec<String> =
        fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    inside.sort();
    assert_eq!(
        inside,
        [
            "compute.csv",
            "compute.json",
            "deals.csv",
            "forfeits.csv",
            "manifest.json",
            "pairs.csv",
            "run.lock",
            "stats.json",
            "summary.csv"
        ]
    );
    // With the input repaired, --force replaces the output.
    fs::write(b.join("deals.csv"), &csv).unwrap();
    ok(&tresillo(&["merge", s(&out), s(&a), s(&b), "--force"]));
    assert_eq!(fs::read(out.join("deals.csv")).unwrap(), good);
}

#[test]
fn resume_of_a_finished_run_changes_nothing() {
    let d = TempDir::new("runs-cli", "finished");
    let dir = d.path("r");
    ok(&tournament(&dir, &[]));
    let files = ["deals.csv", "manifest.json", "stats.json", "summary.csv"];
    let before: Vec<Vec<u8>> = files.iter().map(|f| fs::read(dir.join(f)).unwrap()).collect();
    let out = ok(&tournament(&dir, &["--resume", "--threads", "2"]));
    assert!(out.contains("already complete"), "{out}");
    assert!(!out.contains("deals/s"), "{out}");
    let after: Vec<Vec<u8>> = files.iter().map(|f| fs::read(dir.join(f)).unwrap()).collect();
    assert!(before == after, "a finished run was rewritten");
    // --resume with --force is a contradiction.
    let err = failed(&tournament(&dir, &["--resume", "--force"]));
    assert!(one_line(&err).contains("--resume") && err.contains("--force"), "{err}");
    let after: Vec<Vec<u8>> = files.iter().map(|f| fs::read(dir.join(f)).unwrap()).collect();
    assert!(before == after);
}

/// A run interrupted under an older version (its deals.csv without the columns
/// added since) is refused by `--resume` in one line naming the file and the
/// missing columns, and nothing is appended to it; `merge` refuses such a shard
/// the same way.
#[test]
fn resume_and_merge_refuse_a_deals_csv_of_another_version() {
    let d = TempDir::new("runs-cli", "old-header");
    let dir = d.path("r");
    ok(&tournament(&dir, &["--shard", "0/2"]));
    let csv = fs::read_to_string(dir.join("deals.csv")).unwrap();
    let old: String = csv
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            f[..f.len() - 2].join(",") + "\n"
        })
        .collect();
    fs::write(dir.join("deals.csv"), &old).unwrap();
    let m = fs::read_to_string(dir.join("manifest.json")).unwrap();
    let shard_manifest = m.clone();
    fs::write(dir.join("manifest.json"), m.replace("\"complete\": true", "\"complete\": false")).unwrap();
    let err = failed(&tournament(&dir, &["--shard", "0/2", "--resume"]));
    let line = one_line(&err);
    assert!(line.contains("deals.csv line 1: not the deals.csv header of this version"), "{line}");
    assert!(line.contains("(no column gascarille, vole_declared)") && line.contains("--force"), "{line}");
    assert_eq!(fs::read_to_string(dir.join("deals.csv")).unwrap(), old, "nothing appended");
    fs::write(
        dir.join("manifest.json"),
        shard_manifest
            .replace(&format!("\"csv_bytes\": {}", csv.len()), &format!("\"csv_bytes\": {}", old.len())),
    )
    .unwrap();
    let other = d.path("r1");
    ok(&tournament(&other, &["--shard", "1/2"]));
    let out = d.path("all");
    let err = failed(&tresillo(&["merge", s(&out), s(&dir), s(&other)]));
    assert!(one_line(&err).contains("deals.csv line 1: not the deals.csv header of this version"), "{err}");
}

#[test]
fn resume_of_a_missing_directory_starts_the_run_and_says_so() {
    let d = TempDir::new("runs-cli", "missing");
    let dir = d.path("new");
    let o = tournament(&dir, &["--resume"]);
    ok(&o);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("starting") && err.contains(s(&dir)), "{err}");
    let fresh = d.path("fresh");
    ok(&tournament(&fresh, &[]));
    assert_eq!(fs::read(dir.join("deals.csv")).unwrap(), fs::read(fresh.join("deals.csv")).unwrap());
    // A start killed before its first checkpoint left rows but no manifest: resumed
    // from the beginning.
    let torn = d.path("torn");
    fs::create_dir_all(&torn).unwrap();
    fs::write(torn.join("deals.csv"), "deal,deal_seed\n1,").unwrap();
    let o = tournament(&torn, &["--resume"]);
    ok(&o);
    assert!(String::from_utf8_lossy(&o.stderr).contains("starting"));
    assert_eq!(fs::read(torn.join("deals.csv")).unwrap(), fs::read(fresh.join("deals.csv")).unwrap());
}

#[test]
fn resume_with_another_configuration_names_the_fields_that_differ() {
    let d = TempDir::new("runs-cli", "differ");
    let dir = d.path("r");
    ok(&tournament(&dir, &[]));
    let mut a: Vec<&str> = BASE.to_vec();
    a[2] = "rule,rule,random";
    a[7] = "30";
    a.extend(["--out", s(&dir), "--resume"]);
    let err = failed(&tresillo(&a));
    let err = one_line(&err);
    assert!(err.contains("deals: 60") && err.contains("30"), "{err}");
    assert!(err.contains("agents: rule,random,rule") && err.contains("rule,rule,random"), "{err}");
    assert!(!err.contains("seed") && !err.contains("TournamentConfig") && !err.contains('{'), "{err}");
}

#[test]
fn force_keeps_the_old_run_whole_until_the_new_one_is_complete() {
    let d = TempDir::new("runs-cli", "replace");
    let dir = d.path("r");
    let partial = d.path("r.partial");
    ok(&tournament(&dir, &[]));
    let files = ["deals.csv", "manifest.json", "stats.json", "summary.csv"];
    let before: Vec<Vec<u8>> = files.iter().map(|f| fs::read(dir.join(f)).unwrap()).collect();
    // A long --force run, killed part-way: it played in r.partial.
    let mut long = start_until_checkpointed(
        &[
            "tournament",
            "--agents",
            "rule,rule,random",
            "--deals",
            "200000",
            "--duplicate",
            "--seed",
            "11",
            "--threads",
            "1",
            "--force",
            "--out",
            s(&dir),
        ],
        &partial,
    );
    long.0.kill().unwrap();
    long.0.wait().unwrap();
    let after: Vec<Vec<u8>> = files.iter().map(|f| fs::read(dir.join(f)).unwrap()).collect();
    assert!(before == after, "the old run was touched before the new one was complete");
    // --resume continues the replacement in r.partial (here: another configuration).
    let err = failed(&tournament(&dir, &["--resume"]));
    assert!(one_line(&err).contains("r.partial") && err.contains("another configuration"), "{err}");
    // --force again replaces the run once complete, and leaves no r.partial.
    ok(&tournament(&dir, &["--force"]));
    let again: Vec<Vec<u8>> = files.iter().map(|f| fs::read(dir.join(f)).unwrap()).collect();
    assert!(before[0] == again[0] && before[3] == again[3]);
    assert!(!partial.exists());
}

/// `--force` with `--record` keeps the old record file whole until the new run is
/// complete: the replacement records into `FILE.partial`, renamed over `FILE` with
/// the run's files.
#[test]
fn force_keeps_the_old_record_file_whole_until_the_new_run_is_complete() {
    let d = TempDir::new("runs-cli", "replace-record");
    let dir = d.path("r");
    let rec = d.path("r.jsonl");
    let rec_partial = d.path("r.jsonl.partial");
    ok(&tournament(&dir, &["--record", s(&rec)]));
    let before = fs::read(&rec).unwrap();
    assert_eq!(before.iter().filter(|b| **b == b'\n').count(), 60 * 6);
    let mut long = start_until_checkpointed(
        &[
            "tournament",
            "--agents",
            "rule,rule,random",
            "--deals",
            "200000",
            "--seed",
            "11",
            "--threads",
            "1",
            "--force",
            "--out",
            s(&dir),
            "--record",
            s(&rec),
        ],
        &d.path("r.partial"),
    );
    long.0.kill().unwrap();
    long.0.wait().unwrap();
    assert!(
        fs::read(&rec).unwrap() == before,
        "the old record file was touched before the new run was complete"
    );
    assert!(fs::metadata(&rec_partial).unwrap().len() > 0, "the new run records beside it");
    // A complete replacement (here: the first run again) moves its records into place.
    ok(&tournament(&dir, &["--force", "--record", s(&rec)]));
    assert!(!rec_partial.exists() && !d.path("r.partial").exists());
    let rows = fs::read_to_string(dir.join("deals.csv")).unwrap().lines().count() - 1;
    let after = fs::read_to_string(&rec).unwrap();
    assert_eq!(after.lines().count(), rows);
    assert!(after.as_bytes() == before.as_slice(), "the same run records the same bytes");
    let replayed = ok(&tresillo(&["replay", s(&rec), "--hand", "7"]));
    assert!(replayed.contains("outcome:"), "{replayed}");
}

/// Issue 20, item 4: `--resume` of a complete run whose deals.csv was cut short at
/// a row boundary refuses in one line naming the file, instead of "already complete".
#[test]
fn resume_refuses_a_complete_run_whose_deals_csv_was_cut_short() {
    let d = TempDir::new("runs-cli", "cut");
    let dir = d.path("r");
    ok(&tournament(&dir, &[]));
    let csv = fs::read(dir.join("deals.csv")).unwrap();
    let end = csv[..csv.len() / 2].iter().rposition(|b| *b == b'\n').unwrap() + 1;
    fs::write(dir.join("deals.csv"), &csv[..end]).unwrap();
    let err = failed(&tournament(&dir, &["--resume"]));
    let err = one_line(&err);
    assert!(err.contains(s(&dir.join("deals.csv"))) && err.contains("truncated"), "{err}");
    assert_eq!(fs::read(dir.join("deals.csv")).unwrap(), &csv[..end], "nothing written");
}

/// Issue 20, item 3: a record file anywhere inside the run directory (or the
/// `DIR.partial` a replacing run plays in), however the path is spelled, is refused
/// before anything is written; beside the directory it is fine. `run` the same.
#[test]
fn a_record_file_inside_the_run_directory_is_refused() {
    let d = TempDir::new("runs-cli", "recin");
    let dir = d.path("r");
    let link = d.path("link");
    fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(&dir, &link).unwrap();
    let inside = [
        dir.join("deals.csv"),
        dir.join("sub/hands.jsonl"),
        d.path("other/../r/hands.jsonl"),
        link.join("hands.jsonl"),
        d.path("r.partial/hands.jsonl"),
    ];
    for rec in &inside {
        let err = failed(&tournament(&dir, &["--record", s(rec)]));
        let err = one_line(&err);
        assert!(err.contains("--record") && err.contains("inside the run directory"), "{err}");
        assert!(!dir.join("manifest.json").exists() && !rec.exists(), "{}: nothing written", rec.display());
    }
    let exp = d.path("e.toml");
    fs::write(
        &exp,
        format!(
            "[tournament]\nagents = [\"rule\", \"random\", \"random\"]\ndeals = 6\nseed = 5\nout = '{}'\n\
             record = '{}'\n",
            s(&dir),
            s(&dir.join("hands.jsonl"))
        ),
    )
    .unwrap();
    let err = failed(&tresillo(&["run", s(&exp)]));
    assert!(one_line(&err).contains("inside the run directory"), "{err}");
    ok(&tournament(&dir, &["--record", s(&d.path("r.jsonl"))]));
    assert!(d.path("r.jsonl").exists());
}

/// Issue 20, item 13: a shard given twice is named with both directories, a missing
/// one by its number; a file among the inputs (a log) is not taken for a shard.
#[test]
fn merge_names_a_shard_given_twice_or_missing_and_refuses_files() {
    let d = TempDir::new("runs-cli", "twice");
    let shards: Vec<std::path::PathBuf> = (0..3).map(|k| d.path(&format!("s{k}"))).collect();
    for (k, p) in shards.iter().enumerate() {
        ok(&tournament(p, &["--shard", &format!("{k}/3")]));
    }
    let copy = d.path("copy1");
    fs::create_dir(&copy).unwrap();
    for f in ["deals.csv", "manifest.json", "stats.json", "summary.csv"] {
        fs::copy(shards[1].join(f), copy.join(f)).unwrap();
    }
    let out = d.path("m");
    let [s0, s1, s2] = [s(&shards[0]), s(&shards[1]), s(&shards[2])];
    let err = failed(&tresillo(&["merge", s(&out), s0, s1, s(&copy), s2]));
    assert_eq!(one_line(&err), format!("error: shard 1/3 is given twice: {s1} and {}", s(&copy)));
    let err = failed(&tresillo(&["merge", s(&out), s2, s0]));
    assert!(one_line(&err).contains("shard 1/3 is missing (2 of 3 shards given)"), "{err}");
    let err = failed(&tresillo(&["merge", s(&out), s1, s0]));
    assert!(one_line(&err).contains("shard 2/3 is missing"), "{err}");
    let log = d.write("0.log", "a shard's output\n");
    let err = failed(&tresillo(&["merge", s(&out), s0, s1, s2, s(&log)]));
    assert!(one_line(&err).contains(&format!("{} is a file, not a run directory", s(&log))), "{err}");
    assert!(!out.exists());
    ok(&tresillo(&["merge", s(&out), s2, s0, s1]));
}

/// Issue 20, item 13: a shard with no deals (more shards than deals) says so, and
/// merges with the others into the unsplit run.
#[test]
fn an_empty_shard_says_so_and_merges() {
    let d = TempDir::new("runs-cli", "empty");
    let args = ["tournament", "--agents", "rule,random,rule", "--seed", "5", "--deals", "2"];
    let whole = d.path("whole");
    ok(&tresillo(&[&args[..], &["--out", s(&whole)]].concat()));
    let mut dirs = Vec::new();
    for k in 0..4 {
        let dir = d.path(&format!("s{k}"));
        let shard = format!("{k}/4");
        let out = tresillo(&[&args[..], &["--shard", &shard, "--out", s(&dir)]].concat());
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{err}");
        // Shards 0 and 2 get no deal of the two (units floor(2k/4) to floor(2(k+1)/4)).
        if k % 2 == 0 {
            assert!(
                err.contains(&format!("note: shard {shard} of a run of 2 deals holds no deals")),
                "{err}"
            );
        } else {
            assert!(err.is_empty(), "{err}");
        }
        dirs.push(dir);
    }
    let out = d.path("m");
    let mut merge = vec!["merge".to_string(), s(&out).to_string()];
    merge.extend(dirs.iter().map(|p| s(p).to_string()));
    ok(&tresillo(&merge.iter().map(String::as_str).collect::<Vec<_>>()));
    assert_eq!(fs::read(out.join("deals.csv")).unwrap(), fs::read(whole.join("deals.csv")).unwrap());
}

/// Issue 20, item 13: `--out` naming a file gets one line saying so, from every
/// command that writes a run directory (and from tune, whose CSV needs a directory).
#[test]
fn an_output_that_is_a_file_is_named_in_one_line() {
    let d = TempDir::new("runs-cli", "notadir");
    let file = d.write("notadir", "a file\n");
    let f = s(&file);
    let is_file = format!("error: {f} is a file, not a run directory");
    let err = failed(&tournament(&file, &[]));
    assert_eq!(one_line(&err), is_file);
    let under = file.join("sub");
    let err = failed(&tournament(&under, &[]));
    assert_eq!(
        one_line(&err),
        format!("error: {f} is a file, not a directory: it cannot hold the run directory {}", s(&under))
    );
    let shard = d.path("s");
    ok(&tournament(&shard, &[]));
    let err = failed(&tresillo(&["merge", f, s(&shard)]));
    assert_eq!(one_line(&err), is_file);
    let exp = d.write(
        "exp.toml",
        &format!("[tournament]\nagents = ['rule', 'rule', 'random']\ndeals = 3\nseed = 1\nout = '{f}'\n"),
    );
    let err = failed(&tresillo(&["run", s(&exp)]));
    assert!(one_line(&err).ends_with(&format!("{f} is a file, not a run directory")), "{err}");
    let csv = file.join("c.csv");
    let err = failed(&tresillo(&["tune", "--param", "entrada=40", "--deals", "2", "--out", s(&csv)]));
    assert_eq!(one_line(&err), format!("error: {f} is a file, not a directory: it cannot hold {}", s(&csv)));
    let err = failed(&tresillo(&["tune", "--param", "entrada=40", "--deals", "2", "--out", s(&d.0)]));
    assert!(one_line(&err).contains("is a directory, not a file"), "{err}");
    assert_eq!(fs::read_to_string(&file).unwrap(), "a file\n");
}
