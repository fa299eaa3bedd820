//! Four-player `tresillo` (RULES.md section 12.2): the inactive dealer, the
//! **penetro** when all three active players pass and the espada is in the heap,
//! the top/bottom choice, giving up at once, the drop-out conversation, and the
//! option `penetro_all_play`.
//!
//! The state machine ([`Hand`](crate::Hand)) consults this module at its few hooks:
//! which seats play ([`playing_seats`]), who drops out ([`drop_out_decided`]), how
//! the dealer takes ten cards ([`take_ten`]). The public record of a penetro is a
//! [`PenetroState`] in the [`PublicState`](crate::PublicState), so every view shows
//! the drop-out conversation and the heap end the dealer chose (section 9).
//!
//! **Four seats are the same machine.** A four-player hand is a `Hand` with `players =
//! 4`: the deal holds the inactive dealer's hand empty (`Deal::seated` puts a seed's
//! three hands on the other seats in seat order), the dealer is marked passed before
//! the auction, and everything that walks seats in play order asks
//! `PublicState::playing()` / `next_playing()` (the dealer sits out unless penetrating;
//! the player who dropped out sits out; under `penetro_all_play` all four play
//! four-card tricks). `PlayState::with_seats` is the same position type with an
//! active-seat mask; the three-player constructor and the register playout are
//! unchanged. Opponents are `PublicState::all_opponents()` (two, or three).

use crate::card::{Card, Seat};
use crate::notation::Heap;
use crate::table::Table;
use std::fmt;

/// Which ten cards of the heap the dealer takes in a penetro, chosen without
/// looking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum HeapEnd {
    /// The top ten; the bottom three are left for the exchange.
    Top,
    /// The bottom ten; the top three are left for the exchange.
    Bottom,
}

impl HeapEnd {
    /// Both ends.
    pub const ALL: [HeapEnd; 2] = [HeapEnd::Top, HeapEnd::Bottom];

    /// `top` or `bottom`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            HeapEnd::Top => "top",
            HeapEnd::Bottom => "bottom",
        }
    }
}

impl fmt::Display for HeapEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A statement of the drop-out conversation of a penetro (section 12.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum DropWord {
    /// *Me quedo*: I stay.
    MeQuedo,
    /// *Puedo quedarme*: I can stay.
    PuedoQuedarme,
    /// *Puedo irme*: I can drop out.
    PuedoIrme,
    /// *Me voy*: I drop out (the first one ends the conversation).
    MeVoy,
}

impl DropWord {
    /// All four words, from the most eager to stay.
    pub const ALL: [DropWord; 4] =
        [DropWord::MeQuedo, DropWord::PuedoQuedarme, DropWord::PuedoIrme, DropWord::MeVoy];

    /// The Spanish phrase.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            DropWord::MeQuedo => "me quedo",
            DropWord::PuedoQuedarme => "puedo quedarme",
            DropWord::PuedoIrme => "puedo irme",
            DropWord::MeVoy => "me voy",
        }
    }
}

impl fmt::Display for DropWord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A statement of the drop-out conversation with its seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct DropEntry {
    /// Who spoke.
    pub seat: Seat,
    /// What they said.
    pub word: DropWord,
}

/// The public record of a penetro: everything about it every player may see
/// (section 9). All empty when the dealer did not penetrar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PenetroState {
    /// The dealer penetra (all active players passed, the espada in the heap).
    pub active: bool,
    /// The end of the heap the dealer took ten cards from.
    pub heap_end: Option<HeapEnd>,
    words: [DropEntry; 3],
    num_words: u8,
    /// The player who dropped out, once decided (never under `penetro_all_play`).
    pub dropped: Option<Seat>,
}

impl Default for PenetroState {
    fn default() -> Self {
        PenetroState {
            active: false,
            heap_end: None,
            words: [DropEntry { seat: Seat(0), word: DropWord::MeQuedo }; 3],
            num_words: 0,
            dropped: None,
        }
    }
}

impl PenetroState {
    /// The drop-out conversation, in order.
    #[must_use]
    pub fn words(&self) -> &[DropEntry] {
        &self.words[..self.num_words as usize]
    }

    /// Records a statement; returns who drops out if that settles it.
    pub(crate) fn say(&mut self, seat: Seat, word: DropWord) -> Option<Seat> {
        self.words[self.num_words as usize] = DropEntry { seat, word };
        self.num_words += 1;
        self.dropped = drop_out_decided(self.words());
        self.dropped
    }
}

/// Who drops out after these statements (section 12.2), or `None` while the
/// conversation goes on: the first *me voy*; after one round (three statements)
/// without it, the last speaker who said *puedo irme*, else the last speaker.
#[must_use]
pub fn drop_out_decided(words: &[DropEntry]) -> Option<Seat> {
    if let Some(e) = words.iter().find(|e| e.word == DropWord::MeVoy) {
        return Some(e.seat);
    }
    if words.len() < 3 {
        return None;
    }
    words.iter().rev().find(|e| e.word == DropWord::PuedoIrme).or(words.last()).map(|e| e.seat)
}

/// The seats that play cards, as a bit mask: every seat at a table where every
/// seat plays; where the dealer sits out (four players), all but the inactive
/// dealer, or in a penetro all but the player who dropped out (all four under
/// `penetro_all_play`, and while nobody has dropped out yet).
#[must_use]
pub const fn playing_seats(table: Table, dealer: Seat, penetro: &PenetroState) -> u8 {
    let all = (1u8 << table.players) - 1;
    if !table.dealer_sits_out {
        return all;
    }
    if penetro.active {
        match penetro.dropped {
            Some(s) => all & !(1 << s.0),
            None => all,
        }
    } else {
        table.active_seats(dealer)
    }
}

/// The dealer's ten cards of a penetro taken from `end` of `heap` (13 cards, top
/// first), and the heap left for the exchange (three cards, top first).
#[must_use]
pub(crate) fn take_ten(heap: &Heap, end: HeapEnd) -> ([Card; 10], Heap) {
    let c = heap.cards();
    let (taken, left) = match end {
        HeapEnd::Top => (&c[..10], &c[10..]),
        HeapEnd::Bottom => (&c[3..], &c[..3]),
    };
    let mut ten = [Card::ESPADA; 10];
    ten.copy_from_slice(taken);
    (ten, Heap::from_cards(left))
}

#[cfg(test)]
mod tests {
    use super::*;
    use DropWord::*;

    fn talk(words: &[(u8, DropWord)]) -> Option<Seat> {
        let v: Vec<DropEntry> = words.iter().map(|&(s, word)| DropEntry { seat: Seat(s), word }).collect();
        drop_out_decided(&v)
    }

    #[test]
    fn the_first_me_voy_drops_out() {
        assert_eq!(talk(&[(1, MeQuedo), (2, MeVoy)]), Some(Seat(2)));
        assert_eq!(talk(&[(1, MeVoy)]), Some(Seat(1)));
        assert_eq!(talk(&[(1, PuedoIrme), (2, PuedoQuedarme)]), None);
    }

    #[test]
    fn after_a_round_the_last_puedo_irme_else_the_last_speaker_drops_out() {
        assert_eq!(talk(&[(1, PuedoIrme), (2, PuedoIrme), (3, MeQuedo)]), Some(Seat(2)));
        assert_eq!(talk(&[(1, PuedoIrme), (2, MeQuedo), (3, PuedoQuedarme)]), Some(Seat(1)));
        assert_eq!(talk(&[(1, MeQuedo), (2, MeQuedo), (3, MeQuedo)]), Some(Seat(3)));
    }

    #[test]
    fn the_dealer_sits_out_unless_penetrating() {
        let mut p = PenetroState::default();
        let four = Table::FOUR_WITH_PENETRO;
        assert_eq!(playing_seats(Table::THREE, Seat(1), &p), 0b111);
        assert_eq!(playing_seats(four, Seat(1), &p), 0b1101);
        p.active = true;
        assert_eq!(playing_seats(four, Seat(1), &p), 0b1111);
        p.dropped = Some(Seat(3));
        assert_eq!(playing_seats(four, Seat(1), &p), 0b0111);
    }
}
