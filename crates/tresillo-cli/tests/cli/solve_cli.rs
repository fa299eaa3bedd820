//! End-to-end tests of `tresillo solve`.

use std::process::Command;
use tresillo_agents::{Position, SolverContext};
use tresillo_core::{Seat, Suit, parse_hand};

fn tresillo(args: &[&str]) -> (bool, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_tresillo")).args(args).output().unwrap();
    (o.status.success(), String::from_utf8_lossy(&o.stdout).into(), String::from_utf8_lossy(&o.stderr).into())
}

#[test]
fn solve_prints_each_card_then_the_value() {
    // Oros trumps; seat 0 declares and leads the espada and two kings, and takes
    // every trick whatever it leads: 6-2-1, a sacado.
    let (ok, out, err) = tresillo(&[
        "solve",
        "--deal",
        "1E 12C 12E / 3C 4C 5B / 2C 6C 7B",
        "--trump",
        "oros",
        "--declarer",
        "0",
        "--leader",
        "0",
        "--won",
        "3,2,1",
    ]);
    assert!(ok, "{err}");
    assert_eq!(out, "1E sacado\n12E sacado\n12C sacado\nvalue: sacado\n");
    // Another position: the command prints exactly what the library solves.
    let args = ["4O 12E / 3O 5E / 2O 7E", "copas", "1", "0", "4,2,1"];
    let (ok, out, err) = tresillo(&[
        "solve",
        "--deal",
        args[0],
        "--trump",
        args[1],
        "--declarer",
        args[2],
        "--leader",
        args[3],
        "--won",
        args[4],
    ]);
    assert!(ok, "{err}");
    let hands = args[0].split('/').map(|h| parse_hand(h).unwrap()).collect::<Vec<_>>();
    let pos =
        Position::new([hands[0], hands[1], hands[2]], Suit::Copas, Seat(1), Seat(0), &[], [4, 2, 1]).unwrap();
    let sol = SolverContext::new().solve(&pos);
    let mut want = String::new();
    for (c, v) in sol.cards() {
        want += &format!("{c} {v}\n");
    }
    want += &format!("value: {}\n", sol.value);
    assert_eq!(out, want);
}

#[test]
fn nine_card_hands_need_no_won_counts() {
    let (ok, out, err) = tresillo(&[
        "solve",
        "--deal",
        "5E 1B 2B 11B 4C 11C 2O 5O 10O / 1E 4E 7E 10E 1C 2C 7C 10C 6O / 11E 3B 4B 5B 7B 10B 5C 11O 12O",
        "--trump",
        "bastos",
        "--declarer",
        "0",
        "--leader",
        "1",
    ]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 10, "{out}");
    assert!(lines[9].starts_with("value: "));
    for l in &lines[..9] {
        let (_, class) = l.split_once(' ').unwrap();
        assert!(["sacado", "puesta", "codillo"].contains(&class), "{l}");
    }
}

#[test]
fn bad_input_is_a_one_line_error() {
    let cases: [(&[&str], &str); 9] = [
        (&["--deal", "1E 2E / 3E / 4E"], "equal size"),
        (&["--deal", "1E 2E / 3E 4E / 4E 5E", "--won", "3,2,2"], "duplicate card `4E`"),
        (&["--deal", "1E 2X / 3E 4E / 6E 5E", "--won", "3,2,2"], "2X"),
        (&["--deal", "1E 2E / 3E 4E / 6E 5E", "--won", "3,2,1"], "sum to 6"),
        (&["--deal", "1E 2E / 3E 4E / 6E 5E"], "--won is needed"),
        (&["--deal", "1E 2E / 3E 4E / 6E 5E", "--won", "3,x,2"], "`x`"),
        (&["--deal", "1E 1E / 3E 4E / 6E 5E", "--won", "3,2,2"], "duplicate card `1E`"),
        (&["--deal", "1E 2E / 3E 4E", "--won", "3,2,2"], "three or four hands"),
        (&["--deal", "1E 2E / 3E 4E / 6E 5E", "--won", "3,2,2", "--declarer", "3"], "seats are 0, 1 and 2"),
    ];
    for (args, want) in cases {
        let mut full = vec!["solve", "--trump", "oros", "--leader", "0"];
        if !args.contains(&"--declarer") {
            full.extend(["--declarer", "0"]);
        }
        full.extend(args.iter().copied());
        let (ok, out, err) = tresillo(&full);
        assert!(!ok, "{args:?} should fail: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    let (ok, _, err) = tresillo(&[
        "solve",
        "--deal",
        "1E 2E / 3E 4E / 6E 5E",
        "--won",
        "3,2,2",
        "--trump",
        "nada",
        "--declarer",
        "0",
        "--leader",
        "0",
    ]);
    assert!(!ok && err.contains("unknown suit `nada`") && err.lines().count() == 1, "{err}");
}

fn solve(args: &[&str]) -> String {
    let mut full = vec!["solve"];
    full.extend(args.iter().copied());
    let (ok, out, err) = tresillo(&full);
    assert!(ok, "{args:?}: {err}");
    out
}

#[test]
fn goal_nolo_solves_without_trumps_in_the_no_trump_order() {
    // Seat 0 plays nolo and has taken no trick yet (0,4,3); two cards each.
    // Leading 2E: 12E and 11E must follow and seat 1 wins; its 3O is then led
    // and nobody holds oros, so seat 1 wins again: no trick, a win. Leading 12C
    // (the top heart in the no-trump order 12 11 10 1 2 ... 7): seat 1 has no
    // heart, seat 2 plays 1C, seat 0 wins it; then 2E loses to 11E: one trick,
    // a draw.
    let out = solve(&[
        "--deal",
        "2E 12C / 12E 3O / 11E 1C",
        "--trump",
        "none",
        "--goal",
        "nolo",
        "--declarer",
        "0",
        "--leader",
        "0",
        "--won",
        "0,4,3",
    ]);
    assert_eq!(out, "2E win\n12C draw\nvalue: win\n");
}

#[test]
fn goal_contrabola_wants_no_trick_at_all() {
    // Copas trumps; seat 0 must lose every trick. Leading 12O wins it (seat 1
    // discards 5B rather than trump): lost. Leading 4B: 5B and 6B follow, seat
    // 2 wins and leads 10O; seat 0 must follow with 12O but seat 1 has only the
    // trump 2C left and takes it: no trick, won.
    let out = solve(&[
        "--deal",
        "12O 4B / 2C 5B / 10O 6B",
        "--trump",
        "copas",
        "--goal",
        "contrabola",
        "--declarer",
        "0",
        "--leader",
        "0",
        "--won",
        "0,4,3",
    ]);
    assert_eq!(out, "4B won\n12O lost\nvalue: won\n");
}

#[test]
fn four_hands_solve_four_card_tricks_or_three_with_a_seat_out() {
    // penetro_all_play: all four play, oros trumps, seat 0 declares with 2
    // tricks against 2, 2, 1. Leading 3B: 10B, 11B, 12B follow, seat 3 wins
    // (its second trick) and leads 6C, which the espada trumps: 3 against
    // 2, 2, 2, a sacado. Leading the espada first: the others discard, and seat
    // 3 throws 12B, so seat 2's 11B takes the 3B next: 3 against 2, 3, 2, a
    // puesta.
    let deal = "1E 3B / 10B 4C / 11B 5C / 12B 6C";
    let args = ["--trump", "oros", "--declarer", "0", "--leader", "0"];
    let mut full = vec!["--deal", deal, "--won", "2,2,2,1"];
    full.extend(args);
    assert_eq!(solve(&full), "1E puesta\n3B sacado\nvalue: sacado\n");
    // Seat 3 sits out: seat 0 (3 tricks against 2 and 2) takes at least one of
    // the two tricks left, 4 or 5 against at most 3: a sacado whatever it leads.
    let mut full = vec!["--deal", "1E 3B / 10B 4C / 11B 5C / -", "--won", "3,2,2,0"];
    full.extend(args);
    assert_eq!(solve(&full), "1E sacado\n3B sacado\nvalue: sacado\n");
    // The same position for the lhombre goal: its win/draw/loss classes.
    let out = solve(&[
        "--deal",
        "1E 3B / 10B 4C / 11B 5C",
        "--trump",
        "oros",
        "--goal",
        "lhombre",
        "--declarer",
        "0",
        "--leader",
        "0",
        "--won",
        "3,2,2",
    ]);
    assert_eq!(out, "1E win\n3B win\nvalue: win\n");
}

#[test]
fn bad_goal_and_seat_combinations_are_one_line_errors() {
    let cases: [(&[&str], &str); 7] = [
        (&["--deal", "2E 12C / 12E 3O / 11E 1C", "--won", "0,4,3", "--goal", "nolo"], "--trump none"),
        (&["--deal", "2E 12C / 12E 3O / 11E 1C", "--won", "0,4,3", "--goal", "bola"], "bad --goal `bola`"),
        (&["--deal", "1E / 3E / 4E / 5E", "--won", "2,2,2,2", "--goal", "lhombre"], "four-player"),
        (&["--deal", "1E / 3E / - / -", "--won", "4,4,0,0"], "at most one seat sits out"),
        (&["--deal", "- / 1E / 3E / 4E", "--won", "0,3,3,2"], "bad --declarer 0: seats are 1, 2 and 3"),
        (&["--deal", "1E / 3E / 4E / -", "--won", "3,3,1,1"], "seat 3 sits out"),
        (&["--deal", "1E / 3E / 4E / 5E", "--won", "2,2,4"], "expected 4 counts"),
    ];
    for (args, want) in cases {
        let mut full = vec!["solve", "--trump", "oros", "--leader", "1", "--declarer", "0"];
        full.extend(args.iter().copied());
        let (ok, out, err) = tresillo(&full);
        assert!(!ok, "{args:?} should fail: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    let (ok, _, err) = tresillo(&[
        "solve",
        "--deal",
        "1E / 3E / 4E",
        "--won",
        "3,3,2",
        "--trump",
        "none",
        "--declarer",
        "0",
        "--leader",
        "0",
    ]);
    assert!(!ok && err.contains("--trump none is only for --goal nolo") && err.lines().count() == 1, "{err}");
}
