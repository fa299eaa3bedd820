//! Speed and strength figures for the agents (no criterion: plain timed loops).
//!
//! ```text
//! cargo bench -p tresillo-agents --bench agents -- speed [hands]
//! cargo bench -p tresillo-agents --bench agents -- strength [hands] [rule spec]
//! cargo bench -p tresillo-agents --bench agents -- cheat [hands] [cheat spec]
//! ```
//!
//! `strength` plays every seat arrangement of `rule` against `random` (the same
//! deals for each arrangement) and `rule` against itself, and prints per-agent mean
//! points, how often each agent declared and how often it won. Points are a
//! simple zero-sum proxy (the puesta-system ledger lives elsewhere): with
//! u = 1 + condiciones (vuelta 1, solo 2, estuche, primeras 1, bola 8), a sacado
//! takes u from each opponent, a puesta pays u to each, a codillo pays 3u to the
//! winner and u to the other opponent.

use std::time::Instant;
use tresillo_agents::{
    Agent, RuleAgent, RuleParams, build_agent, build_seated, rng_from_seed, seat_rngs, splitmix64,
};
use tresillo_core::{Contract, Deal, Hand, HandResult, Outcome, RuleSet, Seat};

fn deal(seed: u64) -> Deal {
    tresillo_agents::deal_for_seed(seed)
}

/// Zero-sum proxy points per seat.
fn points(r: &HandResult) -> [i64; 3] {
    let mut p = [0i64; 3];
    let Some(d) = r.final_declarer() else { return p };
    let mut u = 1 + match r.contract {
        Some(Contract::Vuelta) => 1,
        Some(Contract::Solo) => 2,
        _ => 0,
    };
    if r.primeras {
        u += 1;
    }
    if r.estuche && r.outcome.is_won() {
        u += 1;
    }
    if r.bola_attempted {
        u += 8;
    }
    let won = r.outcome.is_won() && (!r.bola_attempted || r.bola_made);
    let di = d.index();
    for o in [d.next(3), d.plus(2, 3)] {
        let oi = o.index();
        let amount = match r.outcome {
            _ if won => -u,
            Outcome::Codillo { winner } if winner == o => 3 * u,
            _ => u,
        };
        p[oi] += amount;
        p[di] -= amount;
    }
    p
}

#[derive(Default, Clone, Copy)]
struct Tally {
    seats: u64,
    points: i64,
    declared: u64,
    won: u64,
    codillos: u64,
    solos: u64,
    vueltas: u64,
    surrenders: u64,
    forced: u64,
    forced_won: u64,
}

fn run_table(
    specs: [&str; 3],
    hands: u64,
    seed: u64,
    tallies: &mut std::collections::BTreeMap<String, Tally>,
) {
    let mut agents: Vec<_> = specs.iter().map(|s| build_seated(s).expect("spec")).collect();
    for i in 0..hands {
        let s = splitmix64(seed ^ i);
        let mut hand = Hand::new(RuleSet::TRESILLO, 3, deal(s), Seat((i % 3) as u8)).expect("hand");
        let mut rngs = seat_rngs(s);
        let r = tresillo_agents::play_hand(&mut hand, &mut agents, &mut rngs).expect("legal");
        let pts = points(&r);
        for seat in 0..3 {
            let t = tallies.entry(specs[seat].to_string()).or_default();
            t.seats += 1;
            t.points += pts[seat];
            if r.declarer == Some(Seat(seat as u8)) {
                t.declared += 1;
                if r.outcome.is_won() {
                    t.won += 1;
                }
                if matches!(r.outcome, Outcome::Codillo { .. }) {
                    t.codillos += 1;
                }
                match r.contract {
                    Some(Contract::Solo) => t.solos += 1,
                    Some(Contract::Vuelta) => t.vueltas += 1,
                    _ => {}
                }
                if r.surrender.is_some() {
                    t.surrenders += 1;
                }
                if r.forced {
                    t.forced += 1;
                    if r.outcome.is_won() {
                        t.forced_won += 1;
                    }
                }
            }
        }
    }
}

fn print_tallies(title: &str, tallies: &std::collections::BTreeMap<String, Tally>) {
    println!("{title}");
    for (name, t) in tallies {
        println!(
            "  {name:<28} seats {:>8}  mean points {:+.3}  declared {:>5.1}%  won {:>5.1}% of its contracts  \
             (codillo {:.1}%, solo {}, vuelta {}, surrendered {}; espada forzada {} won {:.1}%, \
             others won {:.1}%)",
            t.seats,
            t.points as f64 / t.seats as f64,
            100.0 * t.declared as f64 / t.seats as f64,
            100.0 * t.won as f64 / t.declared.max(1) as f64,
            100.0 * t.codillos as f64 / t.declared.max(1) as f64,
            t.solos,
            t.vueltas,
            t.surrenders,
            t.forced,
            100.0 * t.forced_won as f64 / t.forced.max(1) as f64,
            100.0 * (t.won - t.forced_won) as f64 / (t.declared - t.forced).max(1) as f64,
        );
    }
}

fn speed(n: u64) {
    for spec in ["random", "rule"] {
        let mut agents: Vec<Box<dyn Agent>> = (0..3).map(|_| build_agent(spec).expect("spec")).collect();
        let deals: Vec<Deal> = (0..1024).map(|i| deal(i as u64)).collect();
        let t = Instant::now();
        let mut acc = 0u64;
        for i in 0..n {
            let mut hand = Hand::new(RuleSet::TRESILLO, 3, deals[(i % 1024) as usize], Seat((i % 3) as u8))
                .expect("hand");
            let mut rngs = seat_rngs(i);
            let r = tresillo_agents::play_hand(&mut hand, &mut agents, &mut rngs).expect("legal");
            acc += u64::from(r.tricks.0[0]);
        }
        std::hint::black_box(acc);
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{spec},{spec},{spec}: {n} hands in {secs:.2} s on one thread: {:.0} hands/s, {:.2} us per hand",
            n as f64 / secs,
            1e6 * secs / n as f64
        );
    }
    // Decision cost alone: replay the rule agent's decisions from stored views.
    let mut views = Vec::new();
    let mut agents: Vec<Box<dyn Agent>> = (0..3).map(|_| build_agent("rule").expect("spec")).collect();
    for i in 0..2000u64 {
        let mut hand = Hand::new(RuleSet::TRESILLO, 3, deal(i), Seat((i % 3) as u8)).expect("hand");
        let mut rngs = seat_rngs(i);
        while let Some(seat) = hand.request().seat() {
            let v = hand.view(seat);
            views.push(v);
            let d = agents[seat.index()].decide(&v, &mut rngs[0]).unwrap();
            hand.apply(d).expect("legal");
        }
    }
    let mut a = RuleAgent::new(RuleParams::default());
    let mut rng = rng_from_seed(1);
    let t = Instant::now();
    let reps = 20;
    for _ in 0..reps {
        for v in &views {
            std::hint::black_box(a.decide(std::hint::black_box(v), &mut rng).unwrap());
        }
    }
    let ns = t.elapsed().as_nanos() as f64 / (reps * views.len()) as f64;
    println!("rule: {ns:.0} ns per decision (mean over {} decisions of 2000 hands)", views.len());
}

/// Declarer success by the evaluation of the contract chosen (rule x3).
fn calib(n: u64, spec: &str) {
    use std::collections::BTreeMap;
    let mut agents: Vec<Box<dyn Agent>> = (0..3).map(|_| build_agent(spec).expect("spec")).collect();
    // (contract, forced, bucket) -> (count, won, codillo)
    let mut h: BTreeMap<(String, bool, i32), (u64, u64, u64)> = BTreeMap::new();
    for i in 0..n {
        let s = splitmix64(17 ^ i);
        let mut hand = Hand::new(RuleSet::TRESILLO, 3, deal(s), Seat((i % 3) as u8)).expect("hand");
        let mut rngs = seat_rngs(s);
        let mut ev = None;
        let r = tresillo_agents::play_hand_with(&mut hand, &mut agents, &mut rngs, |h, d| {
            if let tresillo_core::Decision::Declare(c, t) = *d {
                let v = h.view(h.request().seat().expect("seat"));
                let e = match (c, t) {
                    (Contract::Vuelta, _) => tresillo_agents::evaluate_vuelta(v.hand(), v.unseen_cards()),
                    (c, Some(t)) => {
                        tresillo_agents::evaluate(v.hand(), v.unseen_cards(), t, c != Contract::Solo)
                    }
                    _ => -1,
                };
                ev = Some((c.to_string(), e));
            }
        })
        .expect("legal");
        if let Some((c, e)) = ev {
            let k = h.entry((c, r.forced, e.div_euclid(5) * 5)).or_default();
            k.0 += 1;
            k.1 += u64::from(r.outcome.is_won());
            k.2 += u64::from(matches!(r.outcome, Outcome::Codillo { .. }));
        }
    }
    for ((c, f, b), (k, w, cod)) in h {
        println!(
            "{c:<8} forced {f:<5} eval {b:>4}..{:<4} n {k:>6} won {:>5.1}% codillo {:>5.1}%",
            b + 4,
            100.0 * w as f64 / k as f64,
            100.0 * cod as f64 / k as f64
        );
    }
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` does not: then only a
    // quick smoke run.
    let full = std::env::args().any(|a| a == "--bench");
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let mode = args.first().map_or("speed", String::as_str);
    let n: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(match (mode, full) {
        (_, false) => 200,
        ("speed", _) => 200_000,
        ("cheat", _) => 2_000,
        _ => 30_000,
    });
    match mode {
        "speed" => speed(n),
        "strength" => {
            let rule = args.get(2).map_or("rule", String::as_str);
            let mut t = std::collections::BTreeMap::new();
            let arrangements = [
                [rule, "random", "random"],
                ["random", rule, "random"],
                ["random", "random", rule],
                [rule, rule, "random"],
                [rule, "random", rule],
                ["random", rule, rule],
            ];
            for a in arrangements {
                run_table(a, n, 17, &mut t);
            }
            print_tallies(&format!("{rule} vs random: 6 seat arrangements x {n} hands (same deals)"), &t);
            let mut t = std::collections::BTreeMap::new();
            run_table([rule, rule, rule], n, 17, &mut t);
            print_tallies(&format!("{rule} x3: {n} hands"), &t);
        }
        "cheat" => {
            let cheat = args.get(2).map_or("cheat", String::as_str);
            let mut t = std::collections::BTreeMap::new();
            for a in [[cheat, "rule", "rule"], ["rule", cheat, "rule"], ["rule", "rule", cheat]] {
                run_table(a, n, 23, &mut t);
            }
            print_tallies(&format!("{cheat} vs rule: 3 seat arrangements x {n} hands"), &t);
        }
        "versus" => {
            let a = args.get(2).map_or("rule", String::as_str);
            let b = args.get(3).map_or("rule", String::as_str);
            let mut t = std::collections::BTreeMap::new();
            for arr in [[a, b, b], [b, a, b], [b, b, a], [a, a, b], [a, b, a], [b, a, a]] {
                run_table(arr, n, 29, &mut t);
            }
            print_tallies(&format!("{a} vs {b}: 6 seat arrangements x {n} hands (same deals)"), &t);
        }
        "calib" => calib(n, args.get(2).map_or("rule", String::as_str)),
        m => eprintln!("unknown mode {m}: speed, strength, cheat or calib"),
    }
}
