//! [`HandResult`]: everything scoring and statistics need to know about a finished
//! hand.
//!
//! It serializes (serde) behind the `serde` feature.

use crate::card::{BySeat, Card, Seat, Suit};
use crate::cardset::CardSet;
use crate::game::{BidEntry, WordEntry};
use crate::game::{Contract, Outcome};
use crate::rules::{RuleOptions, Rules};
use crate::spec::RuleSet;
use crate::table::Table;

/// A surrender (section 6): who gave up and who took over, if anyone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct SurrenderRecord {
    /// The declarer who gave up.
    pub by: Seat,
    /// The opponent who said *yo sigo*, if any.
    pub took_over: Option<Seat>,
}

/// The record of a finished hand.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct HandResult {
    /// The rule set.
    pub rules: RuleSet,
    /// The rule set's options (absent from JSON when all are at their defaults).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "RuleOptions::is_default"))]
    pub options: RuleOptions,
    /// Seats at the table (3 or 4).
    pub players: u8,
    /// The dealer.
    pub dealer: Seat,
    /// The auction, in order.
    pub bids: Vec<BidEntry>,
    /// The declarer who won the auction (or was forced); `None` when cancelled.
    pub declarer: Option<Seat>,
    /// The contract.
    pub contract: Option<Contract>,
    /// Trumps.
    pub trump: Option<Suit>,
    /// The turned vuelta card.
    #[cfg_attr(feature = "serde", serde(default))]
    pub turned: Option<Card>,
    /// Everyone passed and the declarer had to play: espada forzada (`tresillo`),
    /// or the forced entrada of `tresillo-house`.
    #[cfg_attr(feature = "serde", serde(default))]
    pub forced: bool,
    /// A four-player penetro by the dealer (section 12.2).
    #[cfg_attr(feature = "serde", serde(default))]
    pub penetro: bool,
    /// The player who dropped out of a penetro (none under `penetro_all_play`).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub dropped_out: Option<Seat>,
    /// Cards exchanged per seat.
    #[cfg_attr(feature = "serde", serde(default))]
    pub exchanged: BySeat<u8>,
    /// The first-opponent conversation.
    #[cfg_attr(feature = "serde", serde(default))]
    pub conversation: Vec<WordEntry>,
    /// The first opponent.
    #[cfg_attr(feature = "serde", serde(default))]
    pub first_opponent: Option<Seat>,
    /// Tricks won per seat.
    pub tricks: BySeat<u8>,
    /// The winner of each trick played.
    #[cfg_attr(feature = "serde", serde(default))]
    pub trick_winners: Vec<Seat>,
    /// The outcome for the final declarer (after a takeover, the new one).
    pub outcome: Outcome,
    /// The original declarer held espada, mala and basto when play began.
    #[cfg_attr(feature = "serde", serde(default))]
    pub estuche: bool,
    /// The final declarer held espada, mala and basto when play began.
    #[cfg_attr(feature = "serde", serde(default))]
    pub final_estuche: bool,
    /// The original declarer held none of espada, mala and basto when play began
    /// (the contra-estuche of `tresillo-house`, section 12.1).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "std::ops::Not::not"))]
    pub contra_estuche: bool,
    /// The final declarer held none of espada, mala and basto when play began.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "std::ops::Not::not"))]
    pub final_contra_estuche: bool,
    /// The declarer won the first five tricks and stopped.
    #[cfg_attr(feature = "serde", serde(default))]
    pub primeras: bool,
    /// The declarer won the first five tricks and played on for all nine.
    #[cfg_attr(feature = "serde", serde(default))]
    pub bola_attempted: bool,
    /// ... and won all nine.
    #[cfg_attr(feature = "serde", serde(default))]
    pub bola_made: bool,
    /// A surrender, with the takeover if any.
    #[cfg_attr(feature = "serde", serde(default))]
    pub surrender: Option<SurrenderRecord>,
    /// The deal (absent in results typed in from a real table); in notation in JSON.
    #[cfg_attr(feature = "serde", serde(default))]
    pub deal: Option<crate::notation::Deal>,
    /// Every hand when play began (after the exchange), for analysis.
    #[cfg_attr(feature = "serde", serde(default, with = "hands_serde"))]
    pub hands_at_play: Option<BySeat<CardSet>>,
    /// `hombre` option `gascarille`: the forced declarer was made to play a
    /// gascarille (section 12.3).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "std::ops::Not::not"))]
    pub gascarille: bool,
    /// `hombre`: the declarer declared the vole before the first trick (then
    /// `bola_attempted` is set too).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "std::ops::Not::not"))]
    pub vole_declared: bool,
}

impl HandResult {
    /// The declarer at the end: the one who took over, else the original one.
    #[must_use]
    pub fn final_declarer(&self) -> Option<Seat> {
        self.surrender.and_then(|s| s.took_over).or(self.declarer)
    }

    /// Whether the hand was cancelled.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        matches!(self.outcome, Outcome::Cancelled)
    }

    /// The rule set with its options.
    #[must_use]
    pub fn game_rules(&self) -> Rules {
        Rules { set: self.rules, options: self.options }
    }

    /// The table the hand was played at ([`Rules::table`]).
    #[must_use]
    pub fn table(&self) -> Table {
        self.rules.table(self.players)
    }

    /// The contract's bid level (without a favoured suit).
    #[must_use]
    pub fn level(&self) -> Option<u8> {
        self.contract.map(Contract::level)
    }
}

#[cfg(feature = "serde")]
mod hands_serde {
    use super::*;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(v: &Option<BySeat<CardSet>>, s: S) -> Result<S::Ok, S::Error> {
        v.map(|h| h.0.map(|c| c.to_string())).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<BySeat<CardSet>>, D::Error> {
        let v: Option<Vec<String>> = Option::deserialize(d)?;
        let Some(v) = v else { return Ok(None) };
        if v.len() > 4 {
            return Err(serde::de::Error::custom("at most four hands"));
        }
        let mut out = BySeat::default();
        for (i, s) in v.iter().enumerate() {
            out.0[i] = crate::notation::parse_hand(s).map_err(serde::de::Error::custom)?;
        }
        Ok(Some(out))
    }
}

#[cfg(feature = "serde")]
mod card_serde {
    use crate::card::Card;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    impl Serialize for Card {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_str(self)
        }
    }

    impl<'de> Deserialize<'de> for Card {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
            let s = String::deserialize(d)?;
            crate::notation::parse_card(&s).map_err(serde::de::Error::custom)
        }
    }

    impl Serialize for crate::notation::Deal {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_str(self)
        }
    }

    impl<'de> Deserialize<'de> for crate::notation::Deal {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<crate::notation::Deal, D::Error> {
            let s = String::deserialize(d)?;
            crate::notation::Deal::parse_partial(&s).map_err(serde::de::Error::custom)
        }
    }

    impl Serialize for crate::cardset::CardSet {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_str(self)
        }
    }

    impl<'de> Deserialize<'de> for crate::cardset::CardSet {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<crate::cardset::CardSet, D::Error> {
            let s = String::deserialize(d)?;
            crate::notation::parse_hand(&s).map_err(serde::de::Error::custom)
        }
    }
}
