//! The general exact card-play solver: every rule set's objective on any
//! [`PlayState`] (three or four active seats, a trump suit or none).
//!
//! The fast [`solver`](crate::search::solver) answers one question, the Spanish outcome
//! class of section 7 in a three-handed trump contract. The rule sets of section
//! 12 ask others: L'Hombre's win/draw/loss (12.4; it differs from section 7 only
//! at 1-4-4, a *puesta real* there and a loss here), nolo (no tricks wins, one
//! draws, two or more lose, in the no-trump order), contrabola (no trick at all),
//! `hombre`'s *cuatro* (a won 4-3-2 scores double, so with points scoring it is a
//! class of its own above a plain win), the vole, bola and tout ("all remaining
//! tricks"), and four-card tricks against three opponents under
//! `penetro_all_play`. A [`Goal`] names the question: a function from the final
//! trick counts to an ordered class `0..=top`, higher better for the declarer,
//! whom the other active seats oppose as one coalition.
//!
//! # Search
//!
//! - **Zero-window AND/OR searches** on a class threshold `t` ("can the declarer
//!   force class at least `t`?"); the value is found by raising `t` while the
//!   answer is yes (at most `top` searches).
//! - **Early decisions** at trick boundaries: the lowest and highest class any
//!   split of the tricks left could give - the holder of the highest trumps out
//!   in an unbroken sequence taking one trick with each (sure tricks) -
//!   computed once per trick-count vector, sure tricks and goal and cached, end
//!   the search when both sides of `t` agree.
//! - **Transposition table** at trick boundaries keyed by the hands, the leader
//!   and the trick counts (stored whole: a hit is never a collision), holding
//!   lower and upper bounds on the class; valid across searches of one goal and
//!   declarer, cleared when they change.
//! - **One card per run of equivalent cards**: cards of one hand adjacent in
//!   power among the cards still out (the trick in progress included) in the
//!   same effective suit give the same result; estuche cards are never merged
//!   (their forcing rules differ).
//! - **Move ordering** by what the mover wants: a side that wants the trick
//!   tries the lowest card that wins it first; one that does not (the nolo or
//!   contrabola declarer, a partner already winning) tries its highest losing
//!   card first.
//!
//! [`Solvers`] puts the two solvers behind one question: positions the fast
//! solver takes exactly (three active seats, mapped to seats 0..3 in turn order;
//! a trump suit; a threshold that is a Spanish class threshold or a trick count)
//! go to it, everything else to the general one.
//!
//! ```
//! use tresillo_agents::gsolver::{GeneralSolver, Goal};
//! use tresillo_core::{parse_hand, PlayState, Seat};
//!
//! // Nolo (no trumps): seat 0 declares and holds the lowest card of each suit led.
//! let ps = PlayState::new(
//!     [parse_hand("1E 2C").unwrap(), parse_hand("12E 12C").unwrap(), parse_hand("11E 11C").unwrap()],
//!     None,
//!     Seat(1),
//! );
//! let mut ps = ps;
//! ps.tricks = [0, 4, 3, 0];
//! ps.tricks_done = 7;
//! let mut s = GeneralSolver::new();
//! assert_eq!(s.value(&ps, Seat(0), Goal::Nolo), 2); // a nolo won
//! ```
//!
//! It is slower than the fast solver (`solver.rs`, which answers Spanish classes and
//! trick counts of three-handed trump positions only: its `Position` refuses the rest):
//! sure tricks only from the top trump sequence and a hash map for its table; four
//! active seats under `penetro_all_play` take up to seconds per first-card position. In
//! `hombre`, `lhombre` and at four players `pimc` and `oracle` search only the play
//! phase (and hombre's acceptance and declared vole) and, for `pimc` in `hombre`, the
//! auction and contract (Monte Carlo over entrada, vuelta, solo); the rest is `rule`'s.

use crate::search::solver::{Class, Position, SolverContext};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use tresillo_core::tables::table;
use tresillo_core::{Card, CardSet, MAX_TRICKS, PlayState, Seat};

/// What the declarer plays for: the final trick counts mapped to ordered
/// classes `0..=top()` (higher is better for the declarer).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Goal {
    /// RULES.md section 7 against every other active seat (two, or three under
    /// `penetro_all_play`): 0 codillo, 1 puesta, 2 sacado.
    #[default]
    Spanish,
    /// `lhombre` trump contracts (section 12.4): 0 loss (a defender has more
    /// tricks than the declarer), 1 draw (the declarer ties the most), 2 win.
    Lhombre,
    /// Nolo contracts (section 12.4): 0 two or more tricks, 1 one trick, 2 none.
    Nolo,
    /// `hombre`'s contrabola (section 12.3): 0 any trick, 1 none.
    Contrabola,
    /// `hombre` points scoring (section 12.3): 0 lost (puesta or codillo), 1 won,
    /// 2 won 4-3-2 (*cuatro*, worth double).
    Cuatro,
    /// Won or not: 0 puesta or codillo, 1 sacado (`hombre` chips, where the
    /// two losses cost the declarer the same).
    Won,
    /// The declarer ends with at least this many tricks in all: 0 no, 1 yes (the
    /// vole, bola and tout: all remaining tricks).
    Reach(u8),
}

impl Goal {
    /// The best class.
    #[must_use]
    pub const fn top(self) -> u8 {
        match self {
            Goal::Spanish | Goal::Lhombre | Goal::Nolo | Goal::Cuatro => 2,
            Goal::Contrabola | Goal::Won | Goal::Reach(_) => 1,
        }
    }

    /// The class of final (or any) trick counts `tricks` with `declarer`
    /// declaring and the seats of the bit mask `active` playing.
    #[must_use]
    pub fn class(self, tricks: [u8; 4], declarer: Seat, active: u8) -> u8 {
        let d = tricks[declarer.index()];
        let mut most = 0;
        let mut ties = 0;
        for (s, &t) in tricks.iter().enumerate() {
            if s != declarer.index() && active & (1 << s) != 0 {
                if t > most {
                    most = t;
                    ties = 1;
                } else if t == most {
                    ties += 1;
                }
            }
        }
        let spanish = if d > most {
            2
        } else if most > d && ties == 1 {
            0
        } else {
            1
        };
        match self {
            Goal::Spanish => spanish,
            Goal::Lhombre => {
                if d > most {
                    2
                } else if d == most {
                    1
                } else {
                    0
                }
            }
            Goal::Nolo => 2 - d.min(2),
            Goal::Contrabola => u8::from(d == 0),
            Goal::Won => u8::from(spanish == 2),
            Goal::Cuatro => {
                if spanish < 2 {
                    0
                } else {
                    let mut opp = [0u8; 4];
                    let mut k = 0;
                    for (s, &t) in tricks.iter().enumerate() {
                        if s != declarer.index() && active & (1 << s) != 0 {
                            opp[k] = t;
                            k += 1;
                        }
                    }
                    let cuatro = d == 4 && k == 2 && opp[0].max(opp[1]) == 3 && opp[0].min(opp[1]) == 2;
                    1 + u8::from(cuatro)
                }
            }
            Goal::Reach(k) => u8::from(d >= k),
        }
    }
}

/// The bit mask of the active seats of `ps`.
#[must_use]
pub fn active_seats(ps: &PlayState) -> u8 {
    let mut mask = 0u8;
    let mut s = ps.to_move;
    for _ in 0..ps.per_trick {
        mask |= 1 << s.0;
        s = ps.next[s.index()];
    }
    mask
}

/// A multiply-xor hasher for the table's keys (its keys are already well mixed
/// card sets; the standard SipHash would cost more than the search step).
#[derive(Default)]
struct MixHasher(u64);

impl Hasher for MixHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }
    fn write_u8(&mut self, x: u8) {
        self.write_u64(u64::from(x));
    }
}

type Mix = BuildHasherDefault<MixHasher>;

/// A position at a trick boundary, normalized: for each effective suit, the
/// owners (two bits each) of its cards still out in order of power, the suit
/// lengths and which estuche cards are still out, with the leader and the trick
/// counts. Positions that differ only in which cards were played share it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key {
    owners: u128,
    lens: u32,
    leader: u8,
    tricks: u32,
}

/// The table is emptied when it holds more entries than this (about 25 MB).
const MAX_ENTRIES: usize = 1 << 19;

/// The general solver: see the module documentation. Owns its tables; reuse
/// one per thread.
#[derive(Debug, Default)]
pub struct GeneralSolver {
    /// Bounds `(lo, hi)` on the class at trick boundaries.
    table: HashMap<Key, (u8, u8), Mix>,
    /// `(lowest, highest)` class over every split of the tricks left, by the
    /// packed trick counts and the sure tricks.
    range: HashMap<u64, (u8, u8), Mix>,
    /// The goal, declarer and active seats the tables were filled for.
    owner: Option<(Goal, Seat, u8)>,
    declarer: Seat,
    goal: Goal,
    active: u8,
    nodes: u64,
    /// The trump mode `order` was built for.
    mode: Option<Option<tresillo_core::Suit>>,
    /// The bits of the cards of each effective suit, lowest power first, and
    /// how many.
    order: [[u8; 12]; 5],
    order_len: [u8; 5],
}

fn pack(t: [u8; 4]) -> u32 {
    u32::from_le_bytes(t)
}

impl GeneralSolver {
    /// An empty solver.
    #[must_use]
    pub fn new() -> GeneralSolver {
        GeneralSolver::default()
    }

    /// Nodes visited since the solver was made (for benchmarks).
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets every table entry.
    pub fn clear(&mut self) {
        self.table.clear();
        self.range.clear();
        self.owner = None;
    }

    fn prepare(&mut self, ps: &PlayState, declarer: Seat, goal: Goal) {
        let active = active_seats(ps);
        if self.owner != Some((goal, declarer, active)) || self.table.len() > MAX_ENTRIES {
            self.table.clear();
            self.range.clear();
            self.owner = Some((goal, declarer, active));
        }
        self.declarer = declarer;
        self.goal = goal;
        self.active = active;
        if self.mode != Some(ps.trump) {
            // The order of the cards by power within each effective suit.
            let t = table(ps.trump);
            self.order = [[0; 12]; 5];
            self.order_len = [0; 5];
            for s in 0..5 {
                let mut cards: Vec<u8> = t.suit_mask[s].iter().map(|c| c.bit() as u8).collect();
                cards.sort_by_key(|&b| t.power[usize::from(b)]);
                self.order_len[s] = cards.len() as u8;
                self.order[s][..cards.len()].copy_from_slice(&cards);
            }
            self.mode = Some(ps.trump);
            self.table.clear();
        }
    }

    /// The normalized key of `ps` at a trick boundary.
    fn key(&self, ps: &PlayState) -> Key {
        let mut owner = [0u8; 64];
        let mut alive = 0u64;
        for s in 0..4 {
            for c in ps.hands[s] {
                owner[c.bit() as usize] = s as u8;
                alive |= 1 << c.bit();
            }
        }
        let mut owners = 0u128;
        let mut lens = 0u32;
        for s in 0..5 {
            let mut n = 0u32;
            for &b in &self.order[s][..self.order_len[s] as usize] {
                if alive >> b & 1 != 0 {
                    owners = owners << 2 | u128::from(owner[usize::from(b)]);
                    n += 1;
                }
            }
            lens = lens << 4 | n;
        }
        let estuche = table(ps.trump).estuche.0 & alive;
        let mut e = 0u32;
        for c in table(ps.trump).estuche {
            e = e << 1 | u32::from(estuche >> c.bit() & 1 != 0);
        }
        Key { owners, lens: lens << 3 | e, leader: ps.leader.0, tricks: pack(ps.tricks) }
    }

    /// Whether `declarer` can force class at least `t` of `goal` from `ps`.
    pub fn at_least(&mut self, ps: &PlayState, declarer: Seat, goal: Goal, t: u8) -> bool {
        if t == 0 {
            return true;
        }
        if t > goal.top() {
            return false;
        }
        self.prepare(ps, declarer, goal);
        let mut p = *ps;
        self.search(&mut p, t)
    }

    /// The class of `goal` that `declarer` can force from `ps`.
    pub fn value(&mut self, ps: &PlayState, declarer: Seat, goal: Goal) -> u8 {
        let mut v = 0;
        while v < goal.top() && self.at_least(ps, declarer, goal, v + 1) {
            v += 1;
        }
        v
    }

    /// Whether playing `c` (legal for the player to move) lets `declarer` force
    /// class at least `t`.
    pub fn card_at_least(&mut self, ps: &PlayState, c: Card, declarer: Seat, goal: Goal, t: u8) -> bool {
        let mut p = *ps;
        p.play_unchecked(c);
        self.at_least(&p, declarer, goal, t)
    }

    /// The lowest and highest class any split of the tricks left could give.
    /// (At a trick boundary.) The holder of the highest trumps out in an
    /// unbroken sequence wins a trick with each of them: that seat and how many.
    fn sure_tricks(ps: &PlayState) -> (usize, u8) {
        let t = table(ps.trump);
        let mut holder = None;
        let mut k = 0;
        for &c in &t.trump_order[..t.num_trumps as usize] {
            let Some(s) = (0..4).find(|&s| ps.hands[s].contains(c)) else { continue };
            match holder {
                None => holder = Some(s),
                Some(h) if h != s => break,
                _ => {}
            }
            k += 1;
        }
        (holder.unwrap_or(0), k)
    }

    /// The lowest and highest class any split of the tricks left could give,
    /// with the sure tricks of [`GeneralSolver::sure_tricks`] given first.
    fn range(&mut self, ps: &PlayState) -> (u8, u8) {
        let (sure_seat, sure) = Self::sure_tricks(ps);
        let key = u64::from(pack(ps.tricks)) | (sure_seat as u64) << 32 | u64::from(sure) << 40;
        if let Some(&r) = self.range.get(&key) {
            return r;
        }
        let left = MAX_TRICKS.saturating_sub(ps.tricks_done).saturating_sub(sure);
        let seats: Vec<usize> = (0..4).filter(|s| self.active & (1 << s) != 0).collect();
        let mut lo = u8::MAX;
        let mut hi = 0;
        let mut t = ps.tricks;
        t[sure_seat] += sure;
        // Every split of `left` tricks among the active seats.
        fn splits(seats: &[usize], left: u8, t: &mut [u8; 4], f: &mut impl FnMut(&[u8; 4])) {
            if seats.len() == 1 {
                t[seats[0]] += left;
                f(t);
                t[seats[0]] -= left;
                return;
            }
            for k in 0..=left {
                t[seats[0]] += k;
                splits(&seats[1..], left - k, t, f);
                t[seats[0]] -= k;
            }
        }
        let (goal, decl, active) = (self.goal, self.declarer, self.active);
        splits(&seats, left, &mut t, &mut |t| {
            let c = goal.class(*t, decl, active);
            lo = lo.min(c);
            hi = hi.max(c);
        });
        self.range.insert(key, (lo, hi));
        (lo, hi)
    }

    fn search(&mut self, ps: &mut PlayState, t: u8) -> bool {
        self.nodes += 1;
        let mut key = None;
        if ps.trick_len == 0 {
            let (lo, hi) = self.range(ps);
            if lo >= t {
                return true;
            }
            if hi < t {
                return false;
            }
            let k = self.key(ps);
            if let Some(&(lo, hi)) = self.table.get(&k) {
                if lo >= t {
                    return true;
                }
                if hi < t {
                    return false;
                }
            }
            key = Some(k);
        }
        let maxer = ps.to_move == self.declarer;
        let mut order = [Card::ESPADA; 12];
        let n = self.ordered_moves(ps, &mut order);
        let mut result = !maxer;
        for &c in &order[..n] {
            let u = ps.play_unchecked(c);
            let r = self.search(ps, t);
            ps.undo(u);
            if r == maxer {
                result = maxer;
                break;
            }
        }
        if let Some(k) = key {
            let e = self.table.entry(k).or_insert((0, self.goal.top()));
            if result {
                e.0 = e.0.max(t);
            } else {
                e.1 = e.1.min(t - 1);
            }
        }
        result
    }

    /// The legal cards of the player to move, one per run of equivalent cards,
    /// in search order; returns how many.
    fn ordered_moves(&self, ps: &PlayState, out: &mut [Card; 12]) -> usize {
        let legal = ps.legal_moves();
        let t = table(ps.trump);
        let mover = ps.to_move;
        let hand = ps.hands[mover.index()];
        let mut alive = CardSet::EMPTY;
        for h in ps.hands {
            alive |= h;
        }
        for &c in &ps.trick[..ps.trick_len as usize] {
            alive.insert(c);
        }
        // Representatives: skip a card when the next lower alive card of its
        // effective suit is in the same hand, legal, and neither is estuche.
        let mut reps = [Card::ESPADA; 12];
        let mut n = 0;
        for c in legal {
            if t.estuche.contains(c) {
                reps[n] = c;
                n += 1;
                continue;
            }
            let s = t.eff_suit[c.bit() as usize];
            let mask = t.suit_mask[usize::from(s).min(4)];
            let p = t.power[c.bit() as usize];
            // The alive card of the suit just below c in power.
            let mut below: Option<Card> = None;
            for o in alive & mask {
                let q = t.power[o.bit() as usize];
                if q < p && below.is_none_or(|b| q > t.power[b.bit() as usize]) {
                    below = Some(o);
                }
            }
            match below {
                Some(b) if hand.contains(b) && legal.contains(b) && !t.estuche.contains(b) => {}
                _ => {
                    reps[n] = c;
                    n += 1;
                }
            }
        }
        let reps = &mut reps[..n];
        // What the mover wants: the declarer wants tricks unless it plays to
        // lose them; the coalition wants them when the declarer does.
        let decl_wants = !matches!(self.goal, Goal::Nolo | Goal::Contrabola);
        let is_decl = mover == self.declarer;
        let power = |c: Card| t.power[c.bit() as usize];
        match ps.led() {
            None => {
                let wants = decl_wants;
                reps.sort_by_key(
                    |&c| if wants { u16::MAX - u16::from(power(c)) } else { u16::from(power(c)) },
                );
            }
            Some(led) => {
                let ls = usize::from(t.eff_suit[led.bit() as usize]).min(4);
                let key = &t.key[ls];
                let cur = &ps.trick[..ps.trick_len as usize];
                let mut wi = 0;
                for (i, &c) in cur.iter().enumerate() {
                    if key[c.bit() as usize] > key[cur[wi].bit() as usize] {
                        wi = i;
                    }
                }
                let winner_seat = ps.trick_seats[wi];
                let partner_winning = (winner_seat == self.declarer) == is_decl;
                let best = key[cur[wi].bit() as usize];
                let wants = if is_decl { decl_wants } else { decl_wants && !partner_winning };
                reps.sort_by_key(|&c| {
                    let k = key[c.bit() as usize];
                    let wins = k > best;
                    if wants {
                        // Winning cards lowest first, then the rest lowest first.
                        if wins { u16::from(k) } else { 0x200 + u16::from(power(c)) }
                    } else if !wins {
                        // Losing cards highest first, then winning lowest first.
                        0x100 - u16::from(power(c))
                    } else {
                        0x200 + u16::from(k)
                    }
                });
            }
        }
        out[..n].copy_from_slice(reps);
        n
    }
}

/// The fast solver's position for `ps` when it has three active seats and a
/// trump suit: the active seats mapped to 0, 1, 2 in turn order (the lowest
/// first), with the map from engine seats to solver seats.
#[must_use]
pub fn fast_position(ps: &PlayState, declarer: Seat) -> Option<(Position, [u8; 4])> {
    if ps.per_trick != 3 {
        return None;
    }
    let trump = ps.trump?;
    let active = active_seats(ps);
    let mut map = [u8::MAX; 4];
    let mut hands = [CardSet::EMPTY; 3];
    let mut won = [0u8; 3];
    let mut k = 0;
    for (s, m) in map.iter_mut().enumerate() {
        if active & (1 << s) != 0 {
            *m = k as u8;
            hands[k] = ps.hands[s];
            won[k] = ps.tricks[s];
            k += 1;
        }
    }
    let to = |s: Seat| Seat(map[s.index()]);
    if map[declarer.index()] == u8::MAX {
        return None;
    }
    let pos =
        Position::new(hands, trump, to(declarer), to(ps.leader), &ps.trick[..ps.trick_len as usize], won)
            .ok()?;
    Some((pos, map))
}

/// The two solvers behind one question (see the module documentation).
#[derive(Debug, Default)]
pub struct Solvers {
    fast: Option<Box<SolverContext>>,
    general: GeneralSolver,
}

/// How the fast solver answers "class at least `t` of `goal`", when it can.
#[derive(Clone, Copy)]
enum FastQuestion {
    Class(Class),
    Reach(u8),
}

fn fast_question(goal: Goal, t: u8) -> Option<FastQuestion> {
    match (goal, t) {
        (Goal::Spanish, 1) => Some(FastQuestion::Class(Class::Puesta)),
        (Goal::Spanish, 2) | (Goal::Lhombre, 2) | (Goal::Won, 1) | (Goal::Cuatro, 1) => {
            Some(FastQuestion::Class(Class::Sacado))
        }
        (Goal::Reach(k), 1) => Some(FastQuestion::Reach(k)),
        _ => None,
    }
}

impl Solvers {
    /// Both solvers, empty.
    #[must_use]
    pub fn new() -> Solvers {
        Solvers::default()
    }

    /// Nodes both solvers visited since they were made (the work counters of
    /// [`Agent::take_work`](crate::Agent::take_work)).
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.general.nodes() + self.fast.as_ref().map_or(0, |c| c.nodes())
    }

    /// Empties both tables ([`SolverContext::clear`], [`GeneralSolver::clear`]).
    pub fn clear(&mut self) {
        self.general.clear();
        if let Some(c) = &mut self.fast {
            c.clear();
        }
    }

    /// The general solver (for benchmarks and tests).
    pub fn general(&mut self) -> &mut GeneralSolver {
        &mut self.general
    }

    /// The fast solver (for benchmarks and tests).
    pub fn fast(&mut self) -> &mut SolverContext {
        self.fast.get_or_insert_with(|| Box::new(SolverContext::new()))
    }

    /// Whether `declarer` can force class at least `t` of `goal` from `ps`, by
    /// the fast solver when the question is one it answers, else the general.
    pub fn at_least(&mut self, ps: &PlayState, declarer: Seat, goal: Goal, t: u8) -> bool {
        if t == 0 {
            return true;
        }
        if let Some(q) = fast_question(goal, t)
            && let Some((pos, _)) = fast_position(ps, declarer)
        {
            let ctx = self.fast();
            return match q {
                FastQuestion::Class(c) => ctx.at_least(&pos, c),
                FastQuestion::Reach(k) => ctx.can_reach(&pos, k),
            };
        }
        self.general.at_least(ps, declarer, goal, t)
    }

    /// The class of `goal` that `declarer` can force from `ps`.
    pub fn value(&mut self, ps: &PlayState, declarer: Seat, goal: Goal) -> u8 {
        let mut v = 0;
        while v < goal.top() && self.at_least(ps, declarer, goal, v + 1) {
            v += 1;
        }
        v
    }

    /// The class of `goal` after the player to move plays `c`.
    pub fn card_value(&mut self, ps: &PlayState, c: Card, declarer: Seat, goal: Goal) -> u8 {
        let mut p = *ps;
        p.play_unchecked(c);
        self.value(&p, declarer, goal)
    }

    /// The class of `goal` each legal card of the player to move leads to, in
    /// the order of [`PlayState::legal_moves`]. The Spanish classes of a
    /// three-seat position with trumps come from one search of the fast solver
    /// (every card at once); every other goal asks [`Solvers::card_value`] card
    /// by card.
    pub fn card_values(&mut self, ps: &PlayState, declarer: Seat, goal: Goal) -> Vec<(Card, u8)> {
        if goal == Goal::Spanish
            && let Some((pos, _)) = fast_position(ps, declarer)
        {
            return self.fast().solve(&pos).cards().iter().map(|&(c, v)| (c, v as u8)).collect();
        }
        ps.legal_moves().iter().map(|c| (c, self.card_value(ps, c, declarer, goal))).collect()
    }

    /// Whether `declarer` can take every trick left.
    pub fn can_take_all(&mut self, ps: &PlayState, declarer: Seat) -> bool {
        let k = ps.tricks[declarer.index()] + MAX_TRICKS.saturating_sub(ps.tricks_done);
        self.at_least(ps, declarer, Goal::Reach(k), 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{below, rng_from_seed};
    use tresillo_core::Suit;

    /// Plain minimax over every legal card to the end: the declarer maximizes
    /// the class, every other seat minimizes it. Written apart from the solver.
    fn minimax(ps: &mut PlayState, declarer: Seat, goal: Goal, active: u8) -> u8 {
        if ps.is_over() {
            return goal.class(ps.tricks, declarer, active);
        }
        let maxer = ps.to_move == declarer;
        let mut best = if maxer { 0 } else { u8::MAX };
        for c in ps.legal_moves() {
            let u = ps.play_unchecked(c);
            let v = minimax(ps, declarer, goal, active);
            ps.undo(u);
            best = if maxer { best.max(v) } else { best.min(v) };
        }
        best
    }

    /// A random position with `left` tricks to play at a table whose active
    /// seats are the mask `active` (three at a table of three when it is
    /// 0b0111 and `four` is false), with a random trick in progress.
    fn random_position(seed: u64, left: u8, active: u8, four: bool) -> (PlayState, Seat) {
        let mut rng = rng_from_seed(seed);
        let mut pack: Vec<Card> = Card::all().collect();
        for i in (1..pack.len()).rev() {
            pack.swap(i, below(&mut rng, i as u32 + 1) as usize);
        }
        let seats: Vec<usize> = (0..4).filter(|s| active & (1 << s) != 0).collect();
        let mut hands = [CardSet::EMPTY; 4];
        let mut k = 0;
        for &s in &seats {
            for _ in 0..left {
                hands[s].insert(pack[k]);
                k += 1;
            }
        }
        let trump = match below(&mut rng, 5) {
            4 => None,
            i => Some(Suit::ALL[i as usize]),
        };
        let leader = Seat(seats[below(&mut rng, seats.len() as u32) as usize] as u8);
        let mut ps = if four {
            PlayState::with_seats(hands, trump, leader, active)
        } else {
            PlayState::new([hands[0], hands[1], hands[2]], trump, leader)
        };
        for _ in 0..9 - left {
            let s = seats[below(&mut rng, seats.len() as u32) as usize];
            ps.tricks[s] += 1;
        }
        ps.tricks_done = 9 - left;
        let declarer = Seat(seats[below(&mut rng, seats.len() as u32) as usize] as u8);
        for _ in 0..below(&mut rng, ps.per_trick as u32) {
            let l = ps.legal_moves();
            ps.play_unchecked(l.nth(below(&mut rng, l.len())).unwrap());
        }
        (ps, declarer)
    }

    fn goals(ps: &PlayState, declarer: Seat) -> [Goal; 7] {
        let all = ps.tricks[declarer.index()] + 9 - ps.tricks_done;
        [
            Goal::Spanish,
            Goal::Lhombre,
            Goal::Nolo,
            Goal::Contrabola,
            Goal::Cuatro,
            Goal::Won,
            Goal::Reach(all),
        ]
    }

    fn check_against_minimax(active: u8, four: bool, max_left: u8, n: u64) {
        let mut solver = GeneralSolver::new();
        let mut both = Solvers::new();
        for seed in 0..n {
            let left = 1 + (seed % u64::from(max_left)) as u8;
            let (ps, declarer) = random_position(seed, left, active, four);
            for goal in goals(&ps, declarer) {
                let want = minimax(&mut ps.clone(), declarer, goal, active);
                assert_eq!(solver.value(&ps, declarer, goal), want, "seed {seed} {goal:?} {ps:?}");
                assert_eq!(both.value(&ps, declarer, goal), want, "seed {seed} {goal:?} (dispatch)");
                for t in 0..=goal.top() {
                    assert_eq!(
                        solver.at_least(&ps, declarer, goal, t),
                        want >= t,
                        "seed {seed} {goal:?} t {t}"
                    );
                }
            }
        }
    }

    #[test]
    fn every_goal_agrees_with_plain_minimax_at_a_table_of_three() {
        check_against_minimax(0b0111, false, 4, 3000);
    }

    #[test]
    fn every_goal_agrees_with_plain_minimax_with_three_of_four_seats_active() {
        check_against_minimax(0b1011, true, 4, 1500);
        check_against_minimax(0b1110, true, 4, 1500);
    }

    #[test]
    fn every_goal_agrees_with_plain_minimax_with_four_active_seats() {
        check_against_minimax(0b1111, true, 4, 800);
    }

    #[test]
    fn goal_classes_follow_the_rules() {
        let a = 0b0111;
        let d = Seat(0);
        // Section 7 against 12.4: they differ only at 1-4-4.
        assert_eq!(Goal::Spanish.class([1, 4, 4, 0], d, a), 1);
        assert_eq!(Goal::Lhombre.class([1, 4, 4, 0], d, a), 0);
        for (t, s, l) in
            [([4, 3, 2, 0], 2, 2), ([4, 4, 1, 0], 1, 1), ([3, 3, 3, 0], 1, 1), ([3, 4, 2, 0], 0, 0)]
        {
            assert_eq!(Goal::Spanish.class(t, d, a), s, "{t:?}");
            assert_eq!(Goal::Lhombre.class(t, d, a), l, "{t:?}");
        }
        assert_eq!(Goal::Nolo.class([0, 5, 4, 0], d, a), 2);
        assert_eq!(Goal::Nolo.class([1, 4, 4, 0], d, a), 1);
        assert_eq!(Goal::Nolo.class([2, 4, 3, 0], d, a), 0);
        assert_eq!(Goal::Contrabola.class([1, 4, 4, 0], d, a), 0);
        assert_eq!(Goal::Cuatro.class([4, 3, 2, 0], d, a), 2);
        assert_eq!(Goal::Cuatro.class([4, 2, 3, 0], d, a), 2);
        assert_eq!(Goal::Cuatro.class([5, 2, 2, 0], d, a), 1);
        assert_eq!(Goal::Cuatro.class([4, 4, 1, 0], d, a), 0);
        // Three opponents under penetro_all_play.
        assert_eq!(Goal::Spanish.class([3, 2, 2, 2], d, 0b1111), 2);
        assert_eq!(Goal::Spanish.class([3, 3, 2, 1], d, 0b1111), 1);
        assert_eq!(Goal::Spanish.class([2, 4, 2, 1], d, 0b1111), 0);
    }

    #[test]
    fn fast_position_maps_three_of_four_seats_in_turn_order() {
        for seed in 0..200 {
            let (ps, declarer) = random_position(seed, 1 + (seed % 4) as u8, 0b1101, true);
            if ps.trump.is_none() {
                continue;
            }
            let (pos, map) = fast_position(&ps, declarer).unwrap();
            assert_eq!(map, [0, u8::MAX, 1, 2]);
            assert_eq!(pos.to_move(), Seat(map[ps.to_move.index()]));
            assert_eq!(pos.legal(), ps.legal_moves());
        }
    }
}
