//! `tresillo league`: many agents ranked from a balanced schedule of duplicate
//! tables, written by [`tresillo_runs::league`].

use anyhow::{Result, bail};
use std::path::PathBuf;
use tresillo_runs::RunOptions;
use tresillo_sim::{Scoring, Shard, TournamentConfig};

/// Arguments of `tresillo league`.
#[derive(clap::Args, Clone)]
pub struct LeagueArgs {
    /// Agent specs, comma-separated: the league's agents (at least three; four
    /// with `--players 4`). Every set of three (four) is a table.
    #[arg(long)]
    pub agents: String,
    /// Deals per table, each under every seating.
    #[arg(long, default_value_t = 1_000, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    pub deals: u64,
    /// The master seed: every table plays the same deals.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    pub seed: u64,
    /// The league directory.
    #[arg(long, default_value = "out/league")]
    pub out: PathBuf,
    /// Worker threads (default: all cores). The output does not depend on it.
    #[arg(long, allow_negative_numbers = true, value_parser = crate::args::threads)]
    pub threads: Option<usize>,
    /// The rule set and its options.
    #[command(flatten)]
    pub rules: crate::rules::RulesArgs,
    /// Play only every N-th table from the K-th (`K/N`), into the same directory.
    #[arg(long)]
    pub shard: Option<String>,
    /// Continue an interrupted league (and write its ratings once every table is complete).
    #[arg(long)]
    pub resume: bool,
    /// Overwrite a league already in the output directory.
    #[arg(long)]
    pub force: bool,
    /// An agent spec that makes every seat's auction, contract/trump, exchange and
    /// conversation decisions (card play alone is compared, as in `tournament`).
    #[arg(long)]
    pub bidding: Option<String>,
    /// With `--bidding`: `all` gives the bidding agent every decision but card
    /// play (as in `tournament --bidding-covers`).
    #[arg(long, value_name = "bidding|all")]
    pub bidding_covers: Option<tresillo_agents::BiddingCovers>,
    /// Every table plays the deals of this deal book (one deal seed or dealt
    /// hand a line; see `tournament --deals-from`); `--deals` is its length.
    #[arg(long, value_name = "FILE", conflicts_with = "deals")]
    pub deals_from: Option<PathBuf>,
    /// No progress on standard error (see `tournament --quiet`).
    #[arg(long)]
    pub quiet: bool,
}

impl LeagueArgs {
    /// The league's configuration (its `agents` are the league's), checked: every
    /// table's tournament is valid.
    pub fn config(&self) -> Result<TournamentConfig> {
        if self.resume && self.force {
            bail!(
                "--resume and --force exclude each other: --resume continues the league, --force replaces it"
            );
        }
        let config = TournamentConfig {
            agents: tresillo_agents::split_specs(&self.agents)?,
            players: self.rules.players()?,
            deals: match self.deals_from.as_deref().map(tresillo_runs::read_book).transpose()? {
                Some(b) => b.len(),
                None => self.deals,
            },
            seed: self.seed,
            rules: self.rules.parse()?,
            scoring: Scoring::Deal,
            duplicate: true,
            shard: Shard::WHOLE,
            bidding: self.bidding.as_deref().map(|b| b.trim().to_string()),
            bidding_covers: self.bidding_covers.unwrap_or_default(),
        };
        tresillo_runs::league::check(&config, &crate::registry())?;
        Ok(config)
    }
}

/// Runs `tresillo league`; returns the printed ranking.
pub fn run(a: &LeagueArgs, command_line: Vec<String>) -> Result<String> {
    let config = a.config()?;
    let shard = match &a.shard {
        Some(s) => s.parse::<Shard>()?,
        None => Shard::WHOLE,
    };
    let options = RunOptions {
        out: a.out.clone(),
        threads: a.threads,
        resume: a.resume,
        force: a.force,
        record: None,
        progress: !a.quiet,
        build: Some(crate::provenance::current()),
        registry: crate::registry(),
        note: &|line| note!("{line}"),
        format: tresillo_runs::Format::Csv,
        bots: crate::bot_identities(&a.agents, a.bidding.as_deref(), config.rules, config.players),
    };
    let book = a.deals_from.as_deref().map(tresillo_runs::read_book).transpose()?;
    Ok(tresillo_runs::league::league(&config, shard, &options, book.as_ref(), &command_line)?)
}
