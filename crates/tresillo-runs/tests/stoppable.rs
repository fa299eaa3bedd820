//! A run stopped by its caller (`run_stoppable`, the Python package's Ctrl-C)
//! keeps every finished batch, says how many deals it kept, and resumes to the
//! files of a run never stopped.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use tresillo_runs::{RunError, RunOptions, read_manifest, run, run_stoppable};
use tresillo_sim::simple_config;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tresillo-stoppable-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn files(dir: &Path) -> Vec<Vec<u8>> {
    ["deals.csv", "summary.csv", "stats.json", "manifest.json"]
        .iter()
        .map(|f| std::fs::read(dir.join(f)).unwrap_or_else(|e| panic!("{}: {e}", dir.join(f).display())))
        .collect()
}

#[test]
fn a_stopped_run_keeps_its_finished_batches_and_resumes_byte_for_byte() {
    let config = simple_config(["rule", "random", "rule"], 200, 9, false);
    let whole = temp("whole");
    let mut o = RunOptions::new(&whole);
    o.threads = Some(1);
    run(&config, &o, vec!["test".into()]).unwrap();

    // Stopped before its third batch (one unit, then at most four).
    let cut = temp("cut");
    let asked = AtomicU32::new(0);
    let mut o = RunOptions::new(&cut);
    o.threads = Some(1);
    let err =
        run_stoppable(&config, &o, None, vec!["test".into()], &|| asked.fetch_add(1, Ordering::SeqCst) == 2)
            .unwrap_err();
    let RunError::Interrupted(why) = err else { panic!("an Interrupted error: {err}") };
    let m = read_manifest(&cut).unwrap();
    assert!(!m.complete, "{m:?}");
    assert!(m.deals_completed > 0 && m.deals_completed < 200, "{m:?}");
    assert_eq!(why.deals_completed, m.deals_completed);
    assert!(!cut.join("summary.csv").exists(), "no summary for an unfinished run");

    o.resume = true;
    run(&config, &o, vec!["test".into()]).unwrap();
    assert_eq!(files(&cut), files(&whole));
    for d in [whole, cut] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

/// The library once aborted the process after a run's N-th checkpoint when the
/// environment held `TRESILLO_ABORT_AFTER_CHECKPOINTS=N`, and after its N-th write
/// with `TRESILLO_ABORT_AFTER_WRITES=N` (a Python user with either set lost the
/// interpreter). Only the `tresillo` binary reads them now: this test runs itself
/// again with both set, and the run completes.
#[test]
fn the_environment_stops_no_library_run() {
    if std::env::var_os("TRESILLO_ABORT_AFTER_CHECKPOINTS").is_some() {
        let config = simple_config(["rule", "random", "rule"], 30, 9, false);
        let dir = temp("env-child");
        let mut o = RunOptions::new(&dir);
        o.threads = Some(1);
        run(&config, &o, vec!["test".into()]).unwrap();
        assert!(read_manifest(&dir).unwrap().complete);
        return;
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "stoppable::the_environment_stops_no_library_run", "--test-threads", "1"])
        .env("TRESILLO_ABORT_AFTER_CHECKPOINTS", "1")
        .env("TRESILLO_ABORT_AFTER_WRITES", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 passed"), "{out:?}");
}
