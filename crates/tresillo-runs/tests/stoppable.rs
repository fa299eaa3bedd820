//! A run stopped by its caller (`run_stoppable`, the Python package's Ctrl-C)
//! keeps every finished batch, says how many deals it kept, and resumes to the
//! files of a run never stopped.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use tresillo_runs::{Interrupted, RunOptions, read_manifest, run, run_stoppable};
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
    let why = err.downcast_ref::<Interrupted>().expect("an Interrupted error");
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
