//! End-to-end tests of `tresillo deal`, `perft`, `play`, `agents` and `bench`.

use std::process::Command;

fn tresillo(args: &[&str]) -> (bool, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_tresillo")).args(args).output().unwrap();
    (o.status.success(), String::from_utf8_lossy(&o.stdout).into(), String::from_utf8_lossy(&o.stderr).into())
}

const DEAL: &str =
    "5E 1B 2B 11B 4C 11C 2O 5O 10O / 1E 4E 7E 10E 1C 2C 7C 10C 6O / 11E 3B 4B 5B 7B 10B 5C 11O 12O";

#[test]
fn deal_prints_the_seed_deal() {
    let (ok, out, _) = tresillo(&["deal", "--seed", "0"]);
    assert!(ok);
    assert_eq!(out.trim(), include_str!("../../../tresillo-sim/tests/data/deal_seed_0.txt").trim());
}

#[test]
fn perft_prints_the_count_alone_on_the_last_line() {
    // Counts from crates/tresillo-core/tests/data/perft.txt.
    let (ok, out, err) =
        tresillo(&["perft", "--deal", DEAL, "--trump", "espadas", "--leader", "0", "--depth", "6"]);
    assert!(ok, "{err}");
    assert_eq!(out.lines().last(), Some("6096"));
    let (ok, out, _) = tresillo(&[
        "perft", "--deal", DEAL, "--trump", "espadas", "--leader", "0", "--depth", "6", "--divide",
    ]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.last(), Some(&"6096"));
    let sum: u64 =
        lines[..lines.len() - 1].iter().map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(sum, 6096);
    // An endgame with the heap part given.
    let (ok, out, _) = tresillo(&[
        "perft",
        "--deal",
        "2E 11E 12E / 1E 6E 10E / 4E 5E 1B / 3E",
        "--trump",
        "bastos",
        "--leader",
        "1",
        "--depth",
        "9",
    ]);
    assert!(ok);
    assert_eq!(out.trim(), "56");
}

#[test]
fn perft_bad_input_is_one_clear_line() {
    let cases = [
        ("5E 1B 2B / 1E 4E 8E / 11E 3B 4B", "espadas", "8E"),
        ("5E 1B 2B / 1E 4E 5E / 11E 3B 4B", "espadas", "duplicate card `5E`"),
        ("5E 1B 2B / 1E 4E / 11E 3B 4B", "espadas", "hand 1 has 2 cards"),
        ("5E 1B 2B / 1E 4E 7E / 11E 3B 4X", "espadas", "4X"),
        ("5E 1B 2B / 1E 4E 7E / 11E 3B 4B", "swords!", "unknown suit `swords!`"),
        ("5E 1B 2B / 1E 4E 7E", "espadas", "3 hands"),
    ];
    for (deal, trump, needle) in cases {
        let (ok, out, err) = tresillo(&["perft", "--deal", deal, "--trump", trump, "--depth", "3"]);
        assert!(!ok, "{deal} {trump} should fail");
        assert!(out.is_empty());
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.starts_with("error: ") && err.contains(needle), "{deal}: {err}");
    }
}

#[test]
fn play_narrates_a_whole_hand() {
    for agents in ["random,random,random", "rule,rule,random"] {
        let (ok, out, err) = tresillo(&["play", "--seed", "3", "--agents", agents]);
        assert!(ok, "{err}");
        assert!(out.contains("auction: seat 1 says"), "{out}");
        let last = out.lines().last().unwrap();
        assert!(last.starts_with("outcome: "), "{last}");
    }
    // The same seed gives the same hand.
    assert_eq!(tresillo(&["play", "--seed", "9"]).1, tresillo(&["play", "--seed", "9"]).1);
    let (ok, _, err) = tresillo(&["play", "--agents", "rule,rule"]);
    assert!(!ok && err.contains("three"), "{err}");
}

#[test]
fn agents_lists_every_agent_with_parameters() {
    let (ok, out, _) = tresillo(&["agents"]);
    assert!(ok);
    for needle in ["random", "rule", "entrada", "vuelta", "solo", "cheat", "tc=BASE+INC"] {
        assert!(out.contains(needle), "{needle} missing from\n{out}");
    }
}

#[test]
fn bench_targets_print_a_figure_on_the_last_line() {
    let (ok, out, _) = tresillo(&["bench", "movegen", "--n", "10000"]);
    assert!(ok && out.lines().last().unwrap().ends_with("ns per legal-move call"), "{out}");
    let (ok, out, _) = tresillo(&["bench", "gsolver", "--rules", "lhombre", "--n", "3"]);
    assert!(ok && out.lines().last().unwrap().starts_with("every legal card, dispatch"), "{out}");
    let (ok, out, _) = tresillo(&["bench", "ismcts", "--rules", "hombre", "--iters", "50", "--n", "100"]);
    assert!(
        ok && out.starts_with("ismcts: `ismcts` at the first card of a hand of hombre at 3 players"),
        "{out}"
    );
    assert!(out.lines().last().unwrap().starts_with("50 iterations: "), "{out}");
    let (ok, out, _) = tresillo(&["bench", "ismcts", "--players", "4", "--iters", "50", "--n", "100"]);
    assert!(ok && out.lines().last().unwrap().starts_with("50 iterations: "), "{out}");
    let (ok, out, _) = tresillo(&["bench", "playouts", "--n", "2000"]);
    assert!(ok && out.lines().last().unwrap().contains("playouts per second"), "{out}");
    let (ok, out, _) = tresillo(&["bench", "deals", "--n", "200"]);
    assert!(ok && out.lines().last().unwrap().contains("deals per second"), "{out}");
    // Four players, and other rule sets.
    let (ok, out, _) = tresillo(&["bench", "deals", "--n", "100", "--players", "4"]);
    assert!(
        ok && out.starts_with("deals: 100 deals of rule,rule,rule,rule (tresillo at four players)"),
        "{out}"
    );
    assert!(out.lines().last().unwrap().contains("deals per second"), "{out}");
    let (ok, out, _) =
        tresillo(&["bench", "deals", "--n", "100", "--rules", "hombre", "--agents", "rule,random,rule"]);
    assert!(ok && out.starts_with("deals: 100 deals of rule,random,rule (hombre)"), "{out}");
    for (args, msg) in [
        (
            vec!["--players", "4", "--agents", "rule,rule,rule"],
            "error: a tournament of 4 players needs 4 agents",
        ),
        (vec!["--players", "4", "--rules", "hombre"], "error: rule set hombre is played by 3 players, not 4"),
    ] {
        let mut a = vec!["bench", "deals", "--n", "10"];
        a.extend(&args);
        let (ok, _, err) = tresillo(&a);
        assert!(!ok && err.starts_with(msg) && err.trim_end().lines().count() == 1, "{args:?}: {err}");
    }
}
