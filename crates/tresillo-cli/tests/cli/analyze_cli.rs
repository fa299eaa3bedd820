//! End-to-end tests of `tresillo analyze`: every card decision judged by the solver,
//! the decisions that changed the outcome marked and counted in the summary.

use crate::common;

use common::{TempDir, failed, ok, tresillo};
use std::path::Path;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn analyze_marks_the_cards_that_changed_the_outcome() {
    let d = TempDir::new("analyze", "random");
    let rec = d.path("r.jsonl");
    ok(&tresillo(&[
        "tournament",
        "--agents",
        "random,random,rule",
        "--seed",
        "2",
        "--deals",
        "12",
        "--out",
        s(&d.path("run")),
        "--record",
        s(&rec),
    ]));
    let out = ok(&tresillo(&["analyze", s(&rec)]));
    let hands: Vec<&str> = out.split("== hand ").skip(1).collect();
    assert_eq!(hands.len(), 12, "{out}");
    let mut marked = 0;
    for h in &hands {
        let summary = h.lines().find(|l| l.starts_with("summary: ")).expect("a summary line per hand");
        let stars = h.lines().filter(|l| l.starts_with("* trick ")).count();
        if summary.contains("cancelled") {
            assert_eq!(h.lines().filter(|l| l.contains(" trick ")).count(), 0);
            continue;
        }
        // Every card of the hand is judged (27 of them unless the hand stopped early).
        let judged =
            h.lines().filter(|l| l.trim_start_matches('*').trim_start().starts_with("trick ")).count();
        assert!(judged >= 9, "{h}");
        if stars == 0 {
            assert!(summary.contains("no card changed the outcome"), "{summary}");
        } else {
            assert!(summary.contains(&format!("{stars} card(s) changed the outcome")), "{summary}");
            marked += stars;
        }
    }
    assert!(marked > 0, "random players never changed an outcome?\n{out}");
    // One hand, with PIMC estimates from the player's view.
    let one = ok(&tresillo(&["analyze", s(&rec), "--hand", "1", "--pimc", "--worlds", "4"]));
    assert!(!one.contains("== hand"), "{one}");
    assert!(one.contains("(pimc "), "{one}");
}

#[test]
fn analyze_checks_the_file_first() {
    let d = TempDir::new("analyze", "bad");
    let p = d.write("bad.jsonl", "{\"format\": 1}\n");
    let out = tresillo(&["analyze", s(&p)]);
    let err = failed(&out);
    assert!(out.stdout.is_empty());
    assert!(err.contains("bad.jsonl:1:"), "{err}");
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/hand.jsonl");
    let err = failed(&tresillo(&["analyze", s(&example), "--hand", "2"]));
    assert!(err.contains("hands 1 to 1"), "{err}");
    let out = ok(&tresillo(&["analyze", s(&example)]));
    assert!(out.lines().last().unwrap().starts_with("summary: entrada by seat 1"), "{out}");
}

/// The 1-based line of the first record of `rec` whose text contains `pat`.
fn first_hand_with(rec: &Path, pat: &str) -> usize {
    let text = std::fs::read_to_string(rec).unwrap();
    1 + text.lines().position(|l| l.contains(pat)).unwrap_or_else(|| panic!("no record with {pat}"))
}

/// The card lines of one hand's analysis: (class of the card played, classes listed).
fn judged(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.trim_start_matches('*').trim_start().starts_with("trick ")).collect()
}

#[test]
fn analyze_judges_lhombre_nolo_with_its_own_classes_and_card_names() {
    let d = TempDir::new("analyze", "lhombre");
    let rec = d.path("r.jsonl");
    ok(&tresillo(&[
        "tournament",
        "--agents",
        "rule,rule,rule",
        "--rules",
        "lhombre",
        "--seed",
        "4",
        "--deals",
        "30",
        "--out",
        s(&d.path("run")),
        "--record",
        s(&rec),
    ]));
    // Seed 4 has a nolo contract among its first 30 hands.
    let n = first_hand_with(&rec, "\"contract\":\"nolo");
    let out = ok(&tresillo(&["analyze", s(&rec), "--hand", &n.to_string()]));
    let head = out.lines().next().unwrap();
    assert!(head.contains("nolo") && head.contains("trumps none"), "{out}");
    let cards = judged(&out);
    assert!(cards.len() >= 9, "{out}");
    let rank =
        |c: &str| ["loss", "draw", "win"].iter().position(|x| *x == c).unwrap_or_else(|| panic!("{c}"));
    for l in &cards {
        let (head, list) = l.split_once(" | ").unwrap();
        let mut ranks = Vec::new();
        let (played, value) = head.split_once(" plays ").unwrap().1.split_once(": ").unwrap();
        let mut after = None;
        for item in list.split(", ") {
            let (card, class) = item.split_once(' ').unwrap();
            ranks.push(rank(class));
            if card == played {
                after = Some(rank(class));
            }
        }
        // The value before the card is the best class for the mover's side; a
        // star marks a card worse than that.
        let best = if head.contains("(declarer)") { ranks.iter().max() } else { ranks.iter().min() };
        let (before, shown_after) = value.split_once(" -> ").unwrap_or((value, value));
        assert_eq!(Some(rank(before)), best.copied(), "{l}");
        assert_eq!(Some(rank(shown_after)), after, "{l}");
        assert_eq!(l.starts_with('*'), before != shown_after, "{l}");
        // International card names (suit symbols), not section 13's letters.
        assert!(l.contains(['♠', '♣', '♥', '♦']), "{l}");
    }
    let summary = out.lines().last().unwrap();
    assert!(summary.starts_with("summary: nolo"), "{summary}");
    assert!(["worth win ", "worth draw ", "worth loss "].iter().any(|w| summary.contains(w)), "{summary}");
    // The first trump hand: L'Hombre's contract name and classes, not entrada's.
    let t = first_hand_with(&rec, "\"trump\":\"");
    let out = ok(&tresillo(&["analyze", s(&rec), "--hand", &t.to_string(), "--pimc", "--worlds", "2"]));
    assert!(!out.contains("entrada") && !out.contains("sacado"), "{out}");
    assert!(out.contains("(pimc "), "{out}");
}

#[test]
fn analyze_judges_four_player_hands_with_three_or_four_seats_in_play() {
    let d = TempDir::new("analyze", "four");
    let rec = d.path("r.jsonl");
    ok(&tresillo(&[
        "tournament",
        "--agents",
        "rule,rule,rule,rule",
        "--players",
        "4",
        "--rule-option",
        "penetro_all_play=true",
        "--seed",
        "1",
        "--deals",
        "12",
        "--out",
        s(&d.path("run")),
        "--record",
        s(&rec),
    ]));
    let text = std::fs::read_to_string(&rec).unwrap();
    let mut seen = [false; 2];
    for (i, line) in text.lines().enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let r = &v["result"];
        if r["declarer"].is_null() {
            continue;
        }
        let four = r["penetro"] == true;
        if seen[usize::from(four)] {
            continue;
        }
        seen[usize::from(four)] = true;
        let out = ok(&tresillo(&["analyze", s(&rec), "--hand", &(i + 1).to_string()]));
        let cards = judged(&out);
        // Every card is judged: four to a trick in a penetro, three otherwise.
        let first = cards.iter().filter(|l| l.contains("trick 1 seat")).count();
        assert_eq!(first, if four { 4 } else { 3 }, "{out}");
        let summary = out.lines().last().unwrap();
        assert!(!summary.contains("worth -"), "{summary}");
        assert!(["sacado", "puesta", "codillo"].iter().any(|c| summary.contains(&format!("worth {c} "))));
    }
    assert_eq!(seen, [true, true], "seed 1 has a penetro and an ordinary hand in 12 deals");
}

#[test]
fn analyze_pimc_worlds_has_the_pimc_agents_own_bound() {
    // An empty record file: refused once read, so a value within the bound gets that
    // error and one outside it the bound's (before, `--worlds 100000000` was accepted
    // and ran for hours on a hand).
    let d = TempDir::new("analyze", "worlds-bound");
    let empty = d.write("empty.jsonl", "");
    for (worlds, ok_) in
        [("100000000", false), ("100001", false), ("0", false), ("100000", true), ("1", true)]
    {
        let out = tresillo(&["analyze", s(&empty), "--pimc", "--worlds", worlds]);
        let err = failed(&out);
        if ok_ {
            // Within the bound: the file is read, and refused for being empty.
            assert!(err.contains("no records (the file is empty)"), "{err}");
            continue;
        }
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: --worlds "), "{err}");
        assert!(err.contains(worlds) && err.contains("between 1 and 100000"), "{err}");
    }
}

/// The server's analysis board (`tresillo serve`, /replay) judges every card as
/// `tresillo analyze --pimc` prints it: the same card decisions, the value
/// before and after, each legal card's class and PIMC mean, and a mark exactly
/// where analyze puts its star (a kept value is at most an inaccuracy).
#[test]
fn the_replay_board_judges_every_card_as_analyze_does() {
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tresillo-server/tests/data/three-hands.jsonl");
    let text = std::fs::read_to_string(&fixture).unwrap();
    let mut stars = 0;
    for (k, line) in text.lines().enumerate() {
        let rec: tresillo_sim::HandRecord = serde_json::from_str(line).unwrap();
        let board = tresillo_server::analysis_json(&rec);
        let out = ok(&tresillo(&["analyze", s(&fixture), "--hand", &(k + 1).to_string(), "--pimc"]));
        let lines = judged(&out);
        let cards = board["cards"].as_array().unwrap();
        assert_eq!(lines.len(), cards.len(), "hand {}: {out}", k + 1);
        for (l, c) in lines.iter().zip(cards) {
            let (head, list) = l.split_once(" | ").unwrap();
            let star = l.starts_with('*');
            let value = if star {
                format!("{} -> {}", c["before"].as_str().unwrap(), c["after"].as_str().unwrap())
            } else {
                c["after"].as_str().unwrap().to_string()
            };
            let want = format!(
                "trick {} seat {} ({}) plays {}: {value}",
                c["trick"],
                c["seat"],
                if c["declarer_side"] == true { "declarer" } else { "opponent" },
                c["played"].as_str().unwrap()
            );
            assert_eq!(head.trim_start_matches('*').trim_start(), want, "hand {}", k + 1);
            let items: Vec<String> = c["cards"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| {
                    format!(
                        "{} {} (pimc {:.2})",
                        x["card"].as_str().unwrap(),
                        x["name"].as_str().unwrap(),
                        x["pimc"].as_f64().unwrap()
                    )
                })
                .collect();
            assert_eq!(list, items.join(", "), "hand {}", k + 1);
            let mark = c["mark"].as_str();
            assert_eq!(star, matches!(mark, Some("mistake" | "blunder")), "{l}: {mark:?}");
            stars += usize::from(star);
        }
    }
    assert_eq!(stars, 2, "the fixture's two slips");
}
