//! `pimc`, Perfect Information Monte Carlo: worlds drawn from the exact
//! [`Sampler`], each solved exactly by the [`solver`](crate::solver); and
//! `oracle`, the same decisions made on the true world (experiments only).
//!
//! # Utility
//!
//! The solver gives the outcome class (RULES.md section 7). The agents score a
//! class in units of the amount in play (AIP, section 8), from the declarer's side:
//! a sacado wins about one AIP (the plato), a puesta pays one AIP, a codillo pays
//! it twice (into the plato and to the winner): **+1, -1, -2**. The opponents, a
//! coalition in the solver, take the negation (+2 for a codillo, which pays one of
//! them). Within one hand the contract's condiciones are the same whatever card is
//! played, so they do not enter card play; they enter only the bola decision
//! below, where they are the whole stake.
//!
//! # Decisions
//!
//! - **Card play** (more than one legal card): `worlds` worlds consistent with the
//!   view are drawn, each solved for the class of every legal card, and the card
//!   with the best mean utility for this seat's side is played (ties: the first
//!   in the engine's sort order). *Adaptive stopping*: with `adaptive=1` (the
//!   default) the draws stop as soon as no remaining world could change the
//!   choice (the leader's margin exceeds what the remaining worlds could give
//!   the runner-up), so the choice is the one all worlds would give.
//! - **Surrender** (declarer, after trick 3): give up when the mean utility of
//!   playing on is below that of a puesta (-1).
//! - **Takeover** (*yo sigo*): take over when the mean utility as the new
//!   declarer is positive (declining leaves a puesta of the other declarer, worth
//!   nothing to this seat).
//! - **Primeras or bola**: the share `p` of worlds in which the declarer can take
//!   every remaining trick; a bola pays 8 from each of two opponents, a failed one
//!   8 to each, primeras 1 from each: play on when `16 p - 16 (1 - p) > 2`.
//! - **Auction, contract and trumps, exchange, conversation**: as the rule agent
//!   with the `rule` parameters given (the Monte Carlo bidding of issue 8 is not
//!   built yet).
//!
//! When the view admits no world (it cannot happen in a real hand) the agent falls
//! back on the rule agent's decision.

use crate::Agent;
use crate::cheat::CheatAgent;
use crate::rng::AgentRng;
use crate::rule::{RuleAgent, RuleParams};
use crate::sampler::Sampler;
use crate::solver::{Class, Position, SolverContext};
use tresillo_core::{Card, CardSet, Decision, Hand, PlayState, PlayerView, Request, Seat};

/// Utility of a class for the declarer's side, in units of the amount in play.
#[must_use]
pub const fn declarer_utility(c: Class) -> i32 {
    match c {
        Class::Sacado => 1,
        Class::Puesta => -1,
        Class::Codillo => -2,
    }
}

/// Largest minus smallest utility (for adaptive stopping).
const SPREAD: i32 = 3;

/// The parameters of `pimc` (and `oracle`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PimcParams {
    /// Worlds drawn per decision.
    pub worlds: u32,
    /// Stop drawing once no remaining world could change the card chosen.
    pub adaptive: bool,
    /// The rule agent's thresholds, for the decisions made as the rule agent.
    pub rule: RuleParams,
}

impl Default for PimcParams {
    fn default() -> Self {
        PimcParams { worlds: 64, adaptive: true, rule: RuleParams::default() }
    }
}

/// The decisions made by solving positions, shared by `pimc` (over sampled
/// worlds) and `oracle` (on the true world). Owns its solver context.
#[derive(Debug, Default)]
struct Solving {
    ctx: Option<Box<SolverContext>>,
}

impl Solving {
    fn ctx(&mut self) -> &mut SolverContext {
        self.ctx.get_or_insert_with(|| Box::new(SolverContext::with_table_bits(17)))
    }

    /// The card with the best mean utility for `me` over the worlds `next` yields
    /// (at most `max` of them), or `None` if no world could be solved.
    fn card(
        &mut self,
        legal: CardSet,
        me: Seat,
        declarer: Seat,
        max: u32,
        adaptive: bool,
        mut next: impl FnMut() -> Option<PlayState>,
    ) -> Option<Card> {
        let sign = if me == declarer { 1 } else { -1 };
        let mut sums = [0i32; 64];
        let mut solved = 0;
        for w in 0..max {
            let Some(ps) = next() else { continue };
            let Ok(pos) = Position::from_play_state(&ps, declarer) else { continue };
            let sol = self.ctx().solve(&pos);
            for &(c, v) in sol.cards() {
                sums[c.bit() as usize] += sign * declarer_utility(v);
            }
            solved += 1;
            if adaptive {
                let (mut best, mut second) = (i32::MIN, i32::MIN);
                for c in legal {
                    let s = sums[c.bit() as usize];
                    if s > best {
                        second = best;
                        best = s;
                    } else if s > second {
                        second = s;
                    }
                }
                let left = (max - w - 1) as i32;
                if best.saturating_sub(second) > left * SPREAD {
                    break;
                }
            }
        }
        if solved == 0 {
            return None;
        }
        let mut best: Option<(i32, Card)> = None;
        for c in legal {
            let s = sums[c.bit() as usize];
            if best.is_none_or(|(b, _)| s > b) {
                best = Some((s, c));
            }
        }
        best.map(|(_, c)| c)
    }

    /// Mean of `f(class)` over the worlds (with `declarer` declaring), or `None`.
    fn mean(
        &mut self,
        declarer: Seat,
        max: u32,
        mut next: impl FnMut() -> Option<PlayState>,
        mut f: impl FnMut(&mut SolverContext, &Position) -> f64,
    ) -> Option<f64> {
        let (mut sum, mut n) = (0.0, 0u32);
        for _ in 0..max {
            let Some(ps) = next() else { continue };
            let Ok(pos) = Position::from_play_state(&ps, declarer) else { continue };
            sum += f(self.ctx(), &pos);
            n += 1;
        }
        (n > 0).then(|| sum / f64::from(n))
    }

    /// The decision for `request` at seat `me` from the worlds `next` yields, or
    /// `None` when the request is not one decided by solving (or no world could be
    /// solved).
    fn decide(
        &mut self,
        view: &PlayerView,
        worlds: u32,
        adaptive: bool,
        next: impl FnMut() -> Option<PlayState>,
    ) -> Option<Decision> {
        let me = view.seat();
        let declarer = view.public().declarer?;
        match view.request() {
            Request::Play { legal, .. } if legal.len() > 1 => {
                self.card(legal, me, declarer, worlds, adaptive, next).map(Decision::Play)
            }
            Request::Surrender { .. } => {
                let u = self.mean(declarer, worlds, next, |c, p| f64::from(declarer_utility(c.value(p))))?;
                Some(Decision::Surrender(u < f64::from(declarer_utility(Class::Puesta))))
            }
            Request::TakeOver { .. } => {
                let u = self.mean(me, worlds, next, |c, p| f64::from(declarer_utility(c.value(p))))?;
                Some(Decision::TakeOver(u > 0.0))
            }
            Request::Bola { .. } => {
                let p = self.mean(declarer, worlds, next, |c, p| f64::from(u8::from(c.can_take_all(p))))?;
                Some(Decision::Bola(16.0 * p - 16.0 * (1.0 - p) > 2.0))
            }
            _ => None,
        }
    }
}

/// The PIMC agent (`pimc`): see the module documentation.
#[derive(Debug)]
pub struct PimcAgent {
    params: PimcParams,
    rule: RuleAgent,
    solving: Solving,
}

impl PimcAgent {
    /// A PIMC agent with these parameters.
    #[must_use]
    pub fn new(params: PimcParams) -> PimcAgent {
        PimcAgent { params, rule: RuleAgent::new(params.rule), solving: Solving::default() }
    }

    /// Its parameters.
    #[must_use]
    pub fn params(&self) -> &PimcParams {
        &self.params
    }
}

impl Agent for PimcAgent {
    fn name(&self) -> &str {
        "pimc"
    }

    fn decide(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Decision {
        let solvable = matches!(
            view.request(),
            Request::Play { legal, .. } if legal.len() > 1
        ) || matches!(
            view.request(),
            Request::Surrender { .. } | Request::TakeOver { .. } | Request::Bola { .. }
        );
        if solvable && let Ok(sampler) = Sampler::new(view) {
            let next = || sampler.sample(rng).play_state(view);
            if let Some(d) = self.solving.decide(view, self.params.worlds, self.params.adaptive, next) {
                return d;
            }
        }
        self.rule.decide(view, rng)
    }
}

/// The oracle (`oracle`, experiments only): the decisions of [`PimcAgent`] made
/// on the true world (one world, the real one), so card play, surrender, takeover
/// and bola are perfect-information optimal for the class; the rest as the rule
/// agent. The upper bound of experiments on card play.
#[derive(Debug)]
pub struct Oracle {
    rule: RuleAgent,
    solving: Solving,
}

impl Oracle {
    /// An oracle whose other decisions use these rule parameters.
    #[must_use]
    pub fn new(rule: RuleParams) -> Oracle {
        Oracle { rule: RuleAgent::new(rule), solving: Solving::default() }
    }
}

impl CheatAgent for Oracle {
    fn name(&self) -> &str {
        "oracle"
    }

    fn decide(&mut self, hand: &Hand, seat: Seat, rng: &mut AgentRng) -> Decision {
        let view = hand.view(seat);
        let mut once = hand.play_state();
        if let Some(d) = self.solving.decide(&view, 1, false, || once.take()) {
            return d;
        }
        self.rule.decide(&view, rng)
    }
}
