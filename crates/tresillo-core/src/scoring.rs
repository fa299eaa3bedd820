//! Scoring: the puesta system of RULES.md section 8 for the `tresillo` rule set, at
//! a table of three or four players.
//!
//! A [`Ledger`] scores one [`HandResult`] at a time and can tell at any moment every
//! bowl, the plato, the pajaritos dish, the paper and the amount in play of the next
//! hand; [`Ledger::settle`] computes the end-of-session settlement. [`Scorer`] and
//! [`score_deal`] give the two [`ScoringMode`]s of simulations. See [`Ledger`] for
//! an example and for the choices made where RULES.md is silent.

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
