//! Notation (RULES.md section 13): cards, hands, deals and suit names.
//!
//! Every parser returns a [`NotationError`] naming the offending token; none panics.

use crate::card::{BySeat, Card, Rank, Seat, Suit};
use crate::cardset::CardSet;
use crate::table::Table;
use std::fmt;
use std::str::FromStr;

/// A malformed card, hand, deal or suit name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// A token that is not a card.
    #[error("malformed card `{0}` (expected a rank 1-7, 10, 11 or 12 followed by E, B, C or O)")]
    BadCard(String),
    /// A card with an unknown suit letter.
    #[error("unknown suit in card `{0}` (suits are E, B, C, O)")]
    UnknownSuitLetter(String),
    /// A suit name that is not one of the four.
    #[error("unknown suit `{0}` (expected espadas, bastos, copas or oros)")]
    UnknownSuit(String),
    /// A card that appears twice.
    #[error("duplicate card `{0}`")]
    Duplicate(Card),
    /// Hands of different sizes in one deal.
    #[error("hand {seat} has {got} cards but hand 0 has {expected}: all hands must be equal")]
    UnequalHands {
        /// The offending seat.
        seat: usize,
        /// Its size.
        got: usize,
        /// The size of hand 0.
        expected: usize,
    },
    /// A hand or heap of the wrong size for a full deal.
    #[error("{what} has {got} cards, expected {expected}")]
    WrongSize {
        /// Which part.
        what: String,
        /// Its size.
        got: usize,
        /// The size required.
        expected: usize,
    },
    /// A deal with the wrong number of `/`-separated parts.
    #[error(
        "a deal has 3 hands and an optional heap, or 4 hands (the dealer's `-`) and the heap, separated by ` / `; found {0} part(s)"
    )]
    WrongParts(usize),
    /// A deal whose `/`-separated parts do not fit the table size it is read for
    /// ([`Deal::parse_partial_at`]).
    #[error(
        "found {parts} part(s) for {players} players: give {} separated by ` / `, and optionally the heap",
        if *sits_out { format!("{players} hands (`-` for the seat that sits out)") } else { format!("{players} hands") }
    )]
    PartsForPlayers {
        /// The parts found.
        parts: usize,
        /// The table size.
        players: u8,
        /// Whether a seat sits out at that table ([`Table::dealer_sits_out`]).
        sits_out: bool,
    },
    /// A hand written `-` (a seat that sits out) at a table of three.
    #[error("hand {0} is `-`, but only at a table of four does a seat sit out")]
    SitsOutAtThree(usize),
    /// A hand with more than nine cards.
    #[error("hand {seat} has {got} cards; a hand holds at most 9")]
    TooManyCards {
        /// The seat.
        seat: usize,
        /// Its size.
        got: usize,
    },
}

/// Parses one card such as `1E`, `7C`, `12O` (the suit letter may be lower case).
pub fn parse_card(tok: &str) -> Result<Card, NotationError> {
    let tok = tok.trim();
    let bad = || NotationError::BadCard(tok.to_string());
    let last = tok.chars().last().ok_or_else(bad)?;
    let num = &tok[..tok.len() - last.len_utf8()];
    if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) || num.len() > 2 {
        return Err(bad());
    }
    let v: u8 = num.parse().map_err(|_| bad())?;
    let rank = Rank::new(v).ok_or_else(bad)?;
    let suit = Suit::from_letter(last).ok_or_else(|| {
        if last.is_ascii_alphabetic() { NotationError::UnknownSuitLetter(tok.to_string()) } else { bad() }
    })?;
    Ok(Card::new(suit, rank))
}

/// Parses a hand: cards separated by whitespace, no duplicates.
pub fn parse_hand(s: &str) -> Result<CardSet, NotationError> {
    let mut set = CardSet::EMPTY;
    for tok in s.split_whitespace() {
        let c = parse_card(tok)?;
        if !set.insert(c) {
            return Err(NotationError::Duplicate(c));
        }
    }
    Ok(set)
}

/// Parses a suit name (`espadas`, `bastos`, `copas`, `oros`; also the letters and
/// the L'Hombre names `spades`, `clubs`, `hearts`, `diamonds`), case-insensitive.
pub fn parse_suit(s: &str) -> Result<Suit, NotationError> {
    match s.trim().to_ascii_lowercase().as_str() {
        "espadas" | "e" | "spades" => Ok(Suit::Espadas),
        "bastos" | "b" | "clubs" => Ok(Suit::Bastos),
        "copas" | "c" | "hearts" => Ok(Suit::Copas),
        "oros" | "o" | "diamonds" => Ok(Suit::Oros),
        _ => Err(NotationError::UnknownSuit(s.trim().to_string())),
    }
}

impl FromStr for Card {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Card, NotationError> {
        parse_card(s)
    }
}

impl FromStr for Suit {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Suit, NotationError> {
        parse_suit(s)
    }
}

/// The heap (talon) in order, top first.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Heap {
    cards: [Card; 13],
    len: u8,
}

impl Heap {
    /// An empty heap.
    pub const EMPTY: Heap = Heap { cards: [Card::ESPADA; 13], len: 0 };

    /// A heap from cards listed top first (at most 13).
    #[must_use]
    pub fn from_cards(cards: &[Card]) -> Heap {
        let mut h = Heap::EMPTY;
        for (i, c) in cards.iter().take(13).enumerate() {
            h.cards[i] = *c;
        }
        h.len = cards.len().min(13) as u8;
        h
    }

    /// The cards, top first.
    #[must_use]
    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }

    /// The cards as a set.
    #[must_use]
    pub fn set(&self) -> CardSet {
        self.cards().iter().copied().collect()
    }

    /// Number of cards.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the heap is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl fmt::Debug for Heap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Heap{:?}", self.cards())
    }
}

/// A deal: three hands in seat order and the heap, top first.
///
/// A full deal has 9 cards per hand and 13 in the heap. For endgame analysis
/// ([`Deal::parse_partial`]) hands may hold fewer cards (all equal) and the heap
/// may be absent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Deal {
    /// Each seat's hand (seats 0..3 used).
    pub hands: BySeat<CardSet>,
    /// The heap, top first.
    pub heap: Heap,
}

impl Deal {
    /// Deals a shuffled pack: seat 0 gets `pack[0..9]`, seat 1 `pack[9..18]`, seat 2
    /// `pack[18..27]`, and `pack[27..40]` is the heap, top first. Errors if `pack` is
    /// not a permutation of the 40 cards.
    pub fn from_pack(pack: &[Card; 40]) -> Result<Deal, NotationError> {
        let mut seen = CardSet::EMPTY;
        for &c in pack {
            if !seen.insert(c) {
                return Err(NotationError::Duplicate(c));
            }
        }
        let mut hands = BySeat::default();
        for (s, chunk) in pack[..27].chunks(9).enumerate() {
            hands.0[s] = chunk.iter().copied().collect();
        }
        Ok(Deal { hands, heap: Heap::from_cards(&pack[27..]) })
    }

    /// Parses a full deal: `h0 / h1 / h2 / heap`, 9 cards per hand and 13 in the heap;
    /// at a table of four `h0 / h1 / h2 / h3 / heap` with the inactive dealer's hand
    /// written `-` (RULES.md sections 12.2 and 13).
    pub fn parse(s: &str) -> Result<Deal, NotationError> {
        let d = Deal::parse_partial(s)?;
        let four = s.split('/').count() == 5;
        for seat in 0..if four { 4 } else { 3 } {
            let got = d.hands.0[seat].len() as usize;
            if got != usize::from(crate::card::MAX_TRICKS) && !(four && got == 0) {
                return Err(NotationError::WrongSize {
                    what: format!("hand {seat}"),
                    got,
                    expected: usize::from(crate::card::MAX_TRICKS),
                });
            }
        }
        if d.heap.len() != 13 {
            return Err(NotationError::WrongSize {
                what: "the heap".into(),
                got: d.heap.len(),
                expected: 13,
            });
        }
        Ok(d)
    }

    /// Parses a deal whose hands may hold fewer than nine cards (all equal in size)
    /// and whose heap part is optional. No card may appear twice.
    pub fn parse_partial(s: &str) -> Result<Deal, NotationError> {
        let parts: Vec<&str> = s.split('/').collect();
        if !(3..=5).contains(&parts.len()) {
            return Err(NotationError::WrongParts(parts.len()));
        }
        // Five parts: four hands (the inactive dealer's `-`) and the heap.
        let nh = if parts.len() == 5 { 4 } else { 3 };
        let mut seen = CardSet::EMPTY;
        let mut hands = BySeat::default();
        for (seat, part) in parts[..nh].iter().enumerate() {
            let h = if nh == 4 && part.trim() == "-" { CardSet::EMPTY } else { parse_hand(part)? };
            if let Some(c) = (h & seen).first() {
                return Err(NotationError::Duplicate(c));
            }
            if h.len() > u32::from(crate::card::MAX_TRICKS) {
                return Err(NotationError::TooManyCards { seat, got: h.len() as usize });
            }
            seen |= h;
            hands.0[seat] = h;
        }
        let sizes: Vec<usize> = (0..nh).map(|s| hands.0[s].len() as usize).collect();
        let n0 = if nh == 4 { sizes.iter().copied().max().unwrap_or(0) } else { sizes[0] };
        for (seat, &got) in sizes.iter().enumerate() {
            // At four exactly one hand, the dealer's, is empty.
            let empty_dealer = nh == 4 && got == 0 && sizes.iter().filter(|&&x| x == 0).count() == 1;
            if got != n0 && !empty_dealer {
                return Err(NotationError::UnequalHands { seat, got, expected: n0 });
            }
        }
        let mut heap = Vec::new();
        if let Some(part) = parts.get(nh) {
            for tok in part.split_whitespace() {
                let c = parse_card(tok)?;
                if !seen.insert(c) {
                    return Err(NotationError::Duplicate(c));
                }
                heap.push(c);
            }
            if heap.len() > 13 {
                return Err(NotationError::WrongSize {
                    what: "the heap".into(),
                    got: heap.len(),
                    expected: 13,
                });
            }
        }
        Ok(Deal { hands, heap: Heap::from_cards(&heap) })
    }

    /// [`Deal::parse_partial`] for `table` (of 3 or 4 players): exactly one hand
    /// per player, then optionally the heap. Where the dealer sits out (four), the
    /// seat whose hand is `-` sits out (three-card tricks), or all four hold cards;
    /// where every seat plays no hand may be `-`.
    pub fn parse_partial_at(s: &str, table: Table) -> Result<Deal, NotationError> {
        let parts: Vec<&str> = s.split('/').collect();
        let players = table.players;
        let hands = usize::from(players);
        if !(3..=4).contains(&players) || (parts.len() != hands && parts.len() != hands + 1) {
            let sits_out = table.dealer_sits_out;
            return Err(NotationError::PartsForPlayers { parts: parts.len(), players, sits_out });
        }
        if table.every_seat_plays() {
            if let Some(seat) = parts[..3].iter().position(|p| p.trim() == "-") {
                return Err(NotationError::SitsOutAtThree(seat));
            }
            return Deal::parse_partial(s);
        }
        if parts.len() == hands {
            // Every hand, no heap: an empty heap part.
            return Deal::parse_partial(&format!("{s} /"));
        }
        Deal::parse_partial(s)
    }

    /// Every card of the deal.
    #[must_use]
    pub fn all_cards(&self) -> CardSet {
        self.hands.0.iter().fold(self.heap.set(), |a, h| a | *h)
    }

    /// The hand of `seat`.
    #[must_use]
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands[seat]
    }

    /// This deal (hands in seats 0..3, as [`Deal::from_pack`] deals them) seated at
    /// `table` with `dealer` dealing: unchanged where every seat plays; where the
    /// dealer sits out (four) the three hands go to the active players in
    /// increasing seat order and the inactive dealer's hand is empty (RULES.md
    /// sections 2 and 12.2).
    #[must_use]
    pub fn seated(&self, table: Table, dealer: Seat) -> Deal {
        if table.every_seat_plays() {
            return *self;
        }
        let mut hands = BySeat::default();
        let mut k = 0;
        for s in 0..usize::from(table.players) {
            if table.active(Seat(s as u8), dealer) {
                hands.0[s] = self.hands.0[k];
                k += 1;
            }
        }
        Deal { hands, heap: self.heap }
    }
}

/// Prints `h0 / h1 / h2 / heap` (the heap part only when the heap is not empty);
/// when seat 3 holds cards (a table of four), `h0 / h1 / h2 / h3 / heap` with the
/// dealer's empty hand written `-`.
impl fmt::Display for Deal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.hands.0[3].is_empty() {
            let h = |s: usize| {
                if self.hands.0[s].is_empty() { "-".to_string() } else { self.hands.0[s].to_string() }
            };
            write!(f, "{} / {} / {} / {} /", h(0), h(1), h(2), h(3))?;
            for c in self.heap.cards() {
                write!(f, " {c}")?;
            }
            return Ok(());
        }
        write!(f, "{} / {} / {}", self.hands.0[0], self.hands.0[1], self.hands.0[2])?;
        if !self.heap.is_empty() {
            f.write_str(" /")?;
            for c in self.heap.cards() {
                write!(f, " {c}")?;
            }
        }
        Ok(())
    }
}

impl FromStr for Deal {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Deal, NotationError> {
        Deal::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_roundtrip() {
        for c in Card::all() {
            assert_eq!(parse_card(&c.to_string()), Ok(c));
        }
        assert_eq!(parse_card("12o"), Ok(Card::new(Suit::Oros, Rank::REY)));
    }

    #[test]
    fn malformed_cards_name_the_token() {
        for bad in ["", "E", "8E", "0C", "13O", "1", "x1E", "100E", "1ÉE", "1É", "+1E", "٣E"] {
            let e = parse_card(bad).unwrap_err();
            assert!(e.to_string().contains(bad.trim()), "{bad}: {e}");
        }
        assert_eq!(parse_card("1X"), Err(NotationError::UnknownSuitLetter("1X".into())));
    }

    #[test]
    fn suit_names() {
        assert_eq!(parse_suit("Oros"), Ok(Suit::Oros));
        assert_eq!(parse_suit("spades"), Ok(Suit::Espadas));
        assert!(matches!(parse_suit("hearts!"), Err(NotationError::UnknownSuit(_))));
    }

    #[test]
    fn deals_roundtrip_and_errors() {
        let s = "1E 2E 3E 4E 5E 6E 7E 10E 11E / 12E 1B 2B 3B 4B 5B 6B 7B 10B / 11B 12B 1C 2C 3C 4C 5C 6C 7C / 10C 11C 12C 1O 2O 3O 4O 5O 6O 7O 10O 11O 12O";
        let d = Deal::parse(s).unwrap();
        assert_eq!(d.to_string(), s);
        assert_eq!(d.all_cards(), CardSet::FULL);
        assert!(matches!(
            Deal::parse_partial("1E / 2E 3E / 4E"),
            Err(NotationError::UnequalHands { seat: 1, .. })
        ));
        assert_eq!(Deal::parse_partial("1E / 1E / 4E"), Err(NotationError::Duplicate(Card::ESPADA)));
        assert!(matches!(Deal::parse_partial("1E / 2E"), Err(NotationError::WrongParts(2))));
        // Read for a table size: four hands at three players, or three at four, are
        // refused; `-` sits out only at four, with or without the heap.
        let four = "- / 1E / 2E / 3E";
        let four_players = Table::FOUR_WITH_PENETRO;
        assert_eq!(Deal::parse_partial_at(four, Table::THREE), Err(NotationError::SitsOutAtThree(0)));
        assert_eq!(
            Deal::parse_partial_at(&format!("{four} / 4E"), Table::THREE),
            Err(NotationError::PartsForPlayers { parts: 5, players: 3, sits_out: false })
        );
        let d = Deal::parse_partial_at(four, four_players).unwrap();
        assert!(d.hands.0[0].is_empty() && d.hands.0[3].contains(parse_card("3E").unwrap()));
        assert_eq!(Deal::parse_partial_at(&format!("{four} / 4E"), four_players).unwrap().heap.len(), 1);
        assert_eq!(
            Deal::parse_partial_at("1E / 2E / 3E", four_players),
            Err(NotationError::PartsForPlayers { parts: 3, players: 4, sits_out: true })
        );
        assert_eq!(
            Deal::parse_partial_at("- / 2E / 3E", Table::THREE),
            Err(NotationError::SitsOutAtThree(0))
        );
        assert_eq!(Deal::parse_partial_at("1E / 2E / 3E / 4E", Table::THREE).unwrap().heap.len(), 1);
        assert!(matches!(Deal::parse("1E / 2E / 3E"), Err(NotationError::WrongSize { .. })));
        let p = Deal::parse_partial("1E 2E / 3E 4E / 5E 6E").unwrap();
        assert!(p.heap.is_empty());
    }
}
