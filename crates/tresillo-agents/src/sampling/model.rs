//! The [`Likelihood`] interface: a model of the other players that weights the
//! sampled worlds (the soft `rule` of [`crate::RuleLikelihood`], or a program's
//! own, given to an agent with [`crate::Agent::set_likelihood`]). In a module of
//! its own so that the agent trait can name it without importing the weighting.

use crate::sampling::sampler::World;
use tresillo_core::PlayerView;

/// A model of the other players: the log-likelihood of the public history of
/// `view` (what the other seats bid, declared, exchanged, said and played) if
/// the hidden cards were those of `world`. Only differences between worlds of
/// one view matter (the weights are normalised); 0 for every world is the
/// uniform sampler. An implementation sees only the view and the candidate
/// world, never the true hands.
pub trait Likelihood: Send + Sync {
    /// The log-likelihood (natural logarithm, at most 0 by convention; may be
    /// `f64::NEG_INFINITY` for a world the model rules out).
    fn log_weight(&self, view: &PlayerView, world: &World) -> f64;

    /// The log-weights of all of `worlds` (one decision's pool), into `out`
    /// (cleared first), in the worlds' order. By default [`Self::log_weight`]
    /// of each; a model that is cheaper in batches (a network's forward pass
    /// behind the Python bindings) answers the whole pool at once.
    fn log_weights(&self, view: &PlayerView, worlds: &[World], out: &mut Vec<f64>) {
        out.clear();
        out.extend(worlds.iter().map(|w| self.log_weight(view, w)));
    }
}
