//! `pimc`, Perfect Information Monte Carlo: worlds drawn from the exact
//! [`Sampler`], each solved exactly by the [`solver`](crate::search::solver); and
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
//!   mostly do at the first card, that is far fewer searches than one per
//!   card in every world (the counts: results/BENCHMARKS.md, "PIMC's card
//!   decision"). *Adaptive stopping*: with `adaptive=1`
//!   (the default), after every 8 worlds the leading card's sum is made exact
//!   and the draws stop when the worlds left could not change the choice (its
//!   lead exceeds what they could give any other card), so the choice is the
//!   one all worlds would give. *Time budget*: with `ms=N` every searched
//!   play-phase decision (card, surrender, takeover, bola; in the other rule
//!   sets and at four players too) draws worlds until N milliseconds have
//!   passed, at least one valid world and at most 100,000, in place of
//!   `worlds` (adaptive stopping off); a card decision whose time is spent
//!   when the worlds are drawn takes the card with the best optimistic sum
//!   without settling it (so a decision overruns its budget by at most the
//!   search in progress); the auction's `bid_worlds` stay fixed.
//!   Not reproducible: the worlds drawn depend on the machine and its load
//!   (`tresillo calibrate` finds the `worlds` of a given time). *Work*: the
//!   agent reports the worlds it drew and the solver nodes it visited
//!   ([`Agent::take_work`]). *Threads*: with `threads=N` the
//!   searches of a card decision run on N threads of rayon's pool (the
//!   calling thread one of them, each with its own solver context). The
//!   decision is a fixed sequence of searches, each chosen from the answers
//!   before it (the plan above); the threads take the search the plan waits
//!   for and, ahead of it, the ones it will likely need next: when settling,
//!   the leading card in every world where it is inexact, then the values of
//!   the next 16 worlds (drawn ahead from a copy of the generator) with the
//!   leading card first.
//!   An answer is used only if the plan asks exactly that search (a value
//!   searched with another first card is searched again), so the searches
//!   used, the worlds drawn (the generator is left where the plan's draws
//!   leave it) and the card chosen are those of one thread: the same for
//!   every N and whatever the timing; only the wall time and the wasted
//!   searches differ. This rests on the solver's answers not depending on
//!   its table (the value's root is always searched afresh:
//!   [`SolverContext::value_bounds`]). One thread suits tournaments, which
//!   run deals in parallel; more cut one decision's latency. The default,
//!   `threads=0`, picks per decision ([`auto_threads`]): one thread on a
//!   worker of a rayon pool (tournaments, tuning), else up to
//!   [`AUTO_THREADS_MAX`] of the global pool (`play --human`, `bench pimc`).
//! - **Surrender** (declarer, after trick 3): give up when the mean utility of
//!   playing on is below that of a puesta (-1).
//! - **Takeover** (*yo sigo*): take over when the mean utility as the new
//!   declarer is positive (declining leaves a puesta of the other declarer, worth
//!   nothing to this seat).
//! - **Primeras or bola**: the share `p` of worlds in which the declarer can take
//!   every remaining trick; play on when `p` times a made bola and `1 - p` times a
//!   failed one beat primeras, as the rule set's ledger pays them
//!   ([`bola_worth`](crate::search::gpimc::bola_worth); in `tresillo` a bola pays
//!   8 from each of two opponents, a failed one 8 to each, primeras 1 from each:
//!   `16 p - 16 (1 - p) > 2`; in `tresillo-house` 10 and 1).
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
//!   value is its mean **bidding utility**: the declarer's net under the rule
//!   set's own ledger for a fresh deal, in units of a lost entrada
//!   ([`SpanishBids`](crate::search::gpimc::SpanishBids); in `tresillo` these
//!   are [`bid_utility`]'s sacado +8, puesta -9, codillo -18, condiciones vuelta
//!   1 and solo 2 from or to each opponent, in amounts in play of 9; in
//!   `tresillo-house` its plato-alone amount in play and condiciones 1, 3, 5).
//!   The agent bids the lowest level allowed while some contract of at least that level is worth more than `bid_margin` (hundredths of an amount in
//!   play), else passes; it names the contract of best value among those that
//!   reach the level won (entrada in its best suit when forced). `bid_margin`
//!   defaults to 0 (how it was chosen: results/README.md, "tune-pimc-margin").
//!   Perfect-information
//!   solving is optimistic for the declarer (it never misguesses a card) and
//!   the simulated exchange is the rule agent's; the margin is what would pay
//!   for either.
//! - **Exchange and conversation**: as the rule agent with the `rule` parameters.
//!
//! The card play's classes are worth sacado +1, puesta -1, codillo -2 amounts in
//! play in both Spanish rule sets (an approximation in both: the ledger's
//! condiciones, which widen the gap between a won and a lost hand, are left
//! out). `stakes=tresillo` values the auction and bola at `tresillo`'s stakes
//! whatever the rule set (the agent before the auction asked the ledger, kept for
//! `experiments/pimc-house-stakes.toml`).
//!
//! When the view admits no world (it cannot happen in a real hand) the agent falls
//! back on the rule agent's decision.
//!
//! # Other rule sets
//!
//! Everything above is three-player `tresillo` and `tresillo-house` (with
//! `palo_de_favor` and `codillo_old`). In `hombre`, `lhombre` and at four
//! players `decide` (and the oracle's) hands the request to
//! [`gpimc`](crate::search::gpimc) first, which solves the contract's own objective
//! with the general solver ([`gsolver`](crate::search::gsolver)) and values its
//! classes by the rule set's ledger for a fresh deal:
//!
//! | rule set | searched (sampled worlds) | as the rule agent |
//! | --- | --- | --- |
//! | `hombre` (points or chips, every option) | card play (lost / won / cuatro; chips lost / won; contrabola no trick; the vole all tricks), surrender, takeover, acceptance of a surrendered vuelta, primeras or vole, declared vole; the auction and the contract by the Monte Carlo above (entrada, vuelta, solo), a won or lost game valued by the ledger ([`HombreBids`](crate::search::gpimc::HombreBids), `bid_margin` in hundredths of a simple game won) | contrabola (never chosen), obligation and gascarille trumps, exchange and exchange right |
//! | `lhombre` | card play (win / draw / loss; nolo, pure nolo and nolo ouvert 0 / 1 / 2+ tricks in the no-trump order; the tout all tricks), primeras or tout | auction (self bids, raises), contract (nolo contracts, tourné), exchange |
//! | four-player `tresillo` (worlds from the four-player sampler) | card play (section 7 against two opponents, or three under `penetro_all_play`), surrender, takeover, bola | auction, contract, the penetro's heap end, give-up and drop-out, exchange, conversation |
//!
//! Threads: a decision is a fixed plan of searches (`Plan`) that `threads=N` shares out
//! over N threads of rayon's pool (`Board`: one solver context each, searches
//! speculated ahead, an answer used only if the plan asks exactly it), so the searches,
//! the draws and the card are the same for every N (tested for N = 1, 2, 3), which
//! rests on the solver's answers not depending on its table (`value_bounds` searches
//! its root afresh). The default `threads=0` takes 1 on a pool worker (tournaments) and
//! up to 4 elsewhere (latency). An agent that owns solver contexts empties them in
//! `new_hand` (`SolverContext::clear` also resets the generations its replacement
//! policy reads), so a hand's searches and node counts do not depend on the hands the
//! same worker played before.

use crate::cheat::CheatAgent;
use crate::heuristic::rule::{RuleAgent, exchange_discards};
use crate::heuristic::rule_eval::RuleParams;
use crate::rng::AgentRng;
use crate::sampling::likelihood::{InferParams, Weighting};
use crate::sampling::sampler::Sampler;
use crate::search::solver::{Class, Position, SolverContext};
use crate::{Agent, Failure};
use std::sync::{Condvar, Mutex, PoisonError};
use tresillo_core::Question;
use tresillo_core::{
    Bid, Card, CardSet, Contract, Decision, Hand, PlayState, PlayerView, Request, Seat, Suit,
};

pub use crate::search::solver::declarer_utility;

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
    /// Its draw (0 for the first) in the decision.
    at: u32,
}

/// What the card decision needs next (see [`Plan`]).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Need {
    /// The next world drawn.
    Draw,
    /// The value of world `w` (its bounds on every card), the card of index
    /// `first` tried first at the root.
    Value { w: usize, first: usize },
    /// Whether card `t` of world `w` lets the declarer reach class `target`.
    Card { w: usize, t: usize, target: Class },
    /// The card chosen (`None`: no world could be solved).
    Done(Option<Card>),
}

/// The card decision as one fixed sequence of draws and searches, each chosen
/// from the answers to the ones before: [`Plan::need`] names the next and the
/// answer is given back ([`Plan::take`], [`Plan::valued`], [`Plan::narrow`]).
/// Whoever computes the answers, and in whatever order, the sequence, the draws
/// and the choice are the same, since every answer is a fact about its world
/// (the solver's answers do not depend on its table).
#[derive(Debug)]
struct Plan {
    cards: [Card; 10],
    n: usize,
    decl: bool,
    max: u32,
    adaptive: bool,
    /// A time budget's end: no more draws once it has passed and a world is valid.
    deadline: Option<std::time::Instant>,
    /// The valid worlds drawn so far; those before `valued` have their value.
    worlds: Vec<World>,
    valued: usize,
    /// Draws so far (the invalid ones included).
    drawn: u32,
    /// The adaptive check is due once the last world drawn has its value.
    check: bool,
    /// Settling: the slack of the check, or `None` for the final settle.
    settle: Option<Option<i32>>,
    done: Option<Option<Card>>,
    /// Each card's pessimistic and optimistic sums of utility for this side
    /// over the worlds valued.
    low: [i32; 10],
    high: [i32; 10],
}

impl Plan {
    fn new(worlds: Vec<World>) -> Plan {
        Plan {
            cards: [Card::ESPADA; 10],
            n: 0,
            decl: false,
            max: 0,
            adaptive: false,
            deadline: None,
            worlds,
            valued: 0,
            drawn: 0,
            check: false,
            settle: None,
            done: None,
            low: [0; 10],
            high: [0; 10],
        }
    }

    /// Starts a decision among the cards `legal` (at most `max` worlds, and
    /// none drawn after `deadline` once one is valid).
    fn start(
        &mut self,
        legal: CardSet,
        decl: bool,
        max: u32,
        adaptive: bool,
        deadline: Option<std::time::Instant>,
    ) {
        self.n = 0;
        for c in legal {
            self.cards[self.n] = c;
            self.n += 1;
        }
        (self.decl, self.max, self.adaptive, self.deadline) = (decl, max, adaptive, deadline);
        self.worlds.clear();
        (self.valued, self.drawn, self.check, self.settle, self.done) = (0, 0, false, None, None);
        (self.low, self.high) = ([0; 10], [0; 10]);
    }

    /// The next draw or search the decision needs, or its choice.
    ///
    /// The sequence: a world is drawn and its value found (the root trying
    /// first the card that leads over the worlds before); with `adaptive`,
    /// after every [`CHUNK`] draws the leading card is settled and drawing stops
    /// if it is clear; after the last draw it is settled. Settling searches the
    /// card with the best optimistic sum in the first world where it is not
    /// exact, one search at a time, until that card's sum is exact.
    fn need(&mut self) -> Need {
        loop {
            if let Some(c) = self.done {
                return Need::Done(c);
            }
            if let Some(slack) = self.settle {
                if slack.is_none()
                    && (self.deadline.is_some_and(|d| std::time::Instant::now() >= d)
                        || crate::interrupt::stop_requested())
                {
                    // A time budget spent: the card with the best optimistic
                    // sum, without making its sum exact.
                    self.done = Some(Some(self.cards[self.lead()]));
                    continue;
                }
                let (t, clear) = self.leader(slack.unwrap_or(0));
                if let Some(clear) = clear {
                    if clear || slack.is_none() {
                        self.done = Some(Some(self.cards[t]));
                    }
                    self.settle = None;
                    continue;
                }
                let w = self.worlds.iter().position(|w| w.lo[t] != w.hi[t]).expect("an inexact world");
                return Need::Card { w, t, target: self.target(w, t) };
            }
            if self.valued < self.worlds.len() {
                return Need::Value { w: self.valued, first: self.lead() };
            }
            if std::mem::take(&mut self.check)
                && self.adaptive
                && self.drawn < self.max
                && self.drawn.is_multiple_of(CHUNK)
            {
                self.settle = Some(Some((self.max - self.drawn) as i32 * SPREAD));
                continue;
            }
            // A stop (Ctrl-C) ends the search as a spent time budget does.
            let out_of_time = || {
                self.deadline.is_some_and(|d| std::time::Instant::now() >= d)
                    || crate::interrupt::stop_requested()
            };
            if self.drawn == self.max || (!self.worlds.is_empty() && out_of_time()) {
                if self.worlds.is_empty() {
                    self.done = Some(None);
                } else {
                    self.settle = Some(None);
                }
                continue;
            }
            return Need::Draw;
        }
    }

    /// The card `t` with the best optimistic sum and, when its sum is exact,
    /// whether it stays the choice even if each world not drawn gave every
    /// other card `slack` more than it.
    fn leader(&self, slack: i32) -> (usize, Option<bool>) {
        let (low, high) = (&self.low, &self.high);
        let t = self.lead();
        let clear = (low[t] == high[t]).then(|| {
            (0..self.n)
                .all(|i| i == t || if i < t { high[i] + slack < low[t] } else { high[i] + slack <= low[t] })
        });
        (t, clear)
    }

    /// The first card (index) with the best optimistic sum over the worlds
    /// valued.
    fn lead(&self) -> usize {
        let mut t = 0;
        for i in 1..self.n {
            if self.high[i] > self.high[t] {
                t = i;
            }
        }
        t
    }

    /// Adds world `w`'s bounds to the sums (`sign` 1), or takes them out (-1).
    fn count(&mut self, w: usize, sign: i32) {
        let side = if self.decl { 1 } else { -1 };
        let w = &self.worlds[w];
        for i in 0..self.n {
            let (a, b) = (side * declarer_utility(w.lo[i]), side * declarer_utility(w.hi[i]));
            self.low[i] += sign * a.min(b);
            self.high[i] += sign * a.max(b);
        }
    }

    /// The class card `t` of world `w` is searched for: its best case for the
    /// mover (a declarer's card reaching its `hi`, an opponent's letting the
    /// declarer above its `lo`).
    fn target(&self, w: usize, t: usize) -> Class {
        let w = &self.worlds[w];
        if self.decl { w.hi[t] } else { Class::ALL[w.lo[t] as usize + 1] }
    }

    /// Takes the next draw (`None`: no world could be made of it).
    fn take(&mut self, world: Option<World>) {
        self.drawn += 1;
        self.check = true;
        self.worlds.extend(world);
    }

    /// The value's bounds on the cards of the world `Need::Value` named.
    fn valued(&mut self, lo: [Class; 10], hi: [Class; 10]) {
        let w = &mut self.worlds[self.valued];
        (w.lo, w.hi) = (lo, hi);
        self.count(self.valued, 1);
        self.valued += 1;
    }

    /// The answer `ok` to `Need::Card { w, t, target }`: it narrows every card
    /// of the same run in that world.
    fn narrow(&mut self, k: usize, t: usize, target: Class, ok: bool) {
        self.count(k, -1);
        let w = &mut self.worlds[k];
        let rep = w.reps[t];
        for i in 0..self.n {
            if w.reps[i] == rep {
                if ok {
                    w.lo[i] = target;
                } else {
                    w.hi[i] = Class::ALL[target as usize - 1];
                }
            }
        }
        self.count(k, 1);
    }
}

/// A search of the card decision, in the world of draw `at`: its value with
/// `first` tried first at the root, or whether `card` lets the declarer reach
/// `target`. Its answer is the same whichever thread searches it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Task {
    Value { at: u32, first: Card },
    Card { at: u32, card: Card, target: Class },
}

impl Task {
    /// Its world's draw.
    fn at(self) -> u32 {
        match self {
            Task::Value { at, .. } | Task::Card { at, .. } => at,
        }
    }
}

/// A draw ahead of the plan: its world, the generator after it, the value
/// found for it (the first card tried, the bounds), if any, and the answers of
/// its card searches (card, target, answer; the last [`ANSWERS`]).
#[derive(Clone, Debug)]
struct Slot {
    world: Option<World>,
    rng: AgentRng,
    value: Option<(Card, [Class; 10], [Class; 10])>,
    answers: [(Card, Class, bool); ANSWERS],
    answered: usize,
    /// The thread that last searched in this world ([`NOBODY`]: none), whose
    /// table holds what those searches learned.
    owner: u8,
}

/// No thread.
const NOBODY: u8 = u8::MAX;

/// Card searches' answers kept per world (an older one forgotten is searched
/// again if the plan asks it).
const ANSWERS: usize = 6;

impl Slot {
    /// The answer to the search of `card` for `target`, if known.
    fn answer(&self, card: Card, target: Class) -> Option<bool> {
        self.answers[..self.answered].iter().find(|x| (x.0, x.1) == (card, target)).map(|x| x.2)
    }
}

/// The buffers of the threaded card decision, kept between decisions.
#[derive(Debug, Default)]
struct Ahead {
    slots: Vec<Slot>,
    queue: Vec<Task>,
    running: Vec<Task>,
}

/// How many worlds are drawn (and their values searched) ahead of the plan.
const LOOKAHEAD: u32 = 2 * CHUNK;

/// The shared state of the threads of a card decision: the plan, and the
/// searches done or to do ahead of it (all behind one mutex; a search runs
/// outside it). Whoever finishes a search feeds the plan the answers it has
/// and plans the queue anew: what the plan needs now, then what it will most
/// likely need next (when settling, the leading card in every world where it
/// is inexact; the values of the next [`LOOKAHEAD`] worlds with the leading
/// card first). Each thread takes the search the plan waits for, else the
/// first in a world it searched before or no thread did (its own table holds
/// what its searches there learned).
struct Board<'a, F> {
    plan: &'a mut Plan,
    ahead: &'a mut Ahead,
    draw: F,
    rng: AgentRng,
    declarer: Seat,
    /// The task the plan waits for, if it is to be done.
    need: Option<Task>,
    finished: Option<Option<Card>>,
    sleepers: u32,
}

impl<F: FnMut(&mut AgentRng) -> Option<PlayState>> Board<'_, F> {
    /// Draws until `count` draws are held (at most the plan's maximum).
    fn fill(&mut self, ctx: &mut SolverContext, count: u32) {
        while (self.ahead.slots.len() as u32) < count.min(self.plan.max) {
            let ps = (self.draw)(&mut self.rng);
            let world = make_world(ctx, ps, self.declarer, self.plan.n, self.ahead.slots.len() as u32);
            self.ahead.slots.push(Slot {
                world,
                rng: self.rng.clone(),
                value: None,
                answers: [(Card::ESPADA, Class::Codillo, false); ANSWERS],
                answered: 0,
                owner: NOBODY,
            });
        }
    }

    /// Feeds the plan every answer at hand, then plans the queue.
    fn advance(&mut self, ctx: &mut SolverContext) {
        let need = loop {
            let need = self.plan.need();
            match need {
                Need::Draw => {
                    self.fill(ctx, self.plan.drawn + 1);
                    self.plan.take(self.ahead.slots[self.plan.drawn as usize].world);
                }
                Need::Value { w, first } => match self.ahead.slots[self.plan.worlds[w].at as usize].value {
                    Some((f, lo, hi)) if f == self.plan.worlds[w].reps[first] => self.plan.valued(lo, hi),
                    _ => break need,
                },
                Need::Card { w, t, target } => {
                    let (at, card) = (self.plan.worlds[w].at, self.plan.worlds[w].reps[t]);
                    match self.ahead.slots[at as usize].answer(card, target) {
                        Some(ok) => self.plan.narrow(w, t, target, ok),
                        None => break need,
                    }
                }
                Need::Done(c) => {
                    self.finished = Some(c);
                    self.ahead.queue.clear();
                    return;
                }
            }
        };
        self.plan_queue(ctx, need);
    }

    /// Whether `task` is done or being done.
    fn known(&self, task: Task) -> bool {
        self.ahead.running.contains(&task)
            || match task {
                Task::Value { at, first } => {
                    self.ahead.slots[at as usize].value.is_some_and(|(f, ..)| f == first)
                }
                Task::Card { at, card, target } => {
                    self.ahead.slots[at as usize].answer(card, target).is_some()
                }
            }
    }

    /// The queue (last first): `need`, the leading card's searches in the next
    /// worlds where it is inexact, the values of the worlds drawn ahead with
    /// the leading card first.
    fn plan_queue(&mut self, ctx: &mut SolverContext, need: Need) {
        let (from, until) = (self.plan.drawn, (self.plan.drawn + LOOKAHEAD).min(self.plan.max));
        self.fill(ctx, until);
        let mut queue = std::mem::take(&mut self.ahead.queue);
        queue.clear();
        let plan = &*self.plan;
        let task = match need {
            Need::Value { w, first } => {
                Some(Task::Value { at: plan.worlds[w].at, first: plan.worlds[w].reps[first] })
            }
            Need::Card { w, t, target } => {
                Some(Task::Card { at: plan.worlds[w].at, card: plan.worlds[w].reps[t], target })
            }
            Need::Draw | Need::Done(_) => None,
        };
        self.need = task.filter(|&t| !self.known(t));
        let mut push = |task: Task| {
            if !self.known(task) {
                queue.push(task);
            }
        };
        if let Some(task) = task {
            push(task);
        }
        if let Need::Card { w, t, .. } = need {
            let more = plan.worlds.iter().enumerate().skip(w + 1).filter(|(_, x)| x.lo[t] != x.hi[t]);
            for (k, x) in more {
                push(Task::Card { at: x.at, card: x.reps[t], target: plan.target(k, t) });
            }
        }
        let first = plan.lead();
        for at in from..until {
            if let Some(w) = &self.ahead.slots[at as usize].world {
                push(Task::Value { at, first: w.reps[first] });
            }
        }
        queue.reverse();
        self.ahead.queue = queue;
    }

    /// The task thread `me` takes: the one the plan waits for, else the first
    /// in a world no other thread searched (whose table holds nothing of it),
    /// else the first.
    fn take(&mut self, me: u8) -> Option<Task> {
        let q = &self.ahead.queue;
        let top = q.len().checked_sub(1)?;
        let i = if self.need == Some(q[top]) {
            top
        } else {
            let free =
                |t: &Task| matches!(self.ahead.slots[t.at() as usize].owner, o if o == me || o == NOBODY);
            q.iter().rposition(free).unwrap_or(top)
        };
        let task = self.ahead.queue.remove(i);
        self.ahead.slots[task.at() as usize].owner = me;
        self.ahead.running.push(task);
        Some(task)
    }

    /// Records the answer to `task` (`lo` and `hi` for a value, `ok` for a card).
    fn store(&mut self, task: Task, lo: [Class; 10], hi: [Class; 10], ok: bool) {
        if let Some(i) = self.ahead.running.iter().position(|&x| x == task) {
            self.ahead.running.swap_remove(i);
        }
        match task {
            Task::Value { at, first } => self.ahead.slots[at as usize].value = Some((first, lo, hi)),
            Task::Card { at, card, target } => {
                let slot = &mut self.ahead.slots[at as usize];
                if slot.answered == ANSWERS {
                    slot.answers.rotate_left(1);
                    slot.answered -= 1;
                }
                slot.answers[slot.answered] = (card, target, ok);
                slot.answered += 1;
            }
        }
    }
}

/// The world of a draw (`None` when it gives none, or not the `n` legal cards).
fn make_world(
    ctx: &mut SolverContext,
    ps: Option<PlayState>,
    declarer: Seat,
    n: usize,
    at: u32,
) -> Option<World> {
    let pos = Position::from_play_state(&ps?, declarer).ok()?;
    let mut reps = [Card::ESPADA; 10];
    (ctx.representatives(&pos, &mut reps) == n).then_some(World {
        pos,
        reps,
        lo: [Class::Codillo; 10],
        hi: [Class::Sacado; 10],
        at,
    })
}

/// Solves `task` on `world` with `ctx`: the value's bounds, or the card's answer.
fn solve_task(
    ctx: &mut SolverContext,
    world: &World,
    n: usize,
    task: Task,
) -> ([Class; 10], [Class; 10], bool) {
    let (mut lo, mut hi) = ([Class::Codillo; 10], [Class::Sacado; 10]);
    match task {
        Task::Value { first, .. } => {
            ctx.value_bounds(&world.pos, Some(first), &world.reps[..n], &mut lo[..n], &mut hi[..n]);
            (lo, hi, false)
        }
        Task::Card { card, target, .. } => (lo, hi, ctx.card_at_least(&world.pos, card, target)),
    }
}

/// One thread of a card decision: takes tasks from the board until the plan is
/// done, sleeping while there is none.
fn work<F: FnMut(&mut AgentRng) -> Option<PlayState>>(
    board: &(Mutex<Board<'_, F>>, Condvar),
    me: u8,
    ctx: &mut SolverContext,
) {
    let (lock, wake) = board;
    let get = || lock.lock().unwrap_or_else(PoisonError::into_inner);
    // A thread that panics ends the decision, so no other waits for its task.
    struct Abort<'b, 'a, F>(&'b (Mutex<Board<'a, F>>, Condvar));
    impl<F> Drop for Abort<'_, '_, F> {
        fn drop(&mut self) {
            if std::thread::panicking() {
                let mut b = self.0.0.lock().unwrap_or_else(PoisonError::into_inner);
                b.finished.get_or_insert(None);
                self.0.1.notify_all();
            }
        }
    }
    let _abort = Abort(board);
    let mut b = get();
    loop {
        if b.finished.is_some() {
            return;
        }
        let Some(task) = b.take(me) else {
            b.sleepers += 1;
            b = wake.wait(b).unwrap_or_else(PoisonError::into_inner);
            b.sleepers -= 1;
            continue;
        };
        let world = b.ahead.slots[task.at() as usize].world.expect("a task's world");
        let n = b.plan.n;
        drop(b);
        let (lo, hi, ok) = solve_task(ctx, &world, n, task);
        b = get();
        b.store(task, lo, hi, ok);
        b.advance(ctx);
        if b.sleepers > 0 {
            wake.notify_all();
        }
    }
}

/// The parameters of `pimc` (and `oracle`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PimcParams {
    /// Worlds drawn per decision.
    pub worlds: u32,
    /// Stop drawing once no remaining world could change the card chosen.
    pub adaptive: bool,
    /// Threads of rayon's pool searching a card decision (1: the calling
    /// thread only; 0, the default: [`auto_threads`], one inside a pool's
    /// worker such as a tournament's, else up to [`AUTO_THREADS_MAX`]; the
    /// card chosen and the worlds drawn are the same for any value).
    pub threads: u32,
    /// Worlds drawn for the auction and the contract (once per hand).
    pub bid_worlds: u32,
    /// Least mean utility (hundredths of an AIP) for which the agent declares.
    pub bid_margin: i32,
    /// The rule agent's thresholds, for the decisions made as the rule agent.
    pub rule: RuleParams,
    /// A time budget per searched play-phase decision in milliseconds, in
    /// place of `worlds` (0: none): worlds are drawn until it has passed, at
    /// least one, at most [`MS_MAX_WORLDS`]. Not reproducible: the worlds
    /// drawn depend on the machine and its load.
    pub ms: u32,
    /// Search this seat's own discards ([`exchange`](crate::research::exchange))
    /// instead of discarding as the rule agent (`discard=search`; off by default).
    pub discard_search: bool,
    /// Search them only as the declarer, discarding as the rule agent as an
    /// opponent (`discard=declarer`).
    pub discard_declarer_only: bool,
    /// Worlds drawn per searched discard.
    pub discard_worlds: u32,
    /// Most candidate discards a searched discard values (1: the rule agent's).
    pub discard_cands: u32,
    /// A searched discard leaves the rule agent's only for a candidate whose
    /// mean gain over it exceeds this many hundredths of its standard error.
    pub discard_z: u32,
    /// Inference-weighted worlds for the searched play-phase decisions
    /// (`infer=1`; see [`RuleLikelihood`](crate::RuleLikelihood)).
    pub infer: InferParams,
    /// Value the auction and the bola decision of a Spanish rule set at
    /// `tresillo`'s stakes ([`bid_utility`], bola 8 from or to each opponent
    /// against primeras 1) whatever its ledger pays (`stakes=tresillo`): the
    /// agent as it was before it asked the ledger, kept for the experiment
    /// that measures the change (`experiments/pimc-house-stakes.toml`). Off:
    /// the rule set's own ledger ([`SpanishBids`](crate::search::gpimc::SpanishBids),
    /// [`bola_worth`](crate::search::gpimc::bola_worth)).
    pub tresillo_stakes: bool,
}

/// The most worlds a decision under a time budget (`ms=`) draws.
pub const MS_MAX_WORLDS: u32 = 100_000;

impl PimcParams {
    /// The worlds cap and the deadline of a searched decision starting now.
    fn budget(&self) -> (u32, Option<std::time::Instant>) {
        match self.ms {
            0 => (self.worlds, None),
            ms => (
                MS_MAX_WORLDS,
                Some(std::time::Instant::now() + std::time::Duration::from_millis(u64::from(ms))),
            ),
        }
    }
}

impl Default for PimcParams {
    fn default() -> Self {
        PimcParams {
            worlds: 64,
            adaptive: true,
            threads: 0,
            bid_worlds: 16,
            bid_margin: 0,
            rule: RuleParams::default(),
            ms: 0,
            discard_search: false,
            discard_declarer_only: false,
            discard_worlds: 32,
            discard_cands: 6,
            discard_z: 0,
            infer: InferParams::default(),
            tresillo_stakes: false,
        }
    }
}

/// Runs `each` on every context of `ctxs` (numbered from `first`), each on its own task of rayon's
/// pool (tasks no free thread takes run one after the other).
fn on_each(ctxs: &mut [SolverContext], first: u8, each: &(impl Fn(u8, &mut SolverContext) + Sync)) {
    match ctxs {
        [] => {}
        [one] => each(first, one),
        _ => {
            let k = ctxs.len() / 2;
            let (a, b) = ctxs.split_at_mut(k);
            rayon::join(|| on_each(a, first, each), || on_each(b, first + k as u8, each));
        }
    }
}

/// The decisions made by solving positions, shared by `pimc` (over sampled
/// worlds) and `oracle` (on the true world). Owns its solver contexts.
#[derive(Debug)]
struct Solving {
    ctx: Option<Box<SolverContext>>,
    /// The card decision in progress (kept to reuse its buffers).
    plan: Plan,
    ahead: Ahead,
    /// Threads of a card decision (1: the calling thread only; 0: chosen per
    /// decision by [`auto_threads`]), and the contexts of the threads after the
    /// first.
    threads: usize,
    helpers: Vec<SolverContext>,
    /// Worlds drawn since the last [`Solving::take_work`].
    worlds: u64,
    /// The contexts' node count at the last [`Solving::take_work`].
    nodes_seen: u64,
    /// The bola decision at `tresillo`'s stakes ([`PimcParams::tresillo_stakes`]).
    tresillo_stakes: bool,
}

/// Most threads `threads=0` (auto) uses for one card decision.
pub const AUTO_THREADS_MAX: usize = 4;

/// The threads `threads=0` (auto) gives a card decision made on the current
/// thread: 1 on a worker of a rayon pool (a tournament or tuning run, whose
/// workers already play deals in parallel: more threads per decision would only
/// add the wasted speculative searches), else the threads of rayon's global pool,
/// at most [`AUTO_THREADS_MAX`] (one decision's latency: `play --human`,
/// `bench pimc`, a library caller on its own thread). The card and the worlds
/// drawn do not depend on it.
#[must_use]
pub fn auto_threads() -> usize {
    if rayon::current_thread_index().is_some() {
        1
    } else {
        rayon::current_num_threads().clamp(1, AUTO_THREADS_MAX)
    }
}

impl Default for Solving {
    fn default() -> Self {
        Solving::with_threads(1)
    }
}

impl Solving {
    /// Card decisions searching on `threads` threads of rayon's pool (0:
    /// [`auto_threads`] at each decision).
    fn with_threads(threads: u32) -> Solving {
        Solving {
            ctx: None,
            plan: Plan::new(Vec::new()),
            ahead: Ahead::default(),
            threads: threads as usize,
            helpers: Vec::new(),
            worlds: 0,
            nodes_seen: 0,
            tresillo_stakes: false,
        }
    }

    /// The worlds drawn and the solver nodes visited since the last call.
    fn take_work(&mut self) -> crate::Work {
        let nodes = self.ctx.as_ref().map_or(0, |c| c.nodes())
            + self.helpers.iter().map(SolverContext::nodes).sum::<u64>();
        let w = crate::Work {
            worlds: std::mem::take(&mut self.worlds),
            nodes: nodes - self.nodes_seen,
            ..crate::Work::default()
        };
        self.nodes_seen = nodes;
        w
    }

    fn ctx(&mut self) -> &mut SolverContext {
        self.ctx.get_or_insert_with(|| Box::new(SolverContext::new()))
    }

    /// Empties the solver tables before a hand ([`SolverContext::clear`]): the
    /// nodes of the hand's searches then depend on the hand alone.
    fn new_hand(&mut self) {
        self.ctx.iter_mut().for_each(|c| c.clear());
        self.helpers.iter_mut().for_each(SolverContext::clear);
    }

    /// The main context and the count of worlds drawn (for the searched exchange).
    fn ctx_and_worlds(&mut self) -> (&mut SolverContext, &mut u64) {
        (self.ctx.get_or_insert_with(|| Box::new(SolverContext::new())), &mut self.worlds)
    }

    /// The card with the best mean utility for `me` over the worlds `draw`
    /// yields from `rng` (at most `max` of them), or `None` if no world could
    /// be solved.
    ///
    /// The choice is the one solving every card in every world would give (the
    /// first card in the engine's order among those of the best sum), found
    /// lazily by the searches of a [`Plan`]: each world's value bounds all its
    /// cards (a declarer's card is at most the value, an opponent's at least),
    /// and only the card with the best optimistic sum is searched further, one
    /// zero-window search at a time, until that card's sum is exact (it is then
    /// the choice: no other card's optimistic sum is higher, and any equal one
    /// comes later in the order). With `adaptive`, every [`CHUNK`] worlds the
    /// leading card's sum is made exact and drawing stops when the worlds left
    /// could not change the choice.
    ///
    /// On several threads the plan's searches, and the ones it will likely
    /// need next, are shared out (see [`Board`]); the worlds are drawn ahead
    /// from a copy of `rng`, and `rng` is left as the draws the plan used leave
    /// it. The searches' answers, the draws and the choice are those of one
    /// thread.
    #[allow(clippy::too_many_arguments)]
    fn card<F>(
        &mut self,
        legal: CardSet,
        me: Seat,
        declarer: Seat,
        (max, deadline): (u32, Option<std::time::Instant>),
        adaptive: bool,
        rng: &mut AgentRng,
        draw: F,
    ) -> Option<Card>
    where
        F: FnMut(&mut AgentRng) -> Option<PlayState> + Send,
    {
        let c = self.card_search(legal, me, declarer, (max, deadline), adaptive, rng, draw);
        self.worlds += u64::from(self.plan.drawn);
        c
    }

    /// [`Solving::card`] without the count of worlds.
    #[allow(clippy::too_many_arguments)]
    fn card_search<F>(
        &mut self,
        legal: CardSet,
        me: Seat,
        declarer: Seat,
        (max, deadline): (u32, Option<std::time::Instant>),
        adaptive: bool,
        rng: &mut AgentRng,
        mut draw: F,
    ) -> Option<Card>
    where
        F: FnMut(&mut AgentRng) -> Option<PlayState> + Send,
    {
        self.plan.start(legal, me == declarer, max, adaptive && deadline.is_none(), deadline);
        let n = self.plan.n;
        let main = self.ctx.get_or_insert_with(|| Box::new(SolverContext::new()));
        let threads = if self.threads == 0 { auto_threads() } else { self.threads };
        if threads <= 1 {
            loop {
                match self.plan.need() {
                    Need::Draw => {
                        let at = self.plan.drawn;
                        self.plan.take(make_world(main, draw(rng), declarer, n, at));
                    }
                    Need::Value { w, first } => {
                        let task = Task::Value { at: 0, first: self.plan.worlds[w].reps[first] };
                        let (lo, hi, _) = solve_task(main, &self.plan.worlds[w], n, task);
                        self.plan.valued(lo, hi);
                    }
                    Need::Card { w, t, target } => {
                        let x = &self.plan.worlds[w];
                        let ok = main.card_at_least(&x.pos, x.reps[t], target);
                        self.plan.narrow(w, t, target, ok);
                    }
                    Need::Done(c) => return c,
                }
            }
        }
        while self.helpers.len() < threads - 1 {
            self.helpers.push(SolverContext::new());
        }
        let ahead = &mut self.ahead;
        ahead.slots.clear();
        ahead.running.clear();
        let mut board = Board {
            plan: &mut self.plan,
            ahead,
            draw,
            rng: rng.clone(),
            declarer,
            need: None,
            finished: None,
            sleepers: 0,
        };
        board.advance(main);
        let shared = (Mutex::new(board), Condvar::new());
        rayon::join(
            || work(&shared, 0, main),
            || on_each(&mut self.helpers[..threads - 1], 1, &|me, ctx| work(&shared, me, ctx)),
        );
        let choice = shared.0.into_inner().unwrap_or_else(PoisonError::into_inner).finished.flatten();
        if let Some(slot) = (self.plan.drawn as usize).checked_sub(1) {
            *rng = self.ahead.slots[slot].rng.clone();
        }
        choice
    }

    /// Mean of `f(class)` over the worlds (with `declarer` declaring), or
    /// `None`; no world drawn after `deadline` once one is solved.
    fn mean(
        &mut self,
        declarer: Seat,
        (max, deadline): (u32, Option<std::time::Instant>),
        mut next: impl FnMut() -> Option<PlayState>,
        mut f: impl FnMut(&mut SolverContext, &Position) -> f64,
    ) -> Option<f64> {
        let (mut sum, mut n) = (0.0, 0u32);
        for _ in 0..max {
            if n > 0
                && (deadline.is_some_and(|d| std::time::Instant::now() >= d)
                    || crate::interrupt::stop_requested())
            {
                break;
            }
            self.worlds += 1;
            let Some(ps) = next() else { continue };
            let Ok(pos) = Position::from_play_state(&ps, declarer) else { continue };
            sum += f(self.ctx(), &pos);
            n += 1;
        }
        (n > 0).then(|| sum / f64::from(n))
    }

    /// The decision for `request` at seat `me` from the worlds `draw` yields
    /// from `rng`, or `None` when the request is not one decided by solving (or
    /// no world could be solved).
    fn decide<F>(
        &mut self,
        view: &PlayerView,
        worlds: (u32, Option<std::time::Instant>),
        adaptive: bool,
        rng: &mut AgentRng,
        mut draw: F,
    ) -> Option<Decision>
    where
        F: FnMut(&mut AgentRng) -> Option<PlayState> + Send,
    {
        let me = view.seat();
        let declarer = view.public().declarer?;
        match view.request() {
            Request::Play { legal, .. } if legal.len() > 1 => {
                self.card(legal, me, declarer, worlds, adaptive, rng, draw).map(Decision::Play)
            }
            Request::Ask { question: Question::SURRENDER, .. } => {
                let u = self.mean(
                    declarer,
                    worlds,
                    || draw(rng),
                    |c, p| f64::from(declarer_utility(c.value(p))),
                )?;
                Some(Decision::Answer(Question::SURRENDER, u < f64::from(declarer_utility(Class::Puesta))))
            }
            Request::Ask { question: Question::TAKE_OVER, .. } => {
                let u =
                    self.mean(me, worlds, || draw(rng), |c, p| f64::from(declarer_utility(c.value(p))))?;
                Some(Decision::Answer(Question::TAKE_OVER, u > 0.0))
            }
            Request::Ask { question: Question::BOLA, .. } => {
                let p =
                    self.mean(declarer, worlds, || draw(rng), |c, p| f64::from(u8::from(c.can_take_all(p))))?;
                if self.tresillo_stakes {
                    Some(Decision::Answer(Question::BOLA, 16.0 * p - 16.0 * (1.0 - p) > 2.0))
                } else {
                    crate::search::gpimc::bola_worth(view.public(), declarer, p)
                        .map(|b| Decision::Answer(Question::BOLA, b))
                }
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
    /// The play-phase search of the other rule sets ([`gpimc`](crate::search::gpimc)).
    general: crate::search::gpimc::General,
    /// The weighted worlds of `infer=1` and their counts.
    infer: Weighting,
}

impl PimcAgent {
    /// A PIMC agent with these parameters.
    #[must_use]
    pub fn new(params: PimcParams) -> PimcAgent {
        PimcAgent {
            params,
            rule: RuleAgent::new(params.rule),
            solving: Solving {
                tresillo_stakes: params.tresillo_stakes,
                ..Solving::with_threads(params.threads)
            },
            values: None,
            general: crate::search::gpimc::General::new(),
            infer: Weighting::default(),
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
        // hombre: the ledger's lost / won values; the Spanish rule sets: the
        // ledger's codillo, puesta and sacado (gpimc), or `stakes=tresillo`'s
        // bid_utility.
        let hombre = crate::search::gpimc::HombreBids::new(view.public(), me);
        let spanish = match (&hombre, self.params.tresillo_stakes) {
            (None, false) => Some(crate::search::gpimc::SpanishBids::new(view.public(), me)?),
            _ => None,
        };
        let mut v = Values { entrada: [0.0; 4], solo: [0.0; 4], vuelta: 0.0 };
        let n = self.params.bid_worlds;
        self.solving.worlds += u64::from(n);
        for _ in 0..n {
            let w = sampler.sample(rng);
            // The heap in the order it is drawn.
            let (order, len) = w.heap_drawing_order(None, rng);
            let heap = &order[..len];
            let dealt = [w.hands.0[0], w.hands.0[1], w.hands.0[2]];
            let value = |contract: Contract, trump: Suit, ctx: &mut SolverContext| -> Option<f64> {
                let hands = exchange(dealt, heap, me, contract, trump);
                let pos = Position::new(hands, trump, me, mano, &[], [0, 0, 0]).ok()?;
                let class = ctx.value(&pos);
                Some(match (&hombre, &spanish) {
                    (Some(h), _) => h.utility(contract, trump, class),
                    (None, Some(s)) => s.utility(contract, trump, class),
                    (None, None) => bid_utility(class, contract, rules.favoured(Some(trump))),
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

impl PimcAgent {
    /// Fills the weighted pool for this decision ([`Weighting::weigh`] with this
    /// agent's parameters): whether the search draws from it.
    fn weigh(&mut self, sampler: &Sampler, view: &PlayerView, rng: &mut AgentRng) -> bool {
        self.infer.weigh(&self.params.infer, self.params.rule, self.params.worlds, sampler, view, rng)
    }

    /// The decision for `view` ([`Agent::decide`], which never fails for this agent).
    pub fn choose(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Decision {
        if crate::search::gpimc::handles(view.public()) && !crate::search::gpimc::pimc_bids(view) {
            // hombre, lhombre, four players: the general search of `gpimc`.
            // A model given by the program (a learned one, `loc=`) weights the
            // worlds here too; the soft rule model (`infer=1`) scores nothing
            // in these games, so without a given model the worlds stay uniform.
            if let Ok(sampler) = Sampler::new(view) {
                let weighted = self.infer.given.is_some()
                    && matches!(view.request(), Request::Play { legal, .. } if legal.len() > 1)
                    && self.weigh(&sampler, view, rng);
                let pool = &self.infer.pool;
                let (max, deadline) = self.params.budget();
                let d = self.general.decide(view, max, deadline, || {
                    if weighted { pool.pick(rng).map(|w| w.hands) } else { Some(sampler.sample(rng).hands) }
                });
                if let Some(d) = d {
                    return d;
                }
            }
            return self.rule.choose(view, rng);
        }
        let mc = match view.request() {
            Request::Bid { min_level, max_level, .. } if min_level <= max_level => {
                self.bid(view, rng, min_level)
            }
            Request::Declare { min_level, forced, .. } => self.declare(view, rng, min_level, forced),
            Request::Discard { min, max, .. }
                if self.params.discard_search
                    && (!self.params.discard_declarer_only
                        || view.public().declarer == Some(view.seat())) =>
            {
                let q = &self.params;
                let search = (q.discard_worlds, q.discard_cands as usize, q.discard_z);
                let (ctx, drawn) = self.solving.ctx_and_worlds();
                crate::research::exchange::searched_discard(view, min, max, search, rng, ctx, drawn)
                    .map(Decision::Discard)
            }
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
            Request::Ask { question: Question::SURRENDER, .. }
                | Request::Ask { question: Question::TAKE_OVER, .. }
                | Request::Ask { question: Question::BOLA, .. }
        );
        if solvable && let Ok(sampler) = Sampler::new(view) {
            let weighted = self.weigh(&sampler, view, rng);
            let pool = &self.infer.pool;
            let draw = |r: &mut AgentRng| {
                if weighted {
                    pool.pick(r).and_then(|w| w.play_state(view))
                } else {
                    sampler.sample(r).play_state(view)
                }
            };
            if let Some(d) = self.solving.decide(view, self.params.budget(), self.params.adaptive, rng, draw)
            {
                return d;
            }
        }
        self.rule.choose(view, rng)
    }
}

impl Agent for PimcAgent {
    fn name(&self) -> &str {
        "pimc"
    }

    /// On a clock: the decision's budget as its `ms` (at least 1 ms).
    fn set_time(&mut self, time: &crate::agent::TimeLeft) {
        self.params.ms = u32::try_from(time.budget.as_millis()).unwrap_or(u32::MAX).max(1);
    }

    /// Worlds drawn (card play, surrender, takeover and bola: the worlds each
    /// decision drew, invalid draws included; the auction: `bid_worlds` once a
    /// hand) and solver nodes visited.
    fn take_work(&mut self) -> crate::Work {
        let mut w = self.solving.take_work();
        w.add(self.general.take_work());
        w.add(std::mem::take(&mut self.infer.work));
        w
    }

    fn new_hand(&mut self) {
        self.values = None;
        self.solving.new_hand();
        self.general.new_hand();
    }

    fn set_likelihood(&mut self, model: std::sync::Arc<dyn crate::Likelihood>) -> bool {
        self.infer.give(&mut self.params.infer, model);
        true
    }

    fn decide(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Result<Decision, Failure> {
        let d = self.choose(view, rng);
        // A search cut short by a stop (Ctrl-C) decides nothing: its hand is
        // abandoned, not finished on a worse decision.
        if crate::interrupt::stop_requested() {
            return Err(Failure::new("interrupted"));
        }
        Ok(d)
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
    /// The play-phase search of the other rule sets ([`gpimc`](crate::search::gpimc)).
    general: crate::search::gpimc::General,
}

impl Oracle {
    /// An oracle whose other decisions use these rule parameters.
    #[must_use]
    pub fn new(rule: RuleParams) -> Oracle {
        Oracle {
            rule: RuleAgent::new(rule),
            solving: Solving::default(),
            general: crate::search::gpimc::General::new(),
        }
    }
}

impl CheatAgent for Oracle {
    fn name(&self) -> &str {
        "oracle"
    }

    fn new_hand(&mut self) {
        self.solving.new_hand();
        self.general.new_hand();
    }

    fn decide(&mut self, hand: &Hand, seat: Seat, rng: &mut AgentRng) -> Decision {
        let view = hand.view(seat);
        if crate::search::gpimc::handles(view.public()) {
            // hombre, lhombre, four players: the general search on the true hands.
            let mut once = Some(tresillo_core::BySeat(std::array::from_fn(|i| hand.hand_of(Seat(i as u8)))));
            if let Some(d) = self.general.decide(&view, 1, None, || once.take()) {
                return d;
            }
            return self.rule.choose(&view, rng);
        }
        let mut once = hand.play_state();
        if let Some(d) = self.solving.decide(&view, (1, None), false, rng, |_| once.take()) {
            return d;
        }
        self.rule.choose(&view, rng)
    }

    /// Worlds (one per searched decision: the true one) and solver nodes.
    fn take_work(&mut self) -> crate::Work {
        let mut w = self.solving.take_work();
        w.add(self.general.take_work());
        w
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
                    let keep = crate::heuristic::rule_eval::keep_set(dealt[s.index()], trump);
                    assert!(keep - kept == CardSet::EMPTY || k == heap.len(), "seed {seed}");
                }
            }
        }
    }

    #[test]
    fn lazy_card_choice_equals_solving_every_card() {
        // One solving per setting, reused across the views (warm tables).
        let settings = [(false, 1), (true, 1), (false, 2), (true, 2), (false, 3), (true, 3)];
        let mut solvings = settings.map(|(_, threads)| Solving::with_threads(threads));
        let mut checked = 0;
        for seed in 0..60u64 {
            let mut h =
                tresillo_core::Hand::new(RuleSet::TRESILLO, 3, deal_for_seed(seed), Seat((seed % 3) as u8))
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
                        let n = 1 + (seed % 24) as u32;
                        // Every world the decision may draw, from a copy of the generator.
                        let mut all = rng.clone();
                        let worlds: Vec<PlayState> =
                            (0..n).map(|_| sampler.sample(&mut all).play_state(&view).unwrap()).collect();
                        let want = full_choice(&worlds, legal, seat, decl);
                        // The generator after the decision, by adaptive.
                        let mut after: [Option<AgentRng>; 2] = [None, None];
                        for ((adaptive, threads), s) in settings.into_iter().zip(&mut solvings) {
                            let mut r = rng.clone();
                            let draw = |r: &mut AgentRng| sampler.sample(r).play_state(&view);
                            let got = s.card(legal, seat, decl, (n, None), adaptive, &mut r, draw);
                            let at = format!("seed {seed}, adaptive {adaptive}, threads {threads}");
                            assert_eq!(got, Some(want), "{at}");
                            assert!(adaptive || r == all, "{at}: every world drawn");
                            // The same draws whatever the threads.
                            let same = after[usize::from(adaptive)].get_or_insert_with(|| r.clone());
                            assert!(*same == r, "{at}: other draws than one thread");
                        }
                        checked += 1;
                        break;
                    }
                    skip -= 1;
                }
                let d = rule.choose(&view, &mut rng);
                h.apply(d).unwrap();
            }
        }
        assert!(checked > 30, "{checked}");
    }

    #[test]
    fn threaded_decisions_nested_in_rayon_match_one_thread() {
        use rayon::prelude::*;
        // Card decisions at every stage of rule-agent hands.
        let mut views = Vec::new();
        for seed in 0..6u64 {
            let mut h =
                tresillo_core::Hand::new(RuleSet::TRESILLO, 3, deal_for_seed(seed), Seat((seed % 3) as u8))
                    .unwrap();
            let mut rule = RuleAgent::new(RuleParams::default());
            let mut rng = rng_from_seed(seed);
            while let Some(seat) = h.request().seat() {
                let view = h.view(seat);
                if matches!(view.request(), Request::Play { legal, .. } if legal.len() > 1) {
                    views.push(view);
                }
                h.apply(rule.choose(&view, &mut rng)).unwrap();
            }
        }
        assert!(views.len() > 40, "{}", views.len());
        let decide = |(k, view): (usize, &PlayerView), s: &mut Solving| {
            let Request::Play { legal, .. } = view.request() else { unreachable!() };
            let sampler = Sampler::new(view).unwrap();
            let mut rng = rng_from_seed(k as u64);
            let draw = |r: &mut AgentRng| sampler.sample(r).play_state(view);
            let decl = view.public().declarer.unwrap();
            (s.card(legal, view.seat(), decl, (16, None), true, &mut rng, draw), rng)
        };
        let mut one = Solving::with_threads(1);
        let want: Vec<_> = views.iter().enumerate().map(|x| decide(x, &mut one)).collect();
        // Each decision on 2 threads from inside rayon's pool (as in a tournament).
        let got: Vec<_> =
            views.par_iter().enumerate().map(|x| decide(x, &mut Solving::with_threads(2))).collect();
        assert!(want == got, "the same cards and draws");
    }

    #[test]
    fn auto_threads_is_one_on_a_pool_worker_and_more_outside() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        assert_eq!(pool.install(auto_threads), 1, "a tournament's worker searches alone");
        assert_eq!(
            std::thread::spawn(auto_threads).join().unwrap(),
            rayon::current_num_threads().clamp(1, AUTO_THREADS_MAX)
        );
        assert_eq!(PimcParams::default().threads, 0, "auto by default");
    }

    #[test]
    fn value_bounds_do_not_depend_on_the_table() {
        // A world solved again in a context that holds its root (and other
        // worlds) bounds its cards as a fresh context does: pimc's choices do
        // not depend on which thread's context solves a world.
        let mut warm = SolverContext::new();
        for seed in 0..24u64 {
            let deal = deal_for_seed(seed);
            let hands = [deal.hands.0[0], deal.hands.0[1], deal.hands.0[2]];
            let (trump, declarer, leader) =
                (Suit::ALL[(seed % 4) as usize], Seat((seed % 3) as u8), Seat((seed / 3 % 3) as u8));
            let pos = Position::new(hands, trump, declarer, leader, &[], [0, 0, 0]).unwrap();
            let mut reps = [Card::ESPADA; 10];
            let n = warm.representatives(&pos, &mut reps);
            let first = Some(reps[seed as usize % n]);
            let bounds = |ctx: &mut SolverContext| {
                let (mut lo, mut hi) = ([Class::Codillo; 10], [Class::Sacado; 10]);
                let v = ctx.value_bounds(&pos, first, &reps[..n], &mut lo[..n], &mut hi[..n]);
                (v, lo, hi)
            };
            let fresh = bounds(&mut SolverContext::new());
            assert_eq!(bounds(&mut warm), fresh, "seed {seed}");
            assert_eq!(bounds(&mut warm), fresh, "seed {seed}: solved again");
        }
    }
}
