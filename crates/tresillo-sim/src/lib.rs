//! Simulation for `tresillo`: seeds and deals, the parallel tournament runner with
//! duplicate seatings, statistics merged as counts and sums, and parameter tuning.
//! No I/O: the CLI writes the files.
//!
//! Determinism: deal `i` of master seed `S` is `deal_for_seed(deal_seed(S, i))`; agents
//! get per-seat generators derived from the deal seed and the seating. The crate's own
//! SplitMix64 seeding, PCG stream and Lemire bounded integers mean a `rand` upgrade
//! cannot change deal N (`seeds` has a pinned regression deal). Tournament output is
//! assembled in unit order, so it is byte-identical for any thread count or shard
//! split; statistics are integer counts and sums, merged in any order, and averages are
//! computed once, at the end (no float in the merge path). Compute accounting
//! (`compute`) keeps times out of every reproducible file: the runner returns it beside
//! the statistics, and run directories write it to `compute.json`, `compute.csv` and
//! `forfeits.csv`, never to `deals.csv`, `summary.csv` or `stats.json` (the files every
//! committed experiment is checked against byte for byte); its counts (decisions by
//! kind, work, forfeits) are as deterministic as the statistics. Time budgets (`ms=`,
//! `--ms-per-decision`) are the one way a result may depend on the machine: their specs
//! say `ms=` in deals.csv and the manifest, and `tresillo calibrate` turns one into a
//! reproducible spec.
#![deny(missing_docs)]

mod analysis;
pub mod book;
pub mod compute;
mod config;
pub mod json;
pub mod league;
pub mod properties;
mod record;
mod runner;
pub mod schema;
mod seeds;
pub mod sequential;
mod stats;
pub mod student;
mod tune;

pub use analysis::{CardAnalysis, HandAnalysis, PimcCard, PimcConfig, analyze, class_name};
pub use compute::{Compute, Forfeit, Metered, SlotCompute};
pub use config::{
    ConfigError, SEATINGS, SEATINGS4, Scoring, Shard, TournamentConfig, WORK_PARAMS, simple_config,
    takes_time_budget, with_time_budget,
};
pub use record::{
    HandRecord, RECORD_FORMAT, RecordError, Step, TournamentOrigin, play_recorded, seating_rng_seed,
};
pub use runner::{
    AgentSlots, DealRow, MeteredSeat, SeatPlayer, SimError, Tournament, UnitOutput, deal_row, seating_index,
    seating_name,
};
pub use seeds::{deal_for_seed, deal_seed, shuffled_pack};
pub use stats::{
    AgentStats, Elo, Moments, OutcomeCounts, Paired, Stats, SummaryRow, elo_of_score, mean_ci95,
};
pub use tune::spsa as tune_spsa;
pub use tune::{
    Evaluation, MAX_RANGE_VALUES, Method, ParamRange, Progress, Record, SearchPlan, Space, TuneError,
    TuneResult, TuneSetup,
};

/// The README, so that `cargo test` compiles and runs its Rust example.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
