//! The agents and the sampler under every rule set and option implemented so far
//! (RULES.md section 12): `random` and `rule` make only legal decisions; after a
//! `tresillo-house` forced entrada every world the sampler draws replays to the
//! same view (so the forced declarer is the one the deal designates), and on small
//! positions the sampler is uniform over the worlds brute force finds.

use crate::common;
use tresillo_core::Question;

use common::{brute_force, check_world, deal, raw_assignments};
use std::collections::{HashMap, HashSet};
use tresillo_agents::{
    Agent, RandomAgent, RuleAgent, RuleParams, Sampler, World, below, play_hand, rng_from_seed, seat_rngs,
};
use tresillo_core::{
    Bid, CardSet, Contract, Decision, Hand, Phase, Request, RuleSet, Rules, Seat, Suit, Word,
};

fn every_rules() -> Vec<Rules> {
    let mut v = Vec::new();
    // The Spanish rule sets with the options of section 12.5 (hombre: tests/hombre.rs).
    for set in
        RuleSet::BUILT_IN.into_iter().filter(|s| s.spec().options.contains(&tresillo_core::PALO_DE_FAVOR))
    {
        for favor in ["none", "copas"] {
            for old in ["false", "true"] {
                v.push(Rules::parse(set.name(), &[("palo_de_favor", favor), ("codillo_old", old)]).unwrap());
            }
        }
    }
    // lhombre (12.4), with and without redeal_all_pass.
    v.push(Rules::from(RuleSet::LHOMBRE));
    v.push(Rules::parse("lhombre", &[("redeal_all_pass", "true")]).unwrap());
    v
}

/// One hand of `r` from deal `seed`, played by rule, random and rule; panics on an
/// illegal decision.
fn rule_random_rule(r: Rules, seed: u64) -> tresillo_core::HandResult {
    let mut h = Hand::with_rules(r, 3, deal(seed), Seat((seed % 3) as u8)).unwrap();
    let mut agents: Vec<Box<dyn Agent>> = vec![
        Box::new(RuleAgent::new(RuleParams::default())),
        Box::new(RandomAgent),
        Box::new(RuleAgent::new(RuleParams::default())),
    ];
    let mut rngs = seat_rngs(seed);
    play_hand(&mut h, &mut agents, &mut rngs).unwrap_or_else(|e| panic!("{r}, seed {seed}: {e}"))
}

#[test]
fn random_and_rule_play_every_rule_set_legally() {
    for r in every_rules() {
        let mut forced = 0;
        for seed in 0..150u64 {
            let res = rule_random_rule(r, seed);
            forced += usize::from(res.forced);
            if r.spec().always_played {
                assert!(!res.is_cancelled(), "{r}: a house hand is never cancelled");
            }
        }
        if r.redeal_all_pass() {
            assert_eq!(forced, 0, "{r}: all passing brings a new deal");
        } else {
            assert!(forced > 0, "{r}: some all-pass hands in 150 deals");
        }
    }
}

#[test]
fn rule_opens_at_the_lowest_level_with_a_favoured_suit() {
    let r = Rules::parse("tresillo", &[("palo_de_favor", "oros")]).unwrap();
    let mut levels = [0u32; 6];
    for seed in 0..400u64 {
        let h = Hand::with_rules(r, 3, deal(seed), Seat((seed % 3) as u8)).unwrap();
        let seat = h.request().seat().unwrap();
        let mut a = RuleAgent::new(RuleParams::default());
        match a.decide(&h.view(seat), &mut rng_from_seed(seed)).unwrap() {
            Decision::Bid(Bid::Level(l)) => levels[l as usize] += 1,
            Decision::Bid(Bid::Paso) => levels[0] += 1,
            d => panic!("{d:?} is not a bid"),
        }
    }
    assert!(levels[1] > 0 && levels[2..].iter().all(|&n| n == 0), "{levels:?}");
}

#[test]
fn rule_declares_a_legal_contract_at_every_level_of_palo_de_favor() {
    let r = Rules::parse("tresillo", &[("palo_de_favor", "copas")]).unwrap();
    let mut contracts = std::collections::HashSet::new();
    for level in 1..=5u8 {
        for seed in 0..60u64 {
            let mut h = Hand::with_rules(r, 3, deal(seed), Seat((seed % 3) as u8)).unwrap();
            h.apply(Decision::Bid(Bid::Level(level))).unwrap();
            h.apply(Decision::Bid(Bid::Paso)).unwrap();
            h.apply(Decision::Bid(Bid::Paso)).unwrap();
            let seat = h.request().seat().unwrap();
            let d = RuleAgent::new(RuleParams::default())
                .decide(&h.view(seat), &mut rng_from_seed(seed))
                .unwrap();
            h.apply(d).unwrap_or_else(|e| panic!("level {level}, seed {seed}: {d:?}: {e}"));
            if let Decision::Declare(c, t) = d {
                contracts.insert(r.contract_level(c, t));
            }
        }
    }
    assert_eq!(contracts.len(), 5, "every level is declared: {contracts:?}");
}

/// Plays a `tresillo-house` hand where everybody passes with `random` agents,
/// stopping after `steps` decisions of the exchange and play.
fn house_forced(seed: u64, steps: usize) -> Option<Hand> {
    let r = Rules::from(RuleSet::TRESILLO_HOUSE);
    let mut h = Hand::with_rules(r, 3, deal(seed), Seat((seed % 3) as u8)).unwrap();
    for _ in 0..3 {
        h.apply(Decision::Bid(Bid::Paso)).unwrap();
    }
    let mut rng = rng_from_seed(seed);
    for _ in 0..steps {
        let seat = h.request().seat()?;
        let d = RandomAgent.decide(&h.view(seat), &mut rng).unwrap();
        h.apply(d).unwrap();
    }
    (h.request() != Request::Done).then_some(h)
}

#[test]
fn sampled_worlds_after_a_house_forced_entrada_replay_to_the_same_view() {
    let mut checked = 0;
    for seed in 0..40u64 {
        for steps in [0, 1, 2, 6, 12, 20] {
            let Some(h) = house_forced(seed, steps) else { continue };
            for s in 0..3 {
                let view = h.view(Seat(s));
                let sampler = Sampler::new(&view).unwrap();
                assert!(sampler.has_rejection());
                let mut rng = rng_from_seed(seed * 31 + s as u64);
                for _ in 0..20 {
                    let w = sampler.sample(&mut rng);
                    check_world(&view, &w)
                        .unwrap_or_else(|e| panic!("seed {seed}, steps {steps}, seat {s}: {e}"));
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 5_000, "{checked}");
}

#[test]
fn the_tresillo_sampler_does_not_reject() {
    let h = Hand::with_rules(Rules::default(), 3, deal(1), Seat(1)).unwrap();
    assert!(!Sampler::new(&h.view(Seat(0))).unwrap().has_rejection());
}

/// A hand of `r` where everybody passes: the forced declarer discards its first
/// `dk` cards in sort order (the espada and basto first, when held), the first
/// opponent `fk`, and `plies` cards are played at random. `hombre`'s questions are
/// answered: no gascarille, the next opponent exchanges first, surrenders
/// accepted, no vole.
fn all_pass_scripted(r: Rules, seed: u64, dk: u8, fk: u8, plies: usize) -> Option<Hand> {
    let mut h = Hand::with_rules(r, 3, deal(seed), Seat((seed % 3) as u8)).unwrap();
    let mut rng = rng_from_seed(seed ^ 0x5EED);
    let mut played = 0;
    loop {
        let d = match h.request() {
            Request::Bid { .. } => Decision::Bid(Bid::Paso),
            Request::Declare { .. } => Decision::Declare(Contract::Entrada, Some(Suit::Oros)),
            Request::Discard { seat, min, max } => {
                let k = if Some(seat) == h.public().declarer {
                    dk
                } else if h.public().phase == Phase::FirstOpponentExchange {
                    fk
                } else {
                    0
                };
                Decision::Discard(
                    h.hand_of(seat).iter().take(k.clamp(min, max) as usize).collect::<CardSet>(),
                )
            }
            Request::Word { .. } => {
                Decision::Word(if h.public().words().is_empty() { Word::Vienen } else { Word::Van })
            }
            Request::Play { legal, .. } => {
                if played == plies {
                    return Some(h);
                }
                played += 1;
                Decision::Play(legal.nth(below(&mut rng, legal.len())).unwrap())
            }
            Request::Ask { question: Question::SURRENDER, .. } => {
                Decision::Answer(Question::SURRENDER, false)
            }
            Request::Ask { question: Question::TAKE_OVER, .. } => {
                Decision::Answer(Question::TAKE_OVER, false)
            }
            Request::Ask { question: Question::BOLA, .. } => Decision::Answer(Question::BOLA, true),
            Request::Ask { question: Question::GASCARILLE, .. } => {
                Decision::Answer(Question::GASCARILLE, false)
            }
            Request::Ask { question: Question::EXCHANGE_FIRST, .. } => {
                Decision::Answer(Question::EXCHANGE_FIRST, true)
            }
            Request::Ask { question: Question::ACCEPT_SURRENDER, .. } => {
                Decision::Answer(Question::ACCEPT_SURRENDER, true)
            }
            Request::Ask { question, .. } => Decision::Answer(question, false),
            // Three players: no penetro.
            Request::Penetro { .. } | Request::DropOut { .. } | Request::Done => return None,
        };
        h.apply(d).unwrap();
    }
}

/// Wilson-Hilferty: the standard normal deviate of a chi-square statistic.
fn chi_square_z(stat: f64, df: f64) -> f64 {
    let m = 1.0 - 2.0 / (9.0 * df);
    ((stat / df).powf(1.0 / 3.0) - m) / (2.0 / (9.0 * df)).sqrt()
}

#[test]
fn after_a_house_forced_entrada_the_sampler_is_uniform_over_the_consistent_worlds() {
    let cases = [(8, 5, 21), (8, 5, 20), (4, 9, 21), (1, 9, 22), (8, 5, 22)];
    let (checked, constrained) = uniform_after_all_pass(Rules::from(RuleSet::TRESILLO_HOUSE), &cases);
    assert!(checked >= 8, "{checked} positions");
    assert!(constrained >= 1, "the constraint removed worlds somewhere");
}

/// `hombre` (RULES.md sections 10 and 12.3): after an obligation the declarer was
/// dealt the espada unless it was mano, and a heap shown under `show_heap` is
/// known; the sampler is uniform over the worlds consistent with both.
#[test]
fn after_a_hombre_obligation_with_show_heap_the_sampler_is_uniform_over_the_consistent_worlds() {
    let cases = [(8, 3, 21), (8, 2, 20), (8, 4, 22), (8, 0, 21)];
    let mut removed = 0;
    for opts in [&[("show_heap", "true")][..], &[]] {
        let r = Rules::parse("hombre", opts).unwrap();
        let (checked, constrained) = uniform_after_all_pass(r, &cases);
        assert!(checked >= 8, "{r}: {checked} positions");
        removed += constrained;
    }
    assert!(removed >= 1, "the constraint removed worlds somewhere");
}

/// Checks the sampler against brute force after all pass under `r`, on the
/// scripted positions of `cases`; returns the positions checked and those where
/// the all-pass constraint removed worlds.
fn uniform_after_all_pass(r: Rules, cases: &[(u8, u8, usize)]) -> (usize, usize) {
    let mut checked = 0;
    let mut constrained = 0;
    for &(dk, fk, plies) in cases {
        for seed in 0..60u64 {
            let Some(h) = all_pass_scripted(r, seed, dk, fk, plies) else { continue };
            for s in 0..3 {
                let view = h.view(Seat(s));
                let raw = raw_assignments(&view);
                if !(3..=20_000).contains(&raw) {
                    continue;
                }
                let label = format!("seed {seed} ({dk}, {fk}, {plies}) seat {s}");
                let (worlds, _) = brute_force(&view);
                let set: HashSet<World> = worlds.iter().copied().collect();
                let sampler = Sampler::new(&view).unwrap();
                assert!(sampler.has_rejection());
                let mut visited = HashSet::new();
                sampler.for_each_world(|w| {
                    assert!(set.contains(w), "{label}: enumerated an inconsistent world");
                    assert!(visited.insert(*w), "{label}: twice");
                });
                assert_eq!(visited.len(), set.len(), "{label}: enumeration vs brute force");
                assert!(sampler.count() >= set.len() as u128);
                constrained += usize::from(sampler.count() > set.len() as u128);
                let k = set.len();
                if k < 2 {
                    continue;
                }
                let n = (30 * k).max(20_000);
                let mut freq: HashMap<World, u64> = HashMap::new();
                let mut rng = rng_from_seed(seed);
                for _ in 0..n {
                    let w = sampler.sample(&mut rng);
                    assert!(set.contains(&w), "{label}: sampled an inconsistent world");
                    *freq.entry(w).or_default() += 1;
                }
                let e = n as f64 / k as f64;
                let stat: f64 = set.iter().map(|w| (*freq.get(w).unwrap_or(&0) as f64 - e).powi(2) / e).sum();
                let z = chi_square_z(stat, (k - 1) as f64);
                assert!(z < 4.5, "{label}: chi-square {stat:.1}, df {} (z {z:.2})", k - 1);
                checked += 1;
            }
            if checked >= 12 {
                break;
            }
        }
    }
    (checked, constrained)
}

#[test]
fn pimc_plays_every_rule_set_legally() {
    for r in every_rules() {
        for seed in 0..4u64 {
            let mut h = Hand::with_rules(r, 3, deal(seed), Seat((seed % 3) as u8)).unwrap();
            let mut agents: Vec<Box<dyn Agent>> = vec![
                tresillo_agents::build_agent("pimc:worlds=4:bid_worlds=4").unwrap(),
                Box::new(RandomAgent),
                tresillo_agents::build_agent("pimc:worlds=4:bid_worlds=4").unwrap(),
            ];
            let mut rngs = seat_rngs(seed);
            play_hand(&mut h, &mut agents, &mut rngs).unwrap_or_else(|e| panic!("{r}, seed {seed}: {e}"));
        }
    }
}

// ------------------------------------------------------------ hombre (12.3)

fn hombre_options() -> Vec<Rules> {
    let p = |o: &[(&str, &str)]| Rules::parse("hombre", o).unwrap();
    vec![
        p(&[]),
        p(&[("show_heap", "true")]),
        p(&[("hombre-chips", "true"), ("gascarille", "true")]),
        p(&[("favorito", "true")]),
        p(&[("contrabola", "true")]),
        p(&[("favorito", "true"), ("contrabola", "true"), ("gascarille", "true")]),
    ]
}

#[test]
fn random_and_rule_play_every_hombre_option_legally() {
    for r in hombre_options() {
        let mut forced = 0;
        for seed in 0..120u64 {
            let res = rule_random_rule(r, seed);
            forced += usize::from(res.forced);
            assert!(!res.is_cancelled(), "{r}: never cancelled");
        }
        assert!(forced > 0, "{r}: some obligations in 120 deals");
    }
}

/// A `hombre` hand played by `random` agents from the deal, stopped after
/// `steps` decisions.
fn hombre_random(r: Rules, seed: u64, steps: usize) -> Option<Hand> {
    let mut h = Hand::with_rules(r, 3, deal(seed), Seat((seed % 3) as u8)).unwrap();
    let mut rng = rng_from_seed(seed);
    for _ in 0..steps {
        let seat = h.request().seat()?;
        let d = RandomAgent.decide(&h.view(seat), &mut rng).unwrap();
        h.apply(d).unwrap();
    }
    (h.request() != Request::Done).then_some(h)
}

/// Every world the sampler draws in a `hombre` hand (any option, any moment:
/// obligation, gascarille, exchange right, a shown heap, accepted surrenders)
/// replays to the same view.
#[test]
fn sampled_worlds_of_hombre_hands_replay_to_the_same_view() {
    let mut checked = 0;
    let mut shown = 0;
    for r in hombre_options() {
        for seed in 0..12u64 {
            for steps in [2, 5, 8, 12, 20, 30] {
                let Some(h) = hombre_random(r, seed, steps) else { continue };
                for s in 0..3 {
                    let view = h.view(Seat(s));
                    shown += usize::from(!view.public().shown_heap.is_empty());
                    let sampler = Sampler::new(&view).unwrap_or_else(|e| panic!("{r}, seed {seed}: {e}"));
                    let mut rng = rng_from_seed(seed * 31 + s as u64);
                    for _ in 0..8 {
                        let w = sampler.sample(&mut rng);
                        assert!(w.heap.is_superset(view.public().shown_heap));
                        check_world(&view, &w)
                            .unwrap_or_else(|e| panic!("{r}, seed {seed}, steps {steps}, seat {s}: {e}"));
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 3_000 && shown > 0, "{checked} worlds, {shown} views with a shown heap");
}

/// The rule agent bids and declares contrabola with hands that can lose every
/// trick, and as its declarer succeeds far more often than `random` does.
#[test]
fn rule_plays_contrabola_to_lose_every_trick() {
    let r = Rules::parse("hombre", &[("contrabola", "true")]).unwrap();
    let (mut rule, mut rule_won, mut random, mut random_won) = (0, 0, 0, 0);
    for seed in 0..1500u64 {
        for decl_rule in [true, false] {
            let mut h = Hand::with_rules(r, 3, deal(seed), Seat((seed % 3) as u8)).unwrap();
            let mut agents: Vec<Box<dyn Agent>> = (0..3)
                .map(|_| -> Box<dyn Agent> {
                    if decl_rule {
                        Box::new(RuleAgent::new(RuleParams::default()))
                    } else {
                        Box::new(RandomAgent)
                    }
                })
                .collect();
            let res = play_hand(&mut h, &mut agents, &mut seat_rngs(seed)).unwrap();
            if res.contract == Some(Contract::Contrabola) {
                let won = usize::from(res.outcome == tresillo_core::Outcome::Sacado);
                if decl_rule {
                    (rule, rule_won) = (rule + 1, rule_won + won);
                } else {
                    (random, random_won) = (random + 1, random_won + won);
                }
            }
        }
    }
    assert!(rule >= 10, "rule declared {rule} contrabolas");
    let rate = |w: usize, n: usize| w as f64 / n.max(1) as f64;
    assert!(
        rate(rule_won, rule) > 3.0 * rate(random_won, random),
        "rule {rule_won}/{rule}, random {random_won}/{random}"
    );
}

/// Plays an `lhombre` hand with `random` agents (nolo ouvert and grand tourné
/// included) and checks that sampled worlds replay to the same view at every step:
/// the exposed hand is the declarer's, the tourné card drawn first, and whoever bid
/// or declared grand tourné was dealt spadille and basta.
#[test]
fn sampled_lhombre_worlds_replay_to_the_same_view() {
    let r = Rules::from(RuleSet::LHOMBRE);
    let (mut checked, mut ouvert, mut grand) = (0, 0, 0);
    for seed in 0..400u64 {
        let mut h = Hand::with_rules(r, 3, deal(seed), Seat((seed % 3) as u8)).unwrap();
        let mut rng = rng_from_seed(seed);
        let mut step = 0;
        while let Some(seat) = h.request().seat() {
            let p = *h.public();
            let interesting = p.exposed.is_some() || p.bids().iter().any(|b| b.bid == Bid::Level(4));
            if step % 7 == 3 && (interesting || seed % 8 == 0) {
                ouvert += usize::from(p.exposed.is_some());
                grand += usize::from(p.bids().iter().any(|b| b.bid == Bid::Level(4)));
                for s in 0..3 {
                    let view = h.view(Seat(s));
                    let sampler = Sampler::new(&view).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
                    let mut wr = rng_from_seed(seed * 7 + s as u64);
                    for _ in 0..4 {
                        let w = sampler.sample(&mut wr);
                        if let Some(e) = view.exposed_hand() {
                            assert!(w.hands[p.declarer.unwrap()].is_superset(e));
                        }
                        check_world(&view, &w)
                            .unwrap_or_else(|e| panic!("seed {seed}, step {step}, seat {s}: {e}"));
                        checked += 1;
                    }
                }
            }
            let d = RandomAgent.decide(&h.view(seat), &mut rng).unwrap();
            h.apply(d).unwrap();
            step += 1;
        }
    }
    assert!(checked > 1000 && ouvert > 10 && grand > 0, "{checked} {ouvert} {grand}");
}
