//! [`SeatView`]: a seat's view serialized, the one definition of its keys and
//! values. The protocol's requests carry it as `view` (docs/PROTOCOL.md,
//! docs/protocol.schema.json) and the Python package's `view()` dicts are it
//! (docs/PYTHON.md). Everything in it comes from the seat's [`PlayerView`]
//! (RULES.md section 9) and the discard the seat is building.

use serde::ser::{Serialize, SerializeSeq, SerializeStruct, SerializeTuple, Serializer};
use tresillo_core::{Card, CardSet, Names, PlayerView};

/// A seat's view, serialized (with serde) as the object
/// `{"hand", "discards", "discarding", "dealer", "bids", "declarer", "contract",
/// "trump", "exchanged", "plays", "current_trick", "tricks", "known",
/// "current_trick_seats"}` in that order: cards in RULES.md section 13 notation
/// (`12C`), seats absolute, the contract and trumps by their names in files,
/// bids in the rule set's words, `null` for what is not known yet.
#[derive(Clone, Copy, Debug)]
pub struct SeatView<'a> {
    /// The seat's view.
    pub view: &'a PlayerView,
    /// The cards of the discard the seat is building (empty unless it is
    /// discarding card by card).
    pub discarding: CardSet,
}

impl<'a> SeatView<'a> {
    /// The view of `view`'s seat with `discarding` chosen so far.
    #[must_use]
    pub fn new(view: &'a PlayerView, discarding: CardSet) -> SeatView<'a> {
        SeatView { view, discarding }
    }
}

/// A card as its notation (`12C`), written without the formatting machinery
/// (the protocol's hot path).
struct CardText(Card);

impl Serialize for CardText {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0.rank().value();
        let mut b = [0u8; 3];
        let n = if v >= 10 {
            b[0] = b'1';
            b[1] = b'0' + v % 10;
            2
        } else {
            b[0] = b'0' + v;
            1
        };
        b[n] = self.0.suit().letter() as u8;
        s.serialize_str(std::str::from_utf8(&b[..=n]).expect("ASCII"))
    }
}

/// Cards in play order (or index order, for a set) as an array of notations.
struct Cards<I>(I);

impl<I: Iterator<Item = Card> + Clone> Serialize for Cards<I> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(None)?;
        for c in self.0.clone() {
            seq.serialize_element(&CardText(c))?;
        }
        seq.end()
    }
}

/// A list of `[seat, value]` pairs.
struct Pairs<I>(I);

impl<T: Serialize, I: Iterator<Item = (u8, T)> + Clone> Serialize for Pairs<I> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(None)?;
        for (seat, v) in self.0.clone() {
            seq.serialize_element(&Pair(seat, v))?;
        }
        seq.end()
    }
}

struct Pair<T>(u8, T);

impl<T: Serialize> Serialize for Pair<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut t = s.serialize_tuple(2)?;
        t.serialize_element(&self.0)?;
        t.serialize_element(&self.1)?;
        t.end()
    }
}

/// Numbers (or `null`s) as an array.
struct Numbers<I>(I);

impl<I: Iterator<Item = Option<u8>> + Clone> Serialize for Numbers<I> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(None)?;
        for x in self.0.clone() {
            seq.serialize_element(&x)?;
        }
        seq.end()
    }
}

impl Serialize for SeatView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let view = self.view;
        let p = view.public();
        let names = Names::of(p.rules);
        let n = usize::from(p.players);
        let mut o = s.serialize_struct("SeatView", 14)?;
        o.serialize_field("hand", &Cards(view.hand().iter()))?;
        o.serialize_field("discards", &Cards(view.discards().iter()))?;
        o.serialize_field("discarding", &Cards(self.discarding.iter()))?;
        o.serialize_field("dealer", &p.dealer.0)?;
        o.serialize_field("bids", &Pairs(p.bids().iter().map(|b| (b.seat.0, names.bid(b.bid, false)))))?;
        o.serialize_field("declarer", &p.declarer.map(|s| s.0))?;
        o.serialize_field("contract", &p.contract.map(|c| c.name()))?;
        o.serialize_field("trump", &p.trump.map(|t| t.name()))?;
        o.serialize_field("exchanged", &Numbers(p.exchanged.0[..n].iter().copied()))?;
        let plays = p.plays().iter().enumerate().map(|(i, &c)| (p.play_seat(i).0, CardText(c)));
        o.serialize_field("plays", &Pairs(plays))?;
        o.serialize_field("current_trick", &Cards(p.current_trick().iter().copied()))?;
        o.serialize_field("tricks", &Numbers(p.tricks.0[..n].iter().map(|&t| Some(t))))?;
        o.serialize_field("known", &Cards(view.known_cards().iter()))?;
        // The seat of each card of the trick in progress, in play order (added last).
        let (all, on_table) = (p.plays().len(), p.current_trick().len());
        o.serialize_field(
            "current_trick_seats",
            &Numbers((all - on_table..all).map(|i| Some(p.play_seat(i).0))),
        )?;
        o.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tresillo_core::{Hand, Rules, Seat};

    /// A card is written as its `Display` writes it, without the formatting
    /// machinery.
    #[test]
    fn cards_are_written_in_their_notation() {
        for c in CardSet::FULL.iter() {
            assert_eq!(serde_json::to_string(&CardText(c)).unwrap(), format!("\"{c}\""));
        }
    }

    /// The keys, in the order of docs/PROTOCOL.md (the `view` of a request).
    #[test]
    fn the_keys_are_the_protocols_in_order() {
        let deal = tresillo_agents::deal_for_seed(4);
        let hand = Hand::with_rules(Rules::default(), 3, deal, Seat(0)).unwrap();
        let view = hand.view(Seat(1));
        let json = serde_json::to_string(&SeatView::new(&view, CardSet::EMPTY)).unwrap();
        let keys = [
            "hand",
            "discards",
            "discarding",
            "dealer",
            "bids",
            "declarer",
            "contract",
            "trump",
            "exchanged",
            "plays",
            "current_trick",
            "tricks",
            "known",
            "current_trick_seats",
        ];
        let mut at = 0;
        for k in keys {
            let i = json[at..].find(&format!("\"{k}\":")).unwrap_or_else(|| panic!("{k} in {json}")) + at;
            at = i + 1;
        }
        assert!(json.starts_with("{\"hand\":[\""), "{json}");
        assert!(json.contains("\"declarer\":null,\"contract\":null,\"trump\":null"), "{json}");
    }
}
