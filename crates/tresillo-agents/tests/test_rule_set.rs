//! A rule set defined here and nowhere else (issue 37): `test-three`, three
//! players, tresillo's mechanics without the vuelta, other condiciones (other
//! stakes), no options. It is registered with `register_rule_set`, found by
//! name, and played through the engine by `rule`, `pimc` and `ismcts` (small
//! budgets), each seat in turn against `rule`: every decision is legal (else
//! `play_hand` fails), every result scores with the rule set's ledger, and the
//! searches take the general path (the agents have no row for the set, so it
//! opts into no fast path).

mod common;

use tresillo_agents::{build_seated, family, gpimc, play_hand, seat_rngs, splitmix64};
use tresillo_core::{Hand, LedgerConfig, RuleSet, RuleSpec, Rules, Seat, register_rule_set, score_deal};

#[path = "../../tresillo-core/tests/support/test_three.rs"]
mod test_three;
use test_three::TEST_THREE;

fn test_three() -> Rules {
    let set = register_rule_set(*TEST_THREE).expect("a new name");
    Rules::from(set)
}

#[test]
fn the_registered_set_is_known_by_name_and_clashes_are_refused() {
    let rules = test_three();
    assert_eq!(Rules::parse("test-three", &[]).unwrap(), rules);
    assert_eq!("test-three".parse::<RuleSet>().unwrap(), rules.set);
    assert!(RuleSet::all().any(|s| s == rules.set));
    assert_eq!(rules.set.to_string(), "test-three");
    // Registering it again is harmless; another spec under a taken name is refused.
    assert_eq!(register_rule_set(*TEST_THREE).unwrap(), rules.set);
    static CLASH: RuleSpec = RuleSpec { summary: "another", ..tresillo_core::rulesets::spanish::TRESILLO };
    assert!(register_rule_set(&CLASH).unwrap_err().to_string().contains("`tresillo`"));
}

#[test]
fn the_set_opts_into_no_fast_path() {
    let rules = test_three();
    let row = family::of(&rules);
    assert!(!row.spanish_search && !row.fast_sim && !row.rule_likelihood);
    assert!(!family::fast_sim(&rules, rules.table(3)));
}

/// Plays `deals` deals of the test set, `spec` at each seat in turn against
/// `rule`; every decision is legal, every result scores, and at every decision
/// the search would take the general path. Returns the hands played and those
/// played in a contract (not all passed and cancelled).
fn duplicate(spec: &str, deals: u64, salt: u64) -> (usize, usize) {
    duplicate_against(spec, "rule", deals, salt)
}

/// [`duplicate`] with `others` at the other seats.
fn duplicate_against(spec: &str, others: &str, deals: u64, salt: u64) -> (usize, usize) {
    let rules = test_three();
    let (mut played, mut contracts) = (0, 0);
    for i in 0..deals {
        let seed = splitmix64(salt ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let dealer = Seat((i % 3) as u8);
        for at in 0..3 {
            let mut agents: Vec<_> = (0..3)
                .map(|s| build_seated(if s == at { spec } else { others }).expect("a valid spec"))
                .collect();
            let deal = common::deal(seed).seated(rules.table(3), dealer);
            let mut hand = Hand::with_rules(rules, 3, deal, dealer).unwrap();
            assert!(gpimc::handles(hand.public()), "{spec}: the general path");
            let mut rngs = seat_rngs(seed);
            let r = play_hand(&mut hand, &mut agents, &mut rngs)
                .unwrap_or_else(|e| panic!("{spec} at {at}, seed {seed}: {e}"));
            assert_eq!(r.rules, rules.set);
            if let Some(c) = r.contract {
                assert!(TEST_THREE.contracts.contains(&c), "{spec}, seed {seed}: {c}");
                contracts += 1;
            }
            score_deal(LedgerConfig::with_rules(rules, 3), &r)
                .unwrap_or_else(|e| panic!("{spec} at {at}, seed {seed}: {e}: {r:?}"));
            played += 1;
        }
    }
    (played, contracts)
}

#[test]
fn rule_plays_the_test_set() {
    // Random bidders and enough deals that rule wins an auction at the vuelta's
    // level, which
    // the set has no contract for: rule must declare one of the set's (it once
    // declared the vuelta, found by the CLI's example at deal 142).
    let (played, contracts) = duplicate_against("rule", "random", 400, 0x7e57);
    assert_eq!(played, 1200);
    assert!(contracts > 0, "some hands are played in a contract");
}

#[test]
fn pimc_plays_the_test_set_on_the_general_path() {
    let (played, contracts) = duplicate("pimc:worlds=3:bid_worlds=2:adaptive=0:threads=1", 3, 0x7e58);
    assert_eq!(played, 9);
    assert!(contracts > 0, "some hands are played in a contract");
}

#[test]
fn ismcts_plays_the_test_set_on_its_general_simulator() {
    let (played, contracts) = duplicate("ismcts:iters=60", 3, 0x7e59);
    assert_eq!(played, 9);
    assert!(contracts > 0, "some hands are played in a contract");
}

/// `test-three` scored by points (no condiciones): a scoring system the agents'
/// rows do not give it, so its stakes can only come from the rule set.
fn test_three_points() -> &'static RuleSpec {
    Box::leak(Box::new(RuleSpec {
        name: "test-three-points",
        scoring: tresillo_core::ScoringSystem::Points,
        condiciones: tresillo_core::Condiciones::NONE,
        ..**TEST_THREE
    }))
}

#[test]
fn the_stakes_come_from_the_rule_sets_scoring_not_the_agents_rows() {
    let puesta = test_three();
    let points = Rules::from(register_rule_set(test_three_points()).expect("a new name"));
    assert_eq!((puesta.dealer_stake(), points.dealer_stake()), (1, 0));
    let mut checked = 0;
    for rules in [puesta, points] {
        for seed in 0..40u64 {
            let mut hand = Hand::with_rules(rules, 3, common::deal(seed), Seat(0)).unwrap();
            let mut agents: Vec<Box<dyn tresillo_agents::Agent>> =
                (0..3).map(|_| Box::new(tresillo_agents::RuleAgent::default()) as _).collect();
            let mut rngs = seat_rngs(seed);
            while hand.public().phase != tresillo_core::Phase::Play && hand.request().seat().is_some() {
                common::advance(&mut hand, &mut agents, &mut rngs, 1);
            }
            let p = *hand.public();
            let Some(d) = p.declarer.filter(|_| p.phase == tresillo_core::Phase::Play) else { continue };
            // A dealing declarer values the hand as any other: the ledger's
            // stake before the deal is left out, whatever the system.
            let value = |dealer: u8| {
                let mut q = p;
                q.dealer = Seat(dealer);
                gpimc::stakes(&q, d).expect("scored by the set's ledger").utility
            };
            assert_eq!(value(d.0), value(d.next(3).0), "{rules}, seed {seed}");
            checked += 1;
        }
    }
    assert!(checked >= 10, "{checked} hands reached the play");
}

#[test]
fn the_sets_own_option_caps_its_auction() {
    let rules = test_three();
    assert_eq!(rules.max_level(), 3, "max_bid's default");
    let capped = Rules::parse("test-three", &[("max_bid", "1")]).unwrap();
    assert_eq!(capped.max_level(), 1);
    assert_eq!(capped.count(&test_three::MAX_BID), 1);
    assert_eq!(capped.to_string(), "test-three max_bid=1");
    assert_eq!(Rules::parse("test-three", &[("max_bid", "3")]).unwrap(), rules, "the default is no option");
    let e = Rules::parse("test-three", &[("max_bid", "4")]).unwrap_err();
    assert_eq!(e.to_string(), "bad value `4` for rule option `max_bid` (expected one of: 1 to 3)");
    assert!(Rules::parse("tresillo", &[("max_bid", "1")]).is_err(), "not tresillo's option");
    // Played: no bid above the cap, by rule agents that would bid higher.
    let mut above = [0, 0];
    for (i, r) in [rules, capped].into_iter().enumerate() {
        for seed in 0..60u64 {
            let mut hand = Hand::with_rules(r, 3, common::deal(seed), Seat((seed % 3) as u8)).unwrap();
            let mut agents: Vec<_> = (0..3).map(|_| build_seated("rule").unwrap()).collect();
            let res = play_hand(&mut hand, &mut agents, &mut seat_rngs(seed)).unwrap();
            above[i] +=
                res.bids.iter().filter(|b| matches!(b.bid, tresillo_core::Bid::Level(l) if l > 1)).count();
        }
    }
    assert!(above[0] > 0, "rule bids above entrada without the option");
    assert_eq!(above[1], 0, "no bid above max_bid=1");
}
