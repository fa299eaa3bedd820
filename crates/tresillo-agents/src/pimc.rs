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
//!   view are drawn and the card with the best mean utility for this seat's side
//!   over them is played (ties: the first in the engine's sort order), exactly
//!   the card that solving every legal card in every world would choose, found
//!   with less search: each world's value (one or two zero-window searches)
//!   bounds all its cards (a declarer's card is at most the value, an
//!   opponent's at least; each card its root searched also by its own result),
//!   and only the card with the best optimistic sum is searched further, one
//!   zero-window search at a time, until its sum is exact (it is then the
//!   choice). The value's root tries first the card that leads over the worlds
//!   drawn before, so the card most likely to need an exact class in this world
//!   often gets it from the value's own search. When the cards tie, as they
//!   mostly do at the first card, that is the value plus about 1.5 searches
//!   per world instead of one per card. *Adaptive stopping*: with `adaptive=1`
//!   (the default), after every 8 worlds the leading card's sum is made exact
//!   and the draws stop when the worlds left could not change the choice (its
//!   lead exceeds what they could give any other card), so the choice is the
//!   one all worlds would give. *Threads*: with `threads=N` (default 1) the
//!   values of the worlds are solved on N threads of rayon's pool (the worlds
//!   drawn in batches up to the next multiple of 8 on the calling thread, each
//!   thread with its own solver context, the leading card fixed for a batch),
//!   and the leading card is searched in its first N inexact worlds at once
//!   (some of these searches may prove unneeded: more CPU time for less wall
//!   time). The worlds drawn and the card chosen are the same for every N;
//!   only the search work differs.
//! - **Surrender** (declarer, after trick 3): give up when the mean utility of
//!   playing on is below that of a puesta (-1).
//! - **Takeover** (*yo sigo*): take over when the mean utility as the new
//!   declarer is positive (declining leaves a puesta of the other declarer, worth
//!   nothing to this seat).
//! - **Primeras or bola**: the share `p` of worlds in which the declarer can take
//!   every remaining trick; a bola pays 8 from each of two opponents, a failed one
//!   8 to each, primeras 1 from each: play on when `16 p - 16 (1 - p) > 2`.
//! - **Auction, contract and trumps** by Monte Carlo, once per hand: `bid_worlds`
//!   worlds are drawn from the sampler (the other hands and the heap, in a random
//!   drawing order). In each world every contract this seat could declare is
//!   played out through the exchange (RULES.md section 4) and solved with this
//!   seat declaring and mano leading: **entrada** and **solo** in each suit, and
//!   **vuelta** (the top card of the heap turned, its suit trumps, drawn first).
//!   In the exchange the declarer (entrada, vuelta; at least one card in vuelta)
//!   and then the opponent after it and the other opponent discard as the rule
//!   agent does (everything outside [`keep_set`](crate::keep_set), up to what is
//!   left of the heap) and draw from the top; the first opponent is taken to be
//!   the one after the declarer (the conversation is not simulated). A contract's
//!   value is its mean **bidding utility**, [`bid_utility`]: the declarer's
//!   tantos under deal scoring (a fresh ledger: sacado +8, puesta -9, codillo
//!   -18, condiciones vuelta 1 and solo 2 from or to each opponent) in amounts in
//!   play (9). The agent bids the lowest level allowed while some contract of at
//!   least that level is worth more than `bid_margin` (hundredths of an amount in
//!   play), else passes; it names the contract of best value among those that
//!   reach the level won (entrada in its best suit when forced). `bid_margin` 0
//!   is the best of -60, -30, 0, 30 and 60 in `experiments/tune-pimc-margin.toml`
//!   (the differences are within the noise of 300 deals). Perfect-information
//!   solving is optimistic for the declarer (it never misguesses a card) and
//!   the simulated exchange is the rule agent's; the margin is what would pay
//!   for either.
//! - **Exchange and conversation**: as the rule agent with the `rule` parameters.
//!
//! When the view admits no world (it cannot happen in a real hand) the agent falls
//! back on the rule agent's decision.
//!
//! # Other rule sets
//!
//! Everything above is three-player `tresillo` and `tresillo-house` (with
//! `palo_de_favor` and `codillo_old`). In `hombre`, `lhombre` and at four
//! players `decide` (and the oracle's) hands the request to
//! [`gpimc`](crate::gpimc) first, which solves the contract's own objective
//! with the general solver ([`gsolver`](crate::gsolver)) and values its
//! classes by the rule set's ledger for a fresh deal:
//!
//! | rule set | searched (sampled worlds) | as the rule agent |
//! | --- | --- | --- |
//! | `hombre` (points or chips, every option) | card play (lost / won / cuatro; chips lost / won; contrabola no trick; the vole all tricks), surrender, takeover, acceptance of a surrendered vuelta, primeras or vole, declared vole; the auction and the contract by the Monte Carlo above (entrada, vuelta, solo), a won or lost game valued by the ledger ([`HombreBids`](crate::gpimc::HombreBids), `bid_margin` in hundredths of a simple game won) | contrabola (never chosen), obligation and gascarille trumps, exchange and exchange right |
//! | `lhombre` | card play (win / draw / loss; nolo, pure nolo and nolo ouvert 0 / 1 / 2+ tricks in the no-trump order; the tout all tricks), primeras or tout | auction (self bids, raises), contract (nolo contracts, tourné), exchange |
//! | four-player `tresillo` (worlds from the four-player sampler) | card play (section 7 against two opponents, or three under `penetro_all_play`), surrender, takeover, bola | auction, contract, the penetro's heap end, give-up and drop-out, exchange, conversation |

use crate::Agent;
use crate::cheat::CheatAgent;
use crate::rng::AgentRng;
use crate::rng::below;
use crate::rule::{RuleAgent, RuleParams, exchange_discards};
use crate::sampler::Sampler;
use crate::solver::{Class, Position, SolverContext};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
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

/// Adaptive stopping checks the choice after every `CHUNK` worlds.
const CHUNK: u32 = 8;

/// One sampled world of a card decision: its position, the card searched for
/// each legal card (its run's representative) and bounds on each card's class.
#[derive(Clone, Copy, Debug)]
struct World {
    pos: Position,
    reps: [Card; 10],
    lo: [Class; 10],
    hi: [Class; 10],
}

/// The first card (index) with the best optimistic sum over `worlds`.
fn candidate(worlds: &[World], n: usize, decl: bool) -> usize {
    let mut high = [0i32; 10];
    for w in worlds {
        for (h, (&lo, &hi)) in high.iter_mut().zip(w.lo.iter().zip(&w.hi)).take(n) {
            *h += if decl { declarer_utility(hi) } else { -declarer_utility(lo) };
        }
    }
    let mut t = 0;
    for i in 1..n {
        if high[i] > high[t] {
            t = i;
        }
    }
    t
}

/// The parameters of `pimc` (and `oracle`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PimcParams {
    /// Worlds drawn per decision.
    pub worlds: u32,
    /// Stop drawing once no remaining world could change the card chosen.
    pub adaptive: bool,
    /// Threads of rayon's pool solving the worlds of a card decision (1: the
    /// calling thread only; the card chosen is the same for any value).
    pub threads: u32,
    /// Worlds drawn for the auction and the contract (once per hand).
    pub bid_worlds: u32,
    /// Least mean utility (hundredths of an AIP) for which the agent declares.
    pub bid_margin: i32,
    /// The rule agent's thresholds, for the decisions made as the rule agent.
    pub rule: RuleParams,
}

impl Default for PimcParams {
    fn default() -> Self {
        PimcParams {
            worlds: 64,
            adaptive: true,
            threads: 1,
            bid_worlds: 16,
            bid_margin: 0,
            rule: RuleParams::default(),
        }
    }
}

/// The decisions made by solving positions, shared by `pimc` (over sampled
/// worlds) and `oracle` (on the true world). Owns its solver context.
#[derive(Debug, Default)]
struct Solving {
    ctx: Option<Box<SolverContext>>,
    /// The worlds of the card decision in progress (kept to reuse the buffer).
    worlds: Vec<World>,
    /// Threads solving the values of a card decision's worlds (1: the calling
    /// thread only), and the contexts of the threads after the first.
    threads: usize,
    helpers: Vec<SolverContext>,
}

impl Solving {
    /// Card decisions solving worlds on `threads` threads of rayon's pool.
    fn with_threads(threads: u32) -> Solving {
        Solving { threads: threads.max(1) as usize, ..Solving::default() }
    }

    fn ctx(&mut self) -> &mut SolverContext {
        self.ctx.get_or_insert_with(|| Box::new(SolverContext::new()))
    }

    /// The card with the best mean utility for `me` over the worlds `next` yields
    /// (at most `max` of them), or `None` if no world could be solved.
    ///
    /// The choice is the one solving every card in every world would give (the
    /// first card in the engine's order among those of the best sum), found
    /// lazily: each world's value bounds all its cards (a declarer's card is at
    /// most the value, an opponent's at least), and only the card with the best
    /// optimistic sum is searched further, one zero-window search at a time,
    /// until that card's sum is exact (it is then the choice: no other card's
    /// optimistic sum is higher, and any equal one comes later in the order).
    /// With `adaptive`, every [`CHUNK`] worlds the leading card's sum is made
    /// exact and drawing stops when the worlds left could not change the choice.
    fn card(
        &mut self,
        legal: CardSet,
        me: Seat,
        declarer: Seat,
        max: u32,
        adaptive: bool,
        mut next: impl FnMut() -> Option<PlayState>,
    ) -> Option<Card> {
        let decl = me == declarer;
        let mut cards = [Card::ESPADA; 10];
        let n = {
            let mut k = 0;
            for c in legal {
                cards[k] = c;
                k += 1;
            }
            k
        };
        let mut worlds = std::mem::take(&mut self.worlds);
        worlds.clear();
        let mut drawn = 0;
        let mut choice = None;
        while drawn < max {
            // Worlds are drawn one at a time on one thread, in batches up to the
            // next multiple of CHUNK on several (the same draws either way).
            let until = if self.threads > 1 { (drawn / CHUNK + 1) * CHUNK } else { drawn + 1 }.min(max);
            let start = worlds.len();
            while drawn < until {
                drawn += 1;
                let Some(ps) = next() else { continue };
                let Ok(pos) = Position::from_play_state(&ps, declarer) else { continue };
                let mut reps = [Card::ESPADA; 10];
                if self.ctx().representatives(&pos, &mut reps) != n {
                    continue;
                }
                worlds.push(World { pos, reps, lo: [Class::Codillo; 10], hi: [Class::Sacado; 10] });
            }
            // The value's searches try first the card that leads so far (the
            // one `settle` would search next), which often makes it exact here.
            let first = candidate(&worlds[..start], n, decl);
            self.values(&mut worlds[start..], n, first);
            if adaptive && drawn < max && drawn % CHUNK == 0 {
                let left = (max - drawn) as i32 * SPREAD;
                let (best, gap) = self.settle(&mut worlds, &cards[..n], decl, left);
                if gap {
                    choice = Some(best);
                    break;
                }
            }
        }
        if choice.is_none() && !worlds.is_empty() {
            choice = Some(self.settle(&mut worlds, &cards[..n], decl, 0).0);
        }
        self.worlds = worlds;
        choice
    }

    /// Solves the value of each world of `batch` (bounding its `n` cards), the
    /// card of index `first` tried first at the root, on up to `self.threads`
    /// threads (see [`Self::jobs`]). The bounds are exact facts, the same
    /// whoever solves a world.
    fn values(&mut self, batch: &mut [World], n: usize, first: usize) {
        if self.threads.min(batch.len()) <= 1 {
            let ctx = self.ctx();
            for w in batch {
                ctx.value_bounds(&w.pos, Some(w.reps[first]), &w.reps[..n], &mut w.lo[..n], &mut w.hi[..n]);
            }
            return;
        }
        // Each world's bounds come back packed: card i's lo and hi (2 bits
        // each) at bits 4i and 4i + 2.
        let packed: [AtomicU64; CHUNK as usize] = std::array::from_fn(|_| AtomicU64::new(0));
        let worlds: &[World] = batch;
        self.jobs(worlds.len(), &|ctx: &mut SolverContext, k: usize| {
            let w = &worlds[k];
            let (mut lo, mut hi) = (w.lo, w.hi);
            ctx.value_bounds(&w.pos, Some(w.reps[first]), &w.reps[..n], &mut lo[..n], &mut hi[..n]);
            let mut bits = 0u64;
            for i in 0..n {
                bits |= (lo[i] as u64) << (4 * i) | (hi[i] as u64) << (4 * i + 2);
            }
            packed[k].store(bits, Ordering::Relaxed);
        });
        for (w, p) in batch.iter_mut().zip(&packed) {
            let bits = p.load(Ordering::Relaxed);
            for i in 0..n {
                w.lo[i] = Class::ALL[(bits >> (4 * i) & 3) as usize];
                w.hi[i] = Class::ALL[(bits >> (4 * i + 2) & 3) as usize];
            }
        }
    }

    /// Runs `work(ctx, k)` for every `k` in `0..count` on up to `self.threads`
    /// threads of rayon's pool (the calling thread one of them), each with its
    /// own context, each taking the next `k` not yet taken.
    fn jobs(&mut self, count: usize, work: &(impl Fn(&mut SolverContext, usize) + Sync)) {
        let threads = self.threads.min(count).max(1);
        while self.helpers.len() < threads - 1 {
            self.helpers.push(SolverContext::new());
        }
        let taken = AtomicUsize::new(0);
        let each = |ctx: &mut SolverContext| {
            loop {
                let k = taken.fetch_add(1, Ordering::Relaxed);
                if k >= count {
                    break;
                }
                work(ctx, k);
            }
        };
        fn run(ctxs: &mut [SolverContext], each: &(impl Fn(&mut SolverContext) + Sync)) {
            match ctxs {
                [] => {}
                [one] => each(one),
                _ => {
                    let (a, b) = ctxs.split_at_mut(ctxs.len() / 2);
                    rayon::join(|| run(a, each), || run(b, each));
                }
            }
        }
        let main = self.ctx.get_or_insert_with(|| Box::new(SolverContext::new()));
        if threads == 1 {
            each(main);
        } else {
            rayon::join(|| each(main), || run(&mut self.helpers[..threads - 1], &each));
        }
    }

    /// Searches the card with the best optimistic sum over `worlds` until its sum
    /// is exact, and returns it with whether it stays the choice even if each of
    /// the worlds not yet drawn gave every other card `slack` more than it (when
    /// `slack` is 0: always true; the card is then the choice).
    fn settle(&mut self, worlds: &mut [World], cards: &[Card], decl: bool, slack: i32) -> (Card, bool) {
        let sign = if decl { 1 } else { -1 };
        // The utility for this side of a card whose class lies in [lo, hi].
        let bounds = |lo: Class, hi: Class| {
            let (a, b) = (sign * declarer_utility(lo), sign * declarer_utility(hi));
            (a.min(b), a.max(b))
        };
        loop {
            let mut low = [0i32; 10];
            let mut high = [0i32; 10];
            for w in worlds.iter() {
                for i in 0..cards.len() {
                    let (l, h) = bounds(w.lo[i], w.hi[i]);
                    low[i] += l;
                    high[i] += h;
                }
            }
            let mut t = 0;
            for i in 1..cards.len() {
                if high[i] > high[t] {
                    t = i;
                }
            }
            if low[t] == high[t] {
                let clear = (0..cards.len()).all(|i| {
                    i == t || if i < t { high[i] + slack < low[t] } else { high[i] + slack <= low[t] }
                });
                return (cards[t], clear);
            }
            // One zero-window search of card t in the first world where it is
            // not exact (with several threads, in as many such worlds at once),
            // at its best case for the mover: does a declarer's card reach its
            // `hi`, an opponent's card let the declarer above its `lo`? The
            // answer narrows every card of the same run there.
            let mut at = [0usize; 8];
            let mut m = 0;
            for (k, w) in worlds.iter().enumerate() {
                if w.lo[t] != w.hi[t] {
                    at[m] = k;
                    m += 1;
                    if m == self.threads.clamp(1, at.len()) {
                        break;
                    }
                }
            }
            let target = |w: &World| if decl { w.hi[t] } else { Class::ALL[w.lo[t] as usize + 1] };
            let ok: [AtomicBool; 8] = std::array::from_fn(|_| AtomicBool::new(false));
            {
                let worlds: &[World] = worlds;
                self.jobs(m, &|ctx: &mut SolverContext, j: usize| {
                    let w = &worlds[at[j]];
                    ok[j].store(ctx.card_at_least(&w.pos, w.reps[t], target(w)), Ordering::Relaxed);
                });
            }
            for j in 0..m {
                let w = &mut worlds[at[j]];
                let (rep, goal) = (w.reps[t], target(w));
                for i in 0..cards.len() {
                    if w.reps[i] == rep {
                        if ok[j].load(Ordering::Relaxed) {
                            w.lo[i] = goal;
                        } else {
                            w.hi[i] = Class::ALL[goal as usize - 1];
                        }
                    }
                }
            }
        }
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

/// The mean bidding utility of each contract: entrada and solo by trump suit
/// (by [`Suit::index`]), and vuelta.
#[derive(Clone, Copy, Debug)]
struct Values {
    entrada: [f64; 4],
    solo: [f64; 4],
    vuelta: f64,
}

/// The bidding utility: the declarer's tantos for a contract ending in class
/// `c`, in amounts in play,
/// as deal scoring pays them (RULES.md section 8, a fresh ledger: plato 6, amount
/// in play 9): a sacado takes the plato and 1 from each opponent (+8), a puesta
/// pays 9, a codillo 18; the condiciones (vuelta 1, solo 2, doubled in a
/// favoured suit) come from or go to each of the two opponents. (The contracts
/// of other rule sets, which `pimc` does not play, count as a solo.)
#[must_use]
pub fn bid_utility(c: Class, contract: Contract, favoured: bool) -> f64 {
    let cond = match contract {
        Contract::Entrada => 0.0,
        Contract::Vuelta => 1.0,
        _ => 2.0,
    } * if favoured { 2.0 } else { 1.0 };
    let tantos = match c {
        Class::Sacado => 8.0 + 2.0 * cond,
        Class::Puesta => -9.0 - 2.0 * cond,
        Class::Codillo => -18.0 - 2.0 * cond,
    };
    tantos / 9.0
}

/// The hands after the exchange of `contract` declared by `me` with `trump`,
/// from the `dealt` hands and the heap in drawing order: the declarer (entrada,
/// vuelta) discards as the rule agent does (vuelta: at least one card, the turned
/// card drawn first), then the opponent after the declarer and then the other,
/// each discarding as the rule agent does, up to what is left in the heap (any
/// other contract: as solo, the declarer keeping its hand).
fn exchange(dealt: [CardSet; 3], heap: &[Card], me: Seat, contract: Contract, trump: Suit) -> [CardSet; 3] {
    let mut hands = dealt;
    let mut top = 0;
    let mut swap = |hands: &mut [CardSet; 3], seat: Seat, min: u32| {
        let h = hands[seat.index()];
        let left = (heap.len() - top) as u32;
        let out = exchange_discards(h, trump, min.min(left), left);
        let mut h = h - out;
        for &c in &heap[top..top + out.len() as usize] {
            h.insert(c);
        }
        top += out.len() as usize;
        hands[seat.index()] = h;
    };
    match contract {
        Contract::Entrada => swap(&mut hands, me, 0),
        Contract::Vuelta => swap(&mut hands, me, 1),
        _ => {}
    }
    swap(&mut hands, me.next(3), 0);
    swap(&mut hands, me.plus(2, 3), 0);
    hands
}

/// The PIMC agent (`pimc`): see the module documentation.
#[derive(Debug)]
pub struct PimcAgent {
    params: PimcParams,
    rule: RuleAgent,
    solving: Solving,
    /// This hand's contract values, once computed.
    values: Option<Values>,
    /// The play-phase search of the other rule sets ([`gpimc`](crate::gpimc)).
    general: crate::gpimc::General,
}

impl PimcAgent {
    /// A PIMC agent with these parameters.
    #[must_use]
    pub fn new(params: PimcParams) -> PimcAgent {
        PimcAgent {
            params,
            rule: RuleAgent::new(params.rule),
            solving: Solving::with_threads(params.threads),
            values: None,
            general: crate::gpimc::General::new(),
        }
    }

    /// The mean bidding utility of every contract this seat could declare,
    /// computed once per hand (see the module documentation).
    fn contract_values(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Option<Values> {
        if let Some(v) = self.values {
            return Some(v);
        }
        let sampler = Sampler::new(view).ok()?;
        let me = view.seat();
        let mano = view.public().mano();
        let rules = view.public().game_rules();
        // hombre: the ledger's lost / won values (gpimc); else bid_utility.
        let hombre = crate::gpimc::HombreBids::new(view.public(), me);
        let mut v = Values { entrada: [0.0; 4], solo: [0.0; 4], vuelta: 0.0 };
        let n = self.params.bid_worlds;
        for _ in 0..n {
            let w = sampler.sample(rng);
            // The heap in the order it is drawn.
            let mut order = [Card::ESPADA; 40];
            let mut rest = w.heap;
            let mut len = 0;
            while !rest.is_empty() {
                let c = rest.nth(below(rng, rest.len())).expect("a heap card");
                rest.take(c);
                order[len] = c;
                len += 1;
            }
            let heap = &order[..len];
            let dealt = [w.hands.0[0], w.hands.0[1], w.hands.0[2]];
            let value = |contract: Contract, trump: Suit, ctx: &mut SolverContext| -> Option<f64> {
                let hands = exchange(dealt, heap, me, contract, trump);
                let pos = Position::new(hands, trump, me, mano, &[], [0, 0, 0]).ok()?;
                let class = ctx.value(&pos);
                Some(match &hombre {
                    Some(h) => h.utility(contract, trump, class),
                    None => bid_utility(class, contract, rules.favoured(Some(trump))),
                })
            };
            let ctx = self.solving.ctx();
            for s in Suit::ALL {
                v.entrada[s.index()] += value(Contract::Entrada, s, ctx)?;
                v.solo[s.index()] += value(Contract::Solo, s, ctx)?;
            }
            if let Some(&turned) = heap.first() {
                v.vuelta += value(Contract::Vuelta, turned.suit(), ctx)?;
            } else {
                v.vuelta = f64::NEG_INFINITY;
            }
        }
        let k = f64::from(n.max(1));
        for x in v.entrada.iter_mut().chain(v.solo.iter_mut()) {
            *x /= k;
        }
        v.vuelta /= k;
        self.values = Some(v);
        Some(v)
    }

    /// The best (contract, trump, value) of level at least `min_level` (any
    /// level when `min_level` is 0).
    fn best(
        v: &Values,
        rules: &tresillo_core::Rules,
        min_level: u8,
    ) -> Option<(Contract, Option<Suit>, f64)> {
        let mut best: Option<(Contract, Option<Suit>, f64)> = None;
        let mut consider = |c: Contract, t: Option<Suit>, x: f64| {
            if rules.contract_level(c, t) >= min_level && best.is_none_or(|(_, _, b)| x > b) {
                best = Some((c, t, x));
            }
        };
        for s in Suit::ALL {
            consider(Contract::Entrada, Some(s), v.entrada[s.index()]);
        }
        consider(Contract::Vuelta, None, v.vuelta);
        for s in Suit::ALL {
            consider(Contract::Solo, Some(s), v.solo[s.index()]);
        }
        best
    }

    fn bid(&mut self, view: &PlayerView, rng: &mut AgentRng, min_level: u8) -> Option<Decision> {
        let v = self.contract_values(view, rng)?;
        let margin = f64::from(self.params.bid_margin) / 100.0;
        let rules = view.public().game_rules();
        // Bid while some contract of at least this level is worth the margin.
        let worth = Self::best(&v, &rules, min_level).is_some_and(|(_, _, x)| x > margin);
        Some(Decision::Bid(if worth { Bid::Level(min_level) } else { Bid::Paso }))
    }

    fn declare(
        &mut self,
        view: &PlayerView,
        rng: &mut AgentRng,
        min_level: u8,
        forced: bool,
    ) -> Option<Decision> {
        if forced && view.public().exchanged[view.seat()].is_some() {
            // A forced entrada naming trumps after its exchange (tresillo-house):
            // the rule agent's choice.
            return None;
        }
        let v = self.contract_values(view, rng)?;
        let rules = view.public().game_rules();
        if forced {
            let mut best = Suit::Espadas;
            for s in Suit::ALL {
                if v.entrada[s.index()] > v.entrada[best.index()] {
                    best = s;
                }
            }
            return Some(Decision::Declare(Contract::Entrada, Some(best)));
        }
        Some(match Self::best(&v, &rules, min_level) {
            Some((c, t, _)) => Decision::Declare(c, t),
            // Only a solo in the favoured suit reaches the level won.
            None => Decision::Declare(Contract::Solo, rules.favoured_suit()),
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
        if crate::gpimc::handles(view.public()) && !crate::gpimc::pimc_bids(view) {
            // hombre, lhombre, four players: the general search of `gpimc`.
            if let Ok(sampler) = Sampler::new(view)
                && let Some(d) =
                    self.general.decide(view, self.params.worlds, || Some(sampler.sample(rng).hands))
            {
                return d;
            }
            return self.rule.decide(view, rng);
        }
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
    /// The play-phase search of the other rule sets ([`gpimc`](crate::gpimc)).
    general: crate::gpimc::General,
}

impl Oracle {
    /// An oracle whose other decisions use these rule parameters.
    #[must_use]
    pub fn new(rule: RuleParams) -> Oracle {
        Oracle {
            rule: RuleAgent::new(rule),
            solving: Solving::default(),
            general: crate::gpimc::General::new(),
        }
    }
}

impl CheatAgent for Oracle {
    fn name(&self) -> &str {
        "oracle"
    }

    fn decide(&mut self, hand: &Hand, seat: Seat, rng: &mut AgentRng) -> Decision {
        let view = hand.view(seat);
        if crate::gpimc::handles(view.public()) {
            // hombre, lhombre, four players: the general search on the true hands.
            let mut once = Some(tresillo_core::BySeat(std::array::from_fn(|i| hand.hand_of(Seat(i as u8)))));
            if let Some(d) = self.general.decide(&view, 1, || once.take()) {
                return d;
            }
            return self.rule.decide(&view, rng);
        }
        let mut once = hand.play_state();
        if let Some(d) = self.solving.decide(&view, 1, false, || once.take()) {
            return d;
        }
        self.rule.decide(&view, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{below, deal_for_seed, rng_from_seed};
    use tresillo_core::RuleSet;

    /// The card plain PIMC plays: every card of every world solved, the best sum
    /// for the mover's side, the first in the engine's order among equals.
    fn full_choice(worlds: &[PlayState], legal: CardSet, me: Seat, declarer: Seat) -> Card {
        let sign = if me == declarer { 1 } else { -1 };
        let mut ctx = SolverContext::new();
        let mut sums = [0i32; 64];
        for ps in worlds {
            let pos = Position::from_play_state(ps, declarer).unwrap();
            for &(c, v) in ctx.solve(&pos).cards() {
                sums[c.bit() as usize] += sign * declarer_utility(v);
            }
        }
        let mut best = legal.iter().next().unwrap();
        for c in legal {
            if sums[c.bit() as usize] > sums[best.bit() as usize] {
                best = c;
            }
        }
        best
    }

    #[test]
    fn bid_utility_is_deal_scoring_in_amounts_in_play() {
        assert!((bid_utility(Class::Sacado, Contract::Entrada, false) - 8.0 / 9.0).abs() < 1e-12);
        assert!((bid_utility(Class::Puesta, Contract::Entrada, false) + 1.0).abs() < 1e-12);
        assert!((bid_utility(Class::Codillo, Contract::Entrada, false) + 2.0).abs() < 1e-12);
        assert!((bid_utility(Class::Sacado, Contract::Vuelta, false) - 10.0 / 9.0).abs() < 1e-12);
        assert!((bid_utility(Class::Sacado, Contract::Solo, false) - 12.0 / 9.0).abs() < 1e-12);
        assert!((bid_utility(Class::Puesta, Contract::Solo, true) + 17.0 / 9.0).abs() < 1e-12);
    }

    #[test]
    fn the_simulated_exchange_follows_section_4() {
        let mut rng = rng_from_seed(4);
        for seed in 0..200u64 {
            let deal = deal_for_seed(seed);
            let dealt = [deal.hands.0[0], deal.hands.0[1], deal.hands.0[2]];
            let mut heap: Vec<Card> = deal.heap.cards().to_vec();
            // A random drawing order.
            for i in (1..heap.len()).rev() {
                heap.swap(i, below(&mut rng, i as u32 + 1) as usize);
            }
            let me = Seat((seed % 3) as u8);
            let trump = Suit::ALL[(seed % 4) as usize];
            for contract in [Contract::Entrada, Contract::Vuelta, Contract::Solo] {
                let trump = if contract == Contract::Vuelta { heap[0].suit() } else { trump };
                let hands = exchange(dealt, &heap, me, contract, trump);
                let mut all = CardSet::EMPTY;
                for h in hands {
                    assert_eq!(h.len(), 9, "seed {seed} {contract:?}");
                    all |= h;
                }
                assert_eq!(all.len(), 27, "seed {seed}: no card twice");
                // Drawn cards come from the heap in order: a prefix of it is out.
                let drawn = all - (dealt[0] | dealt[1] | dealt[2]);
                let k = drawn.len() as usize;
                assert_eq!(drawn, heap[..k].iter().copied().collect::<CardSet>(), "seed {seed} {contract:?}");
                match contract {
                    Contract::Entrada => {}
                    Contract::Vuelta => {
                        assert!(hands[me.index()].contains(heap[0]), "seed {seed}: turned card")
                    }
                    _ => assert_eq!(hands[me.index()], dealt[me.index()], "seed {seed}: solo"),
                }
                // Each opponent keeps what the rule agent keeps.
                for s in [me.next(3), me.plus(2, 3)] {
                    let kept = dealt[s.index()] & hands[s.index()];
                    let keep = crate::rule::keep_set(dealt[s.index()], trump);
                    assert!(keep - kept == CardSet::EMPTY || k == heap.len(), "seed {seed}");
                }
            }
        }
    }

    #[test]
    fn lazy_card_choice_equals_solving_every_card() {
        let mut checked = 0;
        for seed in 0..60u64 {
            let mut h =
                tresillo_core::Hand::new(RuleSet::Tresillo, 3, deal_for_seed(seed), Seat((seed % 3) as u8))
                    .unwrap();
            let mut rule = RuleAgent::new(RuleParams::default());
            let mut rng = rng_from_seed(seed);
            // Stop at a card decision after a seed-dependent number of them.
            let mut skip = seed % 17;
            while let Some(seat) = h.request().seat() {
                let view = h.view(seat);
                if let (Request::Play { legal, .. }, Some(decl)) = (view.request(), view.public().declarer)
                    && legal.len() > 1
                {
                    if skip == 0 {
                        let sampler = Sampler::new(&view).unwrap();
                        let n = 1 + (seed % 24) as usize;
                        let worlds: Vec<PlayState> =
                            (0..n).map(|_| sampler.sample(&mut rng).play_state(&view).unwrap()).collect();
                        let want = full_choice(&worlds, legal, seat, decl);
                        for (adaptive, threads) in [(false, 1), (true, 1), (false, 3), (true, 2)] {
                            let mut s = Solving::with_threads(threads);
                            let mut it = worlds.iter().copied();
                            let got = s.card(legal, seat, decl, n as u32, adaptive, || it.next());
                            assert_eq!(
                                got,
                                Some(want),
                                "seed {seed}, adaptive {adaptive}, threads {threads}"
                            );
                            assert!(it.next().is_none() || adaptive, "seed {seed}: every world drawn");
                        }
                        checked += 1;
                        break;
                    }
                    skip -= 1;
                }
                let d = rule.decide(&view, &mut rng);
                h.apply(d).unwrap();
            }
        }
        assert!(checked > 30, "{checked}");
    }
}
