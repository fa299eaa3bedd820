//! Suits, ranks, cards and seats.
//!
//! [`Suit`], [`Rank`], [`Card`] (its bit index), [`Seat`], [`BySeat`], and
//! [`MAX_TRICKS`]: nine, the bound of trick arrays, of the deal notation and of the
//! play of the cards; a hand counts its rule set's `RuleSpec::tricks`.

use std::fmt;

/// The most tricks in a hand of any rule set (nine, RULES.md section 2): it bounds
/// the arrays of a hand's tricks, the deal notation's hands (section 13) and the
/// play of the cards ([`PlayState`](crate::PlayState) and the agents' solvers,
/// which play until the cards run out). A hand counts its rule set's
/// [`RuleSpec::tricks`](crate::RuleSpec::tricks), never a literal.
pub const MAX_TRICKS: u8 = 9;

/// One of the four suits. The order is the engine's sort order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Suit {
    /// Swords (espadas, spades): a long (black) suit.
    Espadas = 0,
    /// Batons (bastos, clubs): a long (black) suit.
    Bastos = 1,
    /// Cups (copas, hearts): a round (red) suit.
    Copas = 2,
    /// Coins (oros, diamonds): a round (red) suit.
    Oros = 3,
}

impl Suit {
    /// Number of suits.
    pub const NUM: usize = 4;
    /// All suits in sort order.
    pub const ALL: [Suit; 4] = [Suit::Espadas, Suit::Bastos, Suit::Copas, Suit::Oros];

    /// Index 0..4.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The suit with this index, if any.
    #[must_use]
    pub const fn try_index(i: usize) -> Option<Suit> {
        if i < 4 { Some(Suit::ALL[i]) } else { None }
    }

    /// Swords and batons are long suits; cups and coins are round.
    #[must_use]
    pub const fn is_long(self) -> bool {
        matches!(self, Suit::Espadas | Suit::Bastos)
    }

    /// The notation letter: `E`, `B`, `C` or `O`.
    #[must_use]
    pub const fn letter(self) -> char {
        ['E', 'B', 'C', 'O'][self as usize]
    }

    /// The name used in files and flags: `espadas`, `bastos`, `copas`, `oros`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        ["espadas", "bastos", "copas", "oros"][self as usize]
    }

    /// The suit whose letter is `c` (upper or lower case).
    #[must_use]
    pub const fn from_letter(c: char) -> Option<Suit> {
        match c {
            'E' | 'e' => Some(Suit::Espadas),
            'B' | 'b' => Some(Suit::Bastos),
            'C' | 'c' => Some(Suit::Copas),
            'O' | 'o' => Some(Suit::Oros),
            _ => None,
        }
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A printed rank: 1-7, 10 (sota), 11 (caballo), 12 (rey).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u8);

impl Rank {
    /// Number of ranks in a suit.
    pub const NUM: usize = 10;
    /// The ranks in index order.
    pub const ALL: [Rank; 10] =
        [Rank(1), Rank(2), Rank(3), Rank(4), Rank(5), Rank(6), Rank(7), Rank(10), Rank(11), Rank(12)];
    /// The ace.
    pub const ACE: Rank = Rank(1);
    /// The sota (jack).
    pub const SOTA: Rank = Rank(10);
    /// The caballo (knight, queen in L'Hombre).
    pub const CABALLO: Rank = Rank(11);
    /// The rey (king).
    pub const REY: Rank = Rank(12);

    /// The rank with printed value `v`, if it exists in the 40-card pack.
    #[must_use]
    pub const fn new(v: u8) -> Option<Rank> {
        match v {
            1..=7 | 10..=12 => Some(Rank(v)),
            _ => None,
        }
    }

    /// The printed value (1-7, 10-12).
    #[must_use]
    pub const fn value(self) -> u8 {
        self.0
    }

    /// Index 0..10 (1..7 then 10, 11, 12).
    #[must_use]
    pub const fn index(self) -> usize {
        if self.0 <= 7 { (self.0 - 1) as usize } else { (self.0 - 3) as usize }
    }

    /// The rank with this index, if any.
    #[must_use]
    pub const fn try_index(i: usize) -> Option<Rank> {
        if i < 10 { Some(Rank::ALL[i]) } else { None }
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A card. Internally the bit index in a [`CardSet`](crate::CardSet):
/// `suit * 16 + rank index`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// Number of cards in the pack.
    pub const NUM: usize = 40;
    /// The espada (ace of swords), first permanent trump.
    pub const ESPADA: Card = Card::new(Suit::Espadas, Rank::ACE);
    /// The basto (ace of batons), permanent trump.
    pub const BASTO: Card = Card::new(Suit::Bastos, Rank::ACE);

    /// The card of this suit and rank.
    #[must_use]
    pub const fn new(suit: Suit, rank: Rank) -> Card {
        Card((suit as u8) * 16 + rank.index() as u8)
    }

    /// The card at bit index `i` of a [`CardSet`](crate::CardSet), if `i` is a card.
    #[must_use]
    pub const fn from_bit(i: u32) -> Option<Card> {
        if i < 64 && (i % 16) < 10 { Some(Card(i as u8)) } else { None }
    }

    /// Same as [`Card::from_bit`] without the check; `i` must be a valid bit.
    #[must_use]
    #[inline]
    pub(crate) const fn from_bit_unchecked(i: u32) -> Card {
        Card(i as u8)
    }

    /// Bit index in a [`CardSet`](crate::CardSet).
    #[must_use]
    #[inline]
    pub const fn bit(self) -> u32 {
        self.0 as u32
    }

    /// Dense index 0..40 (suit * 10 + rank index).
    #[must_use]
    pub const fn index(self) -> usize {
        (self.0 / 16) as usize * 10 + (self.0 % 16) as usize
    }

    /// The card with dense index `i` (0..40).
    #[must_use]
    pub const fn try_index(i: usize) -> Option<Card> {
        if i < 40 { Some(Card(((i / 10) * 16 + i % 10) as u8)) } else { None }
    }

    /// All 40 cards in sort order.
    pub fn all() -> impl Iterator<Item = Card> + Clone {
        (0..40).map(|i| Card::try_index(i).expect("in range"))
    }

    /// The printed suit (the espada is a sword here, whatever trumps are).
    #[must_use]
    pub const fn suit(self) -> Suit {
        Suit::ALL[(self.0 / 16) as usize]
    }

    /// The printed rank.
    #[must_use]
    pub const fn rank(self) -> Rank {
        Rank::ALL[(self.0 % 16) as usize]
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().value(), self.suit().letter())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A seat at the table, `0..n` with n = 3 or 4. Turn order is increasing seat
/// number modulo n.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct Seat(pub u8);

impl Seat {
    /// The most seats a table can have.
    pub const MAX: usize = 4;

    /// Index into per-seat arrays.
    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The next seat in turn order at a table of `n`.
    #[must_use]
    #[inline]
    pub const fn next(self, n: u8) -> Seat {
        // A compare, not `%`: this is on the hot path of every playout.
        if self.0 + 1 >= n { Seat(0) } else { Seat(self.0 + 1) }
    }

    /// The seat `k` places later in turn order at a table of `n`.
    #[must_use]
    #[inline]
    pub const fn plus(self, k: u8, n: u8) -> Seat {
        let mut x = self.0 + k;
        while x >= n {
            x -= n;
        }
        Seat(x)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One value per seat (room for four seats; a three-player table uses `0..3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct BySeat<T>(pub [T; 4]);

impl<T> std::ops::Index<Seat> for BySeat<T> {
    type Output = T;
    #[inline]
    fn index(&self, s: Seat) -> &T {
        &self.0[s.index()]
    }
}

impl<T> std::ops::IndexMut<Seat> for BySeat<T> {
    #[inline]
    fn index_mut(&mut self, s: Seat) -> &mut T {
        &mut self.0[s.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_index_roundtrip() {
        for i in 0..40 {
            let c = Card::try_index(i).unwrap();
            assert_eq!(c.index(), i);
            assert_eq!(Card::new(c.suit(), c.rank()), c);
            assert_eq!(Card::from_bit(c.bit()), Some(c));
        }
        assert_eq!(Card::try_index(40), None);
        assert_eq!(Card::from_bit(10), None);
        assert_eq!(Rank::new(8), None);
        assert_eq!(Rank::new(0), None);
    }
}
