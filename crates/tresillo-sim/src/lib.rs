//! Simulation for `tresillo`: seeds and deals. (Tournaments, duplicate deals,
//! records and statistics build on these.)
#![deny(missing_docs)]

mod seeds;

pub use seeds::{deal_for_seed, deal_seed, shuffled_pack};
