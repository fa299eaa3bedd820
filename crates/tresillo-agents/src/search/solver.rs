//! The exact card-play solver: with every hand known, the outcome class the
//! declarer can force (RULES.md section 7), the class of every legal card, and
//! the cheap questions "can the declarer take every remaining trick?" (bola) and
//! "can the declarer reach `k` tricks?".
//!
//! # What is solved
//!
//! A [`Position`] is a complete play position of a three-player hand: the three
//! hands, the trumps, the declarer, the trick in progress and the tricks each seat
//! has won. The declarer plays to maximize the class (sacado > puesta > codillo);
//! the two opponents are a coalition that minimizes it.
//!
//! The class is **not** a function of the declarer's trick count: with two
//! opponents the split between them matters (4-3-2 is a sacado, 4-4-1 a puesta;
//! 3-4-2 is a codillo, 3-3-3 a puesta). So the searches are not "at least `k`
//! tricks" searches: each asks "does the final triple of counts reach class `t`?"
//! for `t` = puesta (no codillo) or `t` = sacado, and the state they search
//! carries all three counts. [`Class`] is found with at most two such zero-window
//! (true/false) searches. Bola and [`SolverContext::can_reach`] are searches on the
//! declarer's count alone.
//!
//! # Techniques
//!
//! - **Power-ordered bits.** Inside a solve each hand is a `u64` in which every
//!   effective suit is a 16-bit lane (the three plain suits in lanes 0-2, the
//!   trumps in lane 3), a card's bit within its lane being its trick-taking power.
//!   Following is a lane mask, the trick winner the highest bit among the cards of
//!   the led lane and the trump lane.
//! - **Zero-window searches**, AND/OR: the declarer needs one card that reaches the
//!   target, the coalition one card that refutes it.
//! - **Transposition table at trick boundaries**, keyed by the normalized position:
//!   played cards are squeezed out of every lane (bit extract by the remaining
//!   cards), so positions that differ only in which cards were played share an
//!   entry; the key keeps the lane sizes, how many estuche cards remain, the seat
//!   to lead (relative to the declarer) and the trick counts (less their minimum,
//!   which does not change any comparison). Keys are stored whole, so a hit is
//!   never a collision. Entries hold lower and upper bounds on the class (or on
//!   the declarer's future tricks for the trick-count searches) and stay valid
//!   between solves. An entry is 16 bytes, four to a 64-byte bucket (one cache
//!   line, probed before the sure tricks are counted: it decides as many
//!   positions as they do, more cheaply); a full bucket gives
//!   up first an entry written while solving another deal (a PIMC decision
//!   solves many worlds, whose positions rarely meet), then the one with the
//!   fewest tricks left.
//! - **One card per run of equivalent cards**: cards of one hand adjacent in power
//!   among the cards still out (the trick in progress included) in the same lane
//!   are interchangeable; estuche cards are never merged (their forcing rules
//!   differ).
//! - **Sure-trick bounds** at trick boundaries: the holder of the highest trumps
//!   out in an unbroken sequence wins one trick with each of them, whoever leads.
//!   With these lower bounds the class's best and worst cases are checked before
//!   searching.
//! - **Move ordering**: following, a card that beats the trick so far (the lowest
//!   first) unless a partner is winning, then low cards; leading, the masters
//!   first, then low cards.
//!
//! - **Per-node work kept small**: the card winning the trick in progress and
//!   the cards that would beat it are carried as cards are played (not found
//!   again at each node), the cards a lead obliges to follow come from a table
//!   by the card led, the lowest card of every lane comes from one subtraction
//!   with a guard bit atop each lane, and the root's bookkeeping is compiled
//!   into the root only. The three cards of a trick are searched by three
//!   instances of one function, the trick's length a compile-time constant.
//!
//! A [`SolverContext`] owns its table and is reused between solves by one thread;
//! there is no global state and no lock.
//!
//! ```
//! use tresillo_agents::solver::{Class, Position, SolverContext};
//! use tresillo_core::{parse_hand, Seat, Suit};
//!
//! // Oros trumps, seat 0 declares and leads with the espada and two kings.
//! let pos = Position::new(
//!     [parse_hand("1E 12C 12E").unwrap(), parse_hand("3C 4C 5B").unwrap(), parse_hand("2C 6C 7B").unwrap()],
//!     tresillo_core::Suit::Oros,
//!     Seat(0),
//!     Seat(0),
//!     &[],
//!     [3, 2, 1],
//! ).unwrap();
//! let mut ctx = SolverContext::new();
//! assert_eq!(ctx.value(&pos), Class::Sacado);
//! assert!(ctx.can_take_all(&pos));
//! # let _ = Suit::Oros;
//! ```

use tresillo_core::tables::{TRUMP_SUIT, table};
use tresillo_core::{Card, CardSet, Outcome, PlayState, Seat, Suit};

/// Tricks in a hand.
pub const TOTAL_TRICKS: u8 = tresillo_core::MAX_TRICKS;

/// An outcome class (RULES.md section 7), ordered from the declarer's point of
/// view: `Codillo < Puesta < Sacado`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// An opponent has strictly more tricks than each other player.
    Codillo = 0,
    /// Neither a sacado nor a codillo (a draw, paid as a loss).
    Puesta = 1,
    /// The declarer has strictly more tricks than each opponent.
    Sacado = 2,
}

/// Utility of a class for the declarer's side, in units of the amount in play.
#[must_use]
pub const fn declarer_utility(c: Class) -> i32 {
    match c {
        Class::Sacado => 1,
        Class::Puesta => -1,
        Class::Codillo => -2,
    }
}

impl Class {
    /// All classes, worst first.
    pub const ALL: [Class; 3] = [Class::Codillo, Class::Puesta, Class::Sacado];

    /// `sacado`, `puesta` or `codillo`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Class::Codillo => "codillo",
            Class::Puesta => "puesta",
            Class::Sacado => "sacado",
        }
    }

    /// The class of final trick counts: the declarer's `d` and the opponents' `a`
    /// and `b` (section 7).
    #[must_use]
    #[inline]
    pub const fn of_counts(d: u8, a: u8, b: u8) -> Class {
        if d > a && d > b {
            Class::Sacado
        } else if (a > d && a > b) || (b > d && b > a) {
            Class::Codillo
        } else {
            Class::Puesta
        }
    }

    /// The class of an [`Outcome`] (`None` for a cancelled hand).
    #[must_use]
    pub const fn of_outcome(o: Outcome) -> Option<Class> {
        match o {
            Outcome::Cancelled => None,
            Outcome::Sacado => Some(Class::Sacado),
            Outcome::Puesta { .. } => Some(Class::Puesta),
            Outcome::Codillo { .. } => Some(Class::Codillo),
        }
    }
}

impl std::fmt::Display for Class {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A position the solver cannot take: one that no hand of Tresillo reaches.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The same card twice (in two hands, or in a hand and the trick).
    #[error("card {0} appears twice")]
    Duplicate(Card),
    /// Hand sizes that do not fit the trick in progress.
    #[error("hand sizes {sizes:?} do not fit a trick with {played} card(s) played from seat {leader}")]
    HandSizes {
        /// The sizes, by seat.
        sizes: [u32; 3],
        /// Cards of the trick in progress.
        played: usize,
        /// Its leader.
        leader: u8,
    },
    /// Tricks won plus tricks left is not nine.
    #[error("tricks won {won:?} and {left} trick(s) left do not make nine")]
    TrickCount {
        /// The tricks won, by seat.
        won: [u8; 3],
        /// Tricks left to play (the one in progress included).
        left: u32,
    },
    /// A trick in progress of three or more cards.
    #[error("a trick in progress holds {0} cards (at most 2)")]
    TrickTooLong(usize),
    /// A card of the trick in progress that its player could not have played.
    #[error("card {card} of the trick in progress breaks the rules of following (RULES.md section 5)")]
    Illegal {
        /// The card.
        card: Card,
    },
    /// A seat outside `0..3`.
    #[error("seat {0} is not one of 0, 1, 2")]
    BadSeat(u8),
    /// A position that is not of a three-player trump contract.
    #[error("{0}")]
    Unsupported(String),
}

/// A complete play position of a three-player hand, as the solver takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    hands: [CardSet; 3],
    trump: Suit,
    declarer: Seat,
    leader: Seat,
    trick: [Card; 2],
    trick_len: u8,
    won: [u8; 3],
}

impl Position {
    /// A checked position: `hands` by seat, the trump suit, the declarer, the
    /// seat that led (or leads) the current trick, the cards of the trick in
    /// progress in play order (at most two) and the tricks won by each seat.
    ///
    /// Errors when a card appears twice, the hand sizes do not fit the trick, the
    /// tricks won and left do not make nine, or a card of the trick could not have
    /// been played (its player held a card that had to be played instead).
    pub fn new(
        hands: [CardSet; 3],
        trump: Suit,
        declarer: Seat,
        leader: Seat,
        trick: &[Card],
        won: [u8; 3],
    ) -> Result<Position, PositionError> {
        for s in [declarer, leader] {
            if s.0 > 2 {
                return Err(PositionError::BadSeat(s.0));
            }
        }
        if trick.len() > 2 {
            return Err(PositionError::TrickTooLong(trick.len()));
        }
        let mut seen = CardSet::EMPTY;
        for h in hands {
            for c in h {
                if !seen.insert(c) {
                    return Err(PositionError::Duplicate(c));
                }
            }
            if !h.is_valid() {
                return Err(PositionError::Unsupported("a hand holds bits that are not cards".into()));
            }
        }
        for &c in trick {
            if !seen.insert(c) {
                return Err(PositionError::Duplicate(c));
            }
        }
        let sizes = hands.map(CardSet::len);
        let n = sizes[leader.index()] + u32::from(!trick.is_empty());
        for k in 0..3u8 {
            let s = leader.plus(k, 3);
            let expect = if usize::from(k) < trick.len() { n - 1 } else { n };
            if sizes[s.index()] != expect {
                return Err(PositionError::HandSizes { sizes, played: trick.len(), leader: leader.0 });
            }
        }
        if u32::from(won.iter().sum::<u8>()) + n != u32::from(TOTAL_TRICKS) {
            return Err(PositionError::TrickCount { won, left: n });
        }
        if trick.len() == 2 {
            let s = leader.next(3);
            let held = hands[s.index()].with(trick[1]);
            if !tresillo_core::legal_moves(held, Some(trump), Some(trick[0])).contains(trick[1]) {
                return Err(PositionError::Illegal { card: trick[1] });
            }
        }
        let mut t = [Card::ESPADA; 2];
        t[..trick.len()].copy_from_slice(trick);
        Ok(Position { hands, trump, declarer, leader, trick: t, trick_len: trick.len() as u8, won })
    }

    /// The position of a three-player [`PlayState`] with `declarer` declaring.
    pub fn from_play_state(p: &PlayState, declarer: Seat) -> Result<Position, PositionError> {
        if p.per_trick != 3 {
            return Err(PositionError::Unsupported(format!(
                "the solver takes three-player positions, not {}",
                p.per_trick
            )));
        }
        let Some(trump) = p.trump else {
            return Err(PositionError::Unsupported("the solver takes trump contracts only".into()));
        };
        let won = [p.tricks[0], p.tricks[1], p.tricks[2]];
        Position::new(
            [p.hands[0], p.hands[1], p.hands[2]],
            trump,
            declarer,
            p.leader,
            &p.trick[..p.trick_len as usize],
            won,
        )
    }

    /// Each seat's cards.
    #[must_use]
    pub fn hands(&self) -> [CardSet; 3] {
        self.hands
    }

    /// The trump suit.
    #[must_use]
    pub fn trump(&self) -> Suit {
        self.trump
    }

    /// The declarer.
    #[must_use]
    pub fn declarer(&self) -> Seat {
        self.declarer
    }

    /// The seat that led the current trick (or leads it, if no card is down).
    #[must_use]
    pub fn leader(&self) -> Seat {
        self.leader
    }

    /// The cards of the trick in progress, in play order.
    #[must_use]
    pub fn trick(&self) -> &[Card] {
        &self.trick[..self.trick_len as usize]
    }

    /// Tricks won so far, by seat.
    #[must_use]
    pub fn won(&self) -> [u8; 3] {
        self.won
    }

    /// The seat to play.
    #[must_use]
    pub fn to_move(&self) -> Seat {
        self.leader.plus(self.trick_len, 3)
    }

    /// Tricks left to play (the one in progress included).
    #[must_use]
    pub fn tricks_left(&self) -> u8 {
        self.hands[self.to_move().index()].len() as u8
    }

    /// The legal cards of the player to move (RULES.md section 5).
    #[must_use]
    pub fn legal(&self) -> CardSet {
        let led = if self.trick_len == 0 { None } else { Some(self.trick[0]) };
        tresillo_core::legal_moves(self.hands[self.to_move().index()], Some(self.trump), led)
    }
}

/// The class of every legal card of the player to move, and the class of the
/// position (the best for the declarer's side over them, the worst when an
/// opponent is to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// What the declarer can force.
    pub value: Class,
    cards: [(Card, Class); 10],
    len: u8,
}

impl Solution {
    /// `(card, class)` for each legal card, in the engine's sort order.
    #[must_use]
    pub fn cards(&self) -> &[(Card, Class)] {
        &self.cards[..self.len as usize]
    }

    /// The class of `c`, if it is a legal card.
    #[must_use]
    pub fn class_of(&self, c: Card) -> Option<Class> {
        self.cards().iter().find(|(x, _)| *x == c).map(|(_, v)| *v)
    }
}

// ---------------------------------------------------------------------------
// Power-ordered layout
// ---------------------------------------------------------------------------

const LANE: u64 = 0xFFFF;
const TRUMP_LANE: u64 = LANE << 48;

/// A trump suit's mapping between cards and power-ordered bits.
#[derive(Clone, Copy, Debug)]
struct Layout {
    /// Card bit -> power-ordered bit (255 for non-card bits).
    to_p: [u8; 64],
    /// Power-ordered bit -> card bit.
    from_p: [u8; 64],
    /// The estuche cards.
    estuche: u64,
    /// Trumps a trump led at each trump lane position forces (section 5).
    force: [u64; 16],
    /// By power-ordered bit of the card led: the cards that follow it and the
    /// cards that force following (the led lane, or the trumps `force` names).
    lead: [[u64; 2]; 64],
}

impl Layout {
    fn new(trump: Suit) -> Layout {
        let t = table(Some(trump));
        let mut l =
            Layout { to_p: [255; 64], from_p: [0; 64], estuche: 0, force: [0; 16], lead: [[0; 2]; 64] };
        for c in Card::all() {
            let b = c.bit() as usize;
            let p = if t.eff_suit[b] == TRUMP_SUIT {
                48 + (t.power[b] - 101)
            } else {
                let s = c.suit().index();
                let lane = if s < trump.index() { s } else { s - 1 };
                (16 * lane) as u8 + (t.power[b] - 1)
            };
            l.to_p[b] = p;
            l.from_p[p as usize] = b as u8;
        }
        let n = t.num_trumps;
        let top = 48 + u32::from(n);
        l.estuche = (0b111u64 << (top - 3)) & TRUMP_LANE;
        let plain_trumps = TRUMP_LANE & !l.estuche & ((1u64 << top) - 1);
        for i in 0..16u32 {
            let q = 48 + i;
            let mut f = plain_trumps;
            if l.estuche >> q & 1 == 1 {
                f |= l.estuche & ((1u64 << q) - 1);
            }
            l.force[i as usize] = f;
        }
        for q in 0..64 {
            let follow = LANE << (16 * (q >> 4));
            l.lead[q] = [follow, if q >> 4 == 3 { l.force[q & 15] } else { follow }];
        }
        l
    }

    #[inline]
    fn bits_of(&self, s: CardSet) -> u64 {
        let mut out = 0;
        for c in s {
            out |= 1u64 << self.to_p[c.bit() as usize];
        }
        out
    }

    #[inline]
    fn card(&self, q: u32) -> Card {
        Card::from_bit(u32::from(self.from_p[q as usize])).expect("a card bit")
    }
}

// ---------------------------------------------------------------------------
// Bit extract / deposit
// ---------------------------------------------------------------------------

// PEXT and PDEP where the CPU has BMI2, else loops: `tresillo_core::bits` tests
// the CPU at run time (builds are portable, `.cargo/config.toml`).
use tresillo_core::bits::{pdep_as, pext_as};

// ---------------------------------------------------------------------------
// Goals
// ---------------------------------------------------------------------------

/// What a zero-window search asks. The table stores bounds on a scalar (the
/// class, or the declarer's future tricks); the goal is "scalar >= need".
trait Goal: Copy {
    /// Distinguishes the table entries of the goals' scalars.
    const KIND: u128;
    /// Whether final counts (by role: declarer, next, other) meet the goal.
    fn met(&self, counts: [u8; 3]) -> bool;
    /// A decision from sure-trick lower bounds (by role) with `r` tricks left:
    /// `for_decl` are tricks the declarer's side can make sure of, `for_opps`
    /// those the opponents' side can (see [`Search::sure`]).
    fn quick(&self, counts: [u8; 3], for_decl: [u8; 3], for_opps: [u8; 3], r: u8) -> Option<bool>;
    /// The counts as the table key holds them.
    fn key_counts(&self, counts: [u8; 3]) -> u128;
    /// The scalar's threshold here.
    fn need(&self, counts: [u8; 3]) -> u8;
    /// The scalar's widest bounds.
    const INIT: (u8, u8);
}

/// The final class is at least `self.0`.
#[derive(Clone, Copy, Debug)]
struct ClassGoal(u8);

impl Goal for ClassGoal {
    const KIND: u128 = 0;
    const INIT: (u8, u8) = (0, 2);

    #[inline]
    fn met(&self, c: [u8; 3]) -> bool {
        Class::of_counts(c[0], c[1], c[2]) as u8 >= self.0
    }

    #[inline]
    fn quick(&self, c: [u8; 3], for_decl: [u8; 3], for_opps: [u8; 3], r: u8) -> Option<bool> {
        let lb = for_opps;
        let (d, a, b) = (c[0] + lb[0], c[1] + lb[1], c[2] + lb[2]);
        let free = r - lb[0] - lb[1] - lb[2];
        // Best case. A sacado is best helped by giving every free trick to the
        // declarer; avoiding a codillo may instead need tricks given to the
        // opponent who is behind (1-4-4 is a puesta, 2-4-3 a codillo): it can
        // be avoided when the declarer can reach the leading opponent, or the
        // opponents can be tied (the rest to the declarer).
        let possible = if self.0 == Class::Sacado as u8 {
            d + free > a && d + free > b
        } else {
            d + free >= a.max(b) || a.abs_diff(b) <= free
        };
        if !possible {
            return Some(false);
        }
        let lb = for_decl;
        let (d, a, b) = (c[0] + lb[0], c[1] + lb[1], c[2] + lb[2]);
        let free = r - lb[0] - lb[1] - lb[2];
        // Worst case: every free trick to one opponent (both a codillo and a
        // tie with the declarer are best helped by concentrating tricks).
        let worst = Class::of_counts(d, a + free, b).min(Class::of_counts(d, a, b + free));
        if worst as u8 >= self.0 { Some(true) } else { None }
    }

    #[inline]
    fn key_counts(&self, c: [u8; 3]) -> u128 {
        let m = c[0].min(c[1]).min(c[2]);
        u128::from(c[0] - m) | u128::from(c[1] - m) << 4 | u128::from(c[2] - m) << 8
    }

    #[inline]
    fn need(&self, _: [u8; 3]) -> u8 {
        self.0
    }
}

/// The declarer ends with at least `self.0` tricks.
#[derive(Clone, Copy, Debug)]
struct TricksGoal(u8);

impl Goal for TricksGoal {
    const KIND: u128 = 1;
    const INIT: (u8, u8) = (0, TOTAL_TRICKS);

    #[inline]
    fn met(&self, c: [u8; 3]) -> bool {
        c[0] >= self.0
    }

    #[inline]
    fn quick(&self, c: [u8; 3], for_decl: [u8; 3], for_opps: [u8; 3], r: u8) -> Option<bool> {
        if c[0] + for_decl[0] >= self.0 {
            Some(true)
        } else if c[0] + r - for_opps[1] - for_opps[2] < self.0 {
            Some(false)
        } else {
            None
        }
    }

    #[inline]
    fn key_counts(&self, _: [u8; 3]) -> u128 {
        0
    }

    #[inline]
    fn need(&self, c: [u8; 3]) -> u8 {
        self.0.saturating_sub(c[0])
    }
}

// ---------------------------------------------------------------------------
// Transposition table
// ---------------------------------------------------------------------------

/// A table entry packed in 128 bits: the exact key (bits 0-88), then the lower
/// and upper bounds on the goal's scalar (4 bits each, from bit 96), the
/// leader's card that last decided the search here (power-ordered bit + 1, 0
/// none; 7 bits from 104), the tricks left in the position (4 bits from 112)
/// and the generation that wrote it (4 bits from 116).
type Entry = u128;

/// The key bits of an [`Entry`].
const KEY_BITS: u128 = (1 << 89) - 1;

/// An exact key is never zero (the lane sizes of a non-empty position are not),
/// so a zeroed entry is empty.
const EMPTY_KEY: u128 = 0;

#[inline]
fn entry(key: u128, lo: u8, hi: u8, best: u8, left: u8, generation: u8) -> Entry {
    key | u128::from(lo) << 96
        | u128::from(hi) << 100
        | u128::from(best) << 104
        | u128::from(left) << 112
        | u128::from(generation) << 116
}

/// The replacement priority of an entry (lowest replaced first): entries of
/// other generations, then those with fewer tricks left.
#[inline]
fn entry_keep(e: Entry, generation: u8) -> u8 {
    let current = (e >> 116) as u8 & 15 == generation;
    (u8::from(current) << 4) | (e >> 112) as u8 & 15
}

#[inline]
fn entry_lo(e: Entry) -> u8 {
    (e >> 96) as u8 & 15
}

#[inline]
fn entry_hi(e: Entry) -> u8 {
    (e >> 100) as u8 & 15
}

#[inline]
fn entry_best(e: Entry) -> u8 {
    (e >> 104) as u8 & 127
}

/// Four entries in one 64-byte cache line: a position's key is looked for in
/// its bucket only.
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(64))]
struct Bucket([Entry; 4]);

// ---------------------------------------------------------------------------
// The context
// ---------------------------------------------------------------------------

/// One thread's solver: its transposition table and counters, reused between
/// solves (the table's entries are exact positions, valid for any later solve).
/// Create one per thread; it is `Send` but not shared.
#[derive(Clone, Debug)]
pub struct SolverContext {
    table: Vec<Bucket>,
    mask: usize,
    layouts: [Layout; 4],
    nodes: u64,
    /// The deal of the last position searched (each seat's hand with its card of
    /// the trick in progress) and its generation: entries written for other
    /// deals are replaced first.
    deal: [CardSet; 3],
    generation: u8,
}

impl Default for SolverContext {
    fn default() -> Self {
        SolverContext::new()
    }
}

/// The search state: hands by role (0 the declarer, 1 the seat after it, 2 the
/// other), in power-ordered bits.
struct Search<'a> {
    table: &'a mut [Bucket],
    mask: usize,
    lay: &'a Layout,
    hands: [u64; 3],
    trick: [u32; 3],
    tlen: u8,
    leader: u8,
    /// The index in the trick of the card winning it so far, and the cards that
    /// would beat it (kept as the cards are played; meaningless with no card
    /// down).
    win: u8,
    beat: u64,
    counts: [u8; 3],
    nodes: u64,
    /// The move hint into a trick-boundary node, and its deciding move out.
    best: u8,
    /// The generation of the entries written.
    generation: u8,
    /// The root's deciding move (power-ordered bit + 1; 0 when the root was
    /// decided without trying a move): a card of the player to move that reaches
    /// the goal (declarer) or refutes it (opponent).
    root: u8,
    /// The root's moves searched, by power-ordered bit: those after which the
    /// goal holds, and those after which it fails.
    root_true: u64,
    root_false: u64,
    /// A move the root tries first (power-ordered bit + 1; 0 none).
    first: u8,
}

impl SolverContext {
    /// A context with a table of 2^15 entries (512 KB: it stays in a core's
    /// level-2 cache; a larger table saves under 1% of the nodes and costs more
    /// time in cache misses).
    #[must_use]
    pub fn new() -> SolverContext {
        SolverContext::with_table_bits(15)
    }

    /// A context with a table of 2^`bits` entries (`bits` clamped to 8..=24).
    #[must_use]
    pub fn with_table_bits(bits: u32) -> SolverContext {
        let n = 1usize << bits.clamp(8, 24);
        SolverContext {
            table: vec![Bucket::default(); n / 4],
            mask: n / 4 - 1,
            layouts: Suit::ALL.map(Layout::new),
            nodes: 0,
            deal: [CardSet::EMPTY; 3],
            generation: 0,
        }
    }

    /// Forgets every table entry and the generations of the deals searched, so
    /// that the searches after it visit the nodes a new context would (answers
    /// never depend on the table; only speed does). The node count is kept.
    /// Agents clear their contexts before each hand: a tournament's work counts
    /// then do not depend on which hands a worker played before.
    pub fn clear(&mut self) {
        self.table.fill(Bucket::default());
        self.deal = [CardSet::EMPTY; 3];
        self.generation = 0;
    }

    /// Search nodes visited since the context was made (a measure of work).
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn search(&mut self, pos: &Position) -> Search<'_> {
        let mut deal = pos.hands;
        for (i, &c) in pos.trick().iter().enumerate() {
            deal[pos.leader.plus(i as u8, 3).index()].insert(c);
        }
        if deal != self.deal {
            self.deal = deal;
            self.generation = (self.generation + 1) & 15;
        }
        let lay = &self.layouts[pos.trump.index()];
        let d = pos.declarer;
        let role = |s: Seat| (s.0 + 3 - d.0) % 3;
        let mut hands = [0u64; 3];
        let mut counts = [0u8; 3];
        for r in 0..3u8 {
            let s = d.plus(r, 3);
            hands[r as usize] = lay.bits_of(pos.hands[s.index()]);
            counts[r as usize] = pos.won[s.index()];
        }
        let mut trick = [0u32; 3];
        for (i, c) in pos.trick().iter().enumerate() {
            trick[i] = u32::from(lay.to_p[c.bit() as usize]);
        }
        let (mut win, mut beat) = (0, 0);
        if pos.trick_len > 0 {
            let led_lane = trick[0] >> 4;
            beat = Search::beaters(trick[0], led_lane);
            if pos.trick_len == 2 && beat >> trick[1] & 1 == 1 {
                win = 1;
                beat = Search::beaters(trick[1], led_lane);
            }
        }
        Search {
            table: &mut self.table,
            mask: self.mask,
            lay,
            hands,
            trick,
            tlen: pos.trick_len,
            leader: role(pos.leader),
            win,
            beat,
            counts,
            nodes: 0,
            best: 0,
            generation: self.generation,
            root: 0,
            root_true: 0,
            root_false: 0,
            first: 0,
        }
    }

    fn run<G: Goal>(&mut self, pos: &Position, g: G) -> bool {
        self.run_root(pos, g).0
    }

    /// [`Self::run`], with the root's deciding card when a move decided it.
    fn run_root<G: Goal>(&mut self, pos: &Position, g: G) -> (bool, Option<Card>) {
        let mut s = self.search(pos);
        let r = s.root(g);
        let (n, root) = (s.nodes, s.root);
        self.nodes += n;
        let card = (root != 0).then(|| self.layouts[pos.trump.index()].card(u32::from(root - 1)));
        (r, card)
    }

    /// The class the declarer can force from `pos`, and when the search found
    /// one, a legal card of the player to move whose class is exactly that value
    /// (the card that decided the last zero-window search at the root).
    pub fn value_and_card(&mut self, pos: &Position) -> (Class, Option<Card>) {
        let decl_moves = pos.to_move() == pos.declarer;
        let (sacado, c1) = self.run_root(pos, ClassGoal(Class::Sacado as u8));
        if sacado {
            return (Class::Sacado, c1);
        }
        let (puesta, c2) = self.run_root(pos, ClassGoal(Class::Puesta as u8));
        // A declarer's card that reaches the goal, or an opponent's card that
        // refutes it, has the value's class; an opponent's refutation of sacado
        // is a card of class at most puesta, so exactly the value when it is
        // puesta.
        match (decl_moves, puesta) {
            (true, true) => (Class::Puesta, c2),
            (true, false) => (Class::Codillo, None),
            (false, true) => (Class::Puesta, c1),
            (false, false) => (Class::Codillo, c2),
        }
    }

    /// The class the declarer can force from `pos` (as [`Self::value`]), with
    /// what its searches learned about the cards `cards` (legal cards of the
    /// player to move): `lo[i]` and `hi[i]` are narrowed to bounds on the class
    /// of `cards[i]`. The value bounds every card (a declarer's card is at most
    /// the value, an opponent's at least), and each card the root searched is
    /// bounded by its own result (the card that decided a search is then exact).
    /// Only a card the search tries itself gets bounds of its own: the root
    /// tries the cards of [`Self::representatives`], and `first` (one of them)
    /// before the others. The root is searched afresh (its table entry is
    /// forgotten first), so the bounds do not depend on what the context
    /// solved before.
    pub fn value_bounds(
        &mut self,
        pos: &Position,
        first: Option<Card>,
        cards: &[Card],
        lo: &mut [Class],
        hi: &mut [Class],
    ) -> Class {
        let lay = self.layouts[pos.trump.index()];
        let decl_moves = pos.to_move() == pos.declarer;
        let first = first.map_or(0, |c| lay.to_p[c.bit() as usize] + 1);
        self.forget_root(pos);
        let mut step = |ctx: &mut SolverContext, t: Class| {
            let mut s = ctx.search(pos);
            s.first = first;
            let holds = s.root(ClassGoal(t as u8));
            let (n, yes, no) = (s.nodes, s.root_true, s.root_false);
            ctx.nodes += n;
            // The answer bounds every card when the mover could not do
            // better: a declarer failing, an opponent not refuting.
            let all = decl_moves != holds;
            for (i, &c) in cards.iter().enumerate() {
                let bit = 1u64 << lay.to_p[c.bit() as usize];
                if yes & bit != 0 || (all && holds) {
                    lo[i] = lo[i].max(t);
                }
                if no & bit != 0 || (all && !holds) {
                    hi[i] = hi[i].min(Class::ALL[t as usize - 1]);
                }
            }
            holds
        };
        if step(self, Class::Sacado) {
            Class::Sacado
        } else if step(self, Class::Puesta) {
            Class::Puesta
        } else {
            Class::Codillo
        }
    }

    /// Removes the table's entry of `pos` itself (the class goals share its
    /// key), so that [`Self::value_bounds`] decides its root by trying moves
    /// whatever this context solved before: the cards its root bounds then
    /// depend only on the position and `first` (`pimc` relies on this to make
    /// the same choices whichever thread's context solves a world).
    fn forget_root(&mut self, pos: &Position) {
        let s = self.search(pos);
        if s.tlen != 0 {
            return;
        }
        let key = s.key::<_, false>(&ClassGoal(Class::Sacado as u8), s.hands[0] | s.hands[1] | s.hands[2]);
        let b = s.slot(key);
        for e in &mut s.table[b].0 {
            if *e & KEY_BITS == key {
                *e = EMPTY_KEY;
            }
        }
    }

    /// Whether the card `c` (legal, of the player to move) lets the declarer
    /// force at least class `t` (one zero-window search of the position after it).
    pub fn card_at_least(&mut self, pos: &Position, c: Card, t: Class) -> bool {
        if t == Class::Codillo {
            return true;
        }
        let mut child = *pos;
        child.play(c);
        self.run(&child, ClassGoal(t as u8))
    }

    /// For each legal card of the player to move (in the engine's sort order),
    /// the card the solver searches in its place: the lowest of its hand's run of
    /// equivalent cards, which has the same class. Returns the count.
    pub fn representatives(&mut self, pos: &Position, out: &mut [Card; 10]) -> usize {
        let legal = pos.legal();
        let lay = self.layouts[pos.trump.index()];
        let (reps, runs) = {
            let s = self.search(pos);
            let p = s.to_move();
            let rem = s.hands[0] | s.hands[1] | s.hands[2] | s.trick_bits();
            (s.representatives::<false>(s.hands[p], rem), rem)
        };
        let mut n = 0;
        for c in legal {
            let mut q = u32::from(lay.to_p[c.bit() as usize]);
            while reps >> q & 1 == 0 {
                q = 63 - (runs & ((1u64 << q) - 1)).leading_zeros();
            }
            out[n] = lay.card(q);
            n += 1;
        }
        n
    }

    /// The class the declarer can force from `pos`.
    pub fn value(&mut self, pos: &Position) -> Class {
        if self.run(pos, ClassGoal(Class::Sacado as u8)) {
            Class::Sacado
        } else if self.run(pos, ClassGoal(Class::Puesta as u8)) {
            Class::Puesta
        } else {
            Class::Codillo
        }
    }

    /// Whether the declarer can force at least class `c` (one zero-window search).
    pub fn at_least(&mut self, pos: &Position, c: Class) -> bool {
        c == Class::Codillo || self.run(pos, ClassGoal(c as u8))
    }

    /// Whether the declarer can take every remaining trick (bola).
    pub fn can_take_all(&mut self, pos: &Position) -> bool {
        let k = pos.won[pos.declarer.index()] + pos.tricks_left();
        self.run(pos, TricksGoal(k))
    }

    /// Whether the declarer can end the hand with at least `k` tricks in all
    /// (the tricks already won included).
    pub fn can_reach(&mut self, pos: &Position, k: u8) -> bool {
        self.run(pos, TricksGoal(k))
    }

    /// The class of every legal card of the player to move, and the value.
    ///
    /// The value is found first (at most two searches); then each card needs
    /// usually one search: a declarer's card is at most the value, so it is
    /// tested from the value down, an opponent's card at least the value, tested
    /// from the value up. One card of each run of equivalent cards is searched.
    pub fn solve(&mut self, pos: &Position) -> Solution {
        let legal = pos.legal();
        let mut sol = Solution { value: Class::Codillo, cards: [(Card::ESPADA, Class::Codillo); 10], len: 0 };
        if legal.is_empty() {
            let w = pos.won;
            let d = pos.declarer;
            sol.value = Class::of_counts(w[d.index()], w[d.next(3).index()], w[d.plus(2, 3).index()]);
            return sol;
        }
        let value = self.value(pos);
        sol.value = value;
        let decl_moves = pos.to_move() == pos.declarer;
        // Classes of the run representatives, by power-ordered bit.
        let lay = self.layouts[pos.trump.index()];
        let (reps, runs) = {
            let s = self.search(pos);
            let p = s.to_move();
            let rem = s.hands[0] | s.hands[1] | s.hands[2] | s.trick_bits();
            (s.representatives::<false>(s.hands[p], rem), rem)
        };
        let mut rep_class = [Class::Codillo; 64];
        for q in bits(reps & lay.bits_of(legal)) {
            let c = lay.card(q);
            let mut child = *pos;
            child.play(c);
            let mut v = value;
            if decl_moves {
                while v > Class::Codillo && !self.run(&child, ClassGoal(v as u8)) {
                    v = Class::ALL[v as usize - 1];
                }
            } else {
                while v < Class::Sacado && self.run(&child, ClassGoal(v as u8 + 1)) {
                    v = Class::ALL[v as usize + 1];
                }
            }
            rep_class[q as usize] = v;
        }
        let hand = lay.bits_of(pos.hands[pos.to_move().index()]);
        for c in legal {
            // A card's class is its run representative's: the lowest card of its
            // hand's run, found by walking down the cards still out.
            let mut q = u32::from(lay.to_p[c.bit() as usize]);
            while reps >> q & 1 == 0 {
                q = 63 - (runs & ((1u64 << q) - 1)).leading_zeros();
                debug_assert!(hand >> q & 1 == 1);
            }
            sol.cards[sol.len as usize] = (c, rep_class[q as usize]);
            sol.len += 1;
        }
        debug_assert_eq!(
            Some(value),
            if decl_moves {
                sol.cards().iter().map(|x| x.1).max()
            } else {
                sol.cards().iter().map(|x| x.1).min()
            }
        );
        sol
    }
}

impl Position {
    /// Plays `c` (legal, of the player to move) in place.
    pub(crate) fn play(&mut self, c: Card) {
        let s = self.to_move();
        self.hands[s.index()].take(c);
        if self.trick_len < 2 {
            self.trick[self.trick_len as usize] = c;
            self.trick_len += 1;
            return;
        }
        let cards = [self.trick[0], self.trick[1], c];
        let w = tresillo_core::trick_winner(&cards, Some(self.trump));
        let ws = self.leader.plus(w as u8, 3);
        self.won[ws.index()] += 1;
        self.leader = ws;
        self.trick_len = 0;
    }
}

/// Iterates over the set bits of `x`, lowest first.
#[inline]
fn bits(mut x: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if x == 0 {
            None
        } else {
            let q = x.trailing_zeros();
            x &= x - 1;
            Some(q)
        }
    })
}

/// Up to ten moves in search order.
struct Moves {
    q: [u8; 12],
    n: usize,
}

impl Moves {
    #[inline]
    fn push_all(&mut self, x: u64) {
        let mut x = x;
        while x != 0 {
            self.q[self.n] = x.trailing_zeros() as u8;
            self.n += 1;
            x &= x - 1;
        }
    }

    #[inline]
    fn push_all_desc(&mut self, x: u64) {
        let mut x = x;
        while x != 0 {
            let q = 63 - x.leading_zeros();
            self.q[self.n] = q as u8;
            self.n += 1;
            x &= !(1u64 << q);
        }
    }
}

impl Search<'_> {
    #[inline]
    fn to_move(&self) -> usize {
        let p = self.leader + self.tlen;
        (if p >= 3 { p - 3 } else { p }) as usize
    }

    #[inline]
    fn trick_bits(&self) -> u64 {
        self.trick_bits_at(self.tlen)
    }

    /// The cards of the trick in progress, `t` of them down.
    #[inline]
    fn trick_bits_at(&self, t: u8) -> u64 {
        match t {
            0 => 0,
            1 => 1u64 << self.trick[0],
            _ => (1u64 << self.trick[0]) | (1u64 << self.trick[1]),
        }
    }

    /// The lowest card of each run of equivalent cards of `hand` (`rem`: every
    /// card still out, the trick in progress included). `FAST`: in the search's
    /// copy compiled with BMI, PEXT and PDEP with no test of the CPU.
    #[inline(always)]
    #[allow(unsafe_code)]
    fn representatives<const FAST: bool>(&self, hand: u64, rem: u64) -> u64 {
        // The lowest card of each lane: a guard bit at the top of every lane
        // (no lane holds more than 12 cards) keeps the borrows inside lanes.
        const GUARD: u64 = 0x8000_8000_8000_8000;
        const ONES: u64 = 0x0001_0001_0001_0001;
        let y = rem | GUARD;
        let bnd = (rem & self.lay.estuche) | (rem & !y.wrapping_sub(ONES));
        // SAFETY: `FAST` is true only below `root`'s check of the CPU.
        unsafe {
            let cx = pext_as::<FAST>(hand, rem);
            let cb = pext_as::<FAST>(bnd, rem);
            let starts = cx & (!(cx << 1) | cb);
            pdep_as::<FAST>(starts, rem)
        }
    }

    /// Legal moves of the player to move, `t` cards of the trick down.
    #[inline]
    fn legal(&self, hand: u64, t: u8) -> u64 {
        if t == 0 {
            return hand;
        }
        let [follow, force] = self.lay.lead[self.trick[0] as usize];
        if hand & force != 0 { hand & follow } else { hand }
    }

    /// The cards that beat `w` with lane `led_lane` led.
    #[inline]
    fn beaters(w: u32, led_lane: u32) -> u64 {
        let above = !((2u64 << w) - 1);
        if w >> 4 == 3 { TRUMP_LANE & above } else { ((LANE << (16 * led_lane)) & above) | TRUMP_LANE }
    }

    /// The moves `cand` of `p`, `t` cards of the trick down, in search order.
    #[inline(always)]
    fn order(&self, p: usize, cand: u64, rem: u64, t: u8) -> Moves {
        let mut m = Moves { q: [0; 12], n: 0 };
        if t == 0 {
            // The highest card of each lane (of an empty lane, its lowest
            // bit, which is no candidate).
            let mut masters = 0;
            for l in 0..4 {
                let x = (rem & (LANE << (16 * l))) | 1u64 << (16 * l);
                masters |= (1u64 << 63) >> x.leading_zeros();
            }
            let top = cand & masters;
            m.push_all_desc(top);
            m.push_all(cand & !top);
            return m;
        }
        let wrole = {
            let r = self.leader as usize + self.win as usize;
            if r >= 3 { r - 3 } else { r }
        };
        let beaters = self.beat;
        let beat = cand & beaters;
        // Second to play after the declarer: leave the trick to a partner who
        // can beat the card (the search knows every hand).
        let partner_can = t == 1 && p != 0 && wrole == 0 && {
            let n = if p == 2 { 0 } else { p + 1 };
            let ph = self.hands[n];
            self.legal(ph, 1) & beaters != 0
        };
        let partner_wins = (p != 0 && wrole != 0) || partner_can;
        if partner_wins {
            m.push_all(cand & !beat);
            m.push_all(beat);
        } else {
            m.push_all(beat);
            m.push_all(cand & !beat);
        }
        m
    }

    /// Sure tricks by role, for the declarer's side and for the opponents'.
    ///
    /// - Forced, in both: the holder of the top trumps out in an unbroken sequence
    ///   wins a trick with each, whatever anyone does (only its own cards are
    ///   higher, and each must be played some time).
    /// - The leader can *choose* to cash: leading the top cards of a plain suit in
    ///   sequence, it wins as many tricks as both others must follow (their length
    ///   in the suit), or all of them when neither holds a trump; it stays on lead
    ///   and the others' other suits are untouched, so the suits add up. With no
    ///   trump in the others' hands, each of its trumps wins too. A choice is a
    ///   bound only for the leader's own side: the opponents may prefer another
    ///   split of the tricks, so an opponent's cashing proves nothing for the
    ///   declarer, and the declarer's proves nothing against it.
    ///
    /// Returns (bounds the declarer can make sure of, bounds the opponents can).
    #[inline(always)]
    fn sure<const FAST: bool>(&self, rem: u64) -> ([u8; 3], [u8; 3]) {
        #[inline(always)]
        fn top_run<const FAST: bool>(hand: u64, m: u64) -> u32 {
            let n = m.count_ones();
            if n == 0 {
                return 0;
            }
            #[allow(unsafe_code)]
            // SAFETY: `FAST` is true only below `root`'s check of the CPU.
            let x = unsafe { pext_as::<FAST>(hand, m) };
            (!(x << (64 - n))).leading_zeros()
        }
        // Counts by role packed in bytes (role r in bits 8r..8r+8): kept in
        // registers, where a small array would be stored and reloaded.
        let t = rem & TRUMP_LANE;
        let x = self.leader as usize;
        let (y, z) = match x {
            0 => (1, 2),
            1 => (2, 0),
            _ => (0, 1),
        };
        let others_trumps = (self.hands[y] | self.hands[z]) & TRUMP_LANE != 0;
        let mut forced = 0u32;
        if t != 0 {
            let top = 63 - t.leading_zeros();
            let h = if self.hands[0] >> top & 1 == 1 {
                0
            } else if self.hands[1] >> top & 1 == 1 {
                1
            } else {
                2
            };
            forced = top_run::<FAST>(self.hands[h], t) << (8 * h);
        }
        let mut cash = if others_trumps { 0 } else { (self.hands[x] & TRUMP_LANE).count_ones() };
        for l in 0..3 {
            let m = rem & (LANE << (16 * l));
            let k = top_run::<FAST>(self.hands[x], m);
            if k == 0 {
                continue;
            }
            cash += if others_trumps {
                k.min((self.hands[y] & m).count_ones()).min((self.hands[z] & m).count_ones())
            } else {
                k
            };
        }
        let chosen = if others_trumps {
            forced + (cash << (8 * x))
        } else {
            // Every trump is the leader's: its forced count is among `cash`.
            (forced & !(0xFF << (8 * x))) | (cash << (8 * x))
        };
        let unpack = |v: u32| [v as u8, (v >> 8) as u8, (v >> 16) as u8];
        if x == 0 { (unpack(chosen), unpack(forced)) } else { (unpack(forced), unpack(chosen)) }
    }

    /// The table's key of the position. `FAST`: as for [`Self::representatives`].
    #[inline(always)]
    fn key<G: Goal, const FAST: bool>(&self, g: &G, rem: u64) -> u128 {
        #[allow(unsafe_code)]
        // SAFETY: `FAST` is true only below `root`'s check of the CPU.
        let (c0, c1) = unsafe { (pext_as::<FAST>(self.hands[0], rem), pext_as::<FAST>(self.hands[1], rem)) };
        let mut shape = 0u128;
        for l in 0..4 {
            shape |= u128::from((rem & (LANE << (16 * l))).count_ones()) << (4 * l);
        }
        shape |= u128::from((rem & self.lay.estuche).count_ones()) << 16;
        u128::from(c0)
            | u128::from(c1) << 28
            | shape << 56
            | u128::from(self.leader) << 74
            | g.key_counts(self.counts) << 76
            | G::KIND << 88
    }

    #[inline]
    fn slot(&self, key: u128) -> usize {
        let h = (key as u64 ^ (key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 40) as usize & self.mask
    }

    /// The root's search: [`Self::node`] keeping the root's moves.
    ///
    /// The search (`node` and `expand`, which call each other) is compiled twice
    /// on x86_64 builds without BMI2: for any CPU (`FAST = false`), and with BMI1,
    /// BMI2 and LZCNT enabled (`FAST = true`: PEXT/PDEP inline, TZCNT/LZCNT/BLSR),
    /// taken here when the CPU has them (`tresillo_core::bits::has_bmi`). The
    /// bodies are `#[inline(always)]` into the wrappers that carry the features.
    /// Same nodes, same results.
    fn root<G: Goal>(&mut self, g: G) -> bool {
        #[cfg(all(target_arch = "x86_64", not(target_feature = "bmi2")))]
        if tresillo_core::bits::has_bmi() {
            #[allow(unsafe_code)]
            // SAFETY: the CPU has the features `node_bmi` enables (just checked).
            return unsafe { self.node_bmi::<G, true>(g) };
        }
        self.node_plain::<G, true>(g)
    }

    fn node_plain<G: Goal, const ROOT: bool>(&mut self, g: G) -> bool {
        self.node::<G, ROOT, false>(g)
    }

    #[cfg(all(target_arch = "x86_64", not(target_feature = "bmi2")))]
    #[target_feature(enable = "bmi1,bmi2,lzcnt")]
    fn node_bmi<G: Goal, const ROOT: bool>(&mut self, g: G) -> bool {
        self.node::<G, ROOT, true>(g)
    }

    fn expand_plain<G: Goal, const ROOT: bool, const T: u8>(&mut self, g: G, p: usize) -> bool {
        self.expand::<G, ROOT, T, false>(g, p)
    }

    #[cfg(all(target_arch = "x86_64", not(target_feature = "bmi2")))]
    #[target_feature(enable = "bmi1,bmi2,lzcnt")]
    fn expand_bmi<G: Goal, const ROOT: bool, const T: u8>(&mut self, g: G, p: usize) -> bool {
        self.expand::<G, ROOT, T, true>(g, p)
    }

    /// The wrapper of `node` compiled as `FAST` says.
    #[inline(always)]
    fn call_node<G: Goal, const ROOT: bool, const FAST: bool>(&mut self, g: G) -> bool {
        #[cfg(all(target_arch = "x86_64", not(target_feature = "bmi2")))]
        if FAST {
            #[allow(unsafe_code)]
            // SAFETY: FAST is true only below `root`'s check of the CPU.
            return unsafe { self.node_bmi::<G, ROOT>(g) };
        }
        self.node_plain::<G, ROOT>(g)
    }

    /// The wrapper of `expand` compiled as `FAST` says.
    #[inline(always)]
    fn call_expand<G: Goal, const ROOT: bool, const T: u8, const FAST: bool>(
        &mut self,
        g: G,
        p: usize,
    ) -> bool {
        #[cfg(all(target_arch = "x86_64", not(target_feature = "bmi2")))]
        if FAST {
            #[allow(unsafe_code)]
            // SAFETY: FAST is true only below `root`'s check of the CPU.
            return unsafe { self.expand_bmi::<G, ROOT, T>(g, p) };
        }
        self.expand_plain::<G, ROOT, T>(g, p)
    }

    #[inline(always)]
    fn node<G: Goal, const ROOT: bool, const FAST: bool>(&mut self, g: G) -> bool {
        self.nodes += 1;

        // Below the root, nodes are at trick boundaries only (the search keeps
        // `tlen` for the root's position; the moves of a trick are searched by
        // `expand` with the trick's length known at compile time).
        if ROOT && self.tlen != 0 {
            let p = self.leader + self.tlen;
            let p = usize::from(if p >= 3 { p - 3 } else { p });
            return if self.tlen == 1 {
                self.call_expand::<G, ROOT, 1, FAST>(g, p)
            } else {
                self.call_expand::<G, ROOT, 2, FAST>(g, p)
            };
        }
        let r = self.hands[self.leader as usize].count_ones() as u8;
        if r <= 1 {
            if r == 1 {
                // One card each: the last trick plays itself.
                let l = self.leader as usize;
                let order = [l, (l + 1) % 3, (l + 2) % 3];
                let q = order.map(|x| self.hands[x].trailing_zeros());
                let ok = (LANE << (16 * (q[0] >> 4))) | TRUMP_LANE;
                let key = q.map(|x| if ok >> x & 1 == 1 { x + 1 } else { 0 });
                let w = if key[1] > key[0] && key[1] > key[2] {
                    1
                } else if key[2] > key[0] && key[2] > key[1] {
                    2
                } else {
                    0
                };
                let mut c = self.counts;
                c[order[w]] += 1;
                return g.met(c);
            }
            return g.met(self.counts);
        }
        let rem = self.hands[0] | self.hands[1] | self.hands[2];
        let key = self.key::<G, FAST>(&g, rem);
        let b = self.slot(key);
        // The table first: it decides about as many of these nodes as the sure
        // tricks do, and costs less than counting them.
        let need = g.need(self.counts);
        let (mut lo, mut hi) = G::INIT;
        let mut hint = 0;
        let found = self.table[b].0.iter().position(|&e| e & KEY_BITS == key);
        if let Some(i) = found {
            let e = self.table[b].0[i];
            if entry_lo(e) >= need {
                return true;
            }
            if entry_hi(e) < need {
                return false;
            }

            (lo, hi, hint) = (entry_lo(e), entry_hi(e), entry_best(e));
        }
        let (for_decl, for_opps) = self.sure::<FAST>(rem);
        if let Some(b) = g.quick(self.counts, for_decl, for_opps, r) {
            return b;
        }
        self.best = hint;
        let res = self.call_expand::<G, ROOT, 0, FAST>(g, self.leader as usize);
        if res {
            lo = lo.max(need);
        } else {
            hi = hi.min(need - 1);
        }
        debug_assert!(key != EMPTY_KEY);
        // Four entries per bucket: the one holding this key, else one written
        // for another deal, else the one with the fewest tricks left (the
        // cheapest to search again) is replaced. The search below wrote only
        // positions with fewer cards, never this key: it is where the probe
        // found it, if it was not replaced meanwhile.
        let generation = self.generation;
        let bucket = &mut self.table[b].0;
        let i = match found.filter(|&i| bucket[i] & KEY_BITS == key) {
            Some(i) => i,
            None => {
                let mut i = 0;
                for j in 1..4 {
                    if entry_keep(bucket[j], generation) < entry_keep(bucket[i], generation) {
                        i = j;
                    }
                }
                i
            }
        };
        bucket[i] = entry(key, lo, hi, self.best, r, generation);
        res
    }

    /// Searches the moves of `p`, the player to move.
    /// Searches the moves of `p`, the player to move, `T` cards of the trick
    /// down.
    #[inline(always)]
    fn expand<G: Goal, const ROOT: bool, const T: u8, const FAST: bool>(&mut self, g: G, p: usize) -> bool {
        let hand = self.hands[p];
        let legal = self.legal(hand, T);
        let rem = self.hands[0] | self.hands[1] | self.hands[2] | self.trick_bits_at(T);
        let cand = self.representatives::<FAST>(hand, rem) & legal;
        let mut moves = self.order(p, cand, rem, T);
        let at_boundary = T == 0;
        if at_boundary && self.best != 0 {
            let h = self.best - 1;
            if let Some(i) = moves.q[..moves.n].iter().position(|&x| x == h) {
                moves.q[..=i].rotate_right(1);
            }
        }
        if ROOT && self.first != 0 {
            let h = self.first - 1;
            if let Some(i) = moves.q[..moves.n].iter().position(|&x| x == h) {
                moves.q[..=i].rotate_right(1);
            }
        }
        for &q in &moves.q[..moves.n] {
            let q = u32::from(q);
            let res = if T < 2 {
                // A card led or second: the trick goes on, no table here.
                let (prev_win, prev_beat) = (self.win, self.beat);
                if T == 0 {
                    self.win = 0;
                    self.beat = Self::beaters(q, q >> 4);
                } else if self.beat >> q & 1 == 1 {
                    self.win = 1;
                    self.beat = Self::beaters(q, self.trick[0] >> 4);
                }
                self.hands[p] &= !(1u64 << q);
                self.trick[T as usize] = q;
                self.nodes += 1;
                let next = if p == 2 { 0 } else { p + 1 };
                let r = if T == 0 {
                    self.call_expand::<G, false, 1, FAST>(g, next)
                } else {
                    self.call_expand::<G, false, 2, FAST>(g, next)
                };
                self.hands[p] |= 1u64 << q;
                (self.win, self.beat) = (prev_win, prev_beat);
                r
            } else {
                let wi = if self.beat >> q & 1 == 1 { 2 } else { self.win as usize };
                let w = {
                    let r = self.leader as usize + wi;
                    if r >= 3 { r - 3 } else { r }
                };
                // The tricks below overwrite the cards of this one.
                let (prev_leader, prev_trick) = (self.leader, self.trick);
                self.hands[p] &= !(1u64 << q);
                self.counts[w] += 1;
                self.leader = w as u8;
                let r = self.call_node::<G, false, FAST>(g);
                self.leader = prev_leader;
                self.trick = prev_trick;
                self.counts[w] -= 1;
                self.hands[p] |= 1u64 << q;
                r
            };
            if ROOT {
                if res {
                    self.root_true |= 1u64 << q;
                } else {
                    self.root_false |= 1u64 << q;
                }
            }
            if (p == 0) == res {
                if at_boundary {
                    self.best = q as u8 + 1;
                }
                if ROOT {
                    self.root = q as u8 + 1;
                }
                return res;
            }
        }
        if at_boundary {
            self.best = 0;
        }
        p != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tresillo_core::parse_hand;

    fn cs(s: &str) -> CardSet {
        parse_hand(s).unwrap()
    }

    #[test]
    fn class_of_counts_follows_section_7() {
        assert_eq!(Class::of_counts(4, 3, 2), Class::Sacado);
        assert_eq!(Class::of_counts(4, 4, 1), Class::Puesta);
        assert_eq!(Class::of_counts(3, 3, 3), Class::Puesta);
        assert_eq!(Class::of_counts(1, 4, 4), Class::Puesta);
        assert_eq!(Class::of_counts(3, 4, 2), Class::Codillo);
        assert_eq!(Class::of_counts(2, 2, 5), Class::Codillo);
        for d in 0..=9u8 {
            for a in 0..=9 - d {
                let b = 9 - d - a;
                let o = Outcome::from_tricks(d, &[(Seat(1), a), (Seat(2), b)]);
                assert_eq!(Class::of_outcome(o), Some(Class::of_counts(d, a, b)));
            }
        }
    }

    #[test]
    fn layout_orders_by_power() {
        for s in Suit::ALL {
            let l = Layout::new(s);
            let t = table(Some(s));
            for a in Card::all() {
                for b in Card::all() {
                    let (pa, pb) = (l.to_p[a.bit() as usize], l.to_p[b.bit() as usize]);
                    // The guard bits of `representatives` are free.
                    assert!(pa & 15 < 15, "{a} {s}");
                    assert_eq!(l.card(u32::from(pa)), a);
                    let same = t.eff_suit[a.bit() as usize] == t.eff_suit[b.bit() as usize];
                    assert_eq!(same, pa >> 4 == pb >> 4, "{a} {b} {s}");
                    if same {
                        assert_eq!(t.power[a.bit() as usize] > t.power[b.bit() as usize], pa > pb);
                    }
                }
            }
            assert_eq!(l.estuche.count_ones(), 3);
        }
    }

    #[test]
    fn bad_positions_are_refused() {
        let h = [cs("1E 2E"), cs("3E 4E"), cs("5E 6E")];
        let ok = Position::new(h, Suit::Oros, Seat(0), Seat(0), &[], [3, 2, 2]);
        assert!(ok.is_ok());
        assert!(matches!(
            Position::new(h, Suit::Oros, Seat(0), Seat(0), &[], [3, 2, 1]),
            Err(PositionError::TrickCount { .. })
        ));
        let dup = [cs("1E 2E"), cs("1E 4E"), cs("5E 6E")];
        assert!(matches!(
            Position::new(dup, Suit::Oros, Seat(0), Seat(0), &[], [3, 2, 2]),
            Err(PositionError::Duplicate(_))
        ));
        assert!(matches!(
            Position::new(
                h,
                Suit::Oros,
                Seat(0),
                Seat(1),
                &[tresillo_core::parse_card("7E").unwrap()],
                [3, 2, 2]
            ),
            Err(PositionError::HandSizes { .. })
        ));
        // Seat 1 led the 7 of espadas; seat 2 played a coin holding espadas.
        let h2 = [cs("1E 2E"), cs("3E"), cs("5E")];
        let trick = [tresillo_core::parse_card("7E").unwrap(), tresillo_core::parse_card("4O").unwrap()];
        assert!(matches!(
            Position::new(h2, Suit::Copas, Seat(0), Seat(1), &trick, [3, 2, 2]),
            Err(PositionError::Illegal { .. })
        ));
    }
}
