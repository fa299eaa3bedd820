//! The dealer's stake before the deal (`Rules::dealer_stake`) is what each
//! scoring system's ledger charges the dealer. In its own test binary: it
//! registers a rule set, which would change the known-set lists other tests
//! check.

mod common;

use common::*;
use tresillo_core::*;

fn rules(name: &str, opts: &[(&str, &str)]) -> Rules {
    Rules::parse(name, opts).unwrap()
}

/// `tresillo` scored by points: a set no ledger test names, to show that the
/// dealer's stake follows the scoring system, not the rule set.
static TRESILLO_POINTS: RuleSpec = RuleSpec {
    name: "test-tresillo-points",
    scoring: ScoringSystem::Points,
    condiciones: Condiciones::NONE,
    ..tresillo_core::rulesets::spanish::TRESILLO
};

/// A hand of `r` played to its end by decisions picked from `seed`.
fn played(r: Rules, seed: u64) -> HandResult {
    let mut h = Hand::with_rules(r, 3, deal_from(seed), Seat(0)).unwrap();
    let mut x = seed | 1;
    while !h.is_done() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let seat = h.request().seat().unwrap();
        let d = match h.request() {
            Request::Discard { min, .. } => {
                Decision::Discard(h.hand_of(seat).iter().take(min as usize).collect())
            }
            _ => {
                let legal = h.view(seat).legal_decisions();
                legal[(x % legal.len() as u64) as usize]
            }
        };
        ok(&mut h, d);
    }
    h.result().unwrap()
}

#[test]
fn the_dealer_stake_is_what_the_ledger_charges_the_dealer_before_the_deal_in_every_scoring_system() {
    let points = register_rule_set(&TRESILLO_POINTS).unwrap();
    let every = [
        (rules("tresillo", &[]), 1),
        (rules("tresillo-house", &[]), 1),
        (rules("hombre", &[]), 0),
        (rules("hombre", &[("hombre-chips", "true")]), 5),
        (rules("hombre", &[("hombre-chips", "true"), ("ante", "7")]), 7),
        (rules("lhombre", &[]), 0),
        (Rules::from(points), 0),
    ];
    let mut systems = std::collections::BTreeSet::new();
    for (r, stake) in every {
        assert_eq!(r.dealer_stake(), stake, "{r}");
        systems.insert(format!("{:?}", r.scoring()));
        let mut compared = 0;
        for seed in 1..200u64 {
            let res = played(r, seed);
            // A game the declarer won without giving up: nothing but the stake
            // depends on which defender deals.
            let Some(d) = res.declarer else { continue };
            if res.surrender.is_some() || res.outcome != Outcome::Sacado || res.bola_attempted {
                continue;
            }
            let [a, b] = [d.next(3), d.plus(2, 3)];
            let net = |dealer: Seat| {
                let mut x = res.clone();
                x.dealer = dealer;
                score_deal(LedgerConfig::with_rules(r, 3), &x).unwrap().net(a)
            };
            assert_eq!(net(b) - net(a), r.dealer_stake(), "{r} seed {seed}");
            compared += 1;
        }
        assert!(compared >= 5, "{r}: only {compared} won hands");
    }
    assert_eq!(systems.len(), 4, "every scoring system: {systems:?}");
}
