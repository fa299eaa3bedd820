//! Agents for `tresillo`: the [`Agent`] trait, the agents, and [`play_hand`], which
//! runs one hand with one agent per seat.
//!
//! An agent sees only a [`PlayerView`]: it cannot reach another player's cards.
//!
//! - [`RandomAgent`] (`random`): uniform over the legal choices.
//! - [`RuleAgent`] (`rule`): club-player heuristics with tunable thresholds
//!   ([`RuleParams`]); no memory, no allocation.
//! - [`Sampler`]: worlds (the hidden hands, discards and heap) drawn exactly
//!   uniformly among those consistent with a view, for agents that search.
//! - [`Ismcts`] (`ismcts`, `ismcts:mo=1`): Information Set Monte Carlo Tree Search
//!   over the play-phase decisions (cards, surrender, takeover, bola) on sampled
//!   worlds, single- or multiple-observer; the other decisions as `rule`.
//! - [`solver`]: the exact card-play solver ([`SolverContext`]): the outcome
//!   class the declarer can force in a complete position, per legal card.
//! - [`PimcAgent`] (`pimc`): Perfect Information Monte Carlo, sampled worlds solved
//!   exactly; [`Oracle`] (`oracle`, experiments only) makes the same decisions on
//!   the true world ([`pimc`]).
//! - [`cheat`]: an agent handed the full state, for upper-bound experiments only,
//!   behind its own trait so that no fair agent can reach hidden cards.
//! - [`Registry`]: agents built from specs `name[:key=value]*` (for example
//!   `rule:entrada=44:vuelta=48`); callers register their own agents beside the
//!   built-in ones. [`build_agent`] / [`build_seated`] / [`agent_infos`] use the
//!   built-in registry.
//! - [`SplitPlayer`]: a seat whose bidding-phase decisions (auction, contract and
//!   trump, exchange, conversation) are made by another player, so that experiments
//!   can compare card play alone.
//!
//! ```
//! use tresillo_agents::{play_hand, AgentRng, RandomAgent, Agent, seat_rngs};
//! use tresillo_core::{Deal, Hand, RuleSet, Seat};
//!
//! let deal = Deal::parse("1E 2E 3E 4E 5E 6E 7E 10E 11E / 12E 1B 2B 3B 4B 5B 6B 7B 10B / \
//!     11B 12B 1C 2C 3C 4C 5C 6C 7C / 10C 11C 12C 1O 2O 3O 4O 5O 6O 7O 10O 11O 12O").unwrap();
//! let mut hand = Hand::new(RuleSet::Tresillo, 3, deal, Seat(0)).unwrap();
//! let mut agents: Vec<Box<dyn Agent>> = (0..3).map(|_| Box::new(RandomAgent) as Box<dyn Agent>).collect();
//! let mut rngs = seat_rngs(42);
//! let result = play_hand(&mut hand, &mut agents, &mut rngs).unwrap();
//! assert!(hand.is_done());
//! # let _ = result;
//! ```
#![deny(missing_docs)]

pub mod cheat;
pub mod gpimc;
pub mod gsolver;
mod infer;
mod ismcts;
pub mod pimc;
mod random;
mod registry;
mod rng;
mod rule;
mod rule_eval;
mod rule_lhombre;
mod sampler;
pub mod solver;

pub use infer::Inference;

pub use ismcts::{
    Budget, HandEnd, Ismcts, IsmctsParams, NODE_BYTES, Playout, hand_tantos, ledger_tantos, relative_rewards,
    rewards,
};
pub use pimc::{Oracle, PimcAgent, PimcParams, declarer_utility};
pub use random::RandomAgent;
pub use registry::{
    AgentInfo, ParamInfo, Params, Registry, SpecError, agent_infos, build_agent, build_seated, spec_param,
};
pub use rng::{AgentRng, Draws, below, deal_for_seed, rng_from_seed, seat_rngs, shuffled_pack, splitmix64};
pub use rule::RuleAgent;
pub use rule_eval::{RuleParams, evaluate, evaluate_vuelta, keep_set};
pub use sampler::{NoWorld, Sampler, World};
pub use solver::{Class, Position, PositionError, Solution, SolverContext};

use tresillo_core::{Decision, Hand, HandError, HandResult, PlayerView, Seat};

/// A player. Given its seat's view (whose [`PlayerView::request`] says what is
/// asked) and a seeded generator, it returns a legal decision.
///
/// Agents are `Send` and cheap to create, one per seat per thread. An agent may keep
/// memory between the decisions of one hand; [`Agent::new_hand`] is called before
/// every hand and must clear it, so nothing leaks across deals.
pub trait Agent: Send {
    /// The agent's spec name (for example `random`).
    fn name(&self) -> &str;

    /// Called before each hand: forget everything about the previous one.
    fn new_hand(&mut self) {}

    /// Answers the request in `view`. Must return a legal decision.
    fn decide(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Decision;
}

impl<A: Agent + ?Sized> Agent for Box<A> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn new_hand(&mut self) {
        (**self).new_hand();
    }
    fn decide(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Decision {
        (**self).decide(view, rng)
    }
}

/// An agent returned an illegal decision.
#[derive(Debug, thiserror::Error)]
#[error("agent `{agent}` at seat {seat} made an illegal decision {decision:?}: {source}")]
pub struct AgentError {
    /// The agent's name.
    pub agent: String,
    /// Its seat.
    pub seat: u8,
    /// What it decided.
    pub decision: Decision,
    /// Why the hand refused it.
    #[source]
    pub source: HandError,
}

/// Whoever sits in a seat, as the table sees it: it is handed the table's [`Hand`]
/// and its seat. Every [`Agent`] is one, and sees only `hand.view(seat)`; the
/// experiments-only cheat of [`cheat`] is the other kind.
pub trait TablePlayer {
    /// The spec name.
    fn player_name(&self) -> &str;
    /// Called before each hand.
    fn begin_hand(&mut self);
    /// Decides for `seat`, whose turn it is.
    fn decide_at(&mut self, hand: &Hand, seat: Seat, rng: &mut AgentRng) -> Decision;
}

impl<A: Agent + ?Sized> TablePlayer for A {
    fn player_name(&self) -> &str {
        self.name()
    }
    fn begin_hand(&mut self) {
        self.new_hand();
    }
    #[inline]
    fn decide_at(&mut self, hand: &Hand, seat: Seat, rng: &mut AgentRng) -> Decision {
        self.decide(&hand.view(seat), rng)
    }
}

/// Plays `hand` to the end, asking `agents[seat]` for each decision with
/// `rngs[seat]`. Calls `new_hand` on every agent first.
pub fn play_hand<P: TablePlayer>(
    hand: &mut Hand,
    agents: &mut [P],
    rngs: &mut [AgentRng],
) -> Result<HandResult, AgentError> {
    play_hand_with(hand, agents, rngs, |_, _| {})
}

/// [`play_hand`] that also reports each applied decision to `observe` (the hand
/// before the decision, and the decision), for narration and records.
pub fn play_hand_with<P: TablePlayer>(
    hand: &mut Hand,
    agents: &mut [P],
    rngs: &mut [AgentRng],
    mut observe: impl FnMut(&Hand, &Decision),
) -> Result<HandResult, AgentError> {
    for a in agents.iter_mut() {
        a.begin_hand();
    }
    while let Some(seat) = hand.request().seat() {
        let i = seat.index();
        let d = agents[i].decide_at(hand, seat, &mut rngs[i]);
        observe(hand, &d);
        hand.apply(d).map_err(|source| AgentError {
            agent: agents[i].player_name().to_string(),
            seat: seat.0,
            decision: d,
            source,
        })?;
    }
    Ok(hand.result().expect("the hand is over"))
}

/// Whether `request` belongs to the bidding phase: the auction, the contract and
/// trump, the exchange and the conversation, and a penetro's heap end and drop-out
/// words (everything before the first card but the penetro's give-up question). Card play, surrender, takeover and the primeras/bola choice are not.
#[must_use]
pub fn is_bidding_request(request: &tresillo_core::Request) -> bool {
    use tresillo_core::Request;
    matches!(
        request,
        Request::Bid { .. }
            | Request::Declare { .. }
            | Request::Discard { .. }
            | Request::Word { .. }
            | Request::Penetro { .. }
            | Request::DropOut { .. }
    )
}

/// One seat played by two players: `bidding`, when present, makes the bidding-phase
/// decisions ([`is_bidding_request`]), `play` makes all the others (card play,
/// surrender, takeover, bola). Both draw from the seat's one generator, so the
/// split is as deterministic as a single agent. The seat's name is `play`'s.
#[derive(Debug)]
pub struct SplitPlayer<P> {
    /// Decides card play, surrender, takeover and bola (and everything when
    /// `bidding` is `None`).
    pub play: P,
    /// Decides the auction, contract and trump, exchange and conversation.
    pub bidding: Option<P>,
}

impl<P: TablePlayer> TablePlayer for SplitPlayer<P> {
    fn player_name(&self) -> &str {
        self.play.player_name()
    }

    fn begin_hand(&mut self) {
        self.play.begin_hand();
        if let Some(b) = &mut self.bidding {
            b.begin_hand();
        }
    }

    #[inline]
    fn decide_at(&mut self, hand: &Hand, seat: Seat, rng: &mut AgentRng) -> Decision {
        match &mut self.bidding {
            Some(b) if is_bidding_request(&hand.request()) => b.decide_at(hand, seat, rng),
            _ => self.play.decide_at(hand, seat, rng),
        }
    }
}
