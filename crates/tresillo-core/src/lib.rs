//! The core of `tresillo`: cards and the [`CardSet`] bitboard, the rules of
//! Tresillo as tables, legal moves and the trick winner, the hand as a state machine
//! ([`Hand`]), what each player may see ([`PlayerView`]), the [`HandResult`], and the
//! card notation. No I/O, no randomness.
//!
//! ```
//! use tresillo_core::{legal_moves, parse_card, parse_hand, Suit};
//!
//! // Copas are trumps; the mala (7C) is led. The espada is never forced, so a
//! // player holding only the espada among trumps may play anything.
//! let hand = parse_hand("1E 12O 3B").unwrap();
//! let led = parse_card("7C").unwrap();
//! assert_eq!(legal_moves(hand, Some(Suit::Copas), Some(led)), hand);
//!
//! // With the basto as well, the mala forces the basto: a trump must be played.
//! let hand = parse_hand("1E 1B 12O").unwrap();
//! assert_eq!(legal_moves(hand, Some(Suit::Copas), Some(led)).to_string(), "1E 1B");
//! ```
#![deny(missing_docs)]

pub mod action;
pub mod bits;
mod card;
mod cardset;
#[cfg(feature = "serde")]
mod decision_serde;
mod game;
mod hand;
mod notation;
mod penetro;
mod play;
pub mod printable;
pub mod question;
mod result;
mod rules;
pub mod rulesets;
mod scoring;
mod spec;
mod state;
mod table;
pub mod tables;
mod view;
mod words;

pub use card::{BySeat, Card, MAX_TRICKS, Rank, Seat, Suit};
pub use cardset::{CardSet, Iter as CardSetIter, Subsets};
#[cfg(feature = "serde")]
pub use game::OutcomeError;
pub use game::{Bid, BidEntry, Contract, Outcome, PuestaKind, Word, WordEntry};
#[cfg(feature = "serde")]
pub use hand::seat_view::{PenetroRecord, PublicRecord, RecordStateError};
pub use hand::{
    Decision, DecisionKind, Hand, HandError, MAX_BIDS, MAX_PLAYS, MAX_WORDS, Phase, PublicState, QUESTIONS,
    QuestionDef, Request,
};
pub use notation::{Deal, Heap, NotationError, parse_card, parse_hand, parse_suit};
pub use penetro::{DropEntry, DropWord, HeapEnd, PenetroState, drop_out_decided, playing_seats};
pub use play::{PlayState, Undo, legal_moves, legal_moves_in, trick_winner, trick_winner_in};
pub use printable::printable;
pub use question::{Answers, Question};
pub use result::{HandResult, SurrenderRecord};
pub use rules::{
    ANTE, CODILLO_OLD, CONTRABOLA, Condiciones, DeclareError, FAVORITO, GASCARILLE, HOMBRE_CHIPS, Help,
    MAX_OPTIONS, Mechanics, Names, OpponentsOrder, OptionInfo, OptionKind, OutcomeOf, PALO_DE_FAVOR,
    PENETRO_ALL_PLAY, REDEAL_ALL_PASS, RuleOptions, RuleSet, RuleSetError, RuleSpec, Rules, RulesError,
    SHOW_HEAP, ScoringSystem, Table, register_rule_set,
};
#[cfg(feature = "rule-files")]
pub use rulesets::file::{define_rule_set, rule_spec_from_toml};
pub use scoring::*;
pub use view::PlayerView;
pub use words::{label, question};
