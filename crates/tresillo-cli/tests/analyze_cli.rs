//! End-to-end tests of `tresillo analyze`: every card decision judged by the solver,
//! the decisions that changed the outcome marked and counted in the summary.

mod common;

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
