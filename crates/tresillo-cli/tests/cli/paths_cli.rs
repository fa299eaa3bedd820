//! Issue 34, finding 3: output paths are checked before any work. A `--record`
//! naming a directory, a device or the root, an `--out` naming the root, a report
//! page naming a directory: each is one line at once, and nothing is written
//! beside or above them.

use crate::common;

use common::{TempDir, tresillo};
use std::path::Path;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// One `error:` line, exit 2, naming `what`.
fn refused(args: &[&str], what: &str) -> String {
    let o = tresillo(args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("error: ") && err.contains(what), "{args:?}: {err}");
    err
}

const T: [&str; 7] =
    ["tournament", "--agents", "rule,rule,random", "--deals", "6", "--duplicate", "--threads=1"];

fn tournament(extra: &[&str]) -> Vec<String> {
    T.iter().chain(extra).map(|x| x.to_string()).collect()
}

#[test]
fn a_record_path_that_is_a_directory_a_device_or_the_root_is_refused_before_the_run() {
    let d = TempDir::new("paths", "record");
    let out = d.path("run");
    let recdir = d.path("records");
    std::fs::create_dir(&recdir).unwrap();
    for (rec, what) in [
        (s(&recdir).to_string(), "is a directory"),
        (format!("{}/", d.path("nodir").display()), "names a directory"),
        ("/".to_string(), "names a directory"),
        ("/dev/null".to_string(), "not a regular file"),
        (format!("{}/x.jsonl", d.write("plain", "x").display()), "is a file, not a directory"),
    ] {
        for extra in [&[][..], &["--force"][..], &["--resume"][..]] {
            let mut a = tournament(&["--out", s(&out), "--record", &rec]);
            a.extend(extra.iter().map(|x| x.to_string()));
            let a: Vec<&str> = a.iter().map(String::as_str).collect();
            refused(&a, what);
            assert!(!out.exists(), "{rec}: the run directory was created before the refusal");
        }
    }
    assert!(!Path::new("/.partial").exists());
    // An experiment's record: the same, before its OUT.partial is made.
    let exp = d.write(
        "e.toml",
        &format!(
            "[tournament]\nagents = [\"rule\", \"rule\", \"random\"]\ndeals = 6\nseed = 1\nout = '{}'\nrecord = '{}'\n",
            out.display(),
            recdir.display()
        ),
    );
    refused(&["run", s(&exp)], "is a directory");
    assert!(!out.exists() && !d.path("run.partial").exists());
    // play --record.
    refused(&["play", "--record", s(&recdir)], "is a directory");
}

#[test]
fn an_output_at_the_root_or_a_device_is_refused_up_front() {
    let d = TempDir::new("paths", "out");
    let a = tournament(&["--out", "/"]);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    refused(&a, "root");
    let a = tournament(&["--out", "/dev/null"]);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    refused(&a, "is a file");
    // A report page named like a directory, or an existing directory.
    let run = d.path("r");
    let a = tournament(&["--out", s(&run)]);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    common::ok(&tresillo(&a));
    let page = d.path("page.html");
    std::fs::create_dir(&page).unwrap();
    refused(&["report", s(&run), "--out", s(&page)], "is a directory");
}
