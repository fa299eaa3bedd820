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

use crate::heuristic::rule_eval::{RuleParams, best_suit, evaluate, evaluate_vuelta, keep_set};
use crate::heuristic::rule_eval::{side_value, trump_value};
use crate::rng::{AgentRng, below};
use crate::sampling::infer::Inference;
use crate::sampling::sampler::{Sampler, World};
use tresillo_core::tables::table;
use tresillo_core::{Bid, CardSet, Contract, PlayerView, Seat, Suit, Word};

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
}

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
/// turned vuelta card always drawn. Card play is not scored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RuleLikelihood {
    /// The thresholds of the modelled players.
    pub params: RuleParams,
    /// Width of the soft thresholds, in tenths of a trick (positive).
    pub temp: f64,
    /// Probability of each departure from `rule`'s exact choice (exchange,
    /// words), in `(0, 1)`.
    pub eps: f64,
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
        if p.players != 3 || rules.favoured_suit().is_some() || rules.options.contrabola {
            return 0.0;
        }
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
        self.log.clear();
        self.top = f64::NEG_INFINITY;
        for _ in 0..size.max(1) {
            let w = sampler.sample(rng);
            let lw = model.log_weight(view, &w);
            self.top = self.top.max(lw);
            self.worlds.push(w);
            self.log.push(lw);
        }
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
    /// it the weights are tempered toward uniform ([`TEMPER_STEPS`]).
    pub min_ess: u32,
}

impl Default for InferParams {
    fn default() -> Self {
        InferParams { on: false, temp: 10, eps: 5, pool: 4, min_ess: 16 }
    }
}

impl InferParams {
    /// The spec parameters (name, default, help), for the registry.
    pub const INFO: [(&'static str, &'static str, &'static str); 5] = [
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
    ];

    /// Sets the inference parameter `key` from its spec value. `Ok(false)`: no
    /// such parameter; `Err(why)`: a bad value (the bounds of [`InferParams::INFO`]).
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, String> {
        let int = |min: u32, max: u32| -> Result<u32, String> {
            let x: i64 = value.parse().map_err(|_| "expected an integer".to_string())?;
            if x < i64::from(min) || x > i64::from(max) {
                return Err(format!("must be between {min} and {max}"));
            }
            Ok(x as u32)
        };
        match key {
            "infer" => self.on = int(0, 1)? == 1,
            "infer_temp" => self.temp = int(1, 1000)?,
            "infer_eps" => self.eps = int(1, 99)?,
            "infer_pool" => self.pool = int(1, 64)?,
            "infer_ess" => self.min_ess = int(1, 100_000)?,
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
        }
    }
}

/// How many times [`weigh`] halves the likelihood's power before it gives up
/// and draws uniform worlds.
pub const TEMPER_STEPS: u32 = 6;

/// Fills `pool` for one decision searching `worlds` worlds (`params.pool`
/// times as many, weighted by `params.model(rule)`), counts it in `work`, and
/// says whether the search should draw from the pool (`true`) or fall back on
/// the exact sampler's uniform worlds.
///
/// When the effective sample size is below `params.min_ess` (capped at the
/// pool's size) the likelihood's power is halved, up to [`TEMPER_STEPS`]
/// times, until it is reached (the weights tempered toward uniform); if it
/// never is (every world about as unlikely as the others, or all ruled out),
/// the decision draws uniform worlds. Either counts as a fallback.
#[allow(clippy::too_many_arguments)]
pub(crate) fn weigh(
    pool: &mut WeightedPool,
    work: &mut crate::Work,
    params: &InferParams,
    rule: RuleParams,
    worlds: u32,
    sampler: &Sampler,
    view: &PlayerView,
    rng: &mut AgentRng,
) -> bool {
    let size = worlds.saturating_mul(params.pool).max(1);
    weigh_with(pool, work, &params.model(rule), params.min_ess, size, sampler, view, rng)
}

/// [`weigh`] with any model and a pool of `size` worlds.
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
mod tests {
    use super::*;
    use crate::Agent;
    use crate::heuristic::rule::RuleAgent;
    use crate::rng::{deal_for_seed, rng_from_seed};
    use tresillo_core::{Hand, Request, RuleSet};

    /// The true world of `hand`.
    fn truth(hand: &Hand) -> World {
        let mut w = World::default();
        for s in 0..3u8 {
            w.hands.0[s as usize] = hand.hand_of(Seat(s));
            w.discards.0[s as usize] = hand.discards_of(Seat(s));
        }
        w.heap = hand.heap_remaining();
        w
    }

    /// For each deal played by three rule agents, at the first card decision of
    /// every seat with more than one legal card after trick 1: the share of
    /// `n` sampled worlds whose log-weight exceeds the true world's, and the
    /// pool's effective sample size.
    fn ranks(model: &RuleLikelihood, seeds: std::ops::Range<u64>, n: u32) -> Vec<(f64, f64, f64)> {
        let mut out = Vec::new();
        let mut agent = RuleAgent::new(model.params);
        for seed in seeds {
            let mut hand =
                Hand::new(RuleSet::Tresillo, 3, deal_for_seed(seed), Seat((seed % 3) as u8)).unwrap();
            let mut rng = rng_from_seed(seed);
            let mut seen = [false; 3];
            while !hand.is_done() {
                let req = hand.request();
                let seat = req.seat().unwrap();
                let view = hand.view(seat);
                if let Request::Play { legal, .. } = req
                    && legal.len() > 1
                    && view.public().plays().len() >= 3
                    && !seen[seat.0 as usize]
                {
                    seen[seat.0 as usize] = true;
                    let sampler = Sampler::new(&view).unwrap();
                    let t = model.log_weight(&view, &truth(&hand));
                    assert!(t.is_finite());
                    let mut pool = WeightedPool::default();
                    let st = pool.fill(&sampler, &view, model, n, &mut rng);
                    let above = pool.worlds().iter().filter(|w| model.log_weight(&view, w) > t).count();
                    out.push((above as f64 / f64::from(n), st.ess, t));
                }
                let d = agent.decide(&view, &mut rng);
                hand.apply(d).unwrap();
            }
        }
        out
    }

    /// Plays `seed` with three rule agents, except that `pass` (if any) passes
    /// every bid, up to the first card decision of `viewer` with a choice after
    /// trick 1; returns that hand.
    fn hand_at(seed: u64, viewer: Seat, pass: Option<Seat>) -> Option<Hand> {
        let mut hand = Hand::new(RuleSet::Tresillo, 3, deal_for_seed(seed), Seat((seed % 3) as u8)).ok()?;
        let mut agent = RuleAgent::default();
        let mut rng = rng_from_seed(seed);
        while !hand.is_done() {
            let req = hand.request();
            let seat = req.seat()?;
            let view = hand.view(seat);
            if seat == viewer
                && matches!(req, Request::Play { legal, .. } if legal.len() > 1)
                && view.public().plays().len() >= 3
            {
                return Some(hand);
            }
            let d = match req {
                Request::Bid { .. } if Some(seat) == pass => tresillo_core::Decision::Bid(Bid::Paso),
                _ => agent.decide(&view, &mut rng),
            };
            hand.apply(d).ok()?;
        }
        None
    }

    /// The share of `n` sampled worlds whose log-weight exceeds the true
    /// world's, at `hand`'s request.
    fn share_above(model: &RuleLikelihood, hand: &Hand, n: u32, seed: u64) -> f64 {
        let view = hand.view(hand.request().seat().unwrap());
        let t = model.log_weight(&view, &truth(hand));
        let sampler = Sampler::new(&view).unwrap();
        let mut rng = rng_from_seed(seed);
        let above = (0..n).filter(|_| model.log_weight(&view, &sampler.sample(&mut rng)) > t).count();
        above as f64 / f64::from(n)
    }

    fn model() -> RuleLikelihood {
        InferParams::default().model(RuleParams::default())
    }

    #[test]
    fn the_true_world_of_rule_players_outranks_most_sampled_worlds() {
        let m = model();
        let mut shares = Vec::new();
        for seed in 1..40 {
            if let Some(h) = hand_at(seed, Seat(0), None) {
                shares.push(share_above(&m, &h, 64, seed));
            }
        }
        assert!(shares.len() >= 20, "{} hands", shares.len());
        let mean = shares.iter().sum::<f64>() / shares.len() as f64;
        // Uniform ranks would give 0.5.
        assert!(mean < 0.15, "the true world is outranked by {mean:.3} of the worlds");
    }

    #[test]
    fn a_seat_that_passed_is_unlikely_to_hold_the_bidders_hand() {
        // During the auction, when one other seat has passed and the other bid:
        // the true world beats the one with their hands swapped.
        let m = model();
        let (mut cases, mut wins, mut gap) = (0u32, 0u32, 0.0);
        for seed in 1..300 {
            let mut hand =
                Hand::new(RuleSet::Tresillo, 3, deal_for_seed(seed), Seat((seed % 3) as u8)).unwrap();
            let mut agent = RuleAgent::default();
            let mut rng = rng_from_seed(seed);
            while let Request::Bid { seat, .. } = hand.request() {
                let view = hand.view(seat);
                let bids = view.public().bids();
                let said = |s: Seat| bids.iter().find(|b| b.seat == s).map(|b| b.bid);
                let (a, b) = (seat.next(3), seat.plus(2, 3));
                let (passer, bidder) = match (said(a), said(b)) {
                    (Some(Bid::Paso), Some(Bid::Level(_))) => (a, b),
                    (Some(Bid::Level(_)), Some(Bid::Paso)) => (b, a),
                    _ => {
                        let d = agent.decide(&view, &mut rng);
                        hand.apply(d).unwrap();
                        continue;
                    }
                };
                let t = truth(&hand);
                let mut swapped = t;
                swapped.hands[passer] = t.hands[bidder];
                swapped.hands[bidder] = t.hands[passer];
                let (lt, ls) = (m.log_weight(&view, &t), m.log_weight(&view, &swapped));
                wins += u32::from(lt > ls);
                gap += lt - ls;
                cases += 1;
                break;
            }
        }
        assert!(cases >= 10, "{cases} cases");
        assert!(wins * 10 >= cases * 8, "the true world likelier in {wins} of {cases}");
        assert!(gap / f64::from(cases) > 2.0, "mean gap {:.2}", gap / f64::from(cases));
    }

    /// A likelihood that keeps only the worlds where seat 1 holds `card`.
    struct Holds(tresillo_core::Card, f64);
    impl Likelihood for Holds {
        fn log_weight(&self, _: &PlayerView, w: &World) -> f64 {
            if w.hands[Seat(1)].contains(self.0) { 0.0 } else { self.1 }
        }
    }

    #[test]
    fn weights_are_used_tempered_or_dropped_by_the_effective_sample_size() {
        let h = (1..50).find_map(|seed| hand_at(seed, Seat(0), None)).unwrap();
        let view = h.view(Seat(0));
        let sampler = Sampler::new(&view).unwrap();
        let hidden = view.unseen_cards() & truth(&h).hands[Seat(1)];
        let card = hidden.first().unwrap();
        let mut pool = WeightedPool::default();
        let mut rng = rng_from_seed(7);
        // Flat weights: the pool's size.
        let st = pool.fill(&sampler, &view, &Holds(card, 0.0), 100, &mut rng);
        assert!((st.ess - 100.0).abs() < 1e-9);
        // A mild preference: used as it is, and every draw favours seat 1 holding the card.
        let mut work = crate::Work::default();
        assert!(weigh_with(&mut pool, &mut work, &Holds(card, -1.0), 16, 200, &sampler, &view, &mut rng));
        assert_eq!((work.weighted, work.fallbacks), (1, 0));
        let held = (0..400).filter(|_| pool.pick(&mut rng).unwrap().hands[Seat(1)].contains(card)).count();
        let share = pool.worlds().iter().filter(|w| w.hands[Seat(1)].contains(card)).count() as f64 / 200.0;
        let expected = share / (share + (1.0 - share) * (-1.0f64).exp());
        assert!((held as f64 / 400.0 - expected).abs() < 0.1, "{held} of 400, expected {expected:.2}");
        // Every world ruled out (the viewer's own card in seat 1's hand): uniform worlds.
        let mut work = crate::Work::default();
        let gone = Holds(view.hand().first().unwrap(), f64::NEG_INFINITY);
        assert!(!weigh_with(&mut pool, &mut work, &gone, 16, 64, &sampler, &view, &mut rng));
        assert_eq!((work.weighted, work.fallbacks, work.ess), (1, 1, 64));
        // One world far likelier than the others (ESS 14.8 < 16): tempered once (54.8).
        struct One(World);
        impl Likelihood for One {
            fn log_weight(&self, _: &PlayerView, w: &World) -> f64 {
                if *w == self.0 { 0.0 } else { -3.0 }
            }
        }
        pool.fill(&sampler, &view, &Holds(card, 0.0), 64, &mut rng_from_seed(9));
        let one = One(pool.worlds()[0]);
        assert!(pool.worlds()[1..].iter().all(|w| *w != one.0));
        let mut work = crate::Work::default();
        assert!(weigh_with(&mut pool, &mut work, &one, 16, 64, &sampler, &view, &mut rng_from_seed(9)));
        assert_eq!((work.weighted, work.fallbacks, work.ess), (1, 1, 54));
        // Without tempering it would not have been enough.
        assert!(pool.temper(1.0).ess < 16.0);
    }

    /// Plays deal `seed` with `spec` in every seat; the plays, the bids and the
    /// decisions whose worlds were weighted.
    fn play(spec: &str, seed: u64) -> (Vec<tresillo_core::Card>, Vec<tresillo_core::BidEntry>, u64) {
        let mut hand = Hand::new(RuleSet::Tresillo, 3, deal_for_seed(seed), Seat(0)).unwrap();
        let mut agents: Vec<Box<dyn Agent>> = (0..3).map(|_| crate::build_agent(spec).unwrap()).collect();
        let mut rngs = crate::seat_rngs(seed);
        crate::play_hand(&mut hand, &mut agents, &mut rngs).unwrap();
        let weighted = agents.iter_mut().map(|a| a.take_work().weighted).sum();
        (hand.public().plays().to_vec(), hand.public().bids().to_vec(), weighted)
    }

    #[test]
    fn weighted_pimc_decides_the_same_on_any_number_of_threads() {
        let mut weighted = 0;
        for seed in [11, 12] {
            let one = play("pimc:infer=1:worlds=8:bid_worlds=2:threads=1", seed);
            let three = play("pimc:infer=1:worlds=8:bid_worlds=2:threads=3", seed);
            assert_eq!(one, three, "seed {seed}");
            weighted += one.2;
        }
        assert!(weighted > 0);
    }

    #[test]
    fn infer_0_decides_as_before_and_ismcts_weights_with_infer_1() {
        let mut weighted = 0;
        for seed in [11, 12] {
            let plain = play("pimc:worlds=8:bid_worlds=2", seed);
            assert_eq!(plain, play("pimc:worlds=8:bid_worlds=2:infer=0:infer_temp=3:infer_pool=9", seed));
            assert_eq!(plain.2, 0);
            let ismcts = play("ismcts:iters=200", seed);
            assert_eq!(ismcts, play("ismcts:iters=200:infer=0:infer_eps=50", seed));
            weighted += play("ismcts:iters=200:infer=1:infer_pool=1", seed).2;
        }
        assert!(weighted > 0);
    }

    #[test]
    fn bad_inference_values_are_spec_errors() {
        use crate::SpecError;
        for spec in [
            "pimc:infer=2",
            "pimc:infer_temp=0",
            "pimc:infer_eps=100",
            "pimc:infer_pool=65",
            "pimc:infer_ess=0",
            "ismcts:infer=x",
            "ismcts:infer_pool=0",
        ] {
            assert!(matches!(crate::build_agent(spec), Err(SpecError::BadValue { .. })), "{spec}");
        }
        assert!(
            crate::build_agent("ismcts:infer=1:infer_temp=20:infer_eps=10:infer_pool=2:infer_ess=4").is_ok()
        );
        assert!(
            crate::build_agent("pimc:infer=1:infer_temp=20:infer_eps=10:infer_pool=2:infer_ess=4").is_ok()
        );
        assert!(matches!(crate::build_agent("rule:infer=1"), Err(SpecError::UnknownParam { .. })));
    }

    #[test]
    #[ignore = "diagnostic: cargo test -p tresillo-agents --release likelihood_diagnostic -- --ignored --nocapture"]
    fn likelihood_diagnostic() {
        for (temp, eps) in [(10.0, 0.05), (20.0, 0.1), (5.0, 0.02)] {
            let model = RuleLikelihood { params: RuleParams::default(), temp, eps };
            let r = ranks(&model, 9001..9101, 256);
            let k = r.len() as f64;
            let above = r.iter().map(|x| x.0).sum::<f64>() / k;
            let ess = r.iter().map(|x| x.1).sum::<f64>() / k;
            let low = r.iter().filter(|x| x.1 < 8.0).count();
            let lt = r.iter().map(|x| x.2).sum::<f64>() / k;
            eprintln!(
                "temp {temp} eps {eps}: {k} decisions, share above truth {above:.3}, mean ess {ess:.1}, ess<8 {low}, mean true lw {lt:.2}"
            );
        }
    }
}
