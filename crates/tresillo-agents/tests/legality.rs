//! Every agent plays every seat arrangement without an illegal choice or a panic.
//!
//! The agents are `random`, `rule` and `cheat` (with one playout per card, to stay
//! fast); the 27 arrangements of three seats each play `TRESILLO_HANDS` hands
//! (default 10,000), on two threads. A larger run:
//! `TRESILLO_HANDS=100000 cargo test --release -p tresillo-agents --test suite legality::`.

use crate::common;

use tresillo_agents::cheat::Seated;
use tresillo_agents::play_hand;
use tresillo_agents::{build_seated, seat_rngs, splitmix64};
use tresillo_core::Outcome;

const AGENTS: [&str; 3] = ["random", "rule", "cheat:rollouts=1"];

fn hands_per_arrangement() -> u64 {
    std::env::var("TRESILLO_HANDS").ok().and_then(|s| s.parse().ok()).unwrap_or(10_000)
}

/// Plays `n` hands with the arrangement; returns (hands, declared, won) counts.
fn play(specs: [&str; 3], n: u64, salt: u64) -> (u64, u64, u64) {
    let mut agents: Vec<Seated> = specs.iter().map(|s| build_seated(s).expect("a valid spec")).collect();
    let (mut declared, mut won) = (0, 0);
    for i in 0..n {
        let seed = splitmix64(salt ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut hand = common::hand(seed);
        let mut rngs = seat_rngs(seed);
        let r = play_hand(&mut hand, &mut agents, &mut rngs)
            .unwrap_or_else(|e| panic!("{specs:?}, deal seed {seed}: {e}"));
        assert!(hand.is_done());
        if r.outcome != Outcome::Cancelled {
            declared += 1;
            won += u64::from(r.outcome.is_won());
        }
    }
    (n, declared, won)
}

#[test]
fn every_agent_every_arrangement_is_legal() {
    let n = hands_per_arrangement();
    let mut arrangements = Vec::new();
    for a in AGENTS {
        for b in AGENTS {
            for c in AGENTS {
                arrangements.push([a, b, c]);
            }
        }
    }
    let threads = 2;
    let total: u64 = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let mine: Vec<[&str; 3]> = arrangements.iter().copied().skip(t).step_by(threads).collect();
                s.spawn(move || {
                    mine.iter().enumerate().map(|(i, arr)| play(*arr, n, (t * 100 + i) as u64).0).sum::<u64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("no panic")).sum()
    });
    assert_eq!(total, 27 * n);
}

#[test]
fn seated_fair_and_cheat_agents_have_names() {
    let s = build_seated("cheat").expect("cheat");
    assert!(matches!(s, Seated::Cheat(_)));
    let f = build_seated("rule:entrada=40").expect("rule");
    assert!(matches!(f, Seated::Fair(_)));
}
