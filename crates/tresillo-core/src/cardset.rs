//! [`CardSet`]: a set of cards as a bitboard over `u64`.

use crate::card::{Card, Suit};
use std::fmt;

/// A set of cards: bit `suit * 16 + rank index` is set when the card is in.
///
/// `Copy`, and every set operation is a single bit operation. Iteration goes
/// from the lowest bit up (the engine's sort order).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct CardSet(pub u64);

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);
    /// All 40 cards.
    pub const FULL: CardSet = CardSet(0x03FF_03FF_03FF_03FF);

    /// The ten cards of a printed suit.
    #[must_use]
    #[inline]
    pub const fn suit(s: Suit) -> CardSet {
        CardSet(0x3FF << (s as u32 * 16))
    }

    /// The set holding only `c`.
    #[must_use]
    #[inline]
    pub const fn single(c: Card) -> CardSet {
        CardSet(1 << c.bit())
    }

    /// Raw bits.
    #[must_use]
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Whether the set is empty.
    #[must_use]
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of cards.
    #[must_use]
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether `c` is in the set.
    #[must_use]
    #[inline]
    pub const fn contains(self, c: Card) -> bool {
        self.0 & (1 << c.bit()) != 0
    }

    /// Whether every card of `other` is in `self`.
    #[must_use]
    #[inline]
    pub const fn is_superset(self, other: CardSet) -> bool {
        other.0 & !self.0 == 0
    }

    /// Whether the two sets share no card.
    #[must_use]
    #[inline]
    pub const fn is_disjoint(self, other: CardSet) -> bool {
        self.0 & other.0 == 0
    }

    /// Union.
    #[must_use]
    #[inline]
    pub const fn union(self, o: CardSet) -> CardSet {
        CardSet(self.0 | o.0)
    }

    /// Intersection.
    #[must_use]
    #[inline]
    pub const fn intersect(self, o: CardSet) -> CardSet {
        CardSet(self.0 & o.0)
    }

    /// Cards of `self` not in `o`.
    #[must_use]
    #[inline]
    pub const fn without(self, o: CardSet) -> CardSet {
        CardSet(self.0 & !o.0)
    }

    /// `self` with `c` added.
    #[must_use]
    #[inline]
    pub const fn with(self, c: Card) -> CardSet {
        CardSet(self.0 | (1 << c.bit()))
    }

    /// `self` with `c` removed.
    #[must_use]
    #[inline]
    pub const fn remove(self, c: Card) -> CardSet {
        CardSet(self.0 & !(1 << c.bit()))
    }

    /// Complement within the 40-card pack.
    #[must_use]
    #[inline]
    pub const fn complement(self) -> CardSet {
        CardSet(!self.0 & Self::FULL.0)
    }

    /// Adds `c`; returns whether it was absent.
    #[inline]
    pub fn insert(&mut self, c: Card) -> bool {
        let absent = !self.contains(c);
        self.0 |= 1 << c.bit();
        absent
    }

    /// Removes `c`; returns whether it was present.
    #[inline]
    pub fn take(&mut self, c: Card) -> bool {
        let present = self.contains(c);
        self.0 &= !(1 << c.bit());
        present
    }

    /// The lowest card (first in sort order).
    #[must_use]
    #[inline]
    pub const fn first(self) -> Option<Card> {
        if self.0 == 0 { None } else { Some(Card::from_bit_unchecked(self.0.trailing_zeros())) }
    }

    /// The highest card (last in sort order).
    #[must_use]
    #[inline]
    pub const fn last(self) -> Option<Card> {
        if self.0 == 0 { None } else { Some(Card::from_bit_unchecked(63 - self.0.leading_zeros())) }
    }

    /// The `n`-th card in sort order (0-based), if the set has that many.
    #[must_use]
    #[inline]
    pub fn nth(self, n: u32) -> Option<Card> {
        if n >= 64 {
            return None;
        }
        // One PDEP where the CPU has BMI2 (crate::bits dispatches at run time).
        CardSet(crate::bits::nth_bit(self.0, n)).first()
    }

    /// The cards of the set that belong to the printed suit `s`.
    #[must_use]
    #[inline]
    pub const fn of_suit(self, s: Suit) -> CardSet {
        self.intersect(CardSet::suit(s))
    }

    /// Iterates over every subset of `self` (including the empty set and `self`),
    /// 2^len subsets in all.
    #[must_use]
    pub fn subsets(self) -> Subsets {
        Subsets { set: self.0, next: Some(0) }
    }

    /// Whether the bits outside the 40 card positions are all clear.
    #[must_use]
    pub const fn is_valid(self) -> bool {
        self.0 & !Self::FULL.0 == 0
    }
}

/// Iterator over the subsets of a set (Carry-Rippler enumeration).
#[derive(Clone, Debug)]
pub struct Subsets {
    set: u64,
    next: Option<u64>,
}

impl Iterator for Subsets {
    type Item = CardSet;
    fn next(&mut self) -> Option<CardSet> {
        let cur = self.next?;
        let n = cur.wrapping_sub(self.set) & self.set;
        self.next = if n == 0 { None } else { Some(n) };
        Some(CardSet(cur))
    }
}

impl std::iter::FusedIterator for Subsets {}

/// Iterator over the cards of a set, lowest first.
#[derive(Clone, Debug)]
pub struct Iter(u64);

impl Iterator for Iter {
    type Item = Card;
    #[inline]
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let c = Card::from_bit_unchecked(self.0.trailing_zeros());
        self.0 &= self.0 - 1;
        Some(c)
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Iter {
    #[inline]
    fn next_back(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = 63 - self.0.leading_zeros();
        self.0 &= !(1 << i);
        Some(Card::from_bit_unchecked(i))
    }
}

impl ExactSizeIterator for Iter {}
impl std::iter::FusedIterator for Iter {}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = Iter;
    #[inline]
    fn into_iter(self) -> Iter {
        Iter(self.0)
    }
}

impl CardSet {
    /// Iterates over the cards, lowest first.
    #[must_use]
    #[inline]
    pub fn iter(self) -> Iter {
        Iter(self.0)
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Self {
        let mut s = CardSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

impl From<Card> for CardSet {
    fn from(c: Card) -> Self {
        CardSet::single(c)
    }
}

macro_rules! bitop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl std::ops::$tr for CardSet {
            type Output = CardSet;
            #[inline]
            fn $f(self, o: CardSet) -> CardSet {
                CardSet(self.0 $op o.0)
            }
        }
        impl std::ops::$atr for CardSet {
            #[inline]
            fn $af(&mut self, o: CardSet) {
                self.0 = self.0 $op o.0;
            }
        }
    };
}
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl std::ops::Not for CardSet {
    type Output = CardSet;
    #[inline]
    fn not(self) -> CardSet {
        self.complement()
    }
}

impl std::ops::Sub for CardSet {
    type Output = CardSet;
    #[inline]
    fn sub(self, o: CardSet) -> CardSet {
        self.without(o)
    }
}

/// Prints the cards in notation, separated by single spaces.
impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for c in *self {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CardSet[{self}]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_has_forty_cards() {
        assert_eq!(CardSet::FULL.len(), 40);
        assert_eq!(Card::all().collect::<CardSet>(), CardSet::FULL);
        for s in Suit::ALL {
            assert_eq!(CardSet::suit(s).len(), 10);
        }
    }

    #[test]
    fn subsets_enumerates_all() {
        let s: CardSet = Card::all().step_by(7).collect();
        let subs: Vec<_> = s.subsets().collect();
        assert_eq!(subs.len(), 1 << s.len());
        assert!(subs.iter().all(|x| s.is_superset(*x)));
        let uniq: std::collections::HashSet<_> = subs.iter().collect();
        assert_eq!(uniq.len(), subs.len());
        assert_eq!(CardSet::EMPTY.subsets().count(), 1);
    }

    #[test]
    fn iter_both_ends_and_nth() {
        let s: CardSet = Card::all().step_by(3).collect();
        let fwd: Vec<_> = s.iter().collect();
        let mut back: Vec<_> = s.iter().rev().collect();
        back.reverse();
        assert_eq!(fwd, back);
        for (i, c) in fwd.iter().enumerate() {
            assert_eq!(s.nth(i as u32), Some(*c));
        }
        assert_eq!(s.nth(s.len()), None);
        assert_eq!(s.iter().len(), s.len() as usize);
    }
}
