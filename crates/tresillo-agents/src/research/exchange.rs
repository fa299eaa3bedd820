//! The searched exchange (`pimc:discard=search`, or `discard=declarer`): at its own discard, the
//! agent values a few candidate discards by sampling worlds and solving the
//! card play after the exchange, and keeps the one of best mean utility.
//!
//! # Candidates
//!
//! The rule agent's discards are the first `j` cards of one fixed order of
//! the hand (everything outside [`keep_set`](crate::keep_set), weakest first,
//! then the kept cards, weakest first): `R(j)` is the rule agent's discard
//! forced to `j` cards, and `R(k)` with `k` the rule agent's own count is its
//! choice. The candidates, in this order, are `R(k)`, `R(k-1)` (keep the
//! strongest card rule would discard), `R(k+1)` (discard the weakest card rule
//! keeps), the swap of those two cards (`k` cards), then `R(k-2)`, `R(k+2)`,
//! `R(k-3)`, ... within the request's `min..=max`, without repeats, at most
//! `cands` of them. With `cands=1` the choice is the rule agent's.
//!
//! # Value
//!
//! `worlds` worlds are drawn from the exact [`Sampler`] (the other hands, their
//! discards and the heap that is left), and in each the heap is put in a random
//! drawing order (the turned vuelta card first). Every candidate is valued on the
//! same worlds and drawing orders (common random numbers): this seat discards
//! it and draws from the top, the players who exchange after it discard as the
//! rule agent does (up to what the heap holds; the first opponent, if not yet
//! agreed, taken to be the one after the declarer, as in `pimc`'s auction), and
//! the card play is solved with mano leading. The utility is `pimc`'s (sacado
//! +1, puesta -1, codillo -2 for the declarer's side, the negation for an
//! opponent). The candidate of best sum is chosen, the earlier in the order
//! above among equals (so the rule agent's unless another is strictly better),
//! among the rule agent's and those whose mean gain over it exceeds `z`
//! hundredths of its standard error, paired over the worlds (`discard_z`; 0:
//! any gain).
//!
//! With `discard=declarer` only the declarer's discard is searched (an
//! opponent discards as the rule agent). Three-player `tresillo` and
//! `tresillo-house` with trumps known; elsewhere (the
//! forced entrada of `tresillo-house` that exchanges before naming trumps,
//! `hombre`, `lhombre`, four players) the agent discards as the rule agent does.
//!
//! Measured, neither beats plain `pimc`: the runs and their figures are in
//! results/README.md (`pimc-discard-search`), the headline one in
//! [`research`](crate::research).

use crate::heuristic::rule::exchange_discards;
use crate::rng::AgentRng;
use crate::sampling::sampler::Sampler;
use crate::search::solver::{Position, SolverContext, declarer_utility};
use tresillo_core::{Card, CardSet, Contract, Phase, PlayerView, Seat, Suit};

/// Most candidates a searched discard considers.
pub const MAX_CANDIDATES: usize = 12;

/// The candidate discards of `hand` with trumps `trump`, at least `min` and at
/// most `max` cards, in the order of the module documentation, at most `cands`
/// (and at most [`MAX_CANDIDATES`]) of them; the first is the rule agent's.
/// Returns the candidates and their number.
#[must_use]
pub fn candidates(
    hand: CardSet,
    trump: Suit,
    min: u32,
    max: u32,
    cands: usize,
) -> ([CardSet; MAX_CANDIDATES], usize) {
    let max = max.min(hand.len());
    let min = min.min(max);
    let r = |j: u32| exchange_discards(hand, trump, j, j);
    let rule = exchange_discards(hand, trump, min, max);
    let k = rule.len();
    let mut out = [CardSet::EMPTY; MAX_CANDIDATES];
    let mut n = 0;
    let cap = cands.clamp(1, MAX_CANDIDATES);
    let mut push = |d: CardSet, out: &mut [CardSet; MAX_CANDIDATES]| {
        if n < cap && !out[..n].contains(&d) {
            out[n] = d;
            n += 1;
        }
    };
    push(rule, &mut out);
    let ok = |j: i64| j >= i64::from(min) && j <= i64::from(max);
    let k = i64::from(k);
    for step in 1..=10i64 {
        if ok(k - step) {
            push(r((k - step) as u32), &mut out);
        }
        if ok(k + step) {
            push(r((k + step) as u32), &mut out);
        }
        if step == 1 && k >= 1 && k < i64::from(hand.len()) {
            // The strongest card rule discards kept, the weakest it keeps discarded.
            let (less, more) = (r(k as u32 - 1), r(k as u32 + 1));
            push(less | (more - rule), &mut out);
        }
    }
    (out, n)
}

/// Seat `seat` discards `out` and draws as many from `heap` at `top`.
fn swap(hands: &mut [CardSet; 3], seat: Seat, out: CardSet, heap: &[Card], top: &mut usize) {
    let mut h = hands[seat.index()] - out;
    for &c in &heap[*top..*top + out.len() as usize] {
        h.insert(c);
    }
    *top += out.len() as usize;
    hands[seat.index()] = h;
}

/// The seats that exchange after `me` in this view's exchange, in order, each
/// with the most cards it may exchange (before the heap is counted).
fn later_exchangers(view: &PlayerView, me: Seat) -> ([(Seat, u32); 2], usize) {
    let p = view.public();
    let decl = p.declarer.unwrap_or(me);
    let fo = p.first_opponent.unwrap_or(decl.next(3));
    let so = if fo == decl.next(3) { decl.plus(2, 3) } else { decl.next(3) };
    let fo_max = u32::from(p.game_rules().spec().first_opponent_max);
    let mut out = [(me, 0); 2];
    let n = match p.phase {
        Phase::DeclarerExchange => {
            out = [(fo, fo_max), (so, 9)];
            2
        }
        Phase::FirstOpponentExchange => {
            out[0] = (so, 9);
            1
        }
        _ => 0,
    };
    (out, n)
}

/// One exchange to simulate: who discards now, the declarer, mano (who leads),
/// trumps and the seats that exchange after (each with its most cards).
#[derive(Clone, Copy, Debug)]
struct Exchange {
    me: Seat,
    declarer: Seat,
    mano: Seat,
    trump: Suit,
    later: [(Seat, u32); 2],
    num_later: usize,
}

impl Exchange {
    /// The utility for `me`'s side of each candidate discard of `cands` (into
    /// `values`) in the world of the hands `dealt` (`me`'s hand before its
    /// discard) and the heap in drawing order, or `false` if some candidate
    /// makes no position (more cards than the heap holds).
    fn values(
        &self,
        dealt: [CardSet; 3],
        heap: &[Card],
        cands: &[CardSet],
        ctx: &mut SolverContext,
        values: &mut [i64],
    ) -> bool {
        let sign = if self.me == self.declarer { 1 } else { -1 };
        for (i, &d) in cands.iter().enumerate() {
            if d.len() as usize > heap.len() {
                return false;
            }
            let mut hands = dealt;
            let mut top = 0;
            swap(&mut hands, self.me, d, heap, &mut top);
            for &(s, most) in &self.later[..self.num_later] {
                let left = (heap.len() - top) as u32;
                let out = exchange_discards(hands[s.index()], self.trump, 0, most.min(left));
                swap(&mut hands, s, out, heap, &mut top);
            }
            let Ok(pos) = Position::new(hands, self.trump, self.declarer, self.mano, &[], [0, 0, 0]) else {
                return false;
            };
            values[i] = i64::from(sign * declarer_utility(ctx.value(&pos)));
        }
        true
    }
}

/// The searched discard for this view's `Discard { min, max }` request: the
/// candidate of best mean utility over `worlds` sampled worlds (see the module
/// documentation), or `None` when the search does not apply (no trumps yet,
/// not three players, no world) and the rule agent's discard stands. Adds the
/// worlds drawn to `drawn`.
pub fn searched_discard(
    view: &PlayerView,
    min: u8,
    max: u8,
    (worlds, cands, z): (u32, usize, u32),
    rng: &mut AgentRng,
    ctx: &mut SolverContext,
    drawn: &mut u64,
) -> Option<CardSet> {
    let p = view.public();
    if p.players != 3 {
        return None;
    }
    let trump = view.trump()?;
    let declarer = p.declarer?;
    let me = view.seat();
    let hand = view.hand();
    let (cand, n) = candidates(hand, trump, u32::from(min), u32::from(max), cands);
    if n <= 1 {
        return Some(cand[0]);
    }
    let sampler = Sampler::new(view).ok()?;
    let (later, num_later) = later_exchangers(view, me);
    let mano = p.mano();
    let turned = p.turned.filter(|_| p.contract.is_some_and(Contract::turns_card));
    let mut sums = [0i64; MAX_CANDIDATES];
    // Sums of the squared differences to the rule agent's candidate.
    let mut squares = [0i64; MAX_CANDIDATES];
    let mut valid = 0u32;
    for _ in 0..worlds {
        *drawn += 1;
        let w = sampler.sample(rng);
        // The heap in drawing order: the turned card first while it is there.
        let (order, len) = w.heap_drawing_order(turned, rng);
        let heap = &order[..len];
        let dealt = [w.hands.0[0], w.hands.0[1], w.hands.0[2]];
        let mut values = [0i64; MAX_CANDIDATES];
        let world = Exchange { me, declarer, mano, trump, later, num_later };
        let ok = world.values(dealt, heap, &cand[..n], ctx, &mut values);
        if ok {
            valid += 1;
            for i in 0..n {
                sums[i] += values[i];
                squares[i] += (values[i] - values[0]).pow(2);
            }
        }
    }
    if valid == 0 {
        return None;
    }
    Some(cand[choose(&sums[..n], &squares[..n], valid, z)])
}

/// The candidate chosen from each one's sum of utility over `n` worlds and
/// its sum of squared differences to the first's (the rule agent's) in each
/// world: the best sum (the earliest among equals) among the first and those
/// whose mean gain over the first exceeds `z` hundredths of its standard
/// error (paired over the worlds; `z` 0: any gain).
fn choose(sums: &[i64], squares: &[i64], n: u32, z: u32) -> usize {
    let n_f = f64::from(n.max(1));
    let mut best = 0;
    for i in 1..sums.len() {
        let mean = (sums[i] - sums[0]) as f64 / n_f;
        let var =
            if n > 1 { (squares[i] as f64 / n_f - mean * mean).max(0.0) * n_f / (n_f - 1.0) } else { 0.0 };
        let clear = mean > f64::from(z) / 100.0 * (var / n_f).sqrt();
        if clear && sums[i] > sums[best] {
            best = i;
        }
    }
    best
}

#[cfg(test)]
#[path = "exchange_tests.rs"]
mod tests;
