//! Per-trump lookup tables, built at compile time from the readable card orders of
//! RULES.md section 1, and the slow reference forms the tests compare them with.
//!
//! A *mode* is a trump suit (`Some(suit)`) or no trump (`None`, only for the
//! L'Hombre nolo contracts). Every table is indexed by a card's bit.

use crate::card::{Card, Rank, Suit};
use crate::cardset::CardSet;

/// Order of a long (black) suit that is not trump, high to low; its ace is a
/// permanent trump.
pub const LONG_PLAIN_ORDER: [u8; 9] = [12, 11, 10, 7, 6, 5, 4, 3, 2];
/// Order of a round (red) suit that is not trump, high to low.
pub const ROUND_PLAIN_ORDER: [u8; 10] = [12, 11, 10, 1, 2, 3, 4, 5, 6, 7];
/// Order of a black suit in no trump, high to low.
pub const LONG_NOTRUMP_ORDER: [u8; 10] = [12, 11, 10, 7, 6, 5, 4, 3, 2, 1];
/// Order of a red suit in no trump, high to low.
pub const ROUND_NOTRUMP_ORDER: [u8; 10] = [12, 11, 10, 1, 2, 3, 4, 5, 6, 7];
/// A long trump suit below espada, mala (its 2) and basto, high to low.
pub const LONG_TRUMP_TAIL: [u8; 8] = [12, 11, 10, 7, 6, 5, 4, 3];
/// A round trump suit below espada, mala (its 7) and basto, high to low: the punto
/// (its ace) first.
pub const ROUND_TRUMP_TAIL: [u8; 9] = [1, 12, 11, 10, 2, 3, 4, 5, 6];

/// Effective suit index of a trump card in [`TrumpTable::eff_suit`].
pub const TRUMP_SUIT: u8 = 4;

/// The tables of one mode (a trump suit, or no trump).
#[derive(Clone, Copy, Debug)]
pub struct TrumpTable {
    /// Trick-taking power of each card: trumps from 100 up, plain cards 1..=10 within
    /// their suit (only comparable with the suit led). 0 for non-card bits.
    pub power: [u8; 64],
    /// Effective suit of each card: its printed suit index, or [`TRUMP_SUIT`].
    pub eff_suit: [u8; 64],
    /// Every trump, high to low (empty in no trump).
    pub trump_order: [Card; 12],
    /// How many entries of `trump_order` are used (11 or 12, 0 in no trump).
    pub num_trumps: u8,
    /// All trumps.
    pub trumps: CardSet,
    /// Espada, mala and basto (empty in no trump).
    pub estuche: CardSet,
    /// The cards of each effective suit (index 0..4 printed suits minus trumps,
    /// index 4 the trumps).
    pub suit_mask: [CardSet; 5],
    /// With card `c` led: the cards a player must play from if holding any (the
    /// effective suit of `c`).
    pub follow: [CardSet; 64],
    /// With card `c` led: holding any of these obliges the player to follow. For a
    /// plain card the same as `follow`; for a trump, the trumps that can be forced
    /// (section 5: non-estuche trumps, plus estuche cards below an estuche led).
    pub force: [CardSet; 64],
    /// `key[s][card]`: with a card of effective suit `s` led, the card's strength in
    /// the trick (its power if it is a trump or of suit `s`, else 0).
    pub key: [[u8; 64]; 5],
}

const fn card(s: Suit, v: u8) -> Card {
    match Rank::new(v) {
        Some(r) => Card::new(s, r),
        None => panic!("bad rank in order table"),
    }
}

const fn set_with(s: CardSet, c: Card) -> CardSet {
    CardSet(s.0 | (1 << c.bit()))
}

/// The trumps of `trump`, high to low, exactly as RULES.md section 1 spells them.
const fn trump_order(trump: Suit) -> ([Card; 12], u8) {
    let mut out = [Card::ESPADA; 12];
    let mut n = 0;
    out[n] = Card::ESPADA;
    n += 1;
    out[n] = if trump.is_long() { card(trump, 2) } else { card(trump, 7) };
    n += 1;
    out[n] = Card::BASTO;
    n += 1;
    if trump.is_long() {
        let mut i = 0;
        while i < LONG_TRUMP_TAIL.len() {
            out[n] = card(trump, LONG_TRUMP_TAIL[i]);
            n += 1;
            i += 1;
        }
    } else {
        let mut i = 0;
        while i < ROUND_TRUMP_TAIL.len() {
            out[n] = card(trump, ROUND_TRUMP_TAIL[i]);
            n += 1;
            i += 1;
        }
    }
    (out, n as u8)
}

const fn build(mode: Option<Suit>) -> TrumpTable {
    let mut t = TrumpTable {
        power: [0; 64],
        eff_suit: [0; 64],
        trump_order: [Card::ESPADA; 12],
        num_trumps: 0,
        trumps: CardSet::EMPTY,
        estuche: CardSet::EMPTY,
        suit_mask: [CardSet::EMPTY; 5],
        follow: [CardSet::EMPTY; 64],
        force: [CardSet::EMPTY; 64],
        key: [[0; 64]; 5],
    };
    // Plain suits.
    let mut si = 0;
    while si < 4 {
        let s = Suit::ALL[si];
        let is_trump_suit = match mode {
            Some(ts) => ts as usize == si,
            None => false,
        };
        if !is_trump_suit {
            let order: &[u8] = match mode {
                None => {
                    if s.is_long() {
                        &LONG_NOTRUMP_ORDER
                    } else {
                        &ROUND_NOTRUMP_ORDER
                    }
                }
                Some(_) => {
                    if s.is_long() {
                        &LONG_PLAIN_ORDER
                    } else {
                        &ROUND_PLAIN_ORDER
                    }
                }
            };
            let n = order.len();
            let mut i = 0;
            while i < n {
                let c = card(s, order[i]);
                t.power[c.bit() as usize] = (n - i) as u8;
                t.eff_suit[c.bit() as usize] = si as u8;
                t.suit_mask[si] = set_with(t.suit_mask[si], c);
                i += 1;
            }
        }
        si += 1;
    }
    // Trumps.
    if let Some(ts) = mode {
        let (order, n) = trump_order(ts);
        t.trump_order = order;
        t.num_trumps = n;
        let mut i = 0;
        while i < n as usize {
            let c = order[i];
            t.power[c.bit() as usize] = 100 + (n as usize - i) as u8;
            t.eff_suit[c.bit() as usize] = TRUMP_SUIT;
            t.trumps = set_with(t.trumps, c);
            if i < 3 {
                t.estuche = set_with(t.estuche, c);
            }
            i += 1;
        }
        t.suit_mask[4] = t.trumps;
    }
    // Strength in a trick, by the effective suit led.
    let mut ls = 0;
    while ls < 5 {
        let mut b = 0;
        while b < 64 {
            let es = t.eff_suit[b] as usize;
            if t.power[b] > 0 && (es == TRUMP_SUIT as usize || es == ls) {
                t.key[ls][b] = t.power[b];
            }
            b += 1;
        }
        ls += 1;
    }
    // Following masks.
    let mut b = 0;
    while b < 64 {
        if let Some(c) = Card::from_bit(b as u32) {
            let es = t.eff_suit[b] as usize;
            t.follow[b] = t.suit_mask[es];
            if es == TRUMP_SUIT as usize {
                // Non-estuche trumps, plus estuche cards ranked below the card led
                // when that card is itself an estuche card.
                let mut f = CardSet(t.trumps.0 & !t.estuche.0);
                if t.estuche.0 & (1 << c.bit()) != 0 {
                    let mut j = 0;
                    while j < 3 {
                        let e = t.trump_order[j];
                        if t.power[e.bit() as usize] < t.power[b] {
                            f = set_with(f, e);
                        }
                        j += 1;
                    }
                }
                t.force[b] = f;
            } else {
                t.force[b] = t.follow[b];
            }
        }
        b += 1;
    }
    t
}

/// Tables for trumps espadas, bastos, copas, oros, then no trump.
pub static TABLES: [TrumpTable; 5] = [
    build(Some(Suit::Espadas)),
    build(Some(Suit::Bastos)),
    build(Some(Suit::Copas)),
    build(Some(Suit::Oros)),
    build(None),
];

/// The table of a mode.
#[must_use]
#[inline]
pub fn table(trump: Option<Suit>) -> &'static TrumpTable {
    match trump {
        Some(s) => &TABLES[s as usize],
        None => &TABLES[4],
    }
}

/// Slow, obviously correct forms of the rules of RULES.md sections 1 and 5, written
/// from the text without tables. Tests compare the fast forms against these.
pub mod reference {
    use super::*;

    /// Whether `c` is a trump: a card of the trump suit, or a permanent trump (the
    /// espada or the basto) in any trump contract.
    #[must_use]
    pub fn is_trump(c: Card, trump: Option<Suit>) -> bool {
        match trump {
            None => false,
            Some(t) => c.suit() == t || c == Card::ESPADA || c == Card::BASTO,
        }
    }

    /// The trumps high to low as a list.
    #[must_use]
    pub fn trump_list(trump: Suit) -> Vec<Card> {
        let r = |v| Card::new(trump, Rank::new(v).unwrap());
        let mut v = vec![Card::ESPADA];
        if trump.is_long() {
            v.push(r(2));
            v.push(Card::BASTO);
            for x in [12, 11, 10, 7, 6, 5, 4, 3] {
                v.push(r(x));
            }
        } else {
            v.push(r(7));
            v.push(Card::BASTO);
            for x in [1, 12, 11, 10, 2, 3, 4, 5, 6] {
                v.push(r(x));
            }
        }
        v
    }

    /// A plain suit's cards high to low (in a trump contract or in no trump).
    #[must_use]
    pub fn plain_list(s: Suit, trump: Option<Suit>) -> Vec<Card> {
        let order: Vec<u8> = match (trump.is_some(), s.is_long()) {
            (true, true) => vec![12, 11, 10, 7, 6, 5, 4, 3, 2],
            (true, false) => vec![12, 11, 10, 1, 2, 3, 4, 5, 6, 7],
            (false, true) => vec![12, 11, 10, 7, 6, 5, 4, 3, 2, 1],
            (false, false) => vec![12, 11, 10, 1, 2, 3, 4, 5, 6, 7],
        };
        order.into_iter().map(|v| Card::new(s, Rank::new(v).unwrap())).collect()
    }

    /// The effective suit: `None` for a trump, else the printed suit.
    #[must_use]
    pub fn effective_suit(c: Card, trump: Option<Suit>) -> Option<Suit> {
        if is_trump(c, trump) { None } else { Some(c.suit()) }
    }

    /// Section 5, following, read literally.
    #[must_use]
    pub fn legal(hand: &[Card], trump: Option<Suit>, led: Option<Card>) -> Vec<Card> {
        let Some(led) = led else { return hand.to_vec() };
        match effective_suit(led, trump) {
            Some(l) => {
                let same: Vec<Card> =
                    hand.iter().copied().filter(|c| effective_suit(*c, trump) == Some(l)).collect();
                if same.is_empty() { hand.to_vec() } else { same }
            }
            None => {
                let t = trump.expect("a trump was led");
                let list = trump_list(t);
                let estuche = &list[..3];
                let led_pos = list.iter().position(|c| *c == led).unwrap();
                let forced: Vec<Card> = hand
                    .iter()
                    .copied()
                    .filter(|c| is_trump(*c, trump))
                    .filter(|c| match estuche.iter().position(|e| e == c) {
                        None => true,
                        Some(p) => led_pos < 3 && p > led_pos,
                    })
                    .collect();
                if forced.is_empty() {
                    hand.to_vec()
                } else {
                    hand.iter().copied().filter(|c| is_trump(*c, trump)).collect()
                }
            }
        }
    }

    /// Section 5, winning: the highest trump, else the highest card of the suit led.
    /// Returns the index into `cards` (the first is the card led).
    #[must_use]
    pub fn trick_winner(cards: &[Card], trump: Option<Suit>) -> usize {
        if let Some(t) = trump {
            let list = trump_list(t);
            let best = cards
                .iter()
                .enumerate()
                .filter_map(|(i, c)| list.iter().position(|x| x == c).map(|p| (p, i)))
                .min();
            if let Some((_, i)) = best {
                return i;
            }
        }
        let led_suit = cards[0].suit();
        let list = plain_list(led_suit, trump);
        cards
            .iter()
            .enumerate()
            .filter_map(|(i, c)| list.iter().position(|x| x == c).map(|p| (p, i)))
            .min()
            .expect("the card led is of its suit")
            .1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_orders_match_reference() {
        for s in Suit::ALL {
            let t = table(Some(s));
            let list = reference::trump_list(s);
            assert_eq!(&t.trump_order[..t.num_trumps as usize], &list[..]);
            assert_eq!(t.trumps.len() as usize, list.len());
            for c in Card::all() {
                assert_eq!(t.trumps.contains(c), reference::is_trump(c, Some(s)), "{c} {s}");
            }
        }
        assert!(table(None).trumps.is_empty());
    }

    #[test]
    fn long_trump_has_eleven_round_twelve() {
        assert_eq!(table(Some(Suit::Espadas)).num_trumps, 11);
        assert_eq!(table(Some(Suit::Bastos)).num_trumps, 11);
        assert_eq!(table(Some(Suit::Copas)).num_trumps, 12);
        assert_eq!(table(Some(Suit::Oros)).num_trumps, 12);
    }

    #[test]
    fn effective_suits_partition_the_pack() {
        for t in &TABLES {
            let mut all = CardSet::EMPTY;
            for m in t.suit_mask {
                assert!(all.is_disjoint(m));
                all |= m;
            }
            assert_eq!(all, CardSet::FULL);
        }
    }
}
