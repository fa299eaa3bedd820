//! Scoring: the puesta system of RULES.md section 8 for the `tresillo` rule set, at
//! a table of three or four players.
//!
//! A [`Ledger`] scores one [`HandResult`] at a time and can tell at any moment every
//! bowl, the plato, the pajaritos dish, the paper and the amount in play of the next
//! hand; [`Ledger::settle`] computes the end-of-session settlement. [`Scorer`] and
//! [`score_deal`] give the two [`ScoringMode`]s of simulations. See [`Ledger`] for
//! an example and for the choices made where RULES.md is silent.
//!
//! The ledgers by scoring system: this module's puesta `Ledger` (section 8; `Scorer`
//! keeps a deal or a session with the rule set's ledger, `validate` checks a score
//! log), `scoring/points.rs` `PointsLedger` (`hombre`'s points and pot, section 12.3),
//! `scoring/chips.rs` `ChipsLedger` (`hombre-chips`), `scoring/lhombre.rs` the
//! per-defender payments of section 12.4 (no plato), and `scoring/common.rs` what they
//! share (configuration, scores, errors, helpers).

mod chips;
mod common;
mod ledger;
mod lhombre;
mod points;
mod validate;

pub use chips::{ChipsLedger, chips_contract};
pub use ledger::{Ledger, Scorer, score_deal};
pub use points::{PointsLedger, estuches, hombre_base};
// What the ledgers share: their configuration, scores, errors and helpers.
pub use common::*;
