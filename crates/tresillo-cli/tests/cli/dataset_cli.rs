//! `tresillo dataset` end to end (issue 51): the same bytes whatever `--threads`;
//! killed at every write point in turn (`TRESILLO_ABORT_AFTER_WRITES`), `--resume`
//! gives the bytes of an uninterrupted run; a dataset is not overwritten without
//! `--force`; `verify` checks the shards; `schema dataset` and `--dump-inputs` print what the Python readers
//! rely on.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tresillo-dataset-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn run_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tresillo"));
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

const ARGS: [&str; 10] = [
    "dataset",
    "--agents",
    "rule,random,rule",
    "--deals",
    "75",
    "--seed",
    "3",
    "--shard-deals",
    "25",
    "--quiet",
];

fn make(out: &Path, more: &[&str], env: &[(&str, &str)]) -> Output {
    let mut args: Vec<&str> = ARGS.to_vec();
    args.extend_from_slice(&["--out", out.to_str().unwrap()]);
    args.extend_from_slice(more);
    run_env(&args, env)
}

/// The shards' bytes and the manifest without its command line.
fn contents(dir: &Path) -> (Vec<(String, Vec<u8>)>, serde_json::Value) {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "parquet"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect();
    files.sort();
    let mut m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    m.as_object_mut().unwrap().remove("command");
    (files, m)
}

#[test]
fn the_same_bytes_whatever_the_threads_and_after_a_kill_at_any_write() {
    let want = tmp("whole");
    assert!(make(&want, &["--threads", "1"], &[]).status.success());
    let whole = contents(&want);
    assert_eq!(whole.0.len(), 3);
    let two = tmp("two");
    assert!(make(&two, &["--threads", "2"], &[]).status.success());
    assert!(contents(&two) == whole, "the same files on two threads");
    // Again without --resume or --force: refused in one line, nothing changed.
    let o = make(&two, &[], &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2));
    assert!(err.contains("already holds a dataset") && err.lines().count() == 1, "{err}");
    assert!(contents(&two) == whole);
    // `tresillo verify` checks the shards against the manifest's checksums.
    let o = run(&["verify", two.to_str().unwrap()]);
    let line = String::from_utf8_lossy(&o.stdout);
    assert!(
        line.starts_with("ok: ") && line.contains("complete dataset of") && line.contains("3 files"),
        "{line}"
    );
    let shard = two.join("rows-00001.parquet");
    let mut bytes = std::fs::read(&shard).unwrap();
    bytes[100] ^= 1;
    std::fs::write(&shard, &bytes).unwrap();
    let o = run_env(&["verify", two.to_str().unwrap()], &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2));
    assert!(err.contains("rows-00001.parquet") && err.lines().count() == 1, "{err}");
    // Killed after each write in turn, then resumed.
    let mut n = 1;
    loop {
        let d = tmp("killed");
        let limit = n.to_string();
        let o = make(&d, &["--threads", "2"], &[("TRESILLO_ABORT_AFTER_WRITES", &limit)]);
        if o.status.success() {
            break; // fewer writes than n: every point was tried
        }
        let o = make(&d, &["--resume"], &[]);
        assert!(o.status.success(), "after write {n}: {}", String::from_utf8_lossy(&o.stderr));
        assert!(contents(&d) == whole, "killed after write {n}, resumed: other files");
        assert!(run_env(&["verify", d.to_str().unwrap()], &[]).status.success());
        n += 1;
        assert!(n < 100, "a run of 3 shards writes fewer than 100 times");
    }
    assert!(n > 4, "killed at {n} points");
}

#[test]
fn the_schema_and_the_dumped_inputs() {
    let o = run(&["schema", "dataset"]);
    let schema: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let names: Vec<&str> =
        schema["columns"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names[..4], ["rules", "players", "deal", "seed"]);
    assert_eq!(schema["input"]["length"], 612);
    let d = tmp("dump");
    assert!(make(&d, &[], &[]).status.success());
    let shard = d.join("rows-00000.parquet");
    let o = run(&["dataset", "--dump-inputs", shard.to_str().unwrap(), "--dump-rows", "3"]);
    let lines: Vec<serde_json::Value> =
        String::from_utf8(o.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3);
    assert!(lines.iter().all(|l| l["input"].as_array().unwrap().len() == 612 && l["deal"] == 0));
    // A file that is not a dataset: one line naming it.
    let csv = d.join("manifest.json");
    let o = run_env(&["dataset", "--dump-inputs", csv.to_str().unwrap()], &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2));
    assert!(err.contains("manifest.json: not a readable Parquet file") && err.lines().count() == 1, "{err}");
}

/// `tresillo train --data DIR` trains on a dataset's rows exactly as on the same
/// deals played by `train` itself.
#[test]
fn train_on_a_dataset_as_on_the_deals_played() {
    let d = tmp("train");
    let dir = d.join("data");
    run(&["dataset", "--deals", "120", "--seed", "5", "--quiet", "--out", dir.to_str().unwrap()]);
    let train = |more: &[&str], model: &str| -> String {
        let model = d.join(model);
        let mut args = vec![
            "train", "--kind", "policy", "--hidden", "16", "--epochs", "1", "--quiet", "--phases", "play",
        ];
        args.extend_from_slice(&["--out", model.to_str().unwrap()]);
        args.extend_from_slice(more);
        let o = run(&args);
        let text = String::from_utf8(o.stdout).unwrap();
        text.lines().filter(|l| !l.starts_with("wrote")).collect::<Vec<_>>().join("\n")
    };
    let from_data = train(&["--data", dir.to_str().unwrap()], "a.safetensors");
    let played = train(&["--deals", "120", "--seed", "5"], "b.safetensors");
    assert!(from_data.contains("loss"), "{from_data}");
    assert_eq!(from_data, played);
}
