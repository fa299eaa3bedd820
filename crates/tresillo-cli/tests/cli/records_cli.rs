//! End-to-end tests of game records: `play --record`, `tournament --record`,
//! `tresillo replay FILE` (checked before anything is printed) and the replay of a
//! deals.csv row from its seeds.

use crate::common;

use common::{TempDir, failed, ok, tresillo};
use std::fs;
use std::path::Path;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn play_and_replay_print_the_same_hand() {
    let d = TempDir::new("records", "play");
    let rec = d.path("hand.jsonl");
    for seed in ["7", "12", "31"] {
        let played =
            ok(&tresillo(&["play", "--seed", seed, "--agents", "rule,random,rule", "--record", s(&rec)]));
        let replayed = ok(&tresillo(&["replay", s(&rec)]));
        assert_eq!(played, replayed, "seed {seed}");
        assert!(replayed.lines().last().unwrap().starts_with("outcome: "), "{replayed}");
        let text = fs::read_to_string(&rec).unwrap();
        assert_eq!(text.lines().count(), 1);
        let v: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
        for key in ["format", "rules", "options", "seed", "deal", "dealer", "agents", "decisions", "result"] {
            assert!(v.get(key).is_some(), "{key} missing from {text}");
        }
        assert_eq!(v["format"], 1);
        assert_eq!(v["seed"].as_u64().unwrap().to_string(), seed);
    }
}

/// Lines of a record file, each with a changed copy.
fn corrupt(dir: &TempDir, name: &str, text: &str) -> std::path::PathBuf {
    dir.write(name, text)
}

#[test]
fn bad_records_are_one_error_naming_the_line_and_print_nothing() {
    let d = TempDir::new("records", "bad");
    let rec = d.path("two.jsonl");
    ok(&tresillo(&[
        "tournament",
        "--agents",
        "rule,rule,random",
        "--deals",
        "2",
        "--out",
        s(&d.path("run")),
        "--record",
        s(&rec),
    ]));
    let good = fs::read_to_string(&rec).unwrap();
    let lines: Vec<&str> = good.lines().collect();
    assert_eq!(lines.len(), 2);
    let check = |name: &str, text: String, needle: &str| {
        let p = corrupt(&d, name, &text);
        let out = tresillo(&["replay", s(&p)]);
        let err = failed(&out);
        assert!(out.stdout.is_empty(), "{name}: printed {}", String::from_utf8_lossy(&out.stdout));
        assert_eq!(err.trim().lines().count(), 1, "{name}: {err}");
        assert!(err.contains(&format!("{}:2:", p.display())), "{name}: {err}");
        assert!(err.contains(needle), "{name}: {err}");
    };
    // A truncated last line.
    check(
        "truncated.jsonl",
        format!("{}\n{}", lines[0], &lines[1][..lines[1].len() / 2]),
        "malformed record",
    );
    // A stored result that the decisions do not give.
    let mut v: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
    let t = v["result"]["tricks"][0].as_u64().unwrap();
    v["result"]["tricks"][0] = serde_json::json!(t + 1);
    check("result.jsonl", format!("{}\n{}\n", lines[0], v), "disagrees with the replay in: tricks");
    // An illegal decision: a bid level the rule set does not have.
    let mut v: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
    v["decisions"][0] = serde_json::json!({"seat": v["decisions"][0]["seat"], "bid": {"level": 7}});
    check("illegal.jsonl", format!("{}\n{}\n", lines[0], v), "decision 1");
    // Decisions missing at the end.
    let mut v: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
    v["decisions"].as_array_mut().unwrap().pop();
    check("short.jsonl", format!("{}\n{}\n", lines[0], v), "not over");
    // Garbage and an empty line.
    check("garbage.jsonl", format!("{}\nnot json\n", lines[0]), "malformed record");
    check("empty.jsonl", format!("{}\n\n{}\n", lines[0], lines[1]), "empty line");
    // The good file prints both hands; --hand picks one; a hand out of range is refused.
    let both = ok(&tresillo(&["replay", s(&rec)]));
    assert!(both.contains("== hand 1 ==") && both.contains("== hand 2 =="), "{both}");
    let second = ok(&tresillo(&["replay", s(&rec), "--hand", "2"]));
    assert!(both.ends_with(&second), "{second}");
    let err = failed(&tresillo(&["replay", s(&rec), "--hand", "3"]));
    assert!(err.contains("hands 1 to 2"), "{err}");
    let err = failed(&tresillo(&["replay", s(&d.path("missing.jsonl"))]));
    assert!(err.contains("missing.jsonl"), "{err}");
}

/// The columns of deals.csv by name.
fn rows(csv: &str) -> Vec<std::collections::HashMap<String, String>> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|l| header.iter().zip(l.split(',')).map(|(h, v)| (h.to_string(), v.to_string())).collect())
        .collect()
}

#[test]
fn tournament_records_match_deals_csv_and_replay_from_the_row() {
    let d = TempDir::new("records", "tour");
    let (r1, r2) = (d.path("t1.jsonl"), d.path("t2.jsonl"));
    let base = [
        "tournament",
        "--agents",
        "rule,random,rule:entrada=40",
        "--seed",
        "3",
        "--deals",
        "5",
        "--duplicate",
    ];
    let run = |out: &str, rec: &Path, threads: &str| {
        let mut a = base.to_vec();
        a.extend(["--out", out, "--record", s(rec), "--threads", threads]);
        ok(&tresillo(&a));
    };
    run(s(&d.path("a")), &r1, "1");
    run(s(&d.path("b")), &r2, "2");
    let text = fs::read_to_string(&r1).unwrap();
    assert_eq!(text, fs::read_to_string(&r2).unwrap(), "records depend on the thread count");
    let csv = fs::read_to_string(d.path("a").join("deals.csv")).unwrap();
    let rows = rows(&csv);
    assert_eq!(rows.len(), 30);
    assert_eq!(text.lines().count(), 30, "one record per row");
    for (i, (row, line)) in rows.iter().zip(text.lines()).enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["seed"].as_u64().unwrap().to_string(), row["deal_seed"], "row {i}");
        assert_eq!(v["tournament"]["seating"], row["seating"].as_str(), "row {i}");
        assert_eq!(v["dealer"].as_u64().unwrap().to_string(), row["dealer"], "row {i}");
        for k in 0..3 {
            assert_eq!(v["agents"][k], row[&format!("agent{k}")].as_str(), "row {i}");
            assert_eq!(v["result"]["tricks"][k].as_u64().unwrap().to_string(), row[&format!("tricks{k}")]);
        }
        // The row alone reproduces the hand: deal seed, dealer, seating, agents.
        let agents = format!("{},{},{}", row["agent0"], row["agent1"], row["agent2"]);
        let from_row = ok(&tresillo(&[
            "replay",
            "--deal-seed",
            &row["deal_seed"],
            "--dealer",
            &row["dealer"],
            "--seating",
            &row["seating"],
            "--agents",
            &agents,
        ]));
        let hand = (i + 1).to_string();
        let from_record = ok(&tresillo(&["replay", s(&r1), "--hand", &hand]));
        assert_eq!(from_row, from_record, "row {i}");
        // So do the tournament's coordinates; and the record written is the line.
        let one = d.path("one.jsonl");
        ok(&tresillo(&[
            "replay",
            "--deal",
            &row["deal"],
            "--seed",
            "3",
            "--seating",
            &row["seating"],
            "--agents",
            &agents,
            "--record",
            s(&one),
        ]));
        assert_eq!(fs::read_to_string(&one).unwrap().trim_end(), line, "row {i}");
    }
}

#[test]
fn shards_records_concatenate_to_the_unsplit_records() {
    let d = TempDir::new("records", "shards");
    let base = ["tournament", "--agents", "rule,rule,random", "--seed", "9", "--deals", "7"];
    let run = |out: &str, rec: &Path, extra: &[&str]| {
        let mut a = base.to_vec();
        a.extend(["--out", out, "--record", s(rec)]);
        a.extend(extra);
        ok(&tresillo(&a));
    };
    run(s(&d.path("w")), &d.path("w.jsonl"), &[]);
    run(s(&d.path("s0")), &d.path("s0.jsonl"), &["--shard", "0/2"]);
    run(s(&d.path("s1")), &d.path("s1.jsonl"), &["--shard", "1/2"]);
    let joined =
        fs::read_to_string(d.path("s0.jsonl")).unwrap() + &fs::read_to_string(d.path("s1.jsonl")).unwrap();
    assert_eq!(joined, fs::read_to_string(d.path("w.jsonl")).unwrap());
}

#[test]
fn resume_continues_the_record_file_from_its_checkpoint() {
    // An interrupted run is made exactly: the files of a finished run of 300 deals,
    // with its manifest put back to a checkpoint after 100 deals (the statistics of
    // a 100-deal run of the same seed are those of its first 100 deals), and rows and
    // records written after the checkpoint, the last one torn.
    let d = TempDir::new("records", "resume");
    let base = ["tournament", "--agents", "rule,rule,random", "--seed", "4"];
    let (full, full_rec, part, cut, cut_rec) =
        (d.path("full"), d.path("full.jsonl"), d.path("part"), d.path("cut"), d.path("cut.jsonl"));
    let run = |deals: &str, out: &Path, extra: &[&str]| {
        let mut a = base.to_vec();
        a.extend(["--deals", deals, "--out", s(out)]);
        a.extend(extra);
        tresillo(&a)
    };
    ok(&run("300", &full, &["--record", s(&full_rec)]));
    ok(&run("100", &part, &[]));
    fs::create_dir_all(&cut).unwrap();
    let csv = fs::read(full.join("deals.csv")).unwrap();
    let records = fs::read(&full_rec).unwrap();
    let end_of_line = |bytes: &[u8], lines: usize| {
        bytes.iter().enumerate().filter(|(_, b)| **b == b'\n').nth(lines - 1).unwrap().0 + 1
    };
    let mut torn = csv.clone();
    torn.extend(b"301,12345,01");
    fs::write(cut.join("deals.csv"), &torn).unwrap();
    let mut torn = records.clone();
    torn.extend(b"{\"format\":1,\"ru");
    fs::write(&cut_rec, &torn).unwrap();
    fs::copy(part.join("stats.json"), cut.join("stats.json")).unwrap();
    let mut m: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(full.join("manifest.json")).unwrap()).unwrap();
    m["complete"] = false.into();
    m["units_completed"] = 100.into();
    m["deals_completed"] = 100.into();
    m["csv_bytes"] = end_of_line(&csv, 101).into(); // the header and 100 rows
    m["record"] = serde_json::json!({"path": s(&cut_rec), "bytes": end_of_line(&records, 100)});
    // The checksums of the finished run's files are not those of this checkpoint:
    // it is made as a version before checksums wrote it (nothing to verify).
    m.as_object_mut().unwrap().remove("crc32");
    fs::write(cut.join("manifest.json"), serde_json::to_string_pretty(&m).unwrap()).unwrap();
    // Resuming needs the same record file.
    let err = failed(&run("300", &cut, &["--resume"]));
    assert!(err.contains("--record"), "{err}");
    let err = failed(&run("300", &cut, &["--resume", "--record", s(&d.path("other.jsonl"))]));
    assert!(err.contains("--record"), "{err}");
    ok(&run("300", &cut, &["--resume", "--record", s(&cut_rec)]));
    assert!(fs::read(&full_rec).unwrap() == fs::read(&cut_rec).unwrap(), "the resumed record differs");
    for f in ["deals.csv", "summary.csv", "stats.json"] {
        assert!(fs::read(full.join(f)).unwrap() == fs::read(cut.join(f)).unwrap(), "{f} differs");
    }
    // A run started without --record cannot record halfway.
    fs::write(part.join("manifest.json"), {
        let mut m: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(part.join("manifest.json")).unwrap()).unwrap();
        m["complete"] = false.into();
        serde_json::to_string_pretty(&m).unwrap()
    })
    .unwrap();
    let err = failed(&run("100", &part, &["--resume", "--record", s(&d.path("late.jsonl"))]));
    assert!(err.contains("without --record"), "{err}");
}

#[test]
fn replay_of_a_row_checks_its_flags() {
    let err = failed(&tresillo(&[
        "replay",
        "--deal-seed",
        "5",
        "--dealer",
        "0",
        "--seating",
        "999",
        "--agents",
        "rule,rule,rule",
    ]));
    assert!(err.contains("--seating"), "{err}");
    let err =
        failed(&tresillo(&["replay", "--deal-seed", "5", "--dealer", "4", "--agents", "rule,rule,rule"]));
    assert!(err.contains("--dealer"), "{err}");
    let err = failed(&tresillo(&["replay", "--deal-seed", "5", "--dealer", "0", "--agents", "rule,rule"]));
    assert!(err.contains("three"), "{err}");
    let err =
        failed(&tresillo(&["replay", "--deal-seed", "5", "--dealer", "0", "--agents", "rule,nope,rule"]));
    assert!(err.contains("nope"), "{err}");
    failed(&tresillo(&["replay"]));
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/hand.jsonl");
    for bad in [
        vec!["replay", s(&example), "--hand", "-3"],
        vec!["analyze", s(&example), "--pimc", "--worlds", "-1"],
    ] {
        let err = failed(&tresillo(&bad));
        assert!(err.contains("must be a non-negative integer"), "{err}");
    }
}

#[test]
fn rows_of_a_tournament_with_a_bidding_agent_replay_with_it() {
    let d = TempDir::new("records", "bidding");
    let rec = d.path("b.jsonl");
    let out = d.path("run");
    ok(&tresillo(&[
        "tournament",
        "--agents",
        "random,rule,random",
        "--bidding",
        "rule",
        "--seed",
        "8",
        "--deals",
        "3",
        "--duplicate",
        "--out",
        s(&out),
        "--record",
        s(&rec),
    ]));
    let csv = fs::read_to_string(out.join("deals.csv")).unwrap();
    let mut differs = 0;
    for (i, row) in rows(&csv).iter().enumerate() {
        let agents = format!("{},{},{}", row["agent0"], row["agent1"], row["agent2"]);
        let args = |bidding: bool| {
            let mut a = vec![
                "replay".to_string(),
                "--deal-seed".into(),
                row["deal_seed"].clone(),
                "--dealer".into(),
                row["dealer"].clone(),
                "--seating".into(),
                row["seating"].clone(),
                "--agents".into(),
                agents.clone(),
            ];
            if bidding {
                a.extend(["--bidding".into(), "rule".into()]);
            }
            a
        };
        let with = |b: bool| {
            let a = args(b);
            ok(&tresillo(&a.iter().map(String::as_str).collect::<Vec<_>>()))
        };
        let from_record = ok(&tresillo(&["replay", s(&rec), "--hand", &(i + 1).to_string()]));
        assert_eq!(with(true), from_record, "row {i}");
        differs += usize::from(with(false) != from_record);
    }
    assert!(differs > 0, "--bidding never mattered");
}

#[test]
fn the_committed_example_record_replays() {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/hand.jsonl");
    let out = ok(&tresillo(&["replay", s(&p)]));
    assert!(out.lines().last().unwrap().starts_with("outcome: sacado"), "{out}");
    assert_eq!(out, ok(&tresillo(&["play", "--seed", "1", "--agents", "rule,rule,rule"])));
}
