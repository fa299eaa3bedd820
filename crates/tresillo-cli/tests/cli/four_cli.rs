//! Four-player `tresillo` (RULES.md section 12.2) end to end: `--players 4` in
//! `tournament` (four agent slots, the 24 duplicate seatings, the `players` and
//! seat-3 columns, identical output on any thread count, records that replay),
//! `play`, `replay` of a row, `perft`, `tune` and `run`; and the one-line errors.

use crate::common;

use common::{TempDir, failed, ok, tresillo};

#[test]
fn a_four_player_duplicate_tournament_plays_24_seatings_and_fills_the_seat_3_columns() {
    let d = TempDir::new("four", "tournament");
    let (a, b) = (d.path("a"), d.path("b"));
    let rec = d.path("rec.jsonl");
    let args = |out: &std::path::Path, threads: &str| {
        vec![
            "tournament".to_string(),
            "--players".into(),
            "4".into(),
            "--agents".into(),
            "rule,random,random,random".into(),
            "--deals".into(),
            "12".into(),
            "--duplicate".into(),
            "--out".into(),
            out.to_str().unwrap().into(),
            "--threads".into(),
            threads.into(),
        ]
    };
    let mut first = args(&a, "1");
    first.extend(["--record".into(), rec.to_str().unwrap().into()]);
    ok(&tresillo(&first.iter().map(String::as_str).collect::<Vec<_>>()));
    ok(&tresillo(&args(&b, "2").iter().map(String::as_str).collect::<Vec<_>>()));
    let csv = std::fs::read_to_string(a.join("deals.csv")).unwrap();
    assert_eq!(csv, std::fs::read_to_string(b.join("deals.csv")).unwrap(), "thread count changes nothing");
    let mut rows = csv.lines();
    let header: Vec<&str> = rows.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("{name}"));
    let rows: Vec<Vec<&str>> = rows.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 12 * 24);
    let mut seatings: Vec<&str> = rows.iter().map(|r| r[col("seating")]).collect();
    seatings.sort_unstable();
    seatings.dedup();
    assert_eq!(seatings.len(), 24);
    for r in &rows {
        assert_eq!(r[col("players")], "4");
        assert!(!r[col("agent3")].is_empty() && !r[col("tricks3")].is_empty());
        // The dealer rotates over four seats and takes tricks only in a penetro.
        let deal: u64 = r[col("deal")].parse().unwrap();
        let dealer = (deal % 4) as usize;
        assert_eq!(r[col("dealer")], dealer.to_string());
        let penetro = r[col("penetro")] == "1";
        let tricks = r[col(["tricks0", "tricks1", "tricks2", "tricks3"][dealer])];
        if !penetro {
            assert_eq!(tricks, "0", "{r:?}");
        }
        assert_ne!(r[col("outcome")], "cancelled", "a four-player hand is never cancelled");
        // Condiciones are paid between the four bowls: they sum to zero.
        let cond: i64 = (0..4).map(|s| r[col(&format!("cond{s}"))].parse::<i64>().unwrap()).sum();
        assert_eq!(cond, 0, "{r:?}");
    }
    let summary = std::fs::read_to_string(a.join("summary.csv")).unwrap();
    assert!(summary.lines().any(|l| l.starts_with("3:random,all,288,")), "{summary}");
    // Every recorded hand replays, and a row replays from its coordinates.
    let out = ok(&tresillo(&["replay", rec.to_str().unwrap(), "--hand", "30"]));
    assert!(out.contains("dealer: seat 1; mano: seat 2"), "{out}");
    assert!(out.contains("deals and sits out"), "{out}");
    let r = &rows[29];
    let again = d.path("again.jsonl");
    let agents = [0, 1, 2, 3].map(|s| r[col(&format!("agent{s}"))]).join(",");
    ok(&tresillo(&[
        "replay",
        "--deal",
        "1",
        "--seed",
        "1",
        "--seating",
        r[col("seating")],
        "--agents",
        &agents,
        "--record",
        again.to_str().unwrap(),
    ]));
    let line30 = std::fs::read_to_string(&rec).unwrap().lines().nth(29).unwrap().to_string();
    let replayed = std::fs::read_to_string(&again).unwrap();
    let strip = |s: &str| {
        let v: serde_json::Value = serde_json::from_str(s).unwrap();
        (v["decisions"].clone(), v["result"].clone(), v["deal"].clone())
    };
    assert_eq!(strip(&line30), strip(replayed.trim()));
}

#[test]
fn penetro_all_play_tournaments_play_four_card_tricks() {
    let d = TempDir::new("four", "allplay");
    let out = d.path("t");
    ok(&tresillo(&[
        "tournament",
        "--players",
        "4",
        "--rule-option",
        "penetro_all_play=true",
        "--agents",
        "rule,rule,rule,rule",
        "--deals",
        "200",
        "--out",
        out.to_str().unwrap(),
    ]));
    let m = std::fs::read_to_string(out.join("manifest.json")).unwrap();
    let m: serde_json::Value = serde_json::from_str(&m).unwrap();
    assert_eq!(m["config"]["players"], 4);
    assert_eq!(m["config"]["rules"]["penetro_all_play"], true);
    let csv = std::fs::read_to_string(out.join("deals.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let played: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|r| r[col("penetro")] == "1" && r[col("surrendered")].is_empty())
        .collect();
    assert!(!played.is_empty(), "a played penetro in 200 deals of four rule agents");
    for r in played {
        assert!(r[col("dropped_out")].is_empty(), "nobody drops out: {r:?}");
    }
    // The report charts the run, penetro table included (no drop-outs here).
    let page = d.path("r.html");
    ok(&tresillo(&["report", out.to_str().unwrap(), "--out", page.to_str().unwrap()]));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("id=\"run1-penetro-table\""), "{html}");
}

#[test]
fn the_default_tournament_output_only_gains_the_new_columns() {
    let d = TempDir::new("four", "three");
    let out = d.path("t");
    ok(&tresillo(&["tournament", "--deals", "3", "--out", out.to_str().unwrap()]));
    let csv = std::fs::read_to_string(out.join("deals.csv")).unwrap();
    let mut lines = csv.lines();
    assert!(lines.next().unwrap().ends_with(
        ",debt0,debt1,debt2,players,agent3,exchanged3,tricks3,pool3,cond3,debt3,penetro,dropped_out,gascarille,\
         vole_declared"
    ));
    for l in lines {
        assert!(l.ends_with(",3,,,,,,,,,,"), "{l}");
    }
    let m = std::fs::read_to_string(out.join("manifest.json")).unwrap();
    assert!(!m.contains("players"), "three-player manifests keep their form: {m}");
}

#[test]
fn play_narrates_a_penetro_and_the_drop_out_conversation() {
    let out = ok(&tresillo(&["play", "--players", "4", "--seed", "3", "--agents", "rule,rule,rule,rule"]));
    assert!(out.contains("seat 0 (rule): deals and sits out"), "{out}");
    assert!(out.contains("seat 0 penetra: takes the top ten"), "{out}");
    assert!(out.contains("seat 0 (penetro) plays entrada"), "{out}");
    assert!(out.contains("discards 1 ["), "{out}");
    assert!(out.contains("drop-out: seat 3 says puedo irme  -> seat 3 drops out"), "{out}");
    assert!(out.contains("(penetro); tricks "), "{out}");
}

#[test]
fn perft_counts_a_table_of_four() {
    let deal = "--deal=- / 5E 1B 2B 11B 4C 11C 2O 5O 10O / 1E 4E 7E 10E 1C 2C 7C 10C 6O / 11E 3B 4B 5B 7B 10B 5C 11O 12O / 12E 2E 3E 6E 12B 6B 3C 6C 12C 1O 3O 4O 7O";
    let four = ["--players", "4", "--trump", "bastos"];
    let out = ok(&tresillo(&[&["perft", deal], &four[..], &["--leader", "1", "--depth", "6"]].concat()));
    assert_eq!(out.trim(), "12633", "the count of tests/data/perft_four.txt");
    // The heap is optional at four as at three: `-` for the seat that sits out.
    let no_heap = deal.rsplit_once(" / ").unwrap().0;
    let out = ok(&tresillo(&[&["perft", no_heap], &four[..], &["--leader", "1", "--depth", "6"]].concat()));
    assert_eq!(out.trim(), "12633", "--players 4 without the heap");
    let err = failed(&tresillo(&[&["perft", deal], &four[..], &["--leader", "0", "--depth", "3"]].concat()));
    assert!(err.starts_with("error: bad --leader 0: seat 0 holds no cards"), "{err}");
    // --players decides, not the number of parts: a deal that does not fit it is
    // one clear line.
    let err = failed(&tresillo(&["perft", deal, "--trump", "bastos", "--leader", "1", "--depth", "3"]));
    assert!(
        err.starts_with(
            "error: bad --deal (a table of four takes --players 4): found 5 part(s) for 3 players"
        ),
        "{err}"
    );
    let err = failed(&tresillo(&["perft", no_heap, "--trump", "bastos", "--leader", "1", "--depth", "3"]));
    assert!(err.starts_with("error: bad --deal for --players 3: hand 0 is `-`"), "{err}");
    let three = "--deal=5E 1B 2B / 1E 4E 7E / 11E 3B 4B";
    let err = failed(&tresillo(&[&["perft", three], &four[..], &["--depth", "3"]].concat()));
    assert!(
        err.starts_with("error: bad --deal for --players 4: found 3 part(s) for 4 players: give 4 hands (`-` for the seat that sits out)"),
        "{err}"
    );
    let err = failed(&tresillo(&[
        "perft",
        no_heap,
        "--players",
        "4",
        "--rules",
        "hombre",
        "--trump",
        "bastos",
        "--depth",
        "3",
    ]));
    assert!(err.starts_with("error: ") && err.contains("hombre") && err.lines().count() == 1, "{err}");
}

#[test]
fn a_four_player_experiment_and_tune_run() {
    let d = TempDir::new("four", "run");
    let file = d.write(
        "four.toml",
        &format!(
            "[tournament]\nagents = [\"rule\", \"random\", \"random\", \"random\"]\nplayers = 4\ndeals = 8\n\
             seed = 5\nduplicate = true\nout = \"{}\"\n",
            d.path("out").display()
        ),
    );
    ok(&tresillo(&["run", file.to_str().unwrap()]));
    assert!(d.path("out").join("summary.csv").exists());
    let cands = d.path("c.csv");
    ok(&tresillo(&[
        "tune",
        "--players",
        "4",
        "--opponents",
        "random,random,random",
        "--param",
        "entrada=40,50",
        "--method",
        "grid",
        "--deals",
        "4",
        "--out",
        cands.to_str().unwrap(),
    ]));
    let err = failed(&tresillo(&[
        "tune",
        "--players",
        "4",
        "--param",
        "entrada=40,50",
        "--deals",
        "4",
        "--out",
        cands.to_str().unwrap(),
        "--force",
    ]));
    assert!(err.starts_with("error: 3 opponents are needed at a table of 4"), "{err}");
}

#[test]
fn wrong_agent_counts_are_one_line_errors_and_pimc_plays_four() {
    let d = TempDir::new("four", "errors");
    let out = d.path("t");
    let out = out.to_str().unwrap();
    for (args, msg) in [
        (
            vec!["--players", "4", "--agents", "rule,rule,random"],
            "error: a tournament of 4 players needs 4 agents (one per seat), got 3",
        ),
        (
            vec!["--agents", "rule,rule,random,random"],
            "error: a tournament of 3 players needs 3 agents (one per seat), got 4",
        ),
        (vec!["--players", "5"], "error: rule set tresillo is played by 3 or 4 players, not 5"),
    ] {
        let mut a = vec!["tournament", "--deals", "2", "--out", out];
        a.extend(&args);
        let err = failed(&tresillo(&a));
        assert!(err.starts_with(msg), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // pimc draws four-player worlds from the sampler.
    ok(&tresillo(&[
        "tournament",
        "--players",
        "4",
        "--agents",
        "pimc:worlds=2,rule,random,random",
        "--deals",
        "2",
        "--out",
        out,
        "--force",
    ]));
    let err = failed(&tresillo(&["play", "--players", "4", "--agents", "rule,rule,rule"]));
    assert!(err.starts_with("error: --agents needs four agent specs"), "{err}");
    let err = failed(&tresillo(&["play", "--players", "4", "--human", "1", "--agents", "rule,rule"]));
    assert!(err.starts_with("error: with --human, --agents needs the three bots' specs"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let err = failed(&tresillo(&["play", "--players", "4", "--human", "4"]));
    assert!(err.starts_with("error: bad --human 4: seats are 0 to 3"), "{err}");
}
