//! Inference-weighted worlds: how likely the public history is in a world under
//! a model of the other players ([`Likelihood`]), the soft `rule` model
//! ([`RuleLikelihood`]), and sampling-importance-resampling over the exact
//! sampler's worlds ([`WeightedPool`]).
//!
//! The exact [`Sampler`] draws every world consistent with the view (RULES.md
//! section 10) with the same probability: bids, words and the exchange counts
//! are choices, not constraints, so a world where a player who passed holds
//! five trumps and the espada is as likely as any. A [`Likelihood`] scores a
//! world by the log-probability that the *other* seats would have made the
//! public decisions they made had they held the world's cards. A pool of
//! `pool` worlds is drawn from the exact sampler, weighted by
//! `exp(log_weight)`, and the search's worlds are drawn from the pool with
//! probability proportional to the weights (with replacement): the
//! self-normalised importance sampler of the posterior over worlds given the
//! history under the model. Its **effective sample size** `(Σw)² / Σw²` says
//! how many equally weighted worlds the pool is worth; below a threshold the
//! search falls back on the exact sampler's uniform worlds.
//!
//! [`InferParams`] are the `infer=` option of `pimc` and `ismcts`; a model the program
//! gives (`Agent::set_likelihood`, for example a Python callable) replaces the soft
//! rule model; the card-play term, `infer_play`, is `research/card_play.rs`.

use crate::heuristic::rule_eval::{RuleParams, best_suit, evaluate, evaluate_vuelta, keep_set};
use crate::heuristic::rule_eval::{side_value, trump_value};
use crate::research::card_play::card_play;
use crate::rng::{AgentRng, below};
use crate::sampling::infer::Inference;
use crate::sampling::model::Likelihood;
use crate::sampling::sampler::{Sampler, World};
use std::sync::Arc;
use tresillo_core::tables::table;
use tresillo_core::{Bid, CardSet, Contract, PlayerView, Seat, Suit, Word};

/// `ln(sigmoid(x))`, computed without overflow.
fn log_sigmoid(x: f64) -> f64 {
    if x > 0.0 { -(-x).exp().ln_1p() } else { x - x.exp().ln_1p() }
}

/// The `rule` agent's decisions made soft: a documented noise model of a player
/// who decides as `rule` with thresholds `params` (RULES.md sections 3 and 4).
///
/// Scored for every seat other than the viewer, in three-player `tresillo` and
/// `tresillo-house` without `palo_de_favor` (elsewhere the weight is 0: the
/// uniform sampler):
///
/// - **Bids** (section 3): a seat asked to bid at level `L` bids with
///   probability `sigmoid(m_L / temp)`, where `m_L` is the largest margin of its
///   hand evaluation over the threshold among the contracts of level at least
///   `L` (entrada: best suit with the exchange less `entrada`; vuelta:
///   [`evaluate_vuelta`] less `vuelta`; solo: best suit without the exchange
///   less `solo`), and passes otherwise; `temp` is in tenths of a trick. The
///   level asked is the lowest allowed (an earlier seat may equal the standing
///   bid); a forced pass (nothing left to bid) says nothing.
/// - **Contract** (not forced): solo with probability `sigmoid(m_solo / temp)`
///   when vuelta was still allowed; the trump named is a softmax over the four
///   suits of the evaluation (without the exchange for solo, with it for
///   entrada) divided by `temp`. Espada forzada: the softmax alone.
/// - **Conversation** (section 4): the strength `rule` uses (trumps and side
///   winners, no exchange) against its thresholds, each threshold made a
///   sigmoid of width `temp` (the first word an ordered logistic over *vienen*,
///   *como quiera*, *van*); a word `rule` never says there costs `ln eps`.
/// - **Exchange counts** (section 4): `rule` discards every card outside
///   [`keep_set`] (trumps, kings, guarded caballos and sotas), as many as the
///   heap allows. Every card of the world's discards that it would have kept,
///   and every card it would have discarded in addition (when the heap allowed
///   more), costs `ln eps`.
///
/// The hand a seat held when bidding is the world's hand at play with its
/// discards back and the cards drawn taken out; which cards were drawn nobody
/// sees, so the model takes the drawn ones to be the hand's cards outside
/// `keep_set` first (the choice `rule` itself would make most likely), the
/// turned vuelta card always drawn.
/// - **Card play** (when `play` > 0): the world is replayed
///   ([`World::replay_visit`]) and at each card another seat played with a
///   choice (two legal cards or more) `rule` is asked what it would have played
///   from that seat's view in the world: the card played has probability
///   `1 - play + play / n` if it is `rule`'s and `play / n` if not, `n` the
///   legal cards (with probability `play` the player departs from `rule` and
///   plays any legal card). A research option with no measured gain:
///   [`research::card_play`](crate::research::card_play).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RuleLikelihood {
    /// The thresholds of the modelled players.
    pub params: RuleParams,
    /// Width of the soft thresholds, in tenths of a trick (positive).
    pub temp: f64,
    /// Probability of each departure from `rule`'s exact choice (exchange,
    /// words), in `(0, 1)`.
    pub eps: f64,
    /// Probability that a card played departs from `rule`'s, in `(0, 1]`; 0:
    /// card play is not scored.
    pub play: f64,
}

impl RuleLikelihood {
    /// The pre-exchange hand of seat `s` in `world` (see the type's
    /// documentation), or `None` when it cannot be rebuilt.
    fn dealt(view: &PlayerView, world: &World, inf: &Inference, s: Seat) -> CardSet {
        let p = view.public();
        let at_play = world.hands[s] | inf.played_by[s];
        let (Some(k), Some(tr)) = (p.exchanged[s], p.trump) else { return at_play };
        let k = u32::from(k);
        if k == 0 {
            return at_play;
        }
        let d = world.discards[s];
        let mut avail = at_play;
        if Some(s) == p.original_declarer
            && p.contract.is_some_and(Contract::turns_card)
            && let Some(t) = p.turned
        {
            avail.take(t);
        }
        let want = 9u32.saturating_sub(k);
        let keep = keep_set(at_play | d, tr) & avail;
        let mut kept = CardSet::EMPTY;
        for c in keep.iter().chain((avail - keep).iter()) {
            if kept.len() >= want {
                break;
            }
            kept.insert(c);
        }
        kept | d
    }

    /// The bidding margins (entrada, vuelta, solo) of `hand` in tenths.
    fn margins(&self, hand: CardSet) -> [f64; 3] {
        let unseen = hand.complement();
        [
            f64::from(best_suit(hand, unseen, true).1 - self.params.entrada),
            f64::from(evaluate_vuelta(hand, unseen).saturating_sub(self.params.vuelta)),
            f64::from(best_suit(hand, unseen, false).1 - self.params.solo),
        ]
    }

    /// The log-probability of a softmax choice of `pick` among the suits'
    /// evaluations.
    fn suit_choice(&self, hand: CardSet, pick: Suit, exchange: bool) -> f64 {
        let unseen = hand.complement();
        let e = Suit::ALL.map(|s| f64::from(evaluate(hand, unseen, s, exchange)) / self.temp);
        let top = e.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let z: f64 = e.iter().map(|x| (x - top).exp()).sum();
        e[pick.index()] - top - z.ln()
    }
}

impl Likelihood for RuleLikelihood {
    fn log_weight(&self, view: &PlayerView, world: &World) -> f64 {
        let p = view.public();
        let rules = p.game_rules();
        if !p.table.every_seat_plays() || !crate::family::of(&rules).rule_likelihood {
            return 0.0;
        }
        let lw = self.decisions(view, world);
        if self.play > 0.0 && lw > f64::NEG_INFINITY {
            lw + card_play(self.params, self.play, view, world)
        } else {
            lw
        }
    }
}

impl RuleLikelihood {
    /// The log-likelihood of the bids, contract, words and exchange counts.
    fn decisions(&self, view: &PlayerView, world: &World) -> f64 {
        let p = view.public();
        let rules = p.game_rules();
        let me = view.seat();
        let inf = Inference::from_view(view);
        let mut dealt = [CardSet::EMPTY; 3];
        let mut margins = [[0.0; 3]; 3];
        for s in 0..3u8 {
            if Seat(s) != me {
                dealt[s as usize] = Self::dealt(view, world, &inf, Seat(s));
                margins[s as usize] = self.margins(dealt[s as usize]);
            }
        }
        let ln_eps = self.eps.ln();
        let mut lw = 0.0;
        // The auction: each speaker is asked at the lowest level it may bid.
        let mano = p.mano();
        let prio = |s: Seat| (s.0 + 3 - mano.0) % 3;
        let mut standing: Option<(u8, Seat)> = None;
        let mut won = 0u8;
        for b in p.bids() {
            let min = match standing {
                None => 1,
                Some((l, h)) if prio(b.seat) < prio(h) => l,
                Some((l, _)) => l + 1,
            };
            if b.seat != me && min <= 3 {
                let m = margins[b.seat.0 as usize];
                let margin =
                    |l: u8| m[(l.max(1) - 1) as usize..].iter().copied().fold(f64::NEG_INFINITY, f64::max);
                lw += match b.bid {
                    Bid::Paso => log_sigmoid(-(margin(min) + 0.5) / self.temp),
                    Bid::Level(l) => log_sigmoid((margin(l) + 0.5) / self.temp),
                };
            }
            if let Bid::Level(l) = b.bid {
                standing = Some((l, b.seat));
                won = l;
            }
        }
        // The contract and trumps.
        let house = p.forced && !rules.spec().forced_holds_espada;
        if let (Some(d), Some(c)) = (p.original_declarer, p.contract)
            && d != me
            && !house
        {
            let h = dealt[d.0 as usize];
            let solo = (margins[d.0 as usize][2] + 0.5) / self.temp;
            if p.forced {
                if let Some(t) = p.trump {
                    lw += self.suit_choice(h, t, true);
                }
            } else {
                let free = won <= 2;
                match (c, p.trump) {
                    (Contract::Solo, Some(t)) => {
                        lw += if free { log_sigmoid(solo) } else { 0.0 } + self.suit_choice(h, t, false);
                    }
                    (Contract::Entrada, Some(t)) => {
                        lw += log_sigmoid(-solo) + self.suit_choice(h, t, true);
                    }
                    _ => lw += log_sigmoid(-solo),
                }
            }
        }
        // The conversation and the exchange need the trumps.
        let Some(tr) = p.trump else { return lw };
        let t = table(Some(tr));
        let hi = f64::from(self.params.vienen);
        let words = p.words();
        for (i, w) in words.iter().enumerate() {
            if w.seat == me {
                continue;
            }
            let h = dealt[w.seat.0 as usize];
            let s = f64::from(trump_value(t, h & t.trumps) + side_value(t, h, tr)) + 0.5;
            let partner = words[..i].iter().rev().find(|x| x.seat != w.seat).map(|x| x.word);
            let up = |thr: f64| log_sigmoid((s - thr) / self.temp);
            let down = |thr: f64| log_sigmoid(-(s - thr) / self.temp);
            lw += match (partner, w.word) {
                (None, Word::Vienen) => up(hi),
                (None, Word::ComoQuiera) => {
                    let (a, b) = (up(hi - 10.0).exp(), up(hi).exp());
                    (a - b).max(self.eps).ln()
                }
                (None, Word::Van) => down(hi - 10.0),
                (Some(Word::Vienen), Word::Vienen) => up(hi + 15.0),
                (Some(Word::Vienen), Word::Van) => down(hi + 15.0),
                (Some(Word::ComoQuiera), Word::Vienen) => up(hi - 10.0),
                (Some(Word::ComoQuiera), Word::Van) => down(hi - 10.0),
                (Some(Word::Van), Word::Vienen) => 0.0,
                _ => ln_eps,
            };
        }
        if house {
            return lw;
        }
        // The exchange: the heap before each seat, in the order they exchange.
        let mut heap = 13u32;
        let order = match (p.original_declarer, p.first_opponent) {
            (Some(d), Some(fo)) => [Some(d), Some(fo), Some(Seat(3 - d.0 - fo.0))],
            (Some(d), None) => [Some(d), None, None],
            _ => [None, None, None],
        };
        for s in order.into_iter().flatten() {
            let Some(k) = p.exchanged[s] else { break };
            let k = u32::from(k);
            let is_decl = Some(s) == p.original_declarer;
            if s != me {
                let h = dealt[s.0 as usize];
                let keep = keep_set(h, tr);
                let nonkeep = (h - keep).len();
                let (min, max) = if is_decl {
                    (u32::from(p.contract.is_some_and(Contract::turns_card)), heap.min(9))
                } else {
                    (0, heap.min(9))
                };
                let r = nonkeep.clamp(min, max);
                let kept_discarded =
                    (world.discards[s] & keep).len().saturating_sub(min.saturating_sub(nonkeep));
                let v = kept_discarded + r.saturating_sub(k);
                lw += f64::from(v) * ln_eps;
            }
            heap = heap.saturating_sub(k);
        }
        lw
    }
}

/// What one weighting of a pool gave: its size and effective sample size.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PoolStats {
    /// Worlds in the pool.
    pub size: u32,
    /// `(Σw)² / Σw²` of the weights (the pool's size when they are equal; 0
    /// when every weight is 0).
    pub ess: f64,
}

/// A pool of worlds from the exact sampler with their likelihood weights, for
/// sampling-importance-resampling. Allocated once per agent and reused (its
/// buffers grow to the largest pool and stay): a decision that weights a pool
/// allocates nothing once they have grown.
#[derive(Clone, Debug, Default)]
pub struct WeightedPool {
    worlds: Vec<World>,
    /// Each world's log-weight.
    log: Vec<f64>,
    /// Cumulative weights (the last is the total).
    cum: Vec<f64>,
    /// The largest log-weight.
    top: f64,
}

impl WeightedPool {
    /// Draws `size` worlds (at least one) from `sampler` with `rng` and weights
    /// them by `model` (weight `exp(log_weight - max)`). The worlds drawn
    /// depend only on `rng`'s state.
    pub fn fill(
        &mut self,
        sampler: &Sampler,
        view: &PlayerView,
        model: &dyn Likelihood,
        size: u32,
        rng: &mut AgentRng,
    ) -> PoolStats {
        self.worlds.clear();
        for _ in 0..size.max(1) {
            self.worlds.push(sampler.sample(rng));
        }
        model.log_weights(view, &self.worlds, &mut self.log);
        assert_eq!(self.log.len(), self.worlds.len(), "a log-weight for every world");
        self.top = self.log.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        self.temper(1.0)
    }

    /// Weights the pool by the likelihood raised to `alpha` (1: the model's
    /// weights; 0: uniform) and returns the effective sample size. A weaker
    /// power flattens the weights: the fallback when the model's weights
    /// rest on too few worlds.
    pub fn temper(&mut self, alpha: f64) -> PoolStats {
        self.cum.clear();
        let (mut sum, mut sq) = (0.0, 0.0);
        for &x in &self.log {
            let w = if alpha == 0.0 {
                1.0
            } else if self.top.is_finite() {
                (alpha * (x - self.top)).exp()
            } else {
                0.0
            };
            sum += w;
            sq += w * w;
            self.cum.push(sum);
        }
        PoolStats { size: self.worlds.len() as u32, ess: if sq > 0.0 { sum * sum / sq } else { 0.0 } }
    }

    /// One world of the pool, drawn with probability proportional to its
    /// weight (a 53-bit uniform number from `rng`; an empty or all-zero pool
    /// gives `None`).
    #[must_use]
    pub fn pick(&self, rng: &mut AgentRng) -> Option<&World> {
        let total = *self.cum.last()?;
        if total <= 0.0 || total.is_nan() {
            return None;
        }
        let hi = u64::from(below(rng, 1 << 26));
        let lo = u64::from(below(rng, 1 << 27));
        let u = ((hi << 27) | lo) as f64 / (1u64 << 53) as f64 * total;
        let i = self.cum.partition_point(|&c| c <= u).min(self.worlds.len() - 1);
        self.worlds.get(i)
    }

    /// The worlds of the last [`WeightedPool::fill`], in their draw order.
    #[must_use]
    pub fn worlds(&self) -> &[World] {
        &self.worlds
    }
}

/// The parameters of inference-weighted sampling, shared by `pimc` and
/// `ismcts` (`infer`, `infer_temp`, `infer_eps`, `infer_pool`, `infer_ess`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InferParams {
    /// Weight the worlds (false: the exact sampler's uniform worlds, as before).
    pub on: bool,
    /// [`RuleLikelihood::temp`], in tenths of a trick.
    pub temp: u32,
    /// [`RuleLikelihood::eps`], in percent.
    pub eps: u32,
    /// The pool drawn per decision, as a multiple of the decision's worlds.
    pub pool: u32,
    /// The least effective sample size (in worlds) of the weights used: below
    /// it the weights are tempered toward uniform (`TEMPER_STEPS` halvings of
    /// the likelihood's power, then uniform worlds).
    pub min_ess: u32,
    /// [`RuleLikelihood::play`], in percent (0: card play not scored).
    pub play: u32,
}

impl Default for InferParams {
    fn default() -> Self {
        InferParams { on: false, temp: 10, eps: 5, pool: 4, min_ess: 16, play: 0 }
    }
}

impl InferParams {
    /// The spec parameters (name, default, help), for the registry.
    pub const INFO: [(&'static str, &'static str, &'static str); 6] = [
        (
            "infer",
            "0",
            "1: weight the sampled worlds by the likelihood of the others' bids, contract, words and exchange counts under a soft rule model (docs/AGENTS.md)",
        ),
        ("infer_temp", "10", "inference: width of the soft rule thresholds, tenths of a trick (1-1000)"),
        (
            "infer_eps",
            "5",
            "inference: probability of each departure from rule's exchange or word, percent (1-99)",
        ),
        (
            "infer_pool",
            "4",
            "inference: worlds weighted per decision, as a multiple of `worlds` (pimc) or of 64 (ismcts) (1-64)",
        ),
        (
            "infer_ess",
            "16",
            "inference: least effective sample size (worlds); below it the likelihood's power is halved (up to 6 times, then uniform worlds)",
        ),
        (
            "infer_play",
            "0",
            "inference: also score the others' card play against rule's card; the probability of a departure, percent (0: card play not scored, 1-100)",
        ),
    ];

    /// Sets the inference parameter `key` from its spec value. `Ok(false)`: no
    /// such parameter; `Err(why)`: a bad value (the bounds of [`InferParams::INFO`]).
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, crate::spec_error::ValueError> {
        let int = |min: u32, max: u32| crate::spec_error::int_in(value, min, max);
        match key {
            "infer" => self.on = int(0, 1)? == 1,
            "infer_temp" => self.temp = int(1, 1000)?,
            "infer_eps" => self.eps = int(1, 99)?,
            "infer_pool" => self.pool = int(1, 64)?,
            "infer_ess" => self.min_ess = int(1, 100_000)?,
            "infer_play" => self.play = int(0, 100)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The likelihood model these parameters describe, with `rule`'s thresholds.
    #[must_use]
    pub fn model(&self, rule: RuleParams) -> RuleLikelihood {
        RuleLikelihood {
            params: rule,
            temp: f64::from(self.temp.max(1)),
            eps: f64::from(self.eps.clamp(1, 99)) / 100.0,
            play: f64::from(self.play.min(100)) / 100.0,
        }
    }
}

/// An agent's weighted worlds for `infer=1`: the pool (reused between
/// decisions, so that weighting allocates nothing once it has grown) and the
/// weighting's counts since the agent's last `take_work`. Shared by `pimc` and
/// `ismcts`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Weighting {
    /// The last decision's weighted pool.
    pub(crate) pool: WeightedPool,
    /// Weighted decisions, effective sample sizes and fallbacks.
    pub(crate) work: crate::Work,
    /// The model given by the program ([`crate::Agent::set_likelihood`]), used
    /// in place of the soft `rule` of the inference parameters.
    pub(crate) given: Option<Given>,
}

/// A [`Likelihood`] given by the program (a Python model, say), shared by the
/// agents it was given to.
#[derive(Clone)]
pub(crate) struct Given(pub(crate) Arc<dyn Likelihood>);

impl std::fmt::Debug for Given {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Given(a program's likelihood)")
    }
}

impl Weighting {
    /// Weights worlds by `model` from now on, and turns inference on in
    /// `params` (what [`crate::Agent::set_likelihood`] does for pimc and ismcts).
    pub(crate) fn give(&mut self, params: &mut InferParams, model: Arc<dyn Likelihood>) {
        self.given = Some(Given(model));
        params.on = true;
    }

    /// Without `params.on`, `false` (the exact sampler's uniform worlds, no
    /// random number drawn). With it, fills the pool for one decision searching
    /// `worlds` worlds (`params.pool` times as many, weighted by the given model,
    /// else `params.model(rule)`), counts it in `work`, and says whether the search
    /// should draw from the pool (`true`) or fall back on the exact sampler's
    /// uniform worlds.
    ///
    /// When the effective sample size is below `params.min_ess` (capped at the
    /// pool's size) the likelihood's power is halved, up to [`TEMPER_STEPS`]
    /// times, until it is reached (the weights tempered toward uniform); if it
    /// never is (every world about as unlikely as the others, or all ruled
    /// out), the decision draws uniform worlds. Either counts as a fallback.
    pub(crate) fn weigh(
        &mut self,
        params: &InferParams,
        rule: RuleParams,
        worlds: u32,
        sampler: &Sampler,
        view: &PlayerView,
        rng: &mut AgentRng,
    ) -> bool {
        let size = worlds.saturating_mul(params.pool).max(1);
        let soft_rule;
        let model: &dyn Likelihood = match &self.given {
            Some(g) => &*g.0,
            None => {
                soft_rule = params.model(rule);
                &soft_rule
            }
        };
        params.on
            && weigh_with(&mut self.pool, &mut self.work, model, params.min_ess, size, sampler, view, rng)
    }
}

/// How many times [`Weighting::weigh`] halves the likelihood's power before it
/// gives up and draws uniform worlds.
pub const TEMPER_STEPS: u32 = 6;

/// [`Weighting::weigh`] with any model and a pool of `size` worlds.
#[allow(clippy::too_many_arguments)]
pub(crate) fn weigh_with(
    pool: &mut WeightedPool,
    work: &mut crate::Work,
    model: &dyn Likelihood,
    min_ess: u32,
    size: u32,
    sampler: &Sampler,
    view: &PlayerView,
    rng: &mut AgentRng,
) -> bool {
    let mut st = pool.fill(sampler, view, model, size, rng);
    let need = f64::from(min_ess.max(1)).min(f64::from(st.size));
    work.weighted += 1;
    let mut alpha = 1.0;
    let mut steps = 0;
    while st.ess < need && steps < TEMPER_STEPS {
        alpha /= 2.0;
        steps += 1;
        st = pool.temper(alpha);
    }
    if steps > 0 {
        work.fallbacks += 1;
    }
    if st.ess < need {
        work.ess += u64::from(st.size);
        return false;
    }
    work.ess += st.ess as u64;
    true
}

#[cfg(test)]
#[path = "likelihood_tests.rs"]
pub(crate) mod tests;
