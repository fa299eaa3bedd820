//! End-to-end tests of `tresillo play --human`, driven through standard input.

mod common;

use common::{TempDir, failed, ok, tresillo};
use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `tresillo ARGS` with `input` on its standard input.
fn with_input(args: &[&str], input: &str) -> Output {
    with_bytes(args, input.as_bytes())
}

/// Runs `tresillo ARGS` with `input` on its standard input.
fn with_bytes(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tresillo"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The session may end (quit) before reading everything: ignore a closed pipe.
    let _ = child.stdin.take().unwrap().write_all(input);
    child.wait_with_output().unwrap()
}

/// Answers `1` to everything (always a legal choice; a discard of card 1).
fn ones(n: usize) -> String {
    "1\n".repeat(n)
}

#[test]
fn a_session_plays_to_the_end_with_mistakes_help_and_hints() {
    let d = TempDir::new("human", "session");
    let rec = d.path("s.jsonl");
    let input = format!("hello\n0\n99\n\nhelp\nhint\nhint random\nhint nope\nhand\n{}", ones(300));
    let out = with_input(
        &[
            "play",
            "--human",
            "0",
            "--agents",
            "rule,rule",
            "--seed",
            "3",
            "--hands",
            "3",
            "--record",
            rec.to_str().unwrap(),
        ],
        &input,
    );
    let text = ok(&out);
    for needle in [
        "You are seat 0",
        "=== hand 1 of 3 ===",
        "=== hand 3 of 3 ===",
        "not understood: `hello`",
        "not a choice: 0",
        "not a choice: 99",
        "Auction (RULES.md section 3)",
        "hint (rule): ",
        "hint (random): ",
        "no such agent for a hint",
        "1) paso (pass: out of the auction)",
        "juego (I bid: entrada or higher)",
        "ledger after hand 1: bowls seat 0 (you)",
        "amount in play",
        "settlement: ",
        "3 hand(s) played.",
    ] {
        assert!(text.contains(needle), "`{needle}` missing from:\n{text}");
    }
    // The record of the session replays, hand by hand, as the table narrated it.
    let records = std::fs::read_to_string(&rec).unwrap();
    assert_eq!(records.lines().count(), 3);
    let replayed = ok(&tresillo(&["replay", rec.to_str().unwrap()]));
    assert!(replayed.contains("seat 0 (human): "), "{replayed}");
    for line in replayed.lines().filter(|l| l.starts_with("trick ") || l.starts_with("outcome: ")) {
        assert!(text.contains(line), "`{line}` was not narrated at the table");
    }
}

#[test]
fn end_of_input_ends_the_session_cleanly() {
    let d = TempDir::new("human", "eof");
    let rec = d.path("e.jsonl");
    let out = with_input(&["play", "--human", "1", "--seed", "5", "--record", rec.to_str().unwrap()], "");
    let text = ok(&out);
    assert!(text.contains("End of input: the session ends"), "{text}");
    assert!(text.contains("0 hand(s) played."), "{text}");
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!rec.exists(), "no finished hand, no record");
}

#[test]
fn quit_leaves_cleanly_and_keeps_finished_hands() {
    let d = TempDir::new("human", "quit");
    let rec = d.path("q.jsonl");
    // Play the first hand through with `1`s, then quit at the first prompt of the second.
    let first = with_input(&["play", "--human", "2", "--seed", "8", "--hands", "2"], &ones(200));
    let first = ok(&first);
    let prompts_in_hand_1 = first.split("=== hand 2 of 2 ===").next().unwrap().matches("> ").count();
    let input = format!("{}quit\n", ones(prompts_in_hand_1));
    let out = with_input(
        &["play", "--human", "2", "--seed", "8", "--hands", "2", "--record", rec.to_str().unwrap()],
        &input,
    );
    let text = ok(&out);
    assert!(text.contains("You leave the table"), "{text}");
    assert!(text.contains("1 hand(s) played."), "{text}");
    assert_eq!(std::fs::read_to_string(&rec).unwrap().lines().count(), 1);
}

#[test]
fn bad_arguments_are_one_line_errors() {
    let err = failed(&with_input(&["play", "--human", "3"], ""));
    assert!(err.contains("--human 3"), "{err}");
    let err = failed(&with_input(&["play", "--human", "0", "--agents", "rule,rule,rule"], ""));
    assert!(err.contains("two bots"), "{err}");
    let err = failed(&with_input(&["play", "--human", "0", "--hint", "cheat"], ""));
    assert!(err.contains("--hint"), "{err}");
    let err = failed(&with_input(&["play", "--hands", "2"], ""));
    assert!(err.contains("--human"), "{err}");
}

#[test]
fn bytes_that_are_not_text_re_prompt() {
    let mut input = b"\xff\xfe\x00garbage\n".to_vec();
    input.extend(ones(100).as_bytes());
    let text = ok(&with_bytes(&["play", "--human", "1", "--seed", "4"], &input));
    assert!(text.contains("not understood"), "{text}");
    assert!(text.contains("1 hand(s) played."), "{text}");
}
