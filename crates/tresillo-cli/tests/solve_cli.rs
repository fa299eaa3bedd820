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
        (&["--deal", "1E 2E / 3E 4E", "--won", "3,2,2"], "three hands"),
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
