//! Hand perft: how many sequences of legal decisions a whole hand allows from a
//! fixed deal to a given depth (the auction, the declaration, the first
//! exchanges), for every built-in rule set at every table size it is played at,
//! at its defaults and with every flag option on; and, to reach every later step
//! (questions, tricks, the outcome), a fingerprint of seeded random playouts of
//! whole hands. `data/hand_perft.txt` holds `rules | players | deal seed | depth
//! | count` lines (`playouts=N | fingerprint` for the playouts), printed by the generator
//! (`cargo test --release -p tresillo-core --test suite -- --ignored --nocapture
//! hand_perft::generate`). The list of rule sets comes from the registry
//! ([`RuleSet::BUILT_IN`]): a new built-in set fails
//! `every_rule_set_has_a_hand_perft_table` until its lines are added.

use crate::common::deal_from;
use tresillo_core::*;

const DATA: &str = include_str!("data/hand_perft.txt");
const SEEDS: [u64; 3] = [1, 2, 3];
/// Decisions deep: far enough into the hand that the auction's end, the
/// declaration and the first exchanges are counted.
const DEPTH: u32 = 6;

fn perft(h: &Hand, rules: &Rules, depth: u32) -> u64 {
    let r = h.request();
    let Some(seat) = r.seat() else { return 1 };
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    for d in r.legal_decisions_in(rules, h.hand_of(seat)) {
        let mut next = *h;
        next.apply(d).expect("a legal decision");
        n += perft(&next, rules, depth - 1);
    }
    n
}

fn count(rules: &Rules, players: u8, seed: u64, depth: u32) -> u64 {
    let dealer = Seat((seed % u64::from(players)) as u8);
    let deal = deal_from(seed).seated(rules.table(players), dealer);
    let h = Hand::with_rules(*rules, players, deal, dealer).expect("a hand");
    perft(&h, rules, depth)
}

/// The rules each set is counted under: its defaults, and every flag option on
/// (when the set has any and they may be given together).
fn variants(set: RuleSet, players: u8) -> Vec<Rules> {
    let mut v = vec![Rules::from(set)];
    let flags: Vec<(&str, &str)> =
        set.spec().options.iter().filter(|o| o.kind == OptionKind::Flag).map(|o| (o.name, "true")).collect();
    if let Ok(r) = Rules::parse(set.name(), &flags)
        && !flags.is_empty()
        && r.check_players(players).is_ok()
    {
        v.push(r);
    }
    v
}

fn tables() -> Vec<(Rules, u8)> {
    let mut out = Vec::new();
    for set in RuleSet::BUILT_IN {
        for players in [3u8, 4] {
            if Rules::from(set).check_players(players).is_ok() {
                out.extend(variants(set, players).into_iter().map(|r| (r, players)));
            }
        }
    }
    out
}

const PLAYOUTS: u64 = 40;

/// FNV-1a over `bytes`, continuing from `h`.
fn fnv(mut h: u64, bytes: &[u8]) -> u64 {
    for b in bytes {
        h = (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// `n` whole hands from deal seeds `seed`, `seed + 1`, ..., each decision drawn
/// uniformly from the legal ones by a seeded xorshift: a hash of every decision
/// (its action id, or a discard's cards) and every result.
fn playouts(rules: &Rules, players: u64, seed: u64, n: u64) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325;
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for k in 0..n {
        let dealer = Seat(((seed + k) % players) as u8);
        let deal = deal_from(seed + k).seated(rules.table(players as u8), dealer);
        let mut hand = Hand::with_rules(*rules, players as u8, deal, dealer).expect("a hand");
        while let Some(seat) = hand.request().seat() {
            let legal = hand.request().legal_decisions_in(rules, hand.hand_of(seat));
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let d = legal[(x % legal.len() as u64) as usize];
            h = match d {
                Decision::Discard(set) => fnv(h, set.to_string().as_bytes()),
                d => fnv(h, &action::Action::Decision(d).id().expect("an id").to_le_bytes()),
            };
            hand.apply(d).expect("a legal decision");
        }
        h = fnv(h, format!("{:?}", hand.result()).as_bytes());
    }
    h
}

struct Line {
    rules: String,
    players: u8,
    seed: u64,
    depth: Option<u32>,
    count: u64,
}

fn lines() -> Vec<Line> {
    DATA.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            assert_eq!(f.len(), 5, "hand_perft.txt: {l}");
            Line {
                rules: f[0].to_string(),
                players: f[1].parse().expect(l),
                seed: f[2].parse().expect(l),
                depth: if f[3].starts_with("playouts=") { None } else { Some(f[3].parse().expect(l)) },
                count: f[4].parse().expect(l),
            }
        })
        .collect()
}

fn parse_rules(s: &str) -> Rules {
    let mut words = s.split_whitespace();
    let name = words.next().expect("a rule set");
    let options: Vec<(&str, &str)> = words.map(|w| w.split_once('=').expect("key=value")).collect();
    Rules::parse(name, &options).expect(s)
}

#[test]
fn every_rule_set_has_a_hand_perft_table() {
    let data = lines();
    for (rules, players) in tables() {
        assert!(
            data.iter().any(|l| l.rules == rules.to_string() && l.players == players),
            "rule set `{rules}` at {players} players has no hand perft table in \
             crates/tresillo-core/tests/data/hand_perft.txt: add its lines from `cargo test --release -p \
             tresillo-core --test suite -- --ignored --nocapture hand_perft::generate`"
        );
    }
}

#[test]
fn hand_perft_counts_match_the_data_file() {
    let data = lines();
    assert!(!data.is_empty());
    for l in &data {
        let rules = parse_rules(&l.rules);
        let got = match l.depth {
            Some(depth) => count(&rules, l.players, l.seed, depth),
            None => playouts(&rules, u64::from(l.players), l.seed, PLAYOUTS),
        };
        assert_eq!(got, l.count, "{} | {} | {} | {:?}", l.rules, l.players, l.seed, l.depth);
    }
}

#[test]
#[ignore = "generator for data/hand_perft.txt"]
fn generate() {
    println!("# rules | players | deal seed | depth (decisions) | legal decision sequences");
    for (rules, players) in tables() {
        for seed in SEEDS {
            println!("{rules} | {players} | {seed} | {DEPTH} | {}", count(&rules, players, seed, DEPTH));
        }
        let p = playouts(&rules, u64::from(players), 100, PLAYOUTS);
        println!("{rules} | {players} | 100 | playouts={PLAYOUTS} | {p}");
    }
}
