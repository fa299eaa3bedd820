//! How well a card-location model knows where the cards are, against the
//! samplers the agents use without one: at every card-play decision of played
//! deals, the mean log-loss (nats per hidden card; lower is better) of each
//! hidden card's true place under
//!
//! - `uniform`: the marginals of the exact sampler's worlds (every world
//!   consistent with the view alike: `pimc`'s sampler);
//! - `rule`: the same worlds weighted by the soft rule model (`pimc:infer=1`);
//! - `net`: the network's own probabilities;
//! - `net_pool`: the worlds weighted by the network, its log-weights times
//!   `power` (`pimc:loc=M:loc_pow=...`).
//!
//! Marginals from worlds are smoothed by half a world's weight in each place
//! (a card never seen in a place is not certain not to be there).

use crate::agents::LocationLikelihood;
use crate::data::{DataError, LOCATIONS, Setup, new_hand, owners};
use crate::model::Net;
use std::sync::Arc;
use tresillo_agents::{
    Agent, InferParams, Likelihood, Registry, RuleParams, Sampler, World, rng_from_seed, seat_rngs,
};
use tresillo_core::{PlayerView, Request};
use tresillo_sim::deal_seed;

/// The methods compared, in [`LocationScores::loss`]'s order.
pub const METHODS: [&str; 4] = ["uniform", "rule", "net", "net_pool"];

/// Summed log-losses of the methods of [`METHODS`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LocationScores {
    /// Card-play decisions measured.
    pub decisions: u64,
    /// Hidden cards measured.
    pub cards: u64,
    /// Summed log-loss per method.
    pub loss: [f64; 4],
}

impl LocationScores {
    fn add(&mut self, o: &LocationScores) {
        self.decisions += o.decisions;
        self.cards += o.cards;
        for k in 0..4 {
            self.loss[k] += o.loss[k];
        }
    }

    /// The mean log-loss per hidden card of method `k`.
    #[must_use]
    pub fn mean(&self, k: usize) -> f64 {
        self.loss[k] / self.cards.max(1) as f64
    }
}

/// Smoothed marginals of `worlds` weighted by `w`: 40 x [`LOCATIONS`] probabilities.
fn marginals(view: &PlayerView, worlds: &[World], w: &[f64]) -> Vec<f64> {
    let (me, n) = (view.seat(), view.public().players);
    let total: f64 = w.iter().sum();
    let a = 0.5 * total / worlds.len() as f64;
    let mut m = vec![a; 40 * LOCATIONS];
    let unseen = view.unseen_cards();
    for (world, &x) in worlds.iter().zip(w) {
        for c in unseen {
            let p = crate::agents::place(world, me, n, c);
            if p > 0 {
                m[c.index() * LOCATIONS + p - 1] += x;
            }
        }
    }
    for card in m.chunks_mut(LOCATIONS) {
        let s: f64 = card.iter().sum();
        card.iter_mut().for_each(|x| *x /= s);
    }
    m
}

fn weights(model: &dyn Likelihood, view: &PlayerView, worlds: &[World]) -> Vec<f64> {
    let mut log = Vec::new();
    model.log_weights(view, worlds, &mut log);
    let top = log.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !top.is_finite() {
        return vec![1.0; worlds.len()];
    }
    log.iter().map(|l| (l - top).exp()).collect()
}

/// Measures `net` (a locations model) on the card-play decisions of deals
/// `range` of `setup` played by `specs`, with pools of `pool` worlds.
pub fn locations(
    setup: &Setup,
    specs: &[String],
    registry: &Registry,
    range: std::ops::Range<u64>,
    net: Arc<Net>,
    pool: u32,
    power: f64,
) -> Result<LocationScores, DataError> {
    use rayon::prelude::*;
    let learned = LocationLikelihood::new(net.clone(), 1.0)
        .map_err(|e| DataError::Agent { deal: 0, why: e.to_string() })?;
    let pooled =
        LocationLikelihood::new(net, power).map_err(|e| DataError::Agent { deal: 0, why: e.to_string() })?;
    let rule = InferParams::default().model(RuleParams::default());
    let per_deal: Result<Vec<LocationScores>, DataError> = range
        .collect::<Vec<u64>>()
        .par_iter()
        .map(|&d| {
            let mut agents: Vec<Box<dyn Agent>> =
                specs.iter().map(|s| registry.build_agent(s)).collect::<Result<_, _>>()?;
            let mut hand = new_hand(setup.rules, setup.players, setup.seed, d)
                .map_err(|source| DataError::Hand { deal: d, source })?;
            let seed = deal_seed(setup.seed, d);
            let mut rngs = seat_rngs(seed);
            let mut rng = rng_from_seed(seed ^ 0xE7A1);
            let mut s = LocationScores::default();
            for a in agents.iter_mut() {
                a.new_hand();
            }
            while let Some(seat) = hand.request().seat() {
                let view = hand.view(seat);
                let fail = |why: String| DataError::Agent { deal: d, why };
                if matches!(view.request(), Request::Play { .. })
                    && let Ok(sampler) = Sampler::new(&view)
                {
                    let truth = owners(&hand, seat);
                    let worlds: Vec<World> = (0..pool.max(1)).map(|_| sampler.sample(&mut rng)).collect();
                    let uniform = marginals(&view, &worlds, &vec![1.0; worlds.len()]);
                    let ruled = marginals(&view, &worlds, &weights(&rule, &view, &worlds));
                    let netted = marginals(&view, &worlds, &weights(&pooled, &view, &worlds));
                    let direct = learned.log_probs(&view).map_err(|e| fail(e.to_string()))?;
                    s.decisions += 1;
                    for (c, &t) in truth.iter().enumerate() {
                        if t == 0 {
                            continue;
                        }
                        let i = c * LOCATIONS + usize::from(t) - 1;
                        s.cards += 1;
                        s.loss[0] -= uniform[i].ln();
                        s.loss[1] -= ruled[i].ln();
                        s.loss[2] -= f64::from(direct[i]);
                        s.loss[3] -= netted[i].ln();
                    }
                }
                let i = seat.index();
                let decision =
                    agents[i].decide(&view, &mut rngs[i]).map_err(|f| fail(f.reason().to_string()))?;
                hand.apply(decision).map_err(|e| fail(e.to_string()))?;
            }
            Ok(s)
        })
        .collect();
    let mut total = LocationScores::default();
    for s in per_deal? {
        total.add(&s);
    }
    Ok(total)
}
