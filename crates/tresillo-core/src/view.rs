//! [`PlayerView`]: what one seat may know (RULES.md section 9).

use crate::card::{Card, Seat, Suit};
use crate::cardset::CardSet;
use crate::hand::{PublicState, Request};
use crate::tables::table;

/// One seat's view of a hand: the public state, the seat's own hand and own
/// discards, and the decision asked of it (if it is this seat's turn).
///
/// It has no field that could hold another player's cards, another player's
/// discards or the heap: the only card sets in it are the seat's own, and the
/// public state holds only cards made public (played cards, the turned vuelta card).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlayerView {
    seat: Seat,
    hand: CardSet,
    discards: CardSet,
    public: PublicState,
    request: Request,
}

impl PlayerView {
    pub(crate) fn new(
        seat: Seat,
        hand: CardSet,
        discards: CardSet,
        public: PublicState,
        request: Request,
    ) -> Self {
        PlayerView { seat, hand, discards, public, request }
    }

    /// The seat whose view this is.
    #[must_use]
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The seat's own cards.
    #[must_use]
    pub fn hand(&self) -> CardSet {
        self.hand
    }

    /// The seat's own discards.
    #[must_use]
    pub fn discards(&self) -> CardSet {
        self.discards
    }

    /// Everything public.
    #[must_use]
    pub fn public(&self) -> &PublicState {
        &self.public
    }

    /// The decision asked of this seat ([`Request::Done`] when it is not its turn).
    #[must_use]
    pub fn request(&self) -> Request {
        self.request
    }

    /// Trumps, once known.
    #[must_use]
    pub fn trump(&self) -> Option<Suit> {
        self.public.trump
    }

    /// Every card this seat has seen: its hand, its discards, every card played, and
    /// the turned vuelta card.
    #[must_use]
    pub fn known_cards(&self) -> CardSet {
        let mut k = self.hand | self.discards | self.public.played();
        if let Some(t) = self.public.turned {
            k.insert(t);
        }
        k
    }

    /// The cards this seat cannot see (in other hands, others' discards, the heap).
    #[must_use]
    pub fn unseen_cards(&self) -> CardSet {
        self.known_cards().complement()
    }

    /// The suits each seat is known to hold no card of (section 10), derived from the
    /// play: a player who did not follow a plain suit holds none of it. Bit `i` of
    /// entry `s` is suit `i`; bit 4 means "holds no trump that can be forced by the
    /// current rules", which is recorded per estuche state in
    /// [`PlayerView::no_forced_trump`].
    #[must_use]
    pub fn void_suits(&self) -> [u8; 4] {
        let mut voids = [0u8; 4];
        let Some(tr) = self.public.trump.or(None) else { return voids };
        let t = table(Some(tr));
        for (i, (seat, c)) in self.public.plays_with_seats().into_iter().enumerate() {
            if i % 3 == 0 {
                continue;
            }
            let led = self.public.plays()[i - i % 3];
            let ls = t.eff_suit[led.bit() as usize];
            if ls != crate::tables::TRUMP_SUIT && t.eff_suit[c.bit() as usize] != ls {
                voids[seat.index()] |= 1 << ls;
            }
        }
        voids
    }

    /// For each seat, the union of trump sets it is known not to hold any card of:
    /// a player who did not play a trump to a trump lead held none of the trumps that
    /// lead could force (section 10), though it may still hold estuche cards.
    #[must_use]
    pub fn no_forced_trump(&self) -> [CardSet; 4] {
        let mut out = [CardSet::EMPTY; 4];
        let Some(tr) = self.public.trump else { return out };
        let t = table(Some(tr));
        for (i, (seat, c)) in self.public.plays_with_seats().into_iter().enumerate() {
            if i % 3 == 0 {
                continue;
            }
            let led: Card = self.public.plays()[i - i % 3];
            if t.trumps.contains(led) && !t.trumps.contains(c) {
                out[seat.index()] |= t.force[led.bit() as usize];
            }
        }
        out
    }
}
