//! `tresillo tournament` and `tresillo merge`: their arguments, turned into a
//! [`TournamentConfig`] and [`RunOptions`] for the run-directory library
//! ([`tresillo_runs`]), which writes the files.
//!
//! Notes go to stderr; the manifest gets this build; `--ms-per-decision` sets
//! `TournamentConfig::with_time_budget`.

use anyhow::Result;
use std::path::PathBuf;
use tresillo_runs::{Format, RunOptions};
pub use tresillo_runs::{Manifest, check_deals_size, file_in_the_way, lock_file};
use tresillo_sim::TournamentConfig;

/// Arguments of `tresillo tournament`.
#[derive(clap::Args, Clone)]
pub struct TournamentArgs {
    /// Agent specs, comma-separated, one per agent slot (three; four with
    /// `--players 4`; see `tresillo agents`).
    #[arg(long, default_value = "rule,rule,random")]
    pub agents: String,
    /// Deals to play (the whole run, all shards).
    #[arg(long, default_value_t = 100_000, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    pub deals: u64,
    /// The master seed: deal i is a pure function of (seed, i).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    pub seed: u64,
    /// The output directory.
    #[arg(long, default_value = "out/tournament")]
    pub out: PathBuf,
    /// Worker threads (default: all cores). The output does not depend on it.
    #[arg(long, allow_negative_numbers = true, value_parser = crate::args::threads)]
    pub threads: Option<usize>,
    /// Play every deal under all six seatings of the three agents (all 24 of four).
    #[arg(long)]
    pub duplicate: bool,
    /// `deal` (a fresh ledger per hand) or `session:K` (K consecutive deals per ledger).
    #[arg(long, default_value = "deal")]
    pub scoring: String,
    /// The rule set and its options.
    #[command(flatten)]
    pub rules: crate::rules::RulesArgs,
    /// Play only shard K of N (`K/N`); merge the shards with `tresillo merge`.
    #[arg(long)]
    pub shard: Option<String>,
    /// Continue the interrupted run in the output directory.
    #[arg(long)]
    pub resume: bool,
    /// Overwrite a run already in the output directory.
    #[arg(long)]
    pub force: bool,
    /// An agent spec that makes every seat's auction, contract/trump, exchange and
    /// conversation decisions, so the seated agents differ only in card play,
    /// surrender, takeover and bola (for example `--bidding rule`).
    #[arg(long)]
    pub bidding: Option<String>,
    /// With `--bidding`: `all` gives the bidding agent every decision but card
    /// play (surrender, takeover and bola too), so the seated agents decide card
    /// play alone; `bidding` (the default) gives it the bidding phase only.
    #[arg(long, value_name = "bidding|all")]
    pub bidding_covers: Option<tresillo_agents::BiddingCovers>,
    /// Also write every hand played to FILE as JSON Lines (docs/RECORDS.md), in
    /// deal order then seating order, like deals.csv.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Equal time: give every search agent (pimc, ismcts: those taking `ms=`)
    /// the same budget of MS milliseconds per decision instead of a fixed
    /// amount of work; rule and random are left alone. Not reproducible (for a
    /// reproducible equal-compute run, see `tresillo calibrate`).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u32).range(1..=3_600_000))]
    pub ms_per_decision: Option<u32>,
    /// Which files hold the rows: `csv` (deals.csv), `parquet` (deals.parquet:
    /// typed, compressed, for pandas, polars, DuckDB, R, Spark) or `both`.
    #[arg(long, default_value = "csv", value_name = "csv|parquet|both")]
    pub format: Format,
    /// Play the deals of a deal book instead of the seed's: FILE holds one deal
    /// a line, a deal seed or a dealt hand in RULES.md notation (`h0 / h1 / h2 /
    /// heap`), so two runs compare on exactly the same deals; `--deals` is
    /// then the book's length. A run's deals.csv `deal_seed` column is a book.
    #[arg(long, value_name = "FILE", conflicts_with = "deals")]
    pub deals_from: Option<PathBuf>,
    /// No progress on standard error (neither the bar on a terminal nor, when
    /// standard error is a file or a pipe, the progress line every 30 seconds;
    /// TRESILLO_PROGRESS_EVERY=SECS sets that interval).
    #[arg(long)]
    pub quiet: bool,
}

impl TournamentArgs {
    /// The tournament configuration these arguments describe.
    pub fn config(&self) -> Result<TournamentConfig> {
        tresillo_runs::check_resume_force(self.resume, self.force)?;
        let args = tresillo_runs::TournamentArgs {
            agents: tresillo_agents::split_specs(&self.agents)?,
            players: self.rules.players()?,
            deals: match &self.book()? {
                Some(b) => b.len(),
                None => self.deals,
            },
            seed: self.seed,
            rules: self.rules.parse()?,
            scoring: &self.scoring,
            duplicate: self.duplicate,
            shard: self.shard.as_deref(),
            bidding: self.bidding.as_deref(),
            bidding_covers: self.bidding_covers.unwrap_or_default(),
            ms_per_decision: self.ms_per_decision,
        };
        Ok(tresillo_runs::tournament_config(args, &crate::registry())?)
    }

    /// The deal book of `--deals-from`, read (one-line errors naming the file,
    /// line and token).
    pub fn book(&self) -> Result<Option<tresillo_sim::book::DealBook>> {
        Ok(self.deals_from.as_deref().map(tresillo_runs::read_book).transpose()?)
    }

    /// How the run is written: these arguments, this build, progress on
    /// standard error (unless `--quiet`), notes on standard error; the bots of
    /// `config` greeted for its rules.
    pub fn options(&self, config: &TournamentConfig) -> RunOptions<'static> {
        RunOptions {
            out: self.out.clone(),
            threads: self.threads,
            resume: self.resume,
            force: self.force,
            record: self.record.clone(),
            progress: !self.quiet,
            build: Some(crate::provenance::current()),
            registry: crate::registry(),
            note: &|line| note!("{line}"),
            format: self.format,
            bots: crate::bot_identities(&self.agents, self.bidding.as_deref(), config.rules, config.players),
        }
    }
}

/// Runs `tresillo tournament`; returns the printed summary table.
pub fn run(a: &TournamentArgs, command_line: Vec<String>) -> Result<String> {
    let config = a.config()?;
    note_time_budgets(&config);
    Ok(tresillo_runs::run_book(&config, &a.options(&config), a.book()?.as_ref(), command_line)?)
}

/// Says, on standard error, that agents with a time budget make a run that
/// does not reproduce (their specs, in the manifest, say so too).
fn note_time_budgets(config: &TournamentConfig) {
    if let Some(line) = config.time_budget_note(&crate::registry()) {
        note!("{line}");
    }
}

/// Runs the tournament of an experiment (`tresillo run`): see
/// [`tresillo_runs::run_experiment`].
pub fn run_experiment(a: &TournamentArgs, command_line: Vec<String>) -> Result<String> {
    let config = a.config()?;
    note_time_budgets(&config);
    Ok(tresillo_runs::run_experiment(&config, &a.options(&config), command_line)?)
}

/// Arguments of `tresillo merge`.
#[derive(clap::Args)]
pub struct MergeArgs {
    /// The output directory for the merged run.
    pub out: PathBuf,
    /// The shard directories, in any order.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Overwrite a run already in the output directory.
    #[arg(long)]
    pub force: bool,
    /// Which files of rows to write: `csv`, `parquet` or `both` (default: the
    /// shards' format); every shard must hold them.
    #[arg(long, value_name = "csv|parquet|both")]
    pub format: Option<Format>,
}

/// Runs `tresillo merge`; returns the printed summary table.
pub fn merge(a: &MergeArgs, command_line: Vec<String>) -> Result<String> {
    Ok(tresillo_runs::merge(
        &a.out,
        &a.dirs,
        a.force,
        Some(crate::provenance::current()),
        command_line,
        a.format,
    )?)
}
