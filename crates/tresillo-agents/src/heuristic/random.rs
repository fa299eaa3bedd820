//! The `random` agent: uniform over the legal choices.

use crate::rng::{AgentRng, below};
use crate::{Agent, Failure};
use rand_core::RngCore;
use tresillo_core::{CardSet, Decision, PlayerView, Request};

/// Chooses uniformly among the legal decisions of each request. Discards are
/// uniform over the allowed subsets of the hand. Keeps no memory.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomAgent;

impl RandomAgent {
    /// The decision for `view` ([`Agent::decide`], which never fails for this agent).
    pub fn choose(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Decision {
        let req = view.request();
        match req {
            Request::Play { legal, .. } => {
                Decision::Play(legal.nth(below(rng, legal.len())).expect("a legal card"))
            }
            Request::Discard { min, max, .. } => Decision::Discard(random_subset(view.hand(), min, max, rng)),
            _ => {
                let all = view.legal_decisions();
                all[below(rng, all.len() as u32) as usize]
            }
        }
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> &str {
        "random"
    }

    fn decide(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Result<Decision, Failure> {
        Ok(self.choose(view, rng))
    }
}

/// A subset of `hand` with between `min` and `max` cards, uniform over all such
/// subsets: rejection from uniform subsets when that accepts often, else
/// enumeration.
pub(crate) fn random_subset(hand: CardSet, min: u8, max: u8, rng: &mut AgentRng) -> CardSet {
    let n = hand.len() as u8;
    if min == 0 && max >= n {
        return mask_subset(hand, rng.next_u64());
    }
    if max >= 3 && min <= n / 2 {
        loop {
            let s = mask_subset(hand, rng.next_u64());
            let k = s.len() as u8;
            if k >= min && k <= max {
                return s;
            }
        }
    }
    let all: Vec<CardSet> = hand.subsets().filter(|s| (min..=max).contains(&(s.len() as u8))).collect();
    all[below(rng, all.len() as u32) as usize]
}

/// The cards of `hand` selected by the low bits of `bits`, one bit per card.
fn mask_subset(hand: CardSet, bits: u64) -> CardSet {
    let mut out = CardSet::EMPTY;
    for (i, c) in hand.iter().enumerate() {
        if bits >> i & 1 == 1 {
            out.insert(c);
        }
    }
    out
}
