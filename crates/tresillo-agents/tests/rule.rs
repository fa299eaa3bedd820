//! The rule agent: its contracts, bola only when safe, thresholds that bite, and
//! that it beats random.

use crate::common;

use tresillo_agents::{
    Agent, RandomAgent, RuleAgent, RuleParams, build_agent, evaluate, keep_set, play_hand, seat_rngs,
};
use tresillo_core::{Bid, CardSet, HandResult, Seat, Suit, parse_hand};

fn cs(s: &str) -> CardSet {
    parse_hand(s).unwrap()
}

fn play(agents: &mut [Box<dyn Agent>], seed: u64) -> HandResult {
    let mut hand = common::hand(seed);
    let mut rngs = seat_rngs(seed);
    play_hand(&mut hand, agents, &mut rngs).expect("legal")
}

#[test]
fn keeps_trumps_kings_and_guarded_caballos() {
    let hand = cs("1E 2C 7C 12B 11B 3B 11O 4O 5E");
    // Copas trumps: espada, mala (7C), 2C; king and caballo of bastos.
    assert_eq!(keep_set(hand, Suit::Copas), cs("1E 7C 2C 12B 11B"));
}

#[test]
fn evaluation_prefers_the_strong_suit_and_strong_hands() {
    let strong = cs("1E 7C 1B 1C 12C 11C 12O 12E 4B");
    let weak = cs("3E 4E 5B 6B 2C 3C 4O 5O 6O");
    let unseen_s = strong.complement();
    assert!(evaluate(strong, unseen_s, Suit::Copas, true) > evaluate(strong, unseen_s, Suit::Oros, true));
    assert!(evaluate(strong, unseen_s, Suit::Copas, false) >= RuleParams::default().solo);
    assert!(evaluate(weak, weak.complement(), Suit::Copas, true) < RuleParams::default().entrada);
}

#[test]
fn bola_only_when_safe_and_thresholds_bite() {
    let mut rule: Vec<Box<dyn Agent>> = (0..3).map(|_| build_agent("rule").unwrap()).collect();
    let mut shy: Vec<Box<dyn Agent>> =
        (0..3).map(|_| build_agent("rule:entrada=1000:vuelta=1000:solo=1000").unwrap()).collect();
    let (mut bolas, mut declared, mut won) = (0, 0, 0);
    for seed in 0..6000u64 {
        let r = play(&mut rule, seed);
        if r.bola_attempted {
            bolas += 1;
            assert!(r.bola_made, "seed {seed}: the rule agent played for bola and failed");
        }
        if r.declarer.is_some() && !r.forced {
            declared += 1;
            won += u64::from(r.outcome.is_won());
        }
        // With unreachable thresholds nobody bids: every hand is an espada
        // forzada or cancelled.
        let r = play(&mut shy, seed);
        assert!(r.bids.iter().all(|b| b.bid == Bid::Paso), "seed {seed}");
        assert!(r.declarer.is_none() || r.forced);
    }
    assert!(bolas > 0, "no bola in 6000 hands");
    assert!(declared > 500);
    let rate = won as f64 / declared as f64;
    assert!(rate > 0.65, "rule wins only {rate:.3} of its own contracts");
}

#[test]
fn rule_beats_random() {
    // Each seat arrangement of one rule agent against two random ones, and of two
    // rule agents against one random; tricks taken as a simple measure.
    let mut rule_tricks = 0u64;
    let mut random_tricks = 0u64;
    let (mut rule_seats, mut random_seats) = (0u64, 0u64);
    for mask in 1u8..7 {
        let mut agents: Vec<Box<dyn Agent>> = (0..3)
            .map(|i| {
                if mask >> i & 1 == 1 {
                    Box::new(RuleAgent::default()) as Box<dyn Agent>
                } else {
                    Box::new(RandomAgent)
                }
            })
            .collect();
        for seed in 0..500u64 {
            let r = play(&mut agents, seed);
            for s in 0..3u8 {
                let t = u64::from(r.tricks[Seat(s)]);
                if mask >> s & 1 == 1 {
                    rule_tricks += t;
                    rule_seats += 1;
                } else {
                    random_tricks += t;
                    random_seats += 1;
                }
            }
        }
    }
    let (a, b) = (rule_tricks as f64 / rule_seats as f64, random_tricks as f64 / random_seats as f64);
    assert!(a > b + 0.5, "rule {a:.2} tricks per hand vs random {b:.2}");
}
