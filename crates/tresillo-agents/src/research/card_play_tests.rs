//! Tests of `card_play` (a file of their own, as `likelihood`'s: they score
//! worlds through [`RuleLikelihood`], which imports this module, and a test
//! module inside it would make an import circle for scripts/check-imports.py).
use crate::Agent;
use crate::heuristic::rule::RuleAgent;
use crate::rng::{deal_for_seed, rng_from_seed};
use crate::sampling::likelihood::RuleLikelihood;
use crate::sampling::likelihood::tests::{hand_at_play, model, share_above, truth};
use crate::sampling::model::Likelihood;
use crate::sampling::sampler::Sampler;
use tresillo_core::{Hand, Request, RuleSet, Seat};

#[test]
fn card_play_scores_each_card_against_rules_card_in_the_world() {
    let e = 0.3;
    let with = RuleLikelihood { play: e, ..model() };
    let without = model();
    let (mut checked, mut lower) = (0, 0);
    for seed in 1..60 {
        let Some(h) = hand_at_play(seed, Seat(1), 12) else { continue };
        let view = h.view(Seat(1));
        let p = view.public();
        // In the true world every other seat played rule's card: each choice
        // scores ln(1 - e + e/n), the most a world can score.
        let t = truth(&h);
        let mut best = 0.0;
        let mut replay =
            Hand::new(RuleSet::TRESILLO, 3, deal_for_seed(seed), Seat((seed % 3) as u8)).unwrap();
        let mut agent = RuleAgent::default();
        let mut rng = rng_from_seed(seed);
        while replay.public().plays().len() < p.plays().len() {
            let req = replay.request();
            let seat = req.seat().unwrap();
            if let Request::Play { legal, .. } = req
                && seat != Seat(1)
                && legal.len() > 1
            {
                let n = f64::from(legal.len());
                best += (1.0 - e + e / n).ln();
            }
            let v = replay.view(seat);
            replay.apply(agent.decide(&v, &mut rng).unwrap()).unwrap();
        }
        let tp = with.log_weight(&view, &t) - without.log_weight(&view, &t);
        assert!((tp - best).abs() < 1e-9, "seed {seed}: {tp} vs {best}");
        assert!(best < 0.0, "seed {seed}: the others had no choice");
        // A sampled world scores at most 0 (a world may score more than the
        // truth where a seat had fewer legal cards); most score less.
        let sampler = Sampler::new(&view).unwrap();
        let mut rng = rng_from_seed(seed);
        for _ in 0..32 {
            let w = sampler.sample(&mut rng);
            let d = with.log_weight(&view, &w) - without.log_weight(&view, &w);
            assert!(d <= 1e-12, "seed {seed}: a world scores {d}");
            lower += usize::from(d < best - 1e-9);
        }
        checked += 1;
    }
    assert!(checked >= 20, "{checked} hands");
    assert!(lower > checked * 32 * 3 / 4, "only {lower} of {} worlds scored below the truth", checked * 32);
}

#[test]
fn card_play_is_not_scored_before_another_seat_plays_or_with_play_0() {
    let with = RuleLikelihood { play: 0.3, ..model() };
    let mut checked = 0;
    for seed in 1..40 {
        // The first card decision of the hand's leader: nobody else has played.
        let Some(h) = hand_at_play(seed, Seat((seed % 3) as u8).next(3), 0) else { continue };
        let view = h.view(h.request().seat().unwrap());
        if view.public().plays().is_empty() {
            let sampler = Sampler::new(&view).unwrap();
            let w = sampler.sample(&mut rng_from_seed(seed));
            assert_eq!(with.log_weight(&view, &w), model().log_weight(&view, &w));
            checked += 1;
        }
    }
    assert!(checked >= 5, "{checked} hands");
}

#[test]
fn the_card_play_term_sharpens_the_posterior() {
    // Late in the hand the true world of rule players is outranked by fewer
    // sampled worlds with card play scored than without.
    let with = RuleLikelihood { play: 0.3, ..model() };
    let without = model();
    let (mut a, mut b, mut k) = (0.0, 0.0, 0);
    for seed in 1..40 {
        if let Some(h) = hand_at_play(seed, Seat(2), 12) {
            a += share_above(&with, &h, 64, seed);
            b += share_above(&without, &h, 64, seed);
            k += 1;
        }
    }
    assert!(k >= 20, "{k} hands");
    assert!(
        a < b * 0.7,
        "share above the truth: {:.3} with card play, {:.3} without",
        a / k as f64,
        b / k as f64
    );
}
