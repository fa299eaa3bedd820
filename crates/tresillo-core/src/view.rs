//! [`PlayerView`]: what one seat may know (RULES.md section 9).

use crate::card::{Seat, Suit};
use crate::cardset::CardSet;
use crate::state::{Decision, PublicState, Request};

/// One seat's view of a hand: the public state, the seat's own hand and own
/// discards, and the decision asked of it (if it is this seat's turn).
///
/// The inferences of RULES.md section 10 (voids, no forced trump) are drawn from
/// the public play history by `tresillo_agents::Inference`.
///
/// It has no field that could hold another player's cards, another player's
/// discards or the heap: the only card sets in it are the seat's own, and the
/// public state holds only cards made public (played cards, the turned vuelta card,
/// a heap shown under `show_heap`).
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

    /// Every legal answer to [`PlayerView::request`] under the hand's rule set and
    /// options (see [`Request::legal_decisions_in`]).
    #[must_use]
    pub fn legal_decisions(&self) -> Vec<Decision> {
        self.request.legal_decisions_in(&self.public.game_rules(), self.hand)
    }

    /// Trumps, once known.
    #[must_use]
    pub fn trump(&self) -> Option<Suit> {
        self.public.trump
    }

    /// Every card this seat has seen: its hand, its discards, every card played, the
    /// turned vuelta (tourné) card, the heap turned face up under `hombre`'s
    /// `show_heap`, and a hand laid face up in nolo ouvert.
    #[must_use]
    pub fn known_cards(&self) -> CardSet {
        let mut k = self.hand | self.discards | self.public.played() | self.public.shown_heap;
        if let Some(t) = self.public.turned {
            k.insert(t);
        }
        if let Some(e) = self.public.exposed {
            k |= e;
        }
        k
    }

    /// Nolo ouvert: the cards the declarer still holds of the hand laid face up
    /// (`None` before it is laid down, and in every other contract).
    #[must_use]
    pub fn exposed_hand(&self) -> Option<CardSet> {
        self.public.exposed.map(|e| e - self.public.played())
    }

    /// The cards this seat cannot see (in other hands, others' discards, the heap).
    #[must_use]
    pub fn unseen_cards(&self) -> CardSet {
        self.known_cards().complement()
    }
}
