//! `alphamu`: pimc's card at depth 1, legal in every rule set, decisions that
//! depend only on the view and the generator, one-line spec errors.

use crate::common;

use tresillo_agents::{Agent, RuleAgent, build_agent, rng_from_seed, seat_rngs, splitmix64};
use tresillo_core::{Decision, Hand, Request, Rules, Seat};

/// Every rule set and option, with the table size (as the ismcts tests).
fn rule_sets() -> Vec<(Rules, u8)> {
    let p = |set: &str, o: &[(&str, &str)]| Rules::parse(set, o).unwrap();
    vec![
        (p("tresillo", &[]), 3),
        (p("tresillo-house", &[]), 3),
        (p("tresillo", &[("palo_de_favor", "oros")]), 3),
        (p("tresillo", &[("codillo_old", "true")]), 3),
        (p("tresillo", &[]), 4),
        (p("tresillo", &[("penetro_all_play", "true")]), 4),
        (p("hombre", &[]), 3),
        (p("hombre", &[("hombre-chips", "true"), ("gascarille", "true")]), 3),
        (p("lhombre", &[]), 3),
    ]
}

/// A hand of `rules` at a table of `players` from the deal of `seed`.
fn hand(rules: Rules, players: u8, seed: u64) -> Hand {
    let dealer = Seat((seed % u64::from(players)) as u8);
    let deal = common::deal(seed).seated(rules.table(players), dealer);
    Hand::with_rules(rules, players, deal, dealer).expect("a full deal")
}

/// Plays the hand of `seed` with `spec` in seat 0 and the last seat, `rule`
/// elsewhere; returns every decision (the hand refuses an illegal one).
fn play(spec: &str, rules: Rules, players: u8, seed: u64) -> Vec<Decision> {
    let mut agents: Vec<Box<dyn Agent>> = (0..players)
        .map(|i| {
            if i == 0 || i == players - 1 {
                build_agent(spec).expect("a valid spec")
            } else {
                Box::new(RuleAgent::default()) as Box<dyn Agent>
            }
        })
        .collect();
    let mut h = hand(rules, players, seed);
    let mut rngs = seat_rngs(seed);
    for a in &mut agents {
        a.new_hand();
    }
    let mut out = Vec::new();
    while let Some(seat) = h.request().seat() {
        let d = agents[seat.index()].decide(&h.view(seat), &mut rngs[seat.index()]).unwrap();
        h.apply(d).unwrap_or_else(|e| panic!("{spec} {rules:?} seed {seed}: {d:?}: {e}"));
        out.push(d);
    }
    out
}

#[test]
fn alphamu_plays_every_rule_set_legally() {
    for (rules, players) in rule_sets() {
        for k in 0..4 {
            play("alphamu:worlds=6:depth=2:pimc_worlds=8:bid_worlds=4", rules, players, splitmix64(k + 77));
        }
    }
}

#[test]
fn alphamu_plays_many_tresillo_hands_legally() {
    let rules = Rules::parse("tresillo", &[]).unwrap();
    for k in 0..20 {
        play("alphamu:worlds=6:depth=3:pimc_worlds=8:bid_worlds=4", rules, 3, splitmix64(k ^ 0xA1FA));
    }
}

#[test]
fn alphamu_decisions_depend_only_on_the_view_and_the_generator() {
    let rules = Rules::parse("tresillo", &[]).unwrap();
    for k in 0..8 {
        let spec = "alphamu:worlds=8:depth=2:pimc_worlds=8:bid_worlds=4";
        assert_eq!(play(spec, rules, 3, k), play(spec, rules, 3, k), "seed {k}");
    }
}

/// At depth 1 the card is pimc's (adaptive=0) over the same worlds.
#[test]
fn alphamu_at_depth_one_is_pimc() {
    let rules = Rules::parse("tresillo", &[]).unwrap();
    let mut am = build_agent("alphamu:worlds=12:depth=1").unwrap();
    let mut pimc = build_agent("pimc:worlds=12:adaptive=0:threads=1").unwrap();
    let mut rule = RuleAgent::default();
    let mut compared = 0;
    for k in 0..25u64 {
        let mut h = hand(rules, 3, k);
        let mut rngs = seat_rngs(k);
        while let Some(seat) = h.request().seat() {
            let v = h.view(seat);
            if let Request::Play { legal, .. } = v.request()
                && legal.len() > 1
            {
                let a = am.decide(&v, &mut rng_from_seed(k * 100 + compared)).unwrap();
                let b = pimc.decide(&v, &mut rng_from_seed(k * 100 + compared)).unwrap();
                assert_eq!(a, b, "seed {k}");
                compared += 1;
            }
            let d = rule.decide(&v, &mut rngs[seat.index()]).unwrap();
            h.apply(d).expect("legal");
        }
    }
    assert!(compared > 100, "{compared}");
}

#[test]
fn bad_alphamu_specs_are_one_line_errors() {
    for spec in [
        "alphamu:worlds=0",
        "alphamu:worlds=65",
        "alphamu:depth=0",
        "alphamu:depth=10",
        "alphamu:late=0",
        "alphamu:late=10",
        "alphamu:pimc_worlds=0",
        "alphamu:worlds=x",
        "alphamu:iters=5",
    ] {
        let e = build_agent(spec).err().unwrap_or_else(|| panic!("{spec} accepted")).to_string();
        assert!(!e.contains('\n'), "{spec}: {e}");
    }
    assert_eq!(build_agent("alphamu:worlds=64:depth=3:late=4:entrada=40").unwrap().name(), "alphamu");
}
