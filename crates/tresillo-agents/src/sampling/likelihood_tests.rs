//! Tests of `likelihood` (a file of their own: they build agents through the
//! registry, which imports this module, and a test module inside it would make an
//! import circle for scripts/check-imports.py).
use super::*;
use crate::Agent;
use crate::heuristic::rule::RuleAgent;
use crate::rng::{deal_for_seed, rng_from_seed};
use tresillo_core::{Hand, Request, RuleSet};

/// The true world of `hand`.
pub(crate) fn truth(hand: &Hand) -> World {
    let mut w = World::default();
    for s in 0..3u8 {
        w.hands.0[s as usize] = hand.hand_of(Seat(s));
        w.discards.0[s as usize] = hand.discards_of(Seat(s));
    }
    w.heap = hand.heap_remaining();
    w
}

/// For each deal played by three rule agents, at the first card decision of
/// every seat with more than one legal card after trick 1: the share of
/// `n` sampled worlds whose log-weight exceeds the true world's, and the
/// pool's effective sample size.
fn ranks(model: &RuleLikelihood, seeds: std::ops::Range<u64>, n: u32) -> Vec<(f64, f64, f64)> {
    let mut out = Vec::new();
    let mut agent = RuleAgent::new(model.params);
    for seed in seeds {
        let mut hand = Hand::new(RuleSet::TRESILLO, 3, deal_for_seed(seed), Seat((seed % 3) as u8)).unwrap();
        let mut rng = rng_from_seed(seed);
        let mut seen = [false; 3];
        while !hand.is_done() {
            let req = hand.request();
            let seat = req.seat().unwrap();
            let view = hand.view(seat);
            if let Request::Play { legal, .. } = req
                && legal.len() > 1
                && view.public().plays().len() >= 3
                && !seen[seat.0 as usize]
            {
                seen[seat.0 as usize] = true;
                let sampler = Sampler::new(&view).unwrap();
                let t = model.log_weight(&view, &truth(&hand));
                assert!(t.is_finite());
                let mut pool = WeightedPool::default();
                let st = pool.fill(&sampler, &view, model, n, &mut rng);
                let above = pool.worlds().iter().filter(|w| model.log_weight(&view, w) > t).count();
                out.push((above as f64 / f64::from(n), st.ess, t));
            }
            let d = agent.decide(&view, &mut rng).unwrap();
            hand.apply(d).unwrap();
        }
    }
    out
}

/// The share of `n` sampled worlds whose log-weight exceeds the true
/// world's, at `hand`'s request.
pub(crate) fn share_above(model: &RuleLikelihood, hand: &Hand, n: u32, seed: u64) -> f64 {
    let view = hand.view(hand.request().seat().unwrap());
    let t = model.log_weight(&view, &truth(hand));
    let sampler = Sampler::new(&view).unwrap();
    let mut rng = rng_from_seed(seed);
    let above = (0..n).filter(|_| model.log_weight(&view, &sampler.sample(&mut rng)) > t).count();
    above as f64 / f64::from(n)
}

pub(crate) fn model() -> RuleLikelihood {
    InferParams::default().model(RuleParams::default())
}

#[test]
fn the_true_world_of_rule_players_outranks_most_sampled_worlds() {
    let m = model();
    let mut shares = Vec::new();
    for seed in 1..40 {
        if let Some(h) = hand_at_play(seed, Seat(0), 3) {
            shares.push(share_above(&m, &h, 64, seed));
        }
    }
    assert!(shares.len() >= 20, "{} hands", shares.len());
    let mean = shares.iter().sum::<f64>() / shares.len() as f64;
    // Uniform ranks would give 0.5.
    assert!(mean < 0.15, "the true world is outranked by {mean:.3} of the worlds");
}

#[test]
fn a_seat_that_passed_is_unlikely_to_hold_the_bidders_hand() {
    // During the auction, when one other seat has passed and the other bid:
    // the true world beats the one with their hands swapped.
    let m = model();
    let (mut cases, mut wins, mut gap) = (0u32, 0u32, 0.0);
    for seed in 1..300 {
        let mut hand = Hand::new(RuleSet::TRESILLO, 3, deal_for_seed(seed), Seat((seed % 3) as u8)).unwrap();
        let mut agent = RuleAgent::default();
        let mut rng = rng_from_seed(seed);
        while let Request::Bid { seat, .. } = hand.request() {
            let view = hand.view(seat);
            let bids = view.public().bids();
            let said = |s: Seat| bids.iter().find(|b| b.seat == s).map(|b| b.bid);
            let (a, b) = (seat.next(3), seat.plus(2, 3));
            let (passer, bidder) = match (said(a), said(b)) {
                (Some(Bid::Paso), Some(Bid::Level(_))) => (a, b),
                (Some(Bid::Level(_)), Some(Bid::Paso)) => (b, a),
                _ => {
                    let d = agent.decide(&view, &mut rng).unwrap();
                    hand.apply(d).unwrap();
                    continue;
                }
            };
            let t = truth(&hand);
            let mut swapped = t;
            swapped.hands[passer] = t.hands[bidder];
            swapped.hands[bidder] = t.hands[passer];
            let (lt, ls) = (m.log_weight(&view, &t), m.log_weight(&view, &swapped));
            wins += u32::from(lt > ls);
            gap += lt - ls;
            cases += 1;
            break;
        }
    }
    assert!(cases >= 10, "{cases} cases");
    assert!(wins * 10 >= cases * 8, "the true world likelier in {wins} of {cases}");
    assert!(gap / f64::from(cases) > 2.0, "mean gap {:.2}", gap / f64::from(cases));
}

/// A likelihood that keeps only the worlds where seat 1 holds `card`.
struct Holds(tresillo_core::Card, f64);
impl Likelihood for Holds {
    fn log_weight(&self, _: &PlayerView, w: &World) -> f64 {
        if w.hands[Seat(1)].contains(self.0) { 0.0 } else { self.1 }
    }
}

#[test]
fn weights_are_used_tempered_or_dropped_by_the_effective_sample_size() {
    let h = (1..50).find_map(|seed| hand_at_play(seed, Seat(0), 3)).unwrap();
    let view = h.view(Seat(0));
    let sampler = Sampler::new(&view).unwrap();
    let hidden = view.unseen_cards() & truth(&h).hands[Seat(1)];
    let card = hidden.first().unwrap();
    let mut pool = WeightedPool::default();
    let mut rng = rng_from_seed(7);
    // Flat weights: the pool's size.
    let st = pool.fill(&sampler, &view, &Holds(card, 0.0), 100, &mut rng);
    assert!((st.ess - 100.0).abs() < 1e-9);
    // A mild preference: used as it is, and every draw favours seat 1 holding the card.
    let mut work = crate::Work::default();
    assert!(weigh_with(&mut pool, &mut work, &Holds(card, -1.0), 16, 200, &sampler, &view, &mut rng));
    assert_eq!((work.weighted, work.fallbacks), (1, 0));
    let held = (0..400).filter(|_| pool.pick(&mut rng).unwrap().hands[Seat(1)].contains(card)).count();
    let share = pool.worlds().iter().filter(|w| w.hands[Seat(1)].contains(card)).count() as f64 / 200.0;
    let expected = share / (share + (1.0 - share) * (-1.0f64).exp());
    assert!((held as f64 / 400.0 - expected).abs() < 0.1, "{held} of 400, expected {expected:.2}");
    // Every world ruled out (the viewer's own card in seat 1's hand): uniform worlds.
    let mut work = crate::Work::default();
    let gone = Holds(view.hand().first().unwrap(), f64::NEG_INFINITY);
    assert!(!weigh_with(&mut pool, &mut work, &gone, 16, 64, &sampler, &view, &mut rng));
    assert_eq!((work.weighted, work.fallbacks, work.ess), (1, 1, 64));
    // One world far likelier than the others (ESS 14.8 < 16): tempered once (54.8).
    struct One(World);
    impl Likelihood for One {
        fn log_weight(&self, _: &PlayerView, w: &World) -> f64 {
            if *w == self.0 { 0.0 } else { -3.0 }
        }
    }
    pool.fill(&sampler, &view, &Holds(card, 0.0), 64, &mut rng_from_seed(9));
    let one = One(pool.worlds()[0]);
    assert!(pool.worlds()[1..].iter().all(|w| *w != one.0));
    let mut work = crate::Work::default();
    assert!(weigh_with(&mut pool, &mut work, &one, 16, 64, &sampler, &view, &mut rng_from_seed(9)));
    assert_eq!((work.weighted, work.fallbacks, work.ess), (1, 1, 54));
    // Without tempering it would not have been enough.
    assert!(pool.temper(1.0).ess < 16.0);
}

/// Plays deal `seed` with `spec` in every seat; the plays, the bids and the
/// decisions whose worlds were weighted.
fn play(spec: &str, seed: u64) -> (Vec<tresillo_core::Card>, Vec<tresillo_core::BidEntry>, u64) {
    let mut hand = Hand::new(RuleSet::TRESILLO, 3, deal_for_seed(seed), Seat(0)).unwrap();
    let mut agents: Vec<Box<dyn Agent>> = (0..3).map(|_| crate::build_agent(spec).unwrap()).collect();
    let mut rngs = crate::seat_rngs(seed);
    crate::play_hand(&mut hand, &mut agents, &mut rngs).unwrap();
    let weighted = agents.iter_mut().map(|a| a.take_work().weighted).sum();
    (hand.public().plays().to_vec(), hand.public().bids().to_vec(), weighted)
}

#[test]
fn weighted_pimc_decides_the_same_on_any_number_of_threads() {
    let mut weighted = 0;
    for seed in [11, 12] {
        let one = play("pimc:infer=1:worlds=8:bid_worlds=2:threads=1", seed);
        let three = play("pimc:infer=1:worlds=8:bid_worlds=2:threads=3", seed);
        assert_eq!(one, three, "seed {seed}");
        weighted += one.2;
    }
    assert!(weighted > 0);
}

#[test]
fn infer_0_decides_as_before_and_ismcts_weights_with_infer_1() {
    let mut weighted = 0;
    for seed in [11, 12] {
        let plain = play("pimc:worlds=8:bid_worlds=2", seed);
        assert_eq!(plain, play("pimc:worlds=8:bid_worlds=2:infer=0:infer_temp=3:infer_pool=9", seed));
        assert_eq!(plain.2, 0);
        let ismcts = play("ismcts:iters=200", seed);
        assert_eq!(ismcts, play("ismcts:iters=200:infer=0:infer_eps=50", seed));
        weighted += play("ismcts:iters=200:infer=1:infer_pool=1", seed).2;
    }
    assert!(weighted > 0);
}

#[test]
fn bad_inference_values_are_spec_errors() {
    use crate::SpecError;
    for spec in [
        "pimc:infer=2",
        "pimc:infer_temp=0",
        "pimc:infer_eps=100",
        "pimc:infer_pool=65",
        "pimc:infer_ess=0",
        "pimc:infer_play=101",
        "ismcts:infer_play=-1",
        "ismcts:infer=x",
        "ismcts:infer_pool=0",
    ] {
        assert!(matches!(crate::build_agent(spec), Err(SpecError::BadValue { .. })), "{spec}");
    }
    assert!(crate::build_agent("ismcts:infer=1:infer_temp=20:infer_eps=10:infer_pool=2:infer_ess=4").is_ok());
    assert!(crate::build_agent("pimc:infer=1:infer_temp=20:infer_eps=10:infer_pool=2:infer_ess=4").is_ok());
    assert!(crate::build_agent("pimc:infer=1:infer_play=30").is_ok());
    assert!(crate::build_agent("ismcts:infer=1:infer_play=100").is_ok());
    assert!(matches!(crate::build_agent("rule:infer=1"), Err(SpecError::UnknownParam { .. })));
}

/// Plays deal `seed` with three rule agents to the `k`-th card decision
/// (counting every card played) at which `viewer` has a choice.
pub(crate) fn hand_at_play(seed: u64, viewer: Seat, k: usize) -> Option<Hand> {
    let mut hand = Hand::new(RuleSet::TRESILLO, 3, deal_for_seed(seed), Seat((seed % 3) as u8)).ok()?;
    let mut agent = RuleAgent::default();
    let mut rng = rng_from_seed(seed);
    while !hand.is_done() {
        let req = hand.request();
        let seat = req.seat()?;
        let view = hand.view(seat);
        if seat == viewer
            && matches!(req, Request::Play { legal, .. } if legal.len() > 1)
            && view.public().plays().len() >= k
        {
            return Some(hand);
        }
        hand.apply(agent.decide(&view, &mut rng).unwrap()).ok()?;
    }
    None
}

#[test]
#[ignore = "diagnostic: cargo test -p tresillo-agents --release likelihood_diagnostic -- --ignored --nocapture"]
fn likelihood_diagnostic() {
    for (temp, eps, play) in
        [(10.0, 0.05, 0.0), (20.0, 0.1, 0.0), (5.0, 0.02, 0.0), (10.0, 0.05, 0.3), (10.0, 0.05, 0.6)]
    {
        let model = RuleLikelihood { params: RuleParams::default(), temp, eps, play };
        let r = ranks(&model, 9001..9101, 256);
        let k = r.len() as f64;
        let above = r.iter().map(|x| x.0).sum::<f64>() / k;
        let ess = r.iter().map(|x| x.1).sum::<f64>() / k;
        let low = r.iter().filter(|x| x.1 < 8.0).count();
        let lt = r.iter().map(|x| x.2).sum::<f64>() / k;
        eprintln!(
            "temp {temp} eps {eps} play {play}: {k} decisions, share above truth {above:.3}, mean ess {ess:.1}, ess<8 {low}, mean true lw {lt:.2}"
        );
    }
}

/// A program's model given through `Agent::set_likelihood`: it sees the deciding
/// seat's view and worlds consistent with it (never the hand), it replaces the
/// soft rule and turns inference on; the weighting's counts follow it (a flat
/// model never falls back, one that rules every world out always does), and the
/// same model gives the same play (deterministic). Agents with no worlds to
/// weight refuse it.
#[test]
fn a_given_model_weights_the_worlds_of_pimc_and_ismcts() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};
    struct Flat {
        value: f64,
        calls: AtomicU64,
    }
    impl Likelihood for Flat {
        fn log_weight(&self, view: &PlayerView, w: &World) -> f64 {
            let me = view.seat().index();
            assert_eq!(w.hands.0[me], view.hand(), "the world keeps the viewer's own hand");
            for s in 0..3 {
                if s != me {
                    assert!(
                        (w.hands.0[s] & view.hand()).is_empty(),
                        "another seat holds none of the viewer's cards"
                    );
                }
            }
            self.calls.fetch_add(1, Ordering::Relaxed);
            self.value
        }
    }
    let run = |spec: &str, value: f64| {
        let model = Arc::new(Flat { value, calls: AtomicU64::new(0) });
        let mut hand = Hand::new(RuleSet::TRESILLO, 3, deal_for_seed(21), Seat(0)).unwrap();
        let mut agents: Vec<Box<dyn Agent>> = (0..3).map(|_| crate::build_agent(spec).unwrap()).collect();
        for a in &mut agents {
            assert!(a.set_likelihood(model.clone()));
        }
        let mut rngs = crate::seat_rngs(21);
        crate::play_hand(&mut hand, &mut agents, &mut rngs).unwrap();
        let mut w = crate::Work::default();
        agents.iter_mut().for_each(|a| w.add(a.take_work()));
        (hand.public().plays().to_vec(), w, model.calls.load(Ordering::Relaxed))
    };
    for spec in ["pimc:worlds=8:bid_worlds=2", "ismcts:iters=200"] {
        let (plays, flat, calls) = run(spec, 0.0);
        assert!(flat.weighted > 0 && flat.fallbacks == 0, "{spec}: {flat:?}");
        assert!(calls >= flat.weighted * 8, "{spec}: the model scored every pooled world ({calls} calls)");
        let (_, none, _) = run(spec, f64::NEG_INFINITY);
        assert!(none.weighted > 0 && none.fallbacks == none.weighted, "{spec}: {none:?}");
        assert_eq!(run(spec, 0.0).0, plays, "{spec}: the same model, the same play");
    }
    let flat = Arc::new(Flat { value: 0.0, calls: AtomicU64::new(0) });
    for spec in ["rule", "random", "alphamu"] {
        assert!(!crate::build_agent(spec).unwrap().set_likelihood(flat.clone()), "{spec}");
    }
}
