//! Issue 34, checksums: any single-byte change to any data file of a finished or
//! checkpointed run directory is refused, in one line naming the file, by
//! `tresillo verify` (every byte of a small run's files, or a seeded sample of
//! 3,000 positions of a larger file), and by `--resume`, `merge` and `report` (a
//! seeded sample). The library is driven directly where it can be (thousands of
//! checks in a few seconds); the binary only for its exit status and `report`.

use crate::common;

use common::{TempDir, tresillo};
use std::fs;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use tresillo_runs::verify::{Missing, verify, verify_run};
use tresillo_runs::{Format, RunOptions, merge, read_manifest, run, run_stoppable};
use tresillo_sim::{Shard, TournamentConfig, simple_config};

/// Files larger than this are checked at a seeded sample of positions.
const EVERY_BYTE_UP_TO: u64 = 24_000;
/// Positions sampled from a larger file.
const SAMPLE: usize = 3_000;

fn config(deals: u64, shard: Shard) -> TournamentConfig {
    TournamentConfig { shard, ..simple_config(["rule", "random", "rule"], deals, 11, true) }
}

fn options(out: &Path, record: Option<PathBuf>) -> RunOptions<'static> {
    RunOptions { threads: Some(1), record, format: Format::Both, ..RunOptions::new(out) }
}

/// A small generator for the sampled positions (xorshift64*), from a fixed seed.
struct Positions(u64);

impl Positions {
    fn next(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n
    }

    /// Every position of a file of `len` bytes, or `sample` of them.
    fn of(&mut self, len: u64, every_up_to: u64, sample: usize) -> Vec<u64> {
        if len <= every_up_to { (0..len).collect() } else { (0..sample).map(|_| self.next(len)).collect() }
    }
}

/// Changes the byte at `pos` of `p` (one bit of it, which bit by position), runs
/// `check`, and puts the byte back.
fn flipped<T>(p: &Path, pos: u64, check: impl FnOnce() -> T) -> T {
    let f = fs::OpenOptions::new().read(true).write(true).open(p).unwrap();
    let mut b = [0u8];
    f.read_exact_at(&mut b, pos).unwrap();
    f.write_all_at(&[b[0] ^ (1 << (pos % 8))], pos).unwrap();
    let out = check();
    f.write_all_at(&b, pos).unwrap();
    out
}

/// The data files of the run in `dir` (all but the manifest, the measured compute
/// files, the lock and the temporary `deals.parquet.tmp` a checkpointed run
/// assembles again; the Parquet part files of a checkpoint), and its record.
fn data_files(dir: &Path, record: Option<&Path>) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if p.is_dir() {
            out.extend(fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
        } else if !["manifest.json", "compute.json", "compute.csv", "run.lock"].contains(&name.as_str())
            && !name.ends_with(".tmp")
        {
            out.push(p);
        }
    }
    out.extend(record.map(Path::to_path_buf));
    out.sort();
    out
}

/// Asserts that `r` is an error naming the file `p`.
fn refused<T, E: std::fmt::Display>(r: Result<T, E>, p: &Path, pos: u64, what: &str) {
    let name = p.file_name().unwrap().to_string_lossy();
    match r {
        Ok(_) => panic!("{what} accepted {} with byte {pos} changed", p.display()),
        Err(e) => {
            let msg = format!("{e:#}");
            assert!(msg.contains(&*name) && !msg.contains('\n'), "{what}, {} byte {pos}: {msg}", p.display());
        }
    }
}

#[test]
fn every_changed_byte_of_a_finished_run_is_refused_by_verify_resume_merge_and_report() {
    let t = TempDir::new("checksums", "finished");
    let dir = t.path("run");
    let rec = t.path("run.jsonl");
    run(&config(2, Shard::WHOLE), &options(&dir, Some(rec.clone())), vec!["test".into()]).unwrap();
    let m = read_manifest(&dir).unwrap();
    for f in ["deals.csv", "deals.parquet", "stats.json", "summary.csv", "pairs.csv", "forfeits.csv"] {
        assert!(m.crc32.contains_key(f), "the manifest records no checksum of {f}: {:?}", m.crc32);
    }
    assert!(!m.crc32.contains_key("compute.json") && !m.crc32.contains_key("compute.csv"));
    assert!(verify(&dir).unwrap().line.starts_with("ok: "));
    let files = data_files(&dir, Some(&rec));
    assert_eq!(files.len(), 7, "{files:?}");
    let mut rng = Positions(0x005e_ed34);
    let mut checked = 0;
    for p in &files {
        let len = fs::metadata(p).unwrap().len();
        let positions = rng.of(len, EVERY_BYTE_UP_TO, SAMPLE);
        for &pos in &positions {
            refused(flipped(p, pos, || verify(&dir)), p, pos, "verify");
            checked += 1;
        }
        // --resume of the complete run, on a sample: refused, nothing rebuilt.
        for &pos in positions.iter().step_by(positions.len().div_ceil(12)) {
            let o = RunOptions { resume: true, ..options(&dir, Some(rec.clone())) };
            refused(flipped(p, pos, || run(&config(2, Shard::WHOLE), &o, vec![])), p, pos, "--resume");
        }
    }
    assert!(checked > 10_000, "{checked} positions checked");
    // Untouched again: accepted by all.
    verify(&dir).unwrap();
    let o = RunOptions { resume: true, ..options(&dir, Some(rec.clone())) };
    assert!(run(&config(2, Shard::WHOLE), &o, vec![]).unwrap().contains("already complete"));

    // `report` and `verify`, through the binary: one line naming the file, status 2.
    let html = t.path("r.html");
    let (d, h) = (dir.to_str().unwrap(), html.to_str().unwrap());
    let ok = tresillo(&["verify", d]);
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    let line = String::from_utf8_lossy(&ok.stdout).into_owned();
    assert!(
        line.starts_with(&format!("ok: {d}: complete run of 2 deals; ")) && line.lines().count() == 1,
        "{line}"
    );
    assert!(tresillo(&["report", d, "--out", h]).status.success());
    for p in files.iter().filter(|p| *p != &rec) {
        let len = fs::metadata(p).unwrap().len();
        for pos in [0, len / 2, len - 1] {
            for args in [vec!["report", d, "--out", h], vec!["verify", d]] {
                let o = flipped(p, pos, || tresillo(&args));
                let err = String::from_utf8_lossy(&o.stderr);
                let name = p.file_name().unwrap().to_string_lossy();
                assert_eq!(
                    o.status.code(),
                    Some(2),
                    "{args:?} with {} byte {pos} changed: {err}",
                    p.display()
                );
                assert!(
                    err.starts_with("error: ") && err.lines().count() == 1 && err.contains(&*name),
                    "{args:?}, {} byte {pos}: {err}",
                    p.display()
                );
            }
        }
    }
}

#[test]
fn every_changed_byte_of_a_checkpoint_is_refused_by_verify_and_resume() {
    let t = TempDir::new("checksums", "checkpoint");
    let dir = t.path("run");
    let rec = t.path("run.jsonl");
    let cfg = config(3, Shard::WHOLE);
    // One batch (one unit at one thread), then stopped: a checkpointed run.
    let calls = std::sync::atomic::AtomicU32::new(0);
    let stop = || calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst) >= 1;
    let e = run_stoppable(&cfg, &options(&dir, Some(rec.clone())), None, vec![], &stop).unwrap_err();
    assert!(matches!(e, tresillo_runs::RunError::Interrupted(_)), "{e:#}");
    let m = read_manifest(&dir).unwrap();
    assert!(!m.complete && m.deals_completed == 1, "{m:?}");
    assert!(m.crc32.keys().any(|k| k.starts_with("deals.parquet.parts/")), "{:?}", m.crc32);
    assert!(m.record.as_ref().unwrap().crc32.is_some());
    assert!(verify(&dir).unwrap().line.contains("run in progress, 1 of 3 deals checkpointed"));
    let files = data_files(&dir, Some(&rec));
    assert_eq!(files.len(), 4, "deals.csv, the part, stats.json, the record: {files:?}");
    let mut rng = Positions(0x0034_c4ec);
    let resume = RunOptions { resume: true, ..options(&dir, Some(rec.clone())) };
    for p in &files {
        let len = fs::metadata(p).unwrap().len();
        let positions = rng.of(len, EVERY_BYTE_UP_TO, SAMPLE);
        for &pos in &positions {
            refused(flipped(p, pos, || verify_run(&dir, &m, Missing::Refused)), p, pos, "verify");
        }
        for &pos in positions.iter().step_by(positions.len().div_ceil(12)) {
            refused(flipped(p, pos, || run(&cfg, &resume, vec![])), p, pos, "--resume");
            assert_eq!(read_manifest(&dir).unwrap(), m, "a refused --resume changed the manifest");
        }
    }
    // Untouched, the checkpoint resumes to the uninterrupted run's bytes.
    run(&cfg, &resume, vec![]).unwrap();
    let whole = t.path("whole");
    let whole_rec = t.path("whole.jsonl");
    run(&cfg, &options(&whole, Some(whole_rec.clone())), vec![]).unwrap();
    for f in ["deals.csv", "deals.parquet", "stats.json", "summary.csv", "pairs.csv"] {
        assert_eq!(fs::read(dir.join(f)).unwrap(), fs::read(whole.join(f)).unwrap(), "{f}");
    }
    assert_eq!(fs::read(&rec).unwrap(), fs::read(&whole_rec).unwrap());
    let (a, b) = (read_manifest(&dir).unwrap(), read_manifest(&whole).unwrap());
    assert_eq!(a.crc32, b.crc32, "the checksums do not depend on the interruption");
    assert_eq!(a.record.unwrap().crc32, b.record.unwrap().crc32);
}

#[test]
fn a_changed_byte_of_a_shard_is_refused_by_merge() {
    let t = TempDir::new("checksums", "merge");
    let shards: Vec<PathBuf> = (0..2)
        .map(|k| {
            let d = t.path(&format!("s{k}"));
            run(&config(4, Shard { index: k, count: 2 }), &options(&d, None), vec![]).unwrap();
            d
        })
        .collect();
    let out = t.path("all");
    let mut rng = Positions(0x0003_e26e);
    for p in data_files(&shards[1], None) {
        let len = fs::metadata(&p).unwrap().len();
        for pos in rng.of(len, 0, 16) {
            refused(flipped(&p, pos, || merge(&out, &shards, false, None, vec![], None)), &p, pos, "merge");
            assert!(!out.join("manifest.json").exists(), "a refused merge wrote its output");
        }
    }
    merge(&out, &shards, false, None, vec![], None).unwrap();
    // The merged run records the checksums a run in one piece does, and verifies.
    let whole = t.path("whole");
    run(&config(4, Shard::WHOLE), &options(&whole, None), vec![]).unwrap();
    assert_eq!(read_manifest(&out).unwrap().crc32, read_manifest(&whole).unwrap().crc32);
    verify(&out).unwrap();
}
