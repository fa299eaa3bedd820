//! Agents for `tresillo`: the [`Agent`] trait, the agents, and [`play_hand`], which
//! runs one hand with one agent per seat.
//!
//! An agent sees only a [`PlayerView`](tresillo_core::PlayerView): it cannot reach
//! another player's cards.
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
//! - [`research`]: agents and options measured and found not better (alpha-mu,
//!   `alphamu`; pimc's searched exchange, `discard=search`; the card-play term
//!   of inference, `infer_play`), kept runnable for reproducibility.
//! - [`cheat`]: an agent handed the full state, for upper-bound experiments only,
//!   behind its own trait so that no fair agent can reach hidden cards.
//! - [`Registry`]: agents built from specs `name[:key=value]*` (for example
//!   `rule:entrada=44:vuelta=48`); callers register their own agents beside the
//!   built-in ones. [`build_agent`] / [`build_seated`] / [`agent_infos`] use the
//!   built-in registry.
//! - [`SplitPlayer`]: a seat whose bidding-phase decisions (auction, contract and
//!   trump, exchange, conversation; with [`BiddingCovers::All`] every decision
//!   but card play) are made by another player, so that experiments can compare
//!   card play alone.
//!
//! ```
//! use tresillo_agents::{play_hand, AgentRng, RandomAgent, Agent, seat_rngs};
//! use tresillo_core::{Deal, Hand, RuleSet, Seat};
//!
//! let deal = Deal::parse("1E 2E 3E 4E 5E 6E 7E 10E 11E / 12E 1B 2B 3B 4B 5B 6B 7B 10B / \
//!     11B 12B 1C 2C 3C 4C 5C 6C 7C / 10C 11C 12C 1O 2O 3O 4O 5O 6O 7O 10O 11O 12O").unwrap();
//! let mut hand = Hand::new(RuleSet::TRESILLO, 3, deal, Seat(0)).unwrap();
//! let mut agents: Vec<Box<dyn Agent>> = (0..3).map(|_| Box::new(RandomAgent) as Box<dyn Agent>).collect();
//! let mut rngs = seat_rngs(42);
//! let result = play_hand(&mut hand, &mut agents, &mut rngs).unwrap();
//! assert!(hand.is_done());
//! # let _ = result;
//! ```
//!
//! Every built-in agent plays every rule set at every table size it has (the sampler
//! builds worlds at three and four players), so no agent checks the rule set: the
//! core's `Rules::check_players` is the only refusal (a rule set played at a table size
//! it does not have). `lib.rs` itself only re-exports (the search modules also at their
//! old paths).
#![deny(missing_docs)]

// Files import downward: agent and rng at the bottom, then sampling, the
// heuristics and the searches, the cheat, and the registry that builds them all.
// The research files sit among them by what they use: `research::card_play`
// below `sampling::likelihood`, `research::exchange` below `search::pimc`, and
// `research::alphamu` above it.
mod agent;
pub mod cheat;
pub mod clock;
pub mod family;
mod heuristic;
pub mod interrupt;
mod registry;
pub mod research;
mod rng;
mod sampling;
mod search;
mod spec_error;
pub use spec_error::ValueError;

// The search modules at their old paths (`tresillo_agents::pimc::...`).
pub use search::{gpimc, gsolver, pimc, solver};

pub use agent::{
    Agent, AgentError, AgentErrorKind, BiddingCovers, Failure, SplitPlayer, TablePlayer, UnknownBiddingCover,
    Work, is_bidding_request, play_hand, play_hand_with,
};

pub use sampling::infer::Inference;
pub use sampling::likelihood::{InferParams, PoolStats, RuleLikelihood, WeightedPool};
pub use sampling::model::Likelihood;

pub use heuristic::random::RandomAgent;
pub use heuristic::rule::RuleAgent;
pub use heuristic::rule_eval::{RuleParams, evaluate, evaluate_vuelta, keep_set};
pub use registry::{
    AgentInfo, ParamInfo, Params, Registry, SpecError, agent_infos, build_agent, build_seated, clock_of,
    spec_label, spec_param, spec_parts, split_specs,
};
pub use rng::{AgentRng, Draws, below, deal_for_seed, rng_from_seed, seat_rngs, shuffled_pack, splitmix64};
pub use sampling::sampler::{NoWorld, Sampler, World};
pub use search::ismcts::{
    Budget, HandEnd, Ismcts, IsmctsParams, NODE_BYTES, Playout, hand_tantos, ledger_tantos, relative_rewards,
    rewards,
};
pub use search::pimc::{Oracle, PimcAgent, PimcParams, declarer_utility};
pub use search::solver::{Class, Position, PositionError, Solution, SolverContext};
