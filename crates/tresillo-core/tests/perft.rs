//! Perft regression data: the number of legal card-play sequences from fixed deals.
//!
//! `data/perft.txt` holds `deal | trump | leader | depth | count` lines, produced by
//! the slow reference perft (`common::reference_perft`, written from the text of the
//! rules) with `cargo test --release -p tresillo-core --test suite -- --ignored
//! --nocapture perft::generate`. The fast perft must reproduce every count.

use crate::common;
use common::*;
use tresillo_core::*;

/// Entries above this many nodes are skipped in the normal (debug) run.
const NODE_LIMIT: u64 = 3_000_000;

struct Entry {
    deal: Deal,
    trump: Suit,
    leader: u8,
    depth: u32,
    count: u64,
}

fn entries() -> Vec<Entry> {
    include_str!("data/perft.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .enumerate()
        .map(|(i, l)| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            assert_eq!(f.len(), 5, "perft.txt entry {i}: {l}");
            Entry {
                deal: Deal::parse_partial(f[0]).unwrap(),
                trump: parse_suit(f[1]).unwrap(),
                leader: f[2].parse().unwrap(),
                depth: f[3].parse().unwrap(),
                count: f[4].parse().unwrap(),
            }
        })
        .collect()
}

fn fast(e: &Entry) -> u64 {
    let h = e.deal.hands.0;
    PlayState::new([h[0], h[1], h[2]], Some(e.trump), Seat(e.leader)).perft(e.depth)
}

#[test]
fn perft_counts_match_the_data_file() {
    let es = entries();
    assert!(es.len() >= 66, "at least 20 deals at depths 3, 6, 9 and some endgames");
    let mut checked = 0;
    for e in &es {
        if e.count <= NODE_LIMIT {
            assert_eq!(fast(e), e.count, "{} {} {} {}", e.deal, e.trump, e.leader, e.depth);
            checked += 1;
        }
    }
    assert!(checked >= 45, "only {checked} entries under the node limit");
}

#[test]
#[ignore = "heavy: every entry, whatever its size"]
fn perft_counts_match_the_data_file_all() {
    for e in &entries() {
        assert_eq!(fast(e), e.count);
    }
}

#[test]
fn perft_divide_sums_to_perft() {
    let e = &entries()[1];
    let h = e.deal.hands.0;
    let mut p = PlayState::new([h[0], h[1], h[2]], Some(e.trump), Seat(e.leader));
    let total: u64 = p.perft_divide(e.depth).iter().map(|x| x.1).sum();
    assert_eq!(total, e.count);
}

#[test]
fn fast_perft_matches_the_reference_on_endgames() {
    for e in entries().iter().filter(|e| e.deal.hands.0[0].len() <= 3) {
        let h = e.deal.hands.0;
        let hands = [0, 1, 2].map(|s| h[s].iter().collect::<Vec<_>>());
        assert_eq!(fast(e), reference_perft(hands, e.trump, e.leader as usize, e.depth));
    }
}

/// Prints the data file from the reference perft (run in release).
#[test]
#[ignore = "generator for data/perft.txt"]
fn generate() {
    let deals: Vec<&str> = include_str!("data/perft_deals.txt").lines().filter(|l| !l.is_empty()).collect();
    let suits = ["espadas", "bastos", "copas", "oros"];
    for (i, d) in deals.iter().enumerate() {
        let deal = Deal::parse_partial(d).unwrap();
        let h = deal.hands.0;
        let hands = [0, 1, 2].map(|s| h[s].iter().collect::<Vec<_>>());
        let trump = Suit::ALL[i % 4];
        let leader = (i % 3) as u8;
        let depths: &[u32] = if h[0].len() < 9 { &[3 * h[0].len()] } else { &[3, 6, 9] };
        for &depth in depths {
            let n = reference_perft(hands.clone(), trump, leader as usize, depth);
            let e = Entry { deal, trump, leader, depth, count: n };
            assert_eq!(fast(&e), n);
            println!("{d} | {} | {leader} | {depth} | {n}", suits[i % 4]);
        }
    }
}
