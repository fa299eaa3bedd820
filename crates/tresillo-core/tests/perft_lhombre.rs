//! Perft data for `lhombre` (RULES.md section 12.4): a trump deal and nolo deals
//! in the no-trump order of section 1, where the black aces are the lowest cards
//! of their suits and nothing is a trump (so no matador privilege).
//!
//! `data/perft_lhombre.txt` holds `deal | mode | leader | depth | count` lines
//! (mode `none` for no trump), produced by the slow reference perft
//! (`common::reference_perft_in`) with `cargo test --release -p tresillo-core --test
//! suite -- --ignored --nocapture perft_lhombre::generate`. The fast perft must reproduce
//! every count.

use crate::common;
use common::*;
use tresillo_core::*;

struct Entry {
    deal: Deal,
    trump: Option<Suit>,
    leader: u8,
    depth: u32,
    count: u64,
}

fn mode(s: &str) -> Option<Suit> {
    if s == "none" { None } else { Some(parse_suit(s).unwrap()) }
}

fn entries() -> Vec<Entry> {
    include_str!("data/perft_lhombre.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            assert_eq!(f.len(), 5, "{l}");
            Entry {
                deal: Deal::parse_partial(f[0]).unwrap(),
                trump: mode(f[1]),
                leader: f[2].parse().unwrap(),
                depth: f[3].parse().unwrap(),
                count: f[4].parse().unwrap(),
            }
        })
        .collect()
}

fn fast(e: &Entry) -> u64 {
    let h = e.deal.hands.0;
    PlayState::new([h[0], h[1], h[2]], e.trump, Seat(e.leader)).perft(e.depth)
}

#[test]
fn lhombre_perft_counts_match_the_data_file_trump_and_nolo() {
    let es = entries();
    assert!(es.iter().any(|e| e.trump.is_none()) && es.iter().any(|e| e.trump.is_some()));
    for e in es.iter().filter(|e| e.count <= 3_000_000) {
        let mode = e.trump.map_or("none".to_string(), |s| s.to_string());
        assert_eq!(fast(e), e.count, "{} {mode} {} {}", e.deal, e.leader, e.depth);
    }
}

#[test]
fn no_trump_perft_matches_the_reference_on_endgames() {
    let deal = Deal::parse_partial("1E 7C 12O 2B / 2E 1C 4O 3B / 12E 6C 1O 1B").unwrap();
    let h = deal.hands.0;
    for leader in 0..3 {
        let hands = [0, 1, 2].map(|s| h[s].iter().collect::<Vec<_>>());
        let mut p = PlayState::new([h[0], h[1], h[2]], None, Seat(leader as u8));
        assert_eq!(p.perft(12), reference_perft_in(hands, None, leader, 12));
    }
}

/// Prints the data file from the reference perft (run in release).
#[test]
#[ignore = "generator for data/perft_lhombre.txt"]
fn generate() {
    let deals = [
        (
            "2B 4B 7B 2C 5C 6C 11C 1O 12O / 2E 7E 11E 5B 12B 12C 2O 6O 10O / 3E 4E 5E 6E 12E 1B 10B 1C 7C",
            None,
            1,
        ),
        (
            "1E 5E 7E 1B 10B 6C 5O 10O 12O / 4E 6E 11E 12E 5B 3C 12C 2O 7O / 2E 3E 10E 2B 4B 6B 7B 4C 7C",
            None,
            0,
        ),
        (
            "7E 2B 3B 11B 12B 2C 7C 10C 1O / 6E 10E 11E 4C 11C 3O 4O 7O 10O / 1E 3E 5E 12E 4B 7B 12C 5O 12O",
            Some(Suit::Espadas),
            2,
        ),
        ("1E 7C 12O 2B / 2E 1C 4O 3B / 12E 6C 1O 1B", None, 2),
    ];
    for (d, trump, leader) in deals {
        let deal = Deal::parse_partial(d).unwrap();
        let h = deal.hands.0;
        let hands = [0, 1, 2].map(|s| h[s].iter().collect::<Vec<_>>());
        let depths: &[u32] = if h[0].len() < 9 { &[3 * h[0].len()] } else { &[3, 6, 9] };
        for &depth in depths {
            let n = reference_perft_in(hands.clone(), trump, leader, depth);
            let e = Entry { deal, trump, leader: leader as u8, depth, count: n };
            assert_eq!(fast(&e), n);
            let mode = trump.map_or("none".to_string(), |s| s.to_string());
            println!("{d} | {mode} | {leader} | {depth} | {n}");
        }
    }
}
