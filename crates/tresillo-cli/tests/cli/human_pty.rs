//! `tresillo play --human` on a terminal: the test runs it under a
//! pseudo-terminal, reads each screen up to the prompt, and answers as a person
//! would, typing cards in notation (and first an illegal one, which must be refused).

use rexpect::ReadUntil;
use std::process::Command;

/// The cards listed in `  N) play CARD` lines of a screen.
fn offered(screen: &str) -> Vec<String> {
    screen.lines().filter_map(|l| l.trim().split_once(") play ").map(|(_, c)| c.trim().to_string())).collect()
}

/// The cards of the last `your hand:` line of a screen.
fn held(screen: &str) -> Vec<String> {
    let line = screen.lines().rev().find_map(|l| l.trim().strip_prefix("your hand: ")).unwrap_or("");
    line.split_whitespace().filter(|t| *t != "|").map(str::to_string).collect()
}

#[test]
fn a_person_plays_a_hand_on_a_terminal() {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tresillo"));
    cmd.args(["play", "--human", "1", "--agents", "rule,rule", "--seed", "12", "--hands", "2"]);
    let mut p = rexpect::session::spawn_command(cmd, Some(60_000)).expect("spawn under a pty");
    let prompt = || ReadUntil::String("\n> ".into());
    let end = || ReadUntil::String("hand(s) played.".into());
    let mut typed_cards = 0;
    let mut refused = 0;
    let mut prompts = 0;
    loop {
        let (screen, found) = p.exp_any(vec![prompt(), end()]).expect("a prompt or the end");
        if found.contains("played") {
            break;
        }
        prompts += 1;
        assert!(prompts < 400, "the session does not end");
        let cards = offered(&screen);
        if screen.contains("your card:") && !cards.is_empty() {
            if typed_cards == 0 {
                // `help` explains the rule of following that applies now.
                p.send_line("help").unwrap();
                let (msg, _) = p.exp_any(vec![prompt()]).unwrap();
                assert!(msg.contains("Play (section 5)") && msg.contains("Legal"), "{msg}");
            }
            let hand = held(&screen);
            if let Some(bad) = hand.iter().find(|c| !cards.contains(c)) {
                p.send_line(bad).unwrap();
                let (msg, _) = p.exp_any(vec![prompt()]).unwrap();
                assert!(msg.contains("may not be played now"), "{msg}");
                refused += 1;
            }
            p.send_line(&cards[0]).unwrap();
            typed_cards += 1;
        } else {
            p.send_line("1").unwrap();
        }
    }
    p.exp_eof().expect("the program ends by itself");
    assert!(typed_cards > 0, "no card was typed in two hands");
    assert!(prompts > typed_cards);
    // In these two hands (seed 12) the person must follow suit at least once.
    assert!(refused > 0, "no illegal card was tried");
}
