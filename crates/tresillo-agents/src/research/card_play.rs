//! The card-play term of the soft `rule` model (`infer_play=E`, off by
//! default): [`RuleLikelihood`](crate::RuleLikelihood) also scores the other seats' card play, each
//! world replayed and each card another seat played with a choice compared with
//! the card `rule` would have played from that seat's view in the world.
//!
//! Kept runnable for reproducibility as a negative result: it sharpens the
//! posterior but gains nothing measurable in play (`infer-card-play-*` in
//! results/README.md, "The card-play term, and ismcts at equal time").

use crate::heuristic::rule::RuleAgent;
use crate::heuristic::rule_eval::RuleParams;
use crate::sampling::sampler::World;
use tresillo_core::{Decision, PlayerView, Request};

/// The log-likelihood of the card play of `world` under the soft `rule` model
/// with `rule`'s thresholds `params` and departure probability `play`: see
/// [`RuleLikelihood`](crate::RuleLikelihood)'s documentation.
/// A world the rules reject on replay is ruled out.
pub(crate) fn card_play(params: RuleParams, play: f64, view: &PlayerView, world: &World) -> f64 {
    let me = view.seat();
    let p = view.public();
    if (0..p.plays().len()).all(|i| p.play_seat(i) == me) {
        return 0.0;
    }
    let rule = RuleAgent::new(params);
    let e = play.min(1.0);
    let mut lw = 0.0;
    let replayed = world.replay_visit(view, |hand, d| {
        if let (Request::Play { seat, legal }, Decision::Play(c)) = (hand.request(), d)
            && seat != me
            && legal.len() > 1
        {
            let n = f64::from(legal.len());
            let agree = rule.play(&hand.view(seat), legal) == c;
            lw += if agree { (1.0 - e + e / n).ln() } else { (e / n).ln() };
        }
    });
    if replayed.is_ok() { lw } else { f64::NEG_INFINITY }
}

#[cfg(test)]
#[path = "card_play_tests.rs"]
mod tests;
