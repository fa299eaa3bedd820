//! Shared test helpers (included with `mod common;`).
#![allow(dead_code)]

use tresillo_core::*;

/// A hand from notation.
pub fn cs(s: &str) -> CardSet {
    parse_hand(s).unwrap()
}

/// A card from notation.
pub fn card(s: &str) -> Card {
    parse_card(s).unwrap()
}

/// Applies a decision that must be legal.
pub fn ok(h: &mut Hand, d: Decision) {
    let before = *h;
    if let Err(e) = h.apply(d) {
        panic!("{d:?} rejected: {e}; request {:?}", before.request());
    }
}

/// Applies a decision that must be rejected, and checks the state is unchanged.
pub fn rejected(h: &mut Hand, d: Decision) -> HandError {
    let before = *h;
    let e = h.apply(d).expect_err("should be rejected");
    assert_eq!(*h, before, "a rejected decision changed the state");
    e
}

/// The deal of the tests: seat 1 (mano when seat 0 deals) holds the whole estuche
/// of espadas and the top espadas.
pub const STRONG: &str = "3B 4B 5B 6B 7B 10B 11B 12B 2C / 1E 2E 1B 12E 11E 10E 7E 6E 5E / 1C 3C 4C 5C 6C 7C 10C 11C 12C / 1O 2O 3O 4O 5O 6O 7O 10O 11O 12O 4E 3E 2B";

/// A generic shuffled-looking deal (seed-free, fixed).
pub const MIXED: &str = "1E 5E 7E 12E 6B 7B 1C 4C 4O / 2E 6E 10E 4B 2C 3C 7C 1O 2O / 3B 5B 10B 11B 6C 10C 11C 3O 11O / 12C 12O 6O 12B 11E 5O 1B 5C 7O 4E 10O 3E 2B";

/// A new hand of `tresillo` from a full deal string.
pub fn hand(deal: &str, dealer: u8) -> Hand {
    Hand::new(RuleSet::TRESILLO, 3, Deal::parse(deal).unwrap(), Seat(dealer)).unwrap()
}

/// Applies the first legal decision (plays the lowest legal card, never gives up,
/// never takes over, stops at primeras) until `stop` holds or the hand ends.
pub fn auto_until(h: &mut Hand, stop: impl Fn(&Hand) -> bool) {
    while !h.is_done() && !stop(h) {
        let req = h.request();
        let seat = req.seat().unwrap();
        let d = match req {
            Request::Discard { min, .. } => {
                Decision::Discard(h.hand_of(seat).iter().take(min as usize).collect())
            }
            _ => req.legal_decisions(h.hand_of(seat))[0],
        };
        ok(h, d);
    }
}

/// Slow reference perft from the text of the rules (no tables, no bitboards).
pub fn reference_perft(hands: [Vec<Card>; 3], trump: Suit, leader: usize, depth: u32) -> u64 {
    reference_perft_in(hands, Some(trump), leader, depth)
}

/// [`reference_perft`] in a mode: a trump suit, or no trump (`None`, the L'Hombre
/// nolo contracts).
pub fn reference_perft_in(hands: [Vec<Card>; 3], trump: Option<Suit>, leader: usize, depth: u32) -> u64 {
    fn go(
        hands: &mut [Vec<Card>; 3],
        trump: Option<Suit>,
        trick: &mut Vec<(usize, Card)>,
        to_move: usize,
        depth: u32,
    ) -> u64 {
        if depth == 0 || hands[to_move].is_empty() {
            return 1;
        }
        let led = trick.first().map(|x| x.1);
        let legal = tables::reference::legal(&hands[to_move], trump, led);
        let mut n = 0;
        for c in legal {
            let pos = hands[to_move].iter().position(|x| *x == c).unwrap();
            hands[to_move].remove(pos);
            trick.push((to_move, c));
            let next = if trick.len() == 3 {
                let cards: Vec<Card> = trick.iter().map(|x| x.1).collect();
                let w = trick[tables::reference::trick_winner(&cards, trump)].0;
                let saved = std::mem::take(trick);
                let r = go(hands, trump, trick, w, depth - 1);
                *trick = saved;
                r
            } else {
                go(hands, trump, trick, (to_move + 1) % 3, depth - 1)
            };
            n += next;
            trick.pop();
            hands[to_move].insert(pos, c);
        }
        n
    }
    let mut hands = hands;
    go(&mut hands, trump, &mut Vec::new(), leader, depth)
}

/// A full three-player deal from a seed (a small xorshift Fisher-Yates, independent
/// of `rand`, so the deals of a seed never change).
pub fn deal_from(seed: u64) -> Deal {
    let mut cards: Vec<Card> = Card::all().collect();
    let mut x = seed | 1;
    for i in (1..cards.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        cards.swap(i, (x % (i as u64 + 1)) as usize);
    }
    let pack: [Card; 40] = cards.try_into().expect("40 cards");
    Deal::from_pack(&pack).expect("a permutation")
}
