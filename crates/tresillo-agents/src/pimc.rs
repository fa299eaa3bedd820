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
//! - **Auction, contract and trumps** by Monte Carlo, once per hand: `bid_worlds`
//!   worlds are drawn from the sampler (the other hands and the heap); for each
//!   trump suit the hand is solved as a **solo** (as dealt) and as an **entrada**
//!   (the rule agent's discards, [`keep_set`], replaced by as many cards drawn at
//!   random from the world's heap; the opponents keep their hands, a
//!   simplification that flatters the declarer, which `bid_margin` pays for),
//!   with this seat declaring and mano leading. The mean utility of each
//!   (contract, trump) is its value. The agent is willing to play solo when the
//!   best solo is worth more than `bid_margin` (hundredths of an AIP), else
//!   entrada when the best entrada is; it bids the lowest level allowed up to
//!   that (a vuelta-level bid only on the way to solo), else passes. Named
//!   contract: the better of entrada and solo among those allowed, in its best
//!   suit (entrada when forced); vuelta only when it must be at least vuelta and
//!   no solo is worth `bid_margin`.
//! - **Exchange and conversation**: as the rule agent with the `rule` parameters.
//!
//! When the view admits no world (it cannot happen in a real hand) the agent falls
//! back on the rule agent's decision.

use crate::Agent;
use crate::cheat::CheatAgent;
use crate::rng::AgentRng;
use crate::rng::below;
use crate::rule::{RuleAgent, RuleParams, keep_set};
use crate::sampler::Sampler;
use crate::solver::{Class, Position, SolverContext};
use tresillo_core::{
    Bid, Card, CardSet, Contract, Decision, Hand, PlayState, PlayerView, Request, Seat, Suit,
};

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
    /// Worlds drawn for the auction and the contract (once per hand).
    pub bid_worlds: u32,
    /// Least mean utility (hundredths of an AIP) for which the agent declares.
    pub bid_margin: i32,
    /// The rule agent's thresholds, for the decisions made as the rule agent.
    pub rule: RuleParams,
}

impl Default for PimcParams {
    fn default() -> Self {
        PimcParams { worlds: 64, adaptive: true, bid_worlds: 16, bid_margin: 0, rule: RuleParams::default() }
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
    /// This hand's contract values (entrada, solo) by trump suit, once computed.
    values: Option<[[f64; 4]; 2]>,
}

impl PimcAgent {
    /// A PIMC agent with these parameters.
    #[must_use]
    pub fn new(params: PimcParams) -> PimcAgent {
        PimcAgent { params, rule: RuleAgent::new(params.rule), solving: Solving::default(), values: None }
    }

    /// The mean utility of declaring entrada (`[0]`) and solo (`[1]`) in each trump
    /// suit, computed once per hand (see the module documentation).
    fn contract_values(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Option<[[f64; 4]; 2]> {
        if let Some(v) = self.values {
            return Some(v);
        }
        let sampler = Sampler::new(view).ok()?;
        let me = view.seat();
        let mano = view.public().mano();
        let hand = view.hand();
        let mut sums = [[0.0; 4]; 2];
        let n = self.params.bid_worlds;
        for _ in 0..n {
            let w = sampler.sample(rng);
            for s in Suit::ALL {
                let keep = keep_set(hand, s);
                let mut heap = w.heap;
                let mut drawn = CardSet::EMPTY;
                for _ in 0..(hand - keep).len().min(heap.len()) {
                    let c = heap.nth(below(rng, heap.len())).expect("a heap card");
                    heap.take(c);
                    drawn.insert(c);
                }
                for (k, mine) in [(0, keep | drawn), (1, hand)] {
                    let mut hands = [w.hands.0[0], w.hands.0[1], w.hands.0[2]];
                    hands[me.index()] = mine;
                    let pos = Position::new(hands, s, me, mano, &[], [0, 0, 0]).ok()?;
                    sums[k][s.index()] += f64::from(declarer_utility(self.solving.ctx().value(&pos)));
                }
            }
        }
        let v = sums.map(|row| row.map(|x| x / f64::from(n.max(1))));
        self.values = Some(v);
        Some(v)
    }

    /// The best trump suit and its value for contract row `k` (0 entrada, 1 solo).
    fn best(v: &[[f64; 4]; 2], k: usize) -> (Suit, f64) {
        let mut best = (Suit::Espadas, f64::NEG_INFINITY);
        for s in Suit::ALL {
            if v[k][s.index()] > best.1 {
                best = (s, v[k][s.index()]);
            }
        }
        best
    }

    fn bid(&mut self, view: &PlayerView, rng: &mut AgentRng, min_level: u8) -> Option<Decision> {
        let v = self.contract_values(view, rng)?;
        let margin = f64::from(self.params.bid_margin) / 100.0;
        let most = if Self::best(&v, 1).1 > margin {
            3
        } else if Self::best(&v, 0).1 > margin {
            1
        } else {
            0
        };
        Some(Decision::Bid(if min_level <= most { Bid::Level(min_level) } else { Bid::Paso }))
    }

    fn declare(
        &mut self,
        view: &PlayerView,
        rng: &mut AgentRng,
        min_level: u8,
        forced: bool,
    ) -> Option<Decision> {
        let v = self.contract_values(view, rng)?;
        let (es, ev) = Self::best(&v, 0);
        let (ss, sv) = Self::best(&v, 1);
        let margin = f64::from(self.params.bid_margin) / 100.0;
        Some(if forced || (min_level <= 1 && ev >= sv) {
            Decision::Declare(Contract::Entrada, Some(es))
        } else if min_level == 2 && sv <= margin {
            Decision::Declare(Contract::Vuelta, None)
        } else {
            Decision::Declare(Contract::Solo, Some(ss))
        })
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

    fn new_hand(&mut self) {
        self.values = None;
    }

    fn decide(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Decision {
        let mc = match view.request() {
            Request::Bid { min_level, max_level, .. } if min_level <= max_level => {
                self.bid(view, rng, min_level)
            }
            Request::Declare { min_level, forced, .. } => self.declare(view, rng, min_level, forced),
            _ => None,
        };
        if let Some(d) = mc {
            return d;
        }
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
