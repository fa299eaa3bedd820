//! `--rules lhombre` (RULES.md section 12.4) through the command line: the
//! narrative in international names, records and replay, perft without trumps,
//! a tournament, the scorekeeper, and the agents that refuse it.

use crate::common;

use common::*;

#[test]
fn play_narrates_lhombre_with_international_names_and_replay_prints_the_same() {
    let d = TempDir::new("lhombre", "play");
    let rec = d.path("h.jsonl");
    let rec = rec.to_str().unwrap();
    let mut nolo = false;
    for seed in 0..12 {
        let seed = seed.to_string();
        let out = ok(&tresillo(&[
            "play",
            "--rules",
            "lhombre",
            "--seed",
            &seed,
            "--agents",
            "random,rule,random",
            "--record",
            rec,
        ]));
        assert!(
            out.lines().any(|l| l.starts_with("deal: ") && l.contains('E')),
            "the deal keeps the notation"
        );
        let seat0 = out.lines().find(|l| l.starts_with("seat 0 (")).unwrap();
        assert!(seat0.contains(['♠', '♣', '♥', '♦']), "{seat0}");
        assert!(out.lines().any(|l| l.starts_with("outcome: ")), "{out}");
        let last = out.lines().last().unwrap();
        assert!(
            ["win", "draw", "loss", "all passed"].iter().any(|w| last.contains(w)),
            "the outcome in L'Hombre words: {last}"
        );
        assert!(!out.contains("juego"), "no Spanish bids: {out}");
        nolo |= out.contains("nolo");
        let replayed = ok(&tresillo(&["replay", rec]));
        assert_eq!(replayed, out, "replay prints what play printed");
        let file = std::fs::read_to_string(rec).unwrap();
        assert!(file.contains("\"lhombre\"") && !file.contains('♠'), "files keep the notation of section 13");
    }
    assert!(nolo, "random bids reach a nolo in twelve hands");
}

#[test]
fn perft_counts_no_trump_only_under_lhombre() {
    let deal = "2B 4B 7B 2C 5C 6C 11C 1O 12O / 2E 7E 11E 5B 12B 12C 2O 6O 10O / 3E 4E 5E 6E 12E 1B 10B 1C 7C";
    let out = ok(&tresillo(&[
        "perft", "--rules", "lhombre", "--deal", deal, "--trump", "none", "--leader", "1", "--depth", "6",
    ]));
    assert_eq!(out.trim(), "20208");
    let err = failed(&tresillo(&["perft", "--deal", deal, "--trump", "none", "--depth", "3"]));
    assert!(err.contains("no contract without trumps"), "{err}");
    assert_eq!(err.lines().count(), 1);
}

#[test]
fn a_lhombre_tournament_runs_and_search_agents_play_it() {
    let d = TempDir::new("lhombre", "tournament");
    let out = d.path("t");
    let out = out.to_str().unwrap();
    for opt in [None, Some("redeal_all_pass=true")] {
        let mut a = vec![
            "tournament",
            "--rules",
            "lhombre",
            "--agents",
            "rule,random,random",
            "--deals",
            "60",
            "--duplicate",
            "--out",
            out,
            "--force",
        ];
        if let Some(o) = opt {
            a.extend(["--rule-option", o]);
        }
        ok(&tresillo(&a));
        let csv = std::fs::read_to_string(d.path("t/deals.csv")).unwrap();
        assert_eq!(csv.lines().count(), 1 + 60 * 6);
        assert!(csv.lines().skip(1).all(|l| l.contains(",lhombre,")));
        // The report charts an lhombre run (its contracts in their families' columns).
        let html = d.path("r.html");
        ok(&tresillo(&["report", out, "--out", html.to_str().unwrap()]));
    }
    // Every agent plays lhombre: `ismcts` too (a tiny search).
    ok(&tresillo(&[
        "tournament",
        "--rules",
        "lhombre",
        "--agents",
        "ismcts:iters=10,random,random",
        "--deals",
        "3",
        "--out",
        out,
        "--force",
    ]));
    // pimc plays lhombre (its play-phase search through the general solver).
    ok(&tresillo(&[
        "tournament",
        "--rules",
        "lhombre",
        "--agents",
        "pimc:worlds=2,rule,rule",
        "--deals",
        "2",
        "--out",
        out,
        "--force",
    ]));
    let err = failed(&tresillo(&[
        "tournament",
        "--rule-option",
        "redeal_all_pass=true",
        "--deals",
        "3",
        "--out",
        out,
    ]));
    assert!(err.contains("unknown rule option `redeal_all_pass`"), "{err}");
}

#[test]
fn score_keeps_a_lhombre_session() {
    let d = TempDir::new("lhombre", "score");
    let log = d.write(
        "s.jsonl",
        r#"{"players": ["ana", "ben", "cy"], "rules": "lhombre"}
{"declarer": "ben", "contract": "solo", "trump": "espadas", "tricks": {"ana": 2, "ben": 5, "cy": 2}}
{"declarer": "cy", "contract": "nolo", "tricks": {"ana": 4, "ben": 4, "cy": 1}}
{"declarer": "ana", "contract": "entrada", "trump": "oros", "tricks": {"ana": 9, "ben": 0, "cy": 0}}
{"declarer": "ben", "contract": "nolo-ouvert", "tricks": [3, 0, 6]}
"#,
    );
    let out = ok(&tresillo(&["score", log.to_str().unwrap()]));
    assert!(out.contains("ben plays spades solo: win, tricks 2-5-2."), "{out}");
    assert!(out.contains("cy plays nolo: draw, tricks 4-4-1."), "{out}");
    assert!(out.contains("ana plays game: win, tricks 9-0-0; tout made."), "{out}");
    // Spades solo +8; nolo drawn: cy pays 2 to each; game with tout +2 +2; nolo
    // ouvert won: 6 from each.
    let results: Vec<&str> = out.lines().rev().take(3).collect();
    assert!(results[2].trim_end().ends_with("-4"), "{out}");
    assert!(results[1].trim_end().ends_with("+20"), "{out}");
    assert!(results[0].trim_end().ends_with("-16"), "{out}");
}

#[test]
fn rules_lists_lhombre_with_its_option_and_section() {
    let out = ok(&tresillo(&["rules"]));
    assert!(out.lines().any(|l| l.starts_with("lhombre ") && l.contains("section 12.4")), "{out}");
    assert!(
        out.lines().any(|l| l.trim_start().starts_with("redeal_all_pass") && l.contains("default false"))
    );
}

#[test]
fn a_person_plays_lhombre_with_international_names_and_the_record_replays() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let d = TempDir::new("lhombre", "human");
    let rec = d.path("h.jsonl");
    for seed in ["4", "9"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tresillo"))
            .args(["play", "--human", "1", "--rules", "lhombre", "--seed", seed, "--hands", "2"])
            .args(["--record", rec.to_str().unwrap()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let _ = child.stdin.take().unwrap().write_all("help\n1\n".repeat(120).as_bytes());
        let out = ok(&child.wait_with_output().unwrap());
        assert!(out.contains("your call in the auction:\n  1) pass\n  2) game\n"), "{out}");
        assert!(out.contains("L'Hombre (RULES.md section 12.4)"), "help: {out}");
        assert!(out.lines().any(|l| l.starts_with("your hand: ") && l.contains(['♠', '♣', '♥', '♦'])));
        assert!(out.contains("2 hand(s) played."), "{out}");
        assert!(!out.contains("juego") && !out.contains("espada forzada"), "{out}");
        let replayed = ok(&tresillo(&["replay", rec.to_str().unwrap(), "--hand", "2"]));
        assert!(replayed.contains('♦') || replayed.contains('♠'), "{replayed}");
    }
    let err = failed(&tresillo(&["play", "--human", "0", "--rules", "lhombre", "--agents", "nosuch,rule"]));
    assert!(err.contains("nosuch") && err.lines().count() == 1, "{err}");
}
