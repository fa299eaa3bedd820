//! `tresillo dataset`: training rows of played deals as Parquet shards
//! (docs/DATASETS.md), written by the run-directory library
//! ([`tresillo_runs::dataset`]); and `--dump-inputs`, the network inputs of a
//! file's first rows, which scripts/check-dataset.py compares with its own
//! unpacking of the columns.

use anyhow::Result;
use std::io::Write;
use std::path::PathBuf;
use tresillo_runs::dataset::{DatasetConfig, DatasetOptions, SHARD_DEALS};

/// Arguments of `tresillo dataset`.
#[derive(clap::Args, Clone)]
pub struct DatasetArgs {
    /// Agent specs, comma-separated, one per seat (three; four with `--players 4`;
    /// see `tresillo agents`): seat s of every deal is agent s.
    #[arg(long, default_value = "rule,rule,rule")]
    pub agents: String,
    /// Deals to play.
    #[arg(long, default_value_t = 100_000, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    pub deals: u64,
    /// The master seed: deal i is the tournament's deal i of this seed.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    pub seed: u64,
    /// The output directory: rows-NNNNN.parquet shards and manifest.json.
    #[arg(long, default_value = "out/dataset")]
    pub out: PathBuf,
    /// The rule set and its options.
    #[command(flatten)]
    pub rules: crate::rules::RulesArgs,
    /// Exploration: the percentage of auction and contract decisions taken
    /// uniformly among the legal actions instead of by the agent (for
    /// action-value models), 0 to 100.
    #[arg(long, default_value_t = 0, value_name = "PCT", allow_negative_numbers = true, value_parser = crate::args::non_negative::<u32>)]
    pub explore: u32,
    /// Keep only the rows of these kinds of request, comma-separated (bid,
    /// declare, discard, word, play, surrender, takeover, bola, ...): for example
    /// `bid,declare` for a value model of the auction (default: every row).
    #[arg(long)]
    pub phases: Option<String>,
    /// Deals per shard file.
    #[arg(long, default_value_t = SHARD_DEALS, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    pub shard_deals: u64,
    /// Worker threads (default: all cores). The files do not depend on it.
    #[arg(long, allow_negative_numbers = true, value_parser = crate::args::threads)]
    pub threads: Option<usize>,
    /// Continue the interrupted dataset in the output directory.
    #[arg(long)]
    pub resume: bool,
    /// Replace the dataset in the output directory.
    #[arg(long)]
    pub force: bool,
    /// No progress lines on standard error.
    #[arg(long)]
    pub quiet: bool,
    /// Print the network inputs (612 values, `Row::input`) of the first
    /// `--dump-rows` rows of the dataset file FILE as JSON lines, and nothing else
    /// (a check of other readers' unpacking: scripts/check-dataset.py).
    #[arg(long, value_name = "FILE")]
    pub dump_inputs: Option<PathBuf>,
    /// Rows `--dump-inputs` prints.
    #[arg(long, default_value_t = 5, value_name = "N", allow_negative_numbers = true, value_parser = crate::args::non_negative::<usize>)]
    pub dump_rows: usize,
}

/// Runs `tresillo dataset`; writes its summary line (or the dumped inputs) to `out`.
pub fn run(a: &DatasetArgs, command_line: Vec<String>, out: &mut impl Write) -> Result<()> {
    if let Some(path) = &a.dump_inputs {
        return dump_inputs(path, a.dump_rows, out);
    }
    let config = DatasetConfig {
        agents: tresillo_agents::split_specs(&a.agents)?,
        rules: a.rules.parse()?,
        players: a.rules.players()?,
        seed: a.seed,
        deals: a.deals,
        explore: a.explore,
        phases: match &a.phases {
            Some(p) => tresillo_learn::data::phase_mask(p).map_err(|e| anyhow::anyhow!("--phases: {e}"))?,
            None => 0,
        },
        shard_deals: a.shard_deals,
    };
    let options = DatasetOptions {
        out: a.out.clone(),
        threads: a.threads,
        resume: a.resume,
        force: a.force,
        note: &|line| note!("{line}"),
        progress: !a.quiet,
        build: Some(crate::provenance::current()),
    };
    let made = tresillo_runs::dataset::make(&config, &crate::registry(), &options, command_line)?;
    write!(out, "{made}")?;
    Ok(())
}

/// Prints the inputs of the first `n` rows of the dataset file `path`.
fn dump_inputs(path: &std::path::Path, n: usize, out: &mut impl Write) -> Result<()> {
    let rows = tresillo_runs::dataset::read_rows(path)?;
    let mut input = vec![0f32; tresillo_learn::features::INPUT];
    for r in rows.iter().take(n) {
        r.input(&mut input);
        let line = serde_json::json!({ "deal": r.deal, "seat": r.seat, "action": r.action, "input": input });
        writeln!(out, "{line}")?;
    }
    Ok(())
}
