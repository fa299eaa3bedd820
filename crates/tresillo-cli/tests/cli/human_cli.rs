//! End-to-end tests of `tresillo play --human`, driven through standard input.

use crate::common;

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

/// Issue 20, item 13: asking the cheat for a hint says what it is, in the
/// player's terms, without naming the library's functions.
#[test]
fn a_hint_from_the_cheat_is_refused_in_plain_words() {
    let out = with_input(&["play", "--human", "0", "--seed", "3"], &format!("hint cheat\n{}", ones(300)));
    let text = ok(&out);
    let line = text.lines().find(|l| l.contains("no such agent for a hint")).expect(&text);
    assert!(line.contains("`cheat` sees every hand") && line.contains("cannot advise"), "{line}");
    assert!(!text.contains("build_seated") && !text.contains("build_agent"), "{line}");
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
    let err = failed(&with_input(&["play", "--human", "0", "--agents", "pimc,rule", "--players", "4"], ""));
    assert!(err.contains("three bots"), "{err}");
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

/// Plays `play ARGS` with `input`, checks it ended cleanly, and returns its output.
fn session(args: &[&str], input: &str) -> String {
    let mut a = vec!["play"];
    a.extend(args);
    ok(&with_input(&a, input))
}

#[test]
fn a_person_penetra_as_the_dealer_of_a_table_of_four() {
    let d = TempDir::new("human", "penetro");
    let rec = d.path("p.jsonl");
    let args =
        ["--players", "4", "--human", "0", "--dealer", "0", "--agents", "rule,rule,rule", "--seed", "1"];
    // Top ten, play on, trumps espadas, discard card 10, then the first choice.
    let mut a = args.to_vec();
    a.extend(["--record", rec.to_str().unwrap()]);
    let text = session(&a, &format!("1\n1\n1\n10\n{}", ones(40)));
    for needle in [
        "You are seat 0. seat 1 is rule, seat 2 is rule, seat 3 is rule.",
        "you deal and sit out this hand",
        "you penetra, take ten cards from the top or the bottom:\n  1) take the top ten",
        "seat 0 penetra: takes the top ten [",
        "you took ten cards: give up at once (a puesta, and the penetro condición) or play on:",
        "you penetra: name trumps (an entrada), then discard one card:",
        "penetro: discard exactly one card (you draw nothing)",
        "exchange: seat 0 discards 1 [",
        " drops out",
        "(penetro); tricks ",
        "ledger after hand 1: bowls seat 0 (you)",
        "1 hand(s) played.",
    ] {
        assert!(text.contains(needle), "`{needle}` missing from:\n{text}");
    }
    assert!(!text.contains("your hand: \n"), "no empty hand shown: {text}");
    // Tricks are counted for the four seats.
    assert!(text.contains("tricks so far 0-0-0-0"), "{text}");
    let replayed = ok(&tresillo(&["replay", rec.to_str().unwrap()]));
    assert!(replayed.contains("seat 0 (human): deals and sits out"), "{replayed}");
    // Given up at once: a puesta with no trick played.
    let text = session(&args, "1\n2\n");
    assert!(text.contains("seat 0 gives up at once"), "{text}");
    assert!(
        text.contains("outcome: puesta (given up) for declarer seat 0 (penetro); tricks 0-0-0-0"),
        "{text}"
    );
}

#[test]
fn a_person_at_a_table_of_four_speaks_in_the_drop_out_conversation() {
    // Seat 2 hears the dealer penetrar and says me voy (choice 4).
    let args =
        ["--players", "4", "--human", "2", "--dealer", "0", "--agents", "rule,rule,rule", "--seed", "1"];
    // Paso in the auction, then me voy.
    let mut input = "1\n4\n".to_string();
    input.push_str(&ones(40));
    let text = session(&args, &input);
    assert!(
        text.contains("seat 0 penetra: takes the top ten (ten cards, unseen)\n"),
        "the dealer's ten cards stay hidden: {text}"
    );
    assert!(text.contains("exchange: seat 0 discards 1 and draws none (penetro)"), "{text}");
    assert!(text.contains("the dealer penetra: one of you three drops out; your word:"), "{text}");
    assert!(text.contains("  4) me voy (I drop out)"), "{text}");
    assert!(text.contains("drop-out: seat 2 says me voy  -> seat 2 drops out"), "{text}");
    // Four hands rotate the dealer, the person dealing once and sitting out.
    let text = session(
        &["--players", "4", "--human", "3", "--agents", "rule,random,rule", "--seed", "5", "--hands", "4"],
        &ones(400),
    );
    assert_eq!(text.matches("you deal and sit out this hand").count(), 1, "{text}");
    assert!(text.contains("settlement: ") && text.contains("4 hand(s) played."), "{text}");
}

#[test]
fn every_hombre_request_has_a_prompt() {
    for (args, input, needles) in [
        (
            vec!["--rules", "hombre", "--rule-option", "gascarille=true", "--human", "1", "--seed", "3"],
            ones(300),
            vec!["everybody passed: make the holder of the espada play a gascarille:"],
        ),
        (
            vec!["--rules", "hombre", "--human", "1", "--seed", "1"],
            // Pass, then the obligation: discard eight (cards 2 to 9), name trumps.
            format!("1\n2 3 4 5 6 7 8 9\n{}", ones(300)),
            vec![
                "exchange (the obligation): discard 8 to 8 cards",
                "everybody passed: the obligation is yours (you hold the espada, or are mano): name trumps:",
                "points after hand 1: seat 0 ",
            ],
        ),
        (
            vec!["--rules", "hombre", "--human", "1", "--seed", "0"],
            ones(300),
            vec!["exchange first, or pass that right to the other opponent:", "  1) pass the right"],
        ),
        (
            vec!["--rules", "hombre", "--human", "1", "--seed", "22", "--agents", "random,random"],
            ones(300),
            vec![
                "the declarer gives up the vuelta: accept:",
                "  2) accept (the hand ends as the declarer's puesta)",
            ],
        ),
        (
            vec!["--rules", "hombre", "--human", "1", "--seed", "0", "--hands", "2"],
            // Help, then bid juego and win the auction.
            format!("help\n2\n{}", ones(300)),
            vec![
                "declare the vole (all nine tricks) before the first trick:",
                "if all pass the holder of the espada (else mano) has the obligation",
                "settlement in points: ",
            ],
        ),
        (
            vec!["--rules", "hombre", "--rule-option", "hombre-chips=true", "--human", "0", "--hands", "2"],
            ones(300),
            vec!["chips after hand 1: seat 0 (you) ", "; pool ", "settlement in chips: "],
        ),
        (
            vec!["--rules", "tresillo-house", "--rule-option", "palo_de_favor=oros", "--human", "0"],
            ones(300),
            vec!["juego más (2) (I bid more: entrada a favor, vuelta, solo or solo a favor)"],
        ),
    ] {
        let text = session(&args, &input);
        // Help is wrapped: compare with the lines joined.
        let flat = text.replace('\n', " ");
        for n in &needles {
            assert!(flat.contains(n), "{args:?}: `{n}` missing from:\n{text}");
        }
        assert!(text.contains("hand(s) played."), "{args:?}: {text}");
        // Every numbered list has its question.
        let lines: Vec<&str> = text.lines().collect();
        for w in lines.windows(2) {
            if w[1].starts_with("  1) ") {
                assert!(w[0].ends_with(':') && w[0].len() > 5, "{args:?}: a list without a question: {w:?}");
            }
        }
    }
}

#[test]
fn lhombre_prompts_name_self_raises_tourne_and_tout() {
    for (args, input, needle) in [
        (vec!["--human", "0", "--dealer", "2", "--seed", "38"], format!("2\n{}", ones(300)), ") self ("),
        (
            vec!["--human", "0", "--seed", "0", "--agents", "random,random"],
            format!("2\n{}", ones(300)),
            "you won the auction: name the contract (a winner at game may raise to spades game",
        ),
        (
            vec!["--human", "0", "--seed", "8", "--agents", "random,random"],
            format!("2\n{}", ones(300)),
            ") tourné\n",
        ),
        (
            vec!["--human", "0", "--seed", "58", "--agents", "random,random"],
            format!("2\n{}", ones(300)),
            "you won the first five tricks: stop, or lead to the sixth for tout:",
        ),
    ] {
        let mut a = vec!["--rules", "lhombre"];
        a.extend(&args);
        let text = session(&a, &input);
        assert!(text.contains(needle), "{args:?}: `{needle}` missing from:\n{text}");
    }
}
