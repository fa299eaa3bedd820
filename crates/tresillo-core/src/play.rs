//! Card play: legal moves as a mask, the trick winner, and [`PlayState`], a small
//! `Copy` position of the play phase with `play` / `undo`, used by perft, playouts,
//! and (later) the solver.
//!
//! Playouts have two forms that must agree: `PlayState::playout` (hands in registers,
//! trick by trick) and `playout_reference` (card by card through `play_unchecked`); a
//! property test compares them from any position.

use crate::card::{Card, Seat, Suit};
use crate::cardset::CardSet;
use crate::tables::{TrumpTable, table};

/// The legal cards for a player holding `hand` when `led` was led to the trick
/// (`None`: the player leads). Only bit operations on two table entries.
///
/// RULES.md section 5: follow the effective suit led; when a trump is led, a
/// player whose only trumps are estuche cards that the led card cannot force may
/// play any card.
#[must_use]
#[inline]
pub fn legal_moves(hand: CardSet, trump: Option<Suit>, led: Option<Card>) -> CardSet {
    match led {
        None => hand,
        Some(c) => legal_moves_in(table(trump), hand, c),
    }
}

/// [`legal_moves`] with the table already looked up and a card led.
#[must_use]
#[inline]
pub fn legal_moves_in(t: &TrumpTable, hand: CardSet, led: Card) -> CardSet {
    let b = led.bit() as usize;
    // Branchless: all ones when the hand holds a forcing card, else zero.
    let obliged = u64::from(hand.0 & t.force[b].0 != 0).wrapping_neg();
    CardSet(hand.0 & (t.follow[b].0 | !obliged))
}

/// The index (into `cards`, the first being the card led) of the card that wins
/// the trick: the highest trump, else the highest card of the suit led.
#[must_use]
#[inline]
pub fn trick_winner(cards: &[Card], trump: Option<Suit>) -> usize {
    trick_winner_in(table(trump), cards)
}

/// [`trick_winner`] with the table already looked up.
#[must_use]
#[inline]
pub fn trick_winner_in(t: &TrumpTable, cards: &[Card]) -> usize {
    // Each card's strength by the suit led (0 off-suit; never 0 for the led card, so
    // the maximum is unique). Packing the index into the low bits lets `max` pick it
    // without data-dependent branches.
    let key = &t.key[usize::from(t.eff_suit[cards[0].bit() as usize]).min(4)];
    let mut best = 0u16;
    for (i, &c) in cards.iter().enumerate() {
        best = best.max(u16::from(key[c.bit() as usize & 63]) << 2 | i as u16);
    }
    (best & 3) as usize
}

/// A three-player position between tricks held in registers: the hands in play
/// order from the leader, their seats packed one byte each (leader lowest), and the
/// tricks each seat won here packed one byte per seat. Everything that depends on
/// the (random) trick winner is computed with masks and shifts, not branches or
/// indexing, so that no mispredicted branch sits in the playout's dependency chain.
#[derive(Clone, Copy, Debug)]
struct Registers {
    hands: [u64; 3],
    seats: u32,
    won: u32,
    last: [Card; 4],
}

impl Registers {
    /// Plays up to `left` whole tricks (fewer when the hands run out). Compiled
    /// twice on x86_64 builds without BMI2: once for any CPU, once with BMI1, BMI2
    /// and LZCNT (PDEP picks the card, TZCNT/BLSR work the sets), the second taken
    /// when the CPU has them (`bits::has_bmi`); the cards played are the same.
    #[inline]
    fn tricks(&mut self, t: &TrumpTable, pick: &mut impl FnMut(u32) -> u32, left: u8) {
        #[cfg(all(target_arch = "x86_64", not(target_feature = "bmi2")))]
        if crate::bits::has_bmi() {
            #[allow(unsafe_code)]
            // SAFETY: the CPU has the features `tricks_bmi` enables (just checked).
            unsafe {
                self.tricks_bmi(t, pick, left)
            };
            return;
        }
        self.tricks_body::<false>(t, pick, left);
    }

    /// [`Registers::tricks`] for CPUs with BMI1, BMI2 and LZCNT.
    #[cfg(all(target_arch = "x86_64", not(target_feature = "bmi2")))]
    #[target_feature(enable = "bmi1,bmi2,lzcnt")]
    fn tricks_bmi(&mut self, t: &TrumpTable, pick: &mut impl FnMut(u32) -> u32, left: u8) {
        self.tricks_body::<true>(t, pick, left);
    }

    /// The loop of [`Registers::tricks`]; `BMI` only in the copy with BMI enabled.
    #[inline(always)]
    fn tricks_body<const BMI: bool>(
        &mut self,
        t: &TrumpTable,
        pick: &mut impl FnMut(u32) -> u32,
        mut left: u8,
    ) {
        while self.hands[0] != 0 && left > 0 {
            self.trick::<BMI>(t, pick);
            left -= 1;
        }
    }

    /// Plays one whole trick with cards chosen by `pick`, and turns to the winner.
    #[inline(always)]
    fn trick<const BMI: bool>(&mut self, t: &TrumpTable, pick: &mut impl FnMut(u32) -> u32) {
        let [a, b, c] = self.hands;
        let ca = select::<BMI>(a, pick(a.count_ones()));
        let lb = legal_moves_in(t, CardSet(b), ca);
        let cb = select::<BMI>(lb.0, pick(lb.len()));
        let lc = legal_moves_in(t, CardSet(c), ca);
        let cc = select::<BMI>(lc.0, pick(lc.len()));
        let (a, b, c) = (a & !(1u64 << ca.bit()), b & !(1u64 << cb.bit()), c & !(1u64 << cc.bit()));
        self.last = [ca, cb, cc, self.last[3]];
        // Strengths by the suit led (the led card's is never 0, so one wins).
        let key = &t.key[usize::from(t.eff_suit[ca.bit() as usize]).min(4)];
        let (ka, kb, kc) =
            (key[ca.bit() as usize & 63], key[cb.bit() as usize & 63], key[cc.bit() as usize & 63]);
        let m1 = u64::from(kb > ka && kb > kc).wrapping_neg(); // all ones when b wins
        let m2 = u64::from(kc > ka && kc > kb).wrapping_neg(); // all ones when c wins
        let w = (m1 & 1) as u32 + (m2 & 2) as u32;
        // Rotate hands and seats so that the winner comes first.
        let m0 = !(m1 | m2);
        self.hands =
            [(a & m0) | (b & m1) | (c & m2), (b & m0) | (c & m1) | (a & m2), (c & m0) | (a & m1) | (b & m2)];
        let shift = 8 * w;
        let winner = (self.seats >> shift) & 0xFF;
        self.won += 1 << (8 * winner);
        self.seats = ((self.seats >> shift) | (self.seats << (24 - shift))) & 0xFF_FFFF;
    }

    /// The seat `k` places after the leader (0 = the leader).
    #[inline]
    fn seat(&self, k: usize) -> u8 {
        (self.seats >> (8 * k)) as u8
    }
}

/// The `n`-th card of `set` (`n` below its size): in the copy of a loop compiled
/// with BMI (`BMI = true`), one PDEP with no test of the CPU.
#[inline(always)]
fn select<const BMI: bool>(set: u64, n: u32) -> Card {
    #[allow(unsafe_code)]
    // SAFETY: `BMI` is true only in `Registers::tricks_bmi`, entered after `has_bmi`.
    let bit = unsafe { crate::bits::nth_bit_as::<BMI>(set, n) };
    Card::from_bit_unchecked(bit.trailing_zeros())
}

/// What [`PlayState::play_unchecked`] changed, for [`PlayState::undo`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    card: Card,
    seat: Seat,
    prev_leader: Seat,
    /// The card this play overwrote in the trick array (a card of an earlier,
    /// completed trick that undoing must bring back).
    prev_slot: Card,
    /// Who played `prev_slot`.
    prev_slot_seat: Seat,
    /// The seat that won the trick this card completed, if it completed one.
    pub trick_won_by: Option<Seat>,
}

/// A position of the play phase: the hands, the trick in progress, the tricks won.
///
/// Small and `Copy` (about 80 bytes). It knows every hand, so it is a *world*:
/// agents never receive one, only samplers, solvers and the hand state machine build
/// them. Equality and hashing look only at the live part of the trick array.
#[derive(Clone, Copy, Debug)]
pub struct PlayState {
    /// Each seat's cards.
    pub hands: [CardSet; 4],
    /// The trump suit (`None`: no trump).
    pub trump: Option<Suit>,
    /// The next active seat after each seat, in turn order (inactive seats skipped).
    pub next: [Seat; 4],
    /// Cards per trick (active seats).
    pub per_trick: u8,
    /// The seat that led the current trick.
    pub leader: Seat,
    /// Whose turn it is.
    pub to_move: Seat,
    /// Cards of the current trick in play order.
    pub trick: [Card; 4],
    /// Who played each card of `trick`.
    pub trick_seats: [Seat; 4],
    /// How many cards the current trick holds.
    pub trick_len: u8,
    /// Tricks won per seat.
    pub tricks: [u8; 4],
    /// Completed tricks.
    pub tricks_done: u8,
}

/// The fields that identify a position (the live part of the trick only).
type PositionKey<'a> =
    ([CardSet; 4], Option<Suit>, [Seat; 4], u8, Seat, Seat, &'a [Card], &'a [Seat], [u8; 4], u8);

impl PlayState {
    fn key(&self) -> PositionKey<'_> {
        (
            self.hands,
            self.trump,
            self.next,
            self.per_trick,
            self.leader,
            self.to_move,
            &self.trick[..self.trick_len as usize],
            &self.trick_seats[..self.trick_len as usize],
            self.tricks,
            self.tricks_done,
        )
    }
}

impl PartialEq for PlayState {
    fn eq(&self, o: &PlayState) -> bool {
        self.key() == o.key()
    }
}

impl Eq for PlayState {}

impl std::hash::Hash for PlayState {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.key().hash(h);
    }
}

impl PlayState {
    /// A position at the start of a trick, `leader` to lead, with three active seats
    /// `0..3` (a three-player table).
    #[must_use]
    pub fn new(hands: [CardSet; 3], trump: Option<Suit>, leader: Seat) -> PlayState {
        PlayState {
            hands: [hands[0], hands[1], hands[2], CardSet::EMPTY],
            trump,
            next: [Seat(1), Seat(2), Seat(0), Seat(0)],
            per_trick: 3,
            leader,
            to_move: leader,
            trick: [Card::ESPADA; 4],
            trick_seats: [Seat(0); 4],
            trick_len: 0,
            tricks: [0; 4],
            tricks_done: 0,
        }
    }

    /// A position at the start of a trick, `leader` to lead, at a table of four where
    /// the seats in the bit mask `active` play (three of them, or all four under
    /// `penetro_all_play`, RULES.md section 12.2). Seats outside `active` hold no
    /// cards here.
    #[must_use]
    pub fn with_seats(hands: [CardSet; 4], trump: Option<Suit>, leader: Seat, active: u8) -> PlayState {
        let mut next = [Seat(0); 4];
        for (s, n) in next.iter_mut().enumerate() {
            let mut t = (s + 1) % 4;
            while active & (1 << t) == 0 && t != s {
                t = (t + 1) % 4;
            }
            *n = Seat(t as u8);
        }
        let mut h = [CardSet::EMPTY; 4];
        for s in 0..4 {
            if active & (1 << s) != 0 {
                h[s] = hands[s];
            }
        }
        PlayState {
            hands: h,
            trump,
            next,
            per_trick: active.count_ones() as u8,
            leader,
            to_move: leader,
            trick: [Card::ESPADA; 4],
            trick_seats: [Seat(0); 4],
            trick_len: 0,
            tricks: [0; 4],
            tricks_done: 0,
        }
    }

    /// Number of active seats (cards per trick).
    #[must_use]
    #[inline]
    pub fn players(&self) -> u8 {
        self.per_trick
    }

    /// The next active seat after `s`.
    #[must_use]
    #[inline]
    pub fn next_active(&self, s: Seat) -> Seat {
        self.next[s.index()]
    }

    /// The card led to the current trick, if any.
    #[must_use]
    #[inline]
    pub fn led(&self) -> Option<Card> {
        if self.trick_len == 0 { None } else { Some(self.trick[0]) }
    }

    /// Whether every card has been played.
    #[must_use]
    #[inline]
    pub fn is_over(&self) -> bool {
        self.hands[self.to_move.index()].is_empty() && self.trick_len == 0
    }

    /// The legal cards of the player to move.
    #[must_use]
    #[inline]
    pub fn legal_moves(&self) -> CardSet {
        let hand = self.hands[self.to_move.index() & 3];
        match self.led() {
            None => hand,
            Some(c) => legal_moves_in(table(self.trump), hand, c),
        }
    }

    /// Plays `c` for the player to move without checking legality. Resolves the
    /// trick when it completes (the winner leads next).
    #[inline]
    pub fn play_unchecked(&mut self, c: Card) -> Undo {
        let seat = self.to_move;
        let prev_leader = self.leader;
        let slot = (self.trick_len & 3) as usize;
        self.hands[seat.index() & 3].0 &= !(1u64 << c.bit());
        let prev_slot = self.trick[slot];
        let prev_slot_seat = self.trick_seats[slot];
        self.trick[slot] = c;
        self.trick_seats[slot] = seat;
        self.trick_len += 1;
        let mut won = None;
        if self.trick_len == self.per_trick {
            let ws = self.trick_seats[self.current_winner() & 3];
            self.tricks[ws.index() & 3] += 1;
            self.tricks_done += 1;
            self.trick_len = 0;
            self.leader = ws;
            self.to_move = ws;
            won = Some(ws);
        } else {
            self.to_move = self.next[seat.index() & 3];
        }
        Undo { card: c, seat, prev_leader, prev_slot, prev_slot_seat, trick_won_by: won }
    }

    /// Index of the winning card of the full trick in the trick array: the branchless
    /// form of [`trick_winner_in`] over all four slots, unused slots masked out.
    #[inline]
    fn current_winner(&self) -> usize {
        let t = table(self.trump);
        let key = &t.key[usize::from(t.eff_suit[self.trick[0].bit() as usize]).min(4)];
        let mut best = 0u16;
        for i in 0..4 {
            let k =
                u16::from(key[self.trick[i].bit() as usize & 63]) * u16::from(i < self.per_trick as usize);
            best = best.max(k << 2 | i as u16);
        }
        (best & 3) as usize
    }

    /// Plays the position to the end, choosing each card as the `pick(n)`-th
    /// (`0..n`) of the `n` legal cards in sort order. With a uniform `pick` this is a
    /// random playout; `pick` is the caller's, so the core stays free of randomness.
    ///
    /// With three players it runs trick by trick on three registers holding the
    /// hands in play order from the leader (no memory round trip per card); the
    /// result is the same as [`PlayState::playout_reference`] for the same `pick`.
    #[inline]
    pub fn playout(&mut self, mut pick: impl FnMut(u32) -> u32) {
        let Some(mut r) = self.registers(&mut pick) else { return };
        let t = table(self.trump);
        r.tricks(t, &mut pick, u8::MAX);
        self.store(&r);
    }

    /// [`PlayState::playout`] that stops once `tricks` tricks are complete (the
    /// trick in progress is finished first; nothing is played when `tricks_done`
    /// already reaches `tricks`). Searches that must stop at a decision point of the
    /// hand (the bola decision after the fifth trick) use it; the cards chosen are
    /// those [`PlayState::playout_reference`] chooses with the same `pick`.
    #[inline]
    pub fn playout_until(&mut self, tricks: u8, mut pick: impl FnMut(u32) -> u32) {
        if self.tricks_done >= tricks {
            return;
        }
        let Some(mut r) = self.registers(&mut pick) else { return };
        let t = table(self.trump);
        r.tricks(t, &mut pick, tricks.saturating_sub(self.tricks_done));
        self.store(&r);
    }

    /// Finishes the trick in progress card by card, then loads the hands into
    /// [`Registers`]; `None` (after playing everything card by card) at a table that
    /// is not of three.
    #[inline]
    fn registers(&mut self, pick: &mut impl FnMut(u32) -> u32) -> Option<Registers> {
        while self.trick_len != 0 || (self.per_trick != 3 && !self.is_over()) {
            let l = self.legal_moves();
            let c = l.nth(pick(l.len())).expect("pick returns an index below n");
            self.play_unchecked(c);
        }
        if self.per_trick != 3 {
            return None;
        }
        let s1 = self.next[self.leader.index() & 3];
        let s2 = self.next[s1.index() & 3];
        let seats = [self.leader.0, s1.0, s2.0];
        Some(Registers {
            hands: seats.map(|s| self.hands[s as usize & 3].0),
            seats: u32::from(seats[0]) | u32::from(seats[1]) << 8 | u32::from(seats[2]) << 16,
            won: 0,
            last: self.trick,
        })
    }

    #[inline]
    fn store(&mut self, r: &Registers) {
        for k in 0..3 {
            self.hands[r.seat(k) as usize & 3] = CardSet(r.hands[k]);
        }
        for s in 0..4 {
            let won = (r.won >> (8 * s)) as u8;
            self.tricks[s] += won;
            self.tricks_done += won;
        }
        self.leader = Seat(r.seat(0));
        self.to_move = self.leader;
        self.trick = r.last;
        self.trick_seats = [Seat(r.seat(0)), Seat(r.seat(1)), Seat(r.seat(2)), self.trick_seats[3]];
    }

    /// [`PlayState::playout`] one [`PlayState::play_unchecked`] at a time: the slow,
    /// obviously correct form the tests compare it with.
    pub fn playout_reference(&mut self, mut pick: impl FnMut(u32) -> u32) {
        while !self.is_over() {
            let l = self.legal_moves();
            let c = l.nth(pick(l.len())).expect("pick returns an index below n");
            self.play_unchecked(c);
        }
    }

    /// Plays `c` if it is legal; otherwise returns the position unchanged.
    pub fn try_play(&mut self, c: Card) -> Result<Undo, Card> {
        if self.legal_moves().contains(c) { Ok(self.play_unchecked(c)) } else { Err(c) }
    }

    /// Takes back the play that returned `u`.
    #[inline]
    pub fn undo(&mut self, u: Undo) {
        if let Some(w) = u.trick_won_by {
            self.tricks[w.index()] -= 1;
            self.tricks_done -= 1;
            self.trick_len = self.per_trick;
            self.leader = u.prev_leader;
        }
        self.trick_len -= 1;
        self.trick[self.trick_len as usize] = u.prev_slot;
        self.trick_seats[self.trick_len as usize] = u.prev_slot_seat;
        self.to_move = u.seat;
        self.hands[u.seat.index()].insert(u.card);
    }

    /// The number of legal play sequences of `depth` plies from here (tricks are
    /// resolved and the winner leads the next). Stops early at the end of play.
    #[must_use]
    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if moves.is_empty() {
            return 1;
        }
        if depth == 1 {
            return u64::from(moves.len());
        }
        let mut n = 0;
        for c in moves {
            let u = self.play_unchecked(c);
            n += self.perft(depth - 1);
            self.undo(u);
        }
        n
    }

    /// [`PlayState::perft`] for each legal first card.
    #[must_use]
    pub fn perft_divide(&mut self, depth: u32) -> Vec<(Card, u64)> {
        let mut out = Vec::new();
        if depth == 0 {
            return out;
        }
        for c in self.legal_moves() {
            let u = self.play_unchecked(c);
            out.push((c, self.perft(depth - 1)));
            self.undo(u);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_hand;

    fn cs(s: &str) -> CardSet {
        parse_hand(s).unwrap()
    }

    #[test]
    fn play_and_undo_restore_the_position() {
        let mut p =
            PlayState::new([cs("1E 2E 12C"), cs("3E 5C 7O"), cs("1B 11C 4O")], Some(Suit::Espadas), Seat(0));
        let start = p;
        let mut undos = Vec::new();
        while !p.is_over() {
            let c = p.legal_moves().first().unwrap();
            undos.push(p.play_unchecked(c));
        }
        assert_eq!(p.tricks.iter().sum::<u8>(), 3);
        while let Some(u) = undos.pop() {
            p.undo(u);
        }
        assert_eq!(p, start);
    }

    #[test]
    fn playout_until_stops_at_the_trick_asked_and_agrees_with_the_reference() {
        let hands = [cs("1E 2E 3E 4E 5C 6C"), cs("5E 6E 7C 10C 1O 2O"), cs("7E 10E 11C 12C 3O 4O")];
        for stop in 0..=7u8 {
            for seed in 0..20u32 {
                let mut p = PlayState::new(hands, Some(Suit::Oros), Seat(1));
                p.play_unchecked(p.legal_moves().first().unwrap());
                let mut q = p;
                let mut k = seed;
                let mut pick = |n: u32| {
                    k = k.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    (k >> 16) % n
                };
                p.playout_until(stop, &mut pick);
                assert_eq!(p.tricks_done, stop.min(6), "stop {stop}");
                if stop == 0 {
                    // The trick in progress is left as it was.
                    assert_eq!(p.trick_len, 1);
                    continue;
                }
                let mut k = seed;
                let mut pick = |n: u32| {
                    k = k.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    (k >> 16) % n
                };
                while q.tricks_done < stop && !q.is_over() {
                    let l = q.legal_moves();
                    q.play_unchecked(l.nth(pick(l.len())).unwrap());
                }
                assert_eq!(p, q, "stop {stop} seed {seed}");
            }
        }
    }

    #[test]
    fn try_play_rejects_and_keeps_position() {
        let mut p = PlayState::new([cs("12C"), cs("3C"), cs("4O")], Some(Suit::Espadas), Seat(1));
        let before = p;
        assert!(p.try_play(crate::Card::new(Suit::Copas, crate::Rank::REY)).is_err());
        assert_eq!(p, before);
    }
}
