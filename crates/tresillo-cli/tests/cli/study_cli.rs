//! `tresillo study` (issue 38), the acceptance test: a study of 3
//! simulated participants on a book of 10 deals, exported; a bot run on the same
//! deals; `scripts/paired.py` compares them; the exported records replay.

use crate::common;
use common::{TempDir, failed, ok, tresillo};
use std::path::{Path, PathBuf};
use std::process::Command;

fn rows(path: &Path) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    r.records().map(|x| x.unwrap().iter().map(str::to_string).collect()).collect()
}

#[test]
fn three_simulated_participants_compared_with_a_bot_run_on_the_same_deals() {
    let d = TempDir::new("study", "acceptance");
    let dir = d.path("study");
    let s = dir.to_str().unwrap();
    let out = ok(&tresillo(&[
        "study",
        "new",
        s,
        "--opponents",
        "random,rule",
        "--human-seats",
        "0,1,2",
        "--seed",
        "5",
        "--deals",
        "10",
        "--per-participant",
        "10",
        "--participants",
        "3",
    ]));
    let tokens: Vec<&str> = out.lines().skip(1).map(|l| l.split(' ').nth(1).unwrap()).collect();
    assert_eq!(tokens.len(), 3);
    assert!(tokens.iter().all(|t| t.len() == 32));
    let file = std::fs::read(dir.join("study.toml")).unwrap();
    // Never overwritten.
    let e = failed(&tresillo(&["study", "new", s]));
    assert!(e.contains("study.toml: already exists"), "{e}");
    assert_eq!(std::fs::read(dir.join("study.toml")).unwrap(), file);
    // No room for a fourth participant's 10 games: refused, the file unchanged.
    let e = failed(&tresillo(&["study", "add-participant", s, "--id", "p4"]));
    assert!(e.contains("line 10: `deals_per_participant`: 4 participants × 10 deals need 40 games"), "{e}");
    assert_eq!(std::fs::read(dir.join("study.toml")).unwrap(), file);

    // The participants: `rule` in the human's seat, one decision at a time.
    let out = ok(&tresillo(&["study", "simulate", s, "--agent", "rule"]));
    assert!(out.contains("played 30 games"), "{out}");
    let out = ok(&tresillo(&["study", "progress", s]));
    assert!(out.contains("p3           main             10     10  -"), "{out}");
    let export = d.path("export");
    ok(&tresillo(&["study", "export", s, "--out", export.to_str().unwrap(), "--format", "both"]));

    // The bots on the same deals: `rule` in slot 0 of a duplicate tournament.
    let bots = d.path("bots");
    let seed_book = std::fs::read_to_string(export.join("book.txt")).unwrap();
    assert_eq!(seed_book.lines().filter(|l| !l.starts_with('#')).count(), 10);
    ok(&tresillo(&[
        "tournament",
        "--deals-from",
        export.join("book.txt").to_str().unwrap(),
        "--agents",
        "rule,random,rule",
        "--duplicate",
        "--out",
        bots.to_str().unwrap(),
    ]));
    // Same schema; each study row is the tournament's row of that deal and seating
    // but for the participant's name (the participant played as `rule` would).
    let (mine, theirs) = (rows(&export.join("deals.csv")), rows(&bots.join("deals.csv")));
    assert_eq!(mine.len(), 30);
    let header = |p: &Path| std::fs::read_to_string(p).unwrap().lines().next().unwrap().to_string();
    assert_eq!(header(&export.join("deals.csv")), header(&bots.join("deals.csv")));
    for row in &mine {
        let t = theirs.iter().find(|t| t[0] == row[0] && t[2] == row[2]).unwrap();
        let human = row.iter().find(|c| c.starts_with("human:p")).unwrap().clone();
        let renamed: Vec<String> =
            row.iter().map(|c| if *c == human { "rule".into() } else { c.clone() }).collect();
        assert_eq!(&renamed, t, "deal {} seating {}", row[0], row[2]);
    }

    // paired.py: the humans' slot 0 against the bots' slot 0, deal by deal.
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/paired.py");
    let p = Command::new("python3")
        .arg(&script)
        .arg(&export)
        .arg("0")
        .arg("--across")
        .arg(&bots)
        .arg("0")
        .output();
    let p = p.expect("python3");
    let text = String::from_utf8_lossy(&p.stdout);
    assert!(p.status.success(), "{}", String::from_utf8_lossy(&p.stderr));
    assert!(text.contains("tantos per deal (paired by deal), 10 deals"), "{text}");
    assert!(text.contains("likelihood of superiority"), "{text}");

    // The exported records replay exactly, line k being row k.
    let replay = ok(&tresillo(&["replay", export.join("records.jsonl").to_str().unwrap()]));
    assert!(replay.contains("outcome:"), "{replay}");
    let records = std::fs::read_to_string(export.join("records.jsonl")).unwrap();
    assert_eq!(records.lines().count(), 30);
    for (line, row) in records.lines().zip(&mine) {
        let r: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(r["tournament"]["deal"].to_string(), row[0]);
        assert_eq!(r["tournament"]["seating"], row[2].as_str());
    }
    // An export never overwrites.
    let e = failed(&tresillo(&["study", "export", s, "--out", export.to_str().unwrap()]));
    assert!(e.contains("already exists"), "{e}");
}

#[test]
fn a_bad_study_file_is_one_line_naming_file_line_and_key() {
    let d = TempDir::new("study", "bad");
    let dir = d.path("s");
    ok(&tresillo(&["study", "new", dir.to_str().unwrap(), "--participants", "1"]));
    let path = dir.join("study.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("deals_per_participant = 10", "deals_per_participant = -1")).unwrap();
    let e = failed(&tresillo(&["study", "progress", dir.to_str().unwrap()]));
    assert!(e.contains("study.toml: line 10, column 25: `deals_per_participant`: invalid value"), "{e}");
    assert_eq!(e.trim_end().lines().count(), 1, "{e}");
    std::fs::write(
        &path,
        text.replace("opponents = [\"rule\", \"rule\"]", "opponents = [\"rule\", \"nobody\"]"),
    )
    .unwrap();
    let e = failed(&tresillo(&["study", "progress", dir.to_str().unwrap()]));
    assert!(e.contains("study.toml: line 7: `opponents`: \"nobody\""), "{e}");
}
