//! Every fair agent of the registry, in every rule set, under every combination of
//! its options, at every table size the rule set allows, makes only legal decisions.
//!
//! The rule sets and their options come from the core (`RuleSet::BUILT_IN` and each
//! `RuleSpec::options`, the same source as `tresillo rules`), so a new rule set or
//! option is covered without touching this file: boolean options take both values,
//! a list of values its default, its first other value and its last, a range its
//! default and its low end. The fair agents come from `Registry::builtin()`; each
//! must have a small spec below (a new agent fails the test until it has one).
//! A new built-in rule set is played without any change here.
//!
//! Each combination plays `TRESILLO_EXHAUSTIVE_FAST` deals (default 16,000) with
//! `random` and `rule` drawn per seat and deal, and `TRESILLO_EXHAUSTIVE_SEARCH` deals
//! (default 32) with every seat drawn among all the fair agents (the search agents
//! with small budgets). A failure names the rule set, options, players, agents, deal
//! seed and dealer. A larger run:
//! `TRESILLO_EXHAUSTIVE_FAST=50000 cargo test --release -p tresillo-agents --test suite exhaustive::`.

use tresillo_agents::{Agent, Registry, SpecError, deal_for_seed, play_hand, seat_rngs, splitmix64};
use tresillo_core::{Hand, OptionInfo, RuleSet, Rules, Seat};

/// The fast agents, played on many deals.
const FAST: [&str; 2] = ["random", "rule"];

/// A small spec for each fair agent of the registry (search agents with small
/// budgets, one thread).
const SMALL: [(&str, &str); 5] = [
    ("random", "random"),
    ("rule", "rule"),
    ("pimc", "pimc:worlds=3:bid_worlds=2:adaptive=0:threads=1"),
    ("ismcts", "ismcts:iters=60"),
    ("alphamu", "alphamu:worlds=3:depth=2:pimc_worlds=3:bid_worlds=2"),
];

fn env_count(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

/// The values of an option the test plays: see the module comment.
fn representatives(o: &OptionInfo) -> Vec<String> {
    let mut v = vec![o.default.to_string()];
    if let Some((lo, _hi)) = o.values.split_once(" to ") {
        v.push(lo.trim().to_string());
    } else {
        let list: Vec<&str> = o.values.split(',').map(str::trim).filter(|s| *s != o.default).collect();
        assert!(!list.is_empty(), "option {}: cannot read its values {:?}", o.name, o.values);
        v.push(list[0].to_string());
        v.push(list[list.len() - 1].to_string());
    }
    v.dedup();
    v.sort();
    v.dedup();
    v
}

/// Every (rules, players) combination of `set`.
fn combinations(set: RuleSet) -> Vec<(Rules, u8)> {
    let spec = set.spec();
    let mut product: Vec<Vec<(&str, String)>> = vec![Vec::new()];
    for o in spec.options {
        let values = representatives(o);
        product = product
            .into_iter()
            .flat_map(|prefix| {
                values.iter().map(move |v| {
                    let mut p = prefix.clone();
                    p.push((o.name, v.clone()));
                    p
                })
            })
            .collect();
    }
    let mut out = Vec::new();
    let mut used: Vec<(&str, String)> = Vec::new();
    for pairs in product {
        // Options at their default are left out; a combination the core refuses (an
        // option that applies only with another) is skipped.
        let refs: Vec<(&str, &str)> = spec
            .options
            .iter()
            .zip(&pairs)
            .filter(|(o, (_, v))| v != o.default)
            .map(|(_, (k, v))| (*k, v.as_str()))
            .collect();
        let Ok(rules) = Rules::parse(set.name(), &refs) else { continue };
        used.extend(pairs.iter().cloned());
        for players in spec.tables.iter().map(|t| t.players) {
            if rules.check_players(players).is_ok() {
                out.push((rules, players));
            }
        }
    }
    for o in spec.options {
        for v in representatives(o) {
            assert!(
                used.iter().any(|(k, u)| *k == o.name && *u == v),
                "{}: option {}={v} is refused in every combination",
                set.name(),
                o.name
            );
        }
    }
    out
}

/// The small spec of every fair agent of the registry.
fn fair_specs() -> Vec<&'static str> {
    let reg = Registry::builtin();
    let mut out = Vec::new();
    for info in reg.infos() {
        match reg.build_agent(info.name) {
            Err(SpecError::FullState(_)) => continue,
            Err(e) => panic!("agent {}: {e}", info.name),
            Ok(_) => {}
        }
        let spec = SMALL
            .iter()
            .find(|(n, _)| *n == info.name)
            .unwrap_or_else(|| panic!("fair agent `{}` has no small spec in tests/exhaustive.rs", info.name))
            .1;
        out.push(spec);
    }
    out
}

/// A seed for deal `i` of a combination, independent of the order of combinations.
fn deal_seed(rules: &Rules, players: u8, salt: u64, i: u64) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in format!("{rules}/{players}/{salt}").bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    splitmix64(h ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Plays `n` deals of the combination, each seat's agent drawn from `pool` per deal;
/// returns one line per illegal decision (or panic) found.
fn play(rules: Rules, players: u8, pool: &[&str], salt: u64, n: u64) -> Vec<String> {
    let reg = Registry::builtin();
    let mut failures = Vec::new();
    for i in 0..n {
        let seed = deal_seed(&rules, players, salt, i);
        let pick = splitmix64(seed ^ 0x5eed);
        let specs: Vec<&str> =
            (0..players).map(|s| pool[((pick >> (8 * u32::from(s))) % pool.len() as u64) as usize]).collect();
        let dealer = Seat((seed % u64::from(players)) as u8);
        let context = || {
            format!(
                "rules {rules} (--rules {} {}), {players} players, agents {}, deal seed {seed}, dealer {dealer}",
                rules.set.name(),
                rules
                    .options
                    .set_options()
                    .iter()
                    .map(|(k, v)| format!("--rule-option {k}={v}"))
                    .collect::<Vec<_>>()
                    .join(" "),
                specs.join(","),
            )
        };
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut agents: Vec<Box<dyn Agent>> =
                specs.iter().map(|s| reg.build_agent(s).expect("a valid spec")).collect();
            let mut hand = Hand::with_rules(
                rules,
                players,
                deal_for_seed(seed).seated(rules.table(players), dealer),
                dealer,
            )
            .expect("a valid table");
            let mut rngs = seat_rngs(seed);
            play_hand(&mut hand, &mut agents, &mut rngs).map(|_| ())
        }));
        match outcome {
            Ok(Ok(())) => {}
            Ok(Err(e)) => failures.push(format!("{}: {e}", context())),
            Err(p) => {
                let why = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_string()))
                    .unwrap_or_default();
                failures.push(format!("{}: panicked: {why}", context()));
            }
        }
        if failures.len() >= 5 {
            break;
        }
    }
    failures
}

/// Plays every combination of `set`; fails listing the illegal decisions found.
fn check(set: RuleSet) {
    let fast = env_count("TRESILLO_EXHAUSTIVE_FAST", 16_000);
    let search = env_count("TRESILLO_EXHAUSTIVE_SEARCH", 32);
    let all = fair_specs();
    let combos = combinations(set);
    assert!(!combos.is_empty());
    let mut failures = Vec::new();
    for (rules, players) in &combos {
        failures.extend(play(*rules, *players, &FAST, 1, fast));
        failures.extend(play(*rules, *players, &all, 2, search));
    }
    assert!(
        failures.is_empty(),
        "{} illegal decisions in {} ({} combinations):\n{}",
        failures.len(),
        set.name(),
        combos.len(),
        failures.join("\n")
    );
}

#[test]
fn combinations_come_from_the_options_listing() {
    // hombre: five boolean options, and the ante (default and low end) only with
    // hombre-chips: 2^5 + 2^4.
    assert_eq!(combinations(RuleSet::HOMBRE).len(), 48);
    // tresillo: palo_de_favor none/espadas/oros x codillo_old, at three players,
    // and x penetro_all_play at four.
    assert_eq!(combinations(RuleSet::TRESILLO).len(), 6 + 12);
    assert_eq!(combinations(RuleSet::LHOMBRE).len(), 2);
}

/// Every rule set of the registry, each on a thread of its own (they are
/// independent; one thread each keeps the wall-clock time of four tests).
#[test]
fn every_rule_set_every_option_is_legal() {
    assert!(fair_specs().len() >= 4);
    std::thread::scope(|scope| {
        let runs: Vec<_> =
            RuleSet::BUILT_IN.into_iter().map(|set| (set, scope.spawn(move || check(set)))).collect();
        let failed: Vec<String> =
            runs.into_iter().filter_map(|(set, run)| run.join().is_err().then(|| set.to_string())).collect();
        assert!(
            failed.is_empty(),
            "illegal decisions in {} (each thread's message is above)",
            failed.join(", ")
        );
    });
}
