//! One seat's view rebuilt from what crosses a process boundary: the public
//! state ([`PublicRecord`], under the `serde` feature) and the seat's own cards
//! ([`PlayerView::from_public`]). A program that plays a seat for another
//! process (`tresillo bot`, docs/PROTOCOL.md) is told no more than this, so the
//! view it rebuilds holds no card the seat may not see: nothing here takes
//! another seat's hand, discards or the heap.

use super::{Hand, Hidden};
use crate::card::{BySeat, Seat};
use crate::cardset::CardSet;
use crate::notation::{Deal, Heap};
use crate::state::{PublicState, Request};
use crate::view::PlayerView;

impl PlayerView {
    /// The view of `seat` holding `hand` with its own `discards`, in the hand
    /// whose public state is `public`: the decision asked of it is worked out
    /// as the table works it out (the same [`Request`], its legal cards from
    /// `hand`), [`Request::Done`] when it is not the seat's turn. Equal to the
    /// table's own view of that seat when given the table's public state and
    /// the seat's cards (tested over every rule set and table).
    #[must_use]
    pub fn from_public(seat: Seat, hand: CardSet, discards: CardSet, public: PublicState) -> PlayerView {
        let mut hands = BySeat::<CardSet>::default();
        let mut own_discards = BySeat::<CardSet>::default();
        hands[seat] = hand;
        own_discards[seat] = discards;
        // Only this seat's cards: the other hands, discards and the heap are empty.
        let hidden = Hidden {
            hands,
            discards: own_discards,
            heap: Heap::EMPTY,
            heap_pos: 0,
            deal: Deal { hands: BySeat::default(), heap: Heap::EMPTY },
            hands_at_play: BySeat::default(),
        };
        let view = Hand { public, hidden }.view(seat);
        debug_assert!(view.request() == Request::Done || view.request().seat() == Some(seat));
        view
    }
}

#[cfg(feature = "serde")]
pub use record::{PenetroRecord, PublicRecord, RecordStateError};

#[cfg(feature = "serde")]
mod record {
    use crate::card::{BySeat, Card, MAX_TRICKS, Seat, Suit};
    use crate::cardset::CardSet;
    use crate::game::{BidEntry, Contract, WordEntry};
    use crate::penetro::{DropEntry, HeapEnd, PenetroState};
    use crate::question::Answers;
    use crate::rules::Rules;
    use crate::state::{MAX_BIDS, MAX_PLAYS, MAX_WORDS, Phase, PublicState};

    /// Why a [`PublicRecord`] cannot be a hand's state ([`PublicState::from_record`]).
    #[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
    pub enum RecordStateError {
        /// A table size the rule set is not played at.
        #[error(transparent)]
        Rules(#[from] crate::rules::RulesError),
        /// A seat not at the table.
        #[error("seat {seat} is not at a table of {players}")]
        Seat {
            /// The seat.
            seat: u8,
            /// The players at the table.
            players: u8,
        },
        /// A list longer than a hand's (`what`: bids, words, plays, ...).
        #[error("{n} {what}, at most {most}")]
        TooMany {
            /// The list.
            what: &'static str,
            /// Its length.
            n: usize,
            /// The most a hand holds.
            most: usize,
        },
        /// Leaders or winners not one for each trick.
        #[error("leaders and winners must hold {0} seats each")]
        Tricks(usize),
    }

    /// A hand's [`PublicState`] as a serializable record, every field by name
    /// (the rule set, its options, the table and the dealer are not in it: the
    /// reader knows them). Built by [`PublicState::record`], read back by
    /// [`PublicState::from_record`]; the round trip gives the same state.
    #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(missing_docs)]
    pub struct PublicRecord {
        pub phase: Phase,
        pub bids: Vec<BidEntry>,
        pub passed: u8,
        pub standing: Option<(u8, Seat)>,
        pub to_speak: Seat,
        pub declarer: Option<Seat>,
        pub original_declarer: Option<Seat>,
        pub level: u8,
        pub contract: Option<Contract>,
        pub trump: Option<Suit>,
        pub forced: bool,
        pub turned: Option<Card>,
        pub exchanged: BySeat<Option<u8>>,
        pub heap_left: u8,
        pub words: Vec<WordEntry>,
        pub first_opponent: Option<Seat>,
        pub plays: Vec<Card>,
        pub leaders: Vec<Seat>,
        pub winners: Vec<Seat>,
        pub tricks: BySeat<u8>,
        pub tricks_done: u8,
        pub surrendered: Option<bool>,
        pub took_over: Option<Seat>,
        pub declined: u8,
        pub exposed: Option<CardSet>,
        pub bola: Option<bool>,
        pub gascarille: bool,
        pub gascarille_declined: u8,
        pub exchange_first: Option<bool>,
        pub shown_heap: CardSet,
        pub accepted: u8,
        pub refused: Option<Seat>,
        pub vole_declared: Option<bool>,
        /// The latest answer to each yes/no question (two bits a question).
        #[serde(default)]
        pub answers: Answers,
        pub penetro: PenetroRecord,
    }

    /// A [`PenetroState`] as a record.
    #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(missing_docs)]
    pub struct PenetroRecord {
        pub active: bool,
        pub heap_end: Option<HeapEnd>,
        pub words: Vec<DropEntry>,
        pub dropped: Option<Seat>,
    }

    impl PublicState {
        /// This state as a record (see [`PublicRecord`]).
        #[must_use]
        pub fn record(&self) -> PublicRecord {
            let p = self;
            PublicRecord {
                phase: p.phase,
                bids: p.bids().to_vec(),
                passed: p.passed,
                standing: p.standing,
                to_speak: p.to_speak,
                declarer: p.declarer,
                original_declarer: p.original_declarer,
                level: p.level,
                contract: p.contract,
                trump: p.trump,
                forced: p.forced,
                turned: p.turned,
                exchanged: p.exchanged,
                heap_left: p.heap_left,
                words: p.words().to_vec(),
                first_opponent: p.first_opponent,
                plays: p.plays().to_vec(),
                leaders: p.leaders.to_vec(),
                winners: p.winners.to_vec(),
                tricks: p.tricks,
                tricks_done: p.tricks_done,
                surrendered: p.surrendered,
                took_over: p.took_over,
                declined: p.declined,
                exposed: p.exposed,
                bola: p.bola,
                gascarille: p.gascarille,
                gascarille_declined: p.gascarille_declined,
                exchange_first: p.exchange_first,
                shown_heap: p.shown_heap,
                accepted: p.accepted,
                refused: p.refused,
                vole_declared: p.vole_declared,
                answers: p.answers,
                penetro: PenetroRecord {
                    active: p.penetro.active,
                    heap_end: p.penetro.heap_end,
                    words: p.penetro.words().to_vec(),
                    dropped: p.penetro.dropped,
                },
            }
        }

        /// The state `r` records, in a hand of `rules` at a table of `players`
        /// dealt by `dealer`; a record that cannot be one (too many bids,
        /// plays or tricks, a seat not at the table) is refused in one line.
        pub fn from_record(
            rules: Rules,
            players: u8,
            dealer: Seat,
            r: &PublicRecord,
        ) -> Result<PublicState, RecordStateError> {
            rules.check_players(players)?;
            let seat_ok = |s: Seat| s.0 < players;
            let seats = [Some(dealer), Some(r.to_speak), r.declarer, r.original_declarer, r.first_opponent]
                .into_iter()
                .chain([r.took_over, r.refused, r.standing.map(|(_, s)| s), r.penetro.dropped])
                .flatten()
                .chain(r.bids.iter().map(|b| b.seat))
                .chain(r.words.iter().map(|w| w.seat))
                .chain(r.penetro.words.iter().map(|w| w.seat))
                .chain(r.leaders.iter().copied())
                .chain(r.winners.iter().copied());
            for s in seats {
                if !seat_ok(s) {
                    return Err(RecordStateError::Seat { seat: s.0, players });
                }
            }
            let too_long = |what: &'static str, n: usize, most: usize| {
                if n > most { Err(RecordStateError::TooMany { what, n, most }) } else { Ok(()) }
            };
            too_long("bids", r.bids.len(), MAX_BIDS)?;
            too_long("words", r.words.len(), MAX_WORDS)?;
            too_long("plays", r.plays.len(), MAX_PLAYS)?;
            too_long("drop-out words", r.penetro.words.len(), 3)?;
            let tricks = usize::from(MAX_TRICKS);
            if r.leaders.len() != tricks || r.winners.len() != tricks {
                return Err(RecordStateError::Tricks(tricks));
            }
            let mut bids = [BidEntry { seat: Seat(0), bid: crate::game::Bid::Paso }; MAX_BIDS];
            bids[..r.bids.len()].copy_from_slice(&r.bids);
            let mut words = [WordEntry { seat: Seat(0), word: crate::game::Word::Van }; MAX_WORDS];
            words[..r.words.len()].copy_from_slice(&r.words);
            let mut plays = [Card::ESPADA; MAX_PLAYS];
            plays[..r.plays.len()].copy_from_slice(&r.plays);
            let mut leaders = [Seat(0); MAX_TRICKS as usize];
            leaders.copy_from_slice(&r.leaders);
            let mut winners = [Seat(0); MAX_TRICKS as usize];
            winners.copy_from_slice(&r.winners);
            let mut penetro = PenetroState::default();
            penetro.active = r.penetro.active;
            penetro.heap_end = r.penetro.heap_end;
            for w in &r.penetro.words {
                penetro.say(w.seat, w.word);
            }
            penetro.dropped = r.penetro.dropped;
            Ok(PublicState {
                rules: rules.set,
                options: rules.options,
                players,
                table: rules.table(players),
                dealer,
                phase: r.phase,
                bids,
                num_bids: r.bids.len() as u8,
                passed: r.passed,
                standing: r.standing,
                to_speak: r.to_speak,
                declarer: r.declarer,
                original_declarer: r.original_declarer,
                level: r.level,
                contract: r.contract,
                trump: r.trump,
                forced: r.forced,
                turned: r.turned,
                exchanged: r.exchanged,
                heap_left: r.heap_left,
                words,
                num_words: r.words.len() as u8,
                first_opponent: r.first_opponent,
                plays,
                num_plays: r.plays.len() as u8,
                leaders,
                winners,
                tricks: r.tricks,
                tricks_done: r.tricks_done,
                surrendered: r.surrendered,
                took_over: r.took_over,
                declined: r.declined,
                exposed: r.exposed,
                bola: r.bola,
                gascarille: r.gascarille,
                gascarille_declined: r.gascarille_declined,
                exchange_first: r.exchange_first,
                shown_heap: r.shown_heap,
                accepted: r.accepted,
                refused: r.refused,
                vole_declared: r.vole_declared,
                answers: r.answers,
                penetro,
            })
        }
    }
}
